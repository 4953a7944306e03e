"""Self-play on Ray (agents.az.ray_pool): a two-node cluster on the loopback address, the actors on
both nodes, the same games as local play, and the trainer's loop with ``ray_address``.

Ray runs in the environment of the RLlib test (`.ci/run` makes it and runs this file there);
elsewhere this is skipped."""
import json
import os
from dataclasses import asdict

import numpy as np
import pytest

ray = pytest.importorskip("ray")
from ray.cluster_utils import Cluster  # noqa: E402

from agents.az.config import TrainConfig  # noqa: E402
from agents.az.network import NetConfig, PolicyValueNet  # noqa: E402
from agents.az.ray_pool import RaySelfPlay  # noqa: E402
from agents.az.selfplay import SelfPlayConfig, SelfPlayWorker, state_dict_cpu  # noqa: E402
from agents.threads import set_threads  # noqa: E402
from agents.az.train import Trainer  # noqa: E402
from territory_envs import make_game  # noqa: E402

NET = NetConfig(channels=8, blocks=1, value_hidden=16)
SELFPLAY = SelfPlayConfig(games_in_flight=4, full_simulations=8, fast_simulations=4, full_fraction=0.5)
OPTIONS = {"board_size": 5, "line_length": 3}
LOOPBACK = {"num_cpus": 1, "node_ip_address": "127.0.0.1", "include_dashboard": False}


@pytest.fixture(scope="module")
def two_nodes():
    # Ray replaces 127.0.0.1 in an address by the machine's own IP, where nothing of a loopback
    # cluster listens; this keeps the driver (the constant, read at each call, may have been read
    # from the environment already, e.g. by the RLlib test) and every node on the loopback address
    from ray._private import ray_constants
    saved = os.environ.get("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"), ray_constants.ENABLE_RAY_CLUSTER
    os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
    ray_constants.ENABLE_RAY_CLUSTER = False
    cluster = Cluster(initialize_head=True, head_node_args=LOOPBACK)
    cluster.add_node(**{k: v for k, v in LOOPBACK.items() if k != "include_dashboard"})
    cluster.wait_for_nodes()
    ray.init(address=cluster.address, _node_ip_address="127.0.0.1", log_to_driver=False)
    yield cluster
    ray.shutdown()
    cluster.shutdown()
    ray_constants.ENABLE_RAY_CLUSTER = saved[1]
    if saved[0] is None:
        os.environ.pop("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER")
    else:
        os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = saved[0]


def test_actors_on_both_nodes_play_the_games_local_play_plays(two_nodes):
    game = make_game("lin", **OPTIONS)
    net = PolicyValueNet(game, NET)
    weights = state_dict_cpu(net)
    chunks = [[[0, 0, i] for i in range(3)], [[0, 0, i] for i in range(3, 6)]]
    pool = RaySelfPlay(two_nodes.address, 2, "lin", OPTIONS, asdict(NET), SELFPLAY.to_dict())
    try:
        assert len(set(pool.nodes())) == 2  # one actor per node: each node has one CPU
        assert pool.threads() == {"torch": 1, "numba": 1}  # one thread each (agents/threads.py)
        remote = pool.play(weights, chunks)
    finally:
        pool.shutdown()
    set_threads(1)
    local = SelfPlayWorker(game, NET, SELFPLAY)
    local.set_weights(weights)
    for (samples, stats), chunk in zip(remote, chunks):
        expected, expected_stats = local.play_games(chunk)
        assert stats["games"] == expected_stats["games"] == 3
        for field in ("planes", "masks", "policies", "values"):
            np.testing.assert_array_equal(getattr(samples, field), getattr(expected, field))


def test_the_trainer_plays_on_ray_actors(two_nodes, tmp_path):
    config = TrainConfig(game="lin", options=OPTIONS, iterations=2, games_per_iteration=4, batch_size=16,
                         eval_every=0, net=NET, selfplay=SELFPLAY, minutes=10.0, workers=2,
                         ray_address=two_nodes.address)
    trainer = Trainer(config, tmp_path / "run")
    trainer.run(progress=False)
    rows = [json.loads(line) for line in (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()]
    assert [r["iteration"] for r in rows if r["kind"] == "iteration"] == [1, 2]
    assert all(r["games"] == 4 and r["positions"] > 0 for r in rows if r["kind"] == "iteration")
    assert ray.is_initialized()  # the trainer leaves a Ray it did not start running
