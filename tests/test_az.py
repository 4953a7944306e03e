"""The AlphaZero trainer and agent on tiny boards: the loop runs and learns, resuming is exact,
the search plays only legal actions, checkpoints are checked."""
import json
import pickle
import tomllib
from dataclasses import replace

import numpy as np
import pytest
import torch

from agents import make_agent, play_game
from agents.az import checkpoint
from agents.az.agent import AZAgent
from agents.az.config import TrainConfig, read_toml
from agents.az.network import NetConfig, PolicyValueNet, pick_device
from agents.az.replay import ReplayBuffer
from agents.az.selfplay import SelfPlayConfig, SelfPlayWorker, games_in_flight
from agents.az.train import Trainer, main
from territory_envs import make_game

TINY = {"lin": {"board_size": 5, "line_length": 3}, "linage": {"board_size": 4},
        "lifeline": {"board_size": 3}, "asli": {"board_size": 4}}
NET = NetConfig(channels=8, blocks=1, value_hidden=16)
SELFPLAY = SelfPlayConfig(games_in_flight=4, full_simulations=8, fast_simulations=4, full_fraction=0.5)


def tiny_config(name="lin", **changes):
    base = dict(game=name, options=TINY[name], iterations=2, games_per_iteration=4, batch_size=32,
                eval_every=2, eval_games=2, eval_simulations=4, eval_opponents="random", net=NET,
                selfplay=SELFPLAY, minutes=10.0, workers=0)
    return TrainConfig(**{**base, **changes})


def tiny_toml(tmp_path, game, options):
    """A config file of a one-iteration run on a tiny board (``options``: TOML lines)."""
    config = tmp_path / "tiny.toml"
    config.write_text(f'game = "{game}"\nworkers = 0\niterations = 1\ngames_per_iteration = 2\nbatch_size = 16\n'
                      f'eval_every = 0\n[options]\n{options}\n[net]\nchannels = 8\nblocks = 1\n'
                      '[selfplay]\ngames_in_flight = 2\nfull_simulations = 4\nfast_simulations = 2\n')
    return config


@pytest.mark.parametrize("name", sorted(TINY))
@pytest.mark.parametrize("search", ["python", "gumbel", "puct"])
def test_self_play_targets_are_legal(name, search):
    game = make_game(name, **TINY[name])
    worker = SelfPlayWorker(game, NET, replace(SELFPLAY, search=search))
    samples, stats = worker.play_games([[0, i] for i in range(3)])
    assert stats["games"] == 3 and len(samples) == stats["positions"] > 0
    assert np.allclose(samples.policies.sum(1), 1, atol=1e-5)
    assert (samples.policies[samples.masks == 0] == 0).all()  # visits only on legal actions
    assert set(np.unique(samples.values)) <= {-1.0, 0.0, 1.0}


@pytest.mark.parametrize("search", ["gumbel", "puct"])
def test_compiled_self_play_games_follow_their_seeds(search):
    """A game's moves depend on its seed and the network, not on the trees in flight beside it."""
    game = make_game("lin", **TINY["lin"])
    seeds = [[2, i] for i in range(5)]
    alone = SelfPlayWorker(game, NET, replace(SELFPLAY, search=search, games_in_flight=1))
    beside = SelfPlayWorker(game, NET, replace(SELFPLAY, search=search, games_in_flight=4))
    beside.set_weights(alone.net.state_dict())
    one_at_a_time, _ = alone.play_games(seeds)
    together, stats = beside.play_games(seeds)
    assert stats["games"] == 5 and len(together) > 0
    for field in ("planes", "masks", "values"):
        assert (getattr(together, field) == getattr(one_at_a_time, field)).all(), field
    np.testing.assert_allclose(together.policies, one_at_a_time.policies, atol=1e-5)


def test_augmented_batches_keep_targets_on_legal_actions():
    game = make_game("lifeline", board_size=3)
    buffer = ReplayBuffer(game, 1000)
    samples, _ = SelfPlayWorker(game, NET, SELFPLAY).play_games([[1, i] for i in range(4)])
    buffer.add(samples)
    batch = buffer.sample(256, np.random.default_rng(0))
    assert (batch.policies[batch.masks == 0] == 0).all()
    legal_plane = [p.name for p in game.planes].index("legal")
    n = game.num_cells
    assert (batch.planes[..., legal_plane].reshape(256, n) == batch.masks[:, :n]).all()


def test_folded_batch_norms_give_the_same_outputs():
    from agents.az.network import fused_for_inference
    game = make_game("lifeline", board_size=3)
    torch.manual_seed(0)
    net = PolicyValueNet(game, NET)
    for m in net.modules():
        if isinstance(m, torch.nn.BatchNorm2d):  # statistics as after training
            m.running_mean.normal_()
            m.running_var.uniform_(0.5, 2)
            m.weight.data.normal_()
    net.eval()
    planes = torch.randint(-1, 2, (6, *game.obs_shape), dtype=torch.int8)
    masks = torch.ones(6, game.num_actions, dtype=torch.int8)
    (a, v), (b, w) = net(planes, masks), fused_for_inference(net)(planes, masks)
    assert torch.allclose(a, b, atol=1e-5) and torch.allclose(v, w, atol=1e-5)


def test_the_loss_falls_on_a_fixed_batch(tmp_path):
    trainer = Trainer(tiny_config(), tmp_path / "run")
    samples, _ = trainer.self_play()
    trainer.buffer.add(samples)
    trainer.rng = np.random.default_rng(0)
    fixed = trainer.buffer.sample(32, np.random.default_rng(0), augment=False)
    trainer.buffer.sample = lambda *a, **k: fixed
    losses = [trainer.learn_step()["loss"] for _ in range(60)]
    assert np.mean(losses[-5:]) < 0.7 * np.mean(losses[:5])


def test_the_written_config_reads_back_whatever_its_strings_and_keys_hold(tmp_path):
    """config.toml is TOML for any config: strings with quotes, backslashes and newlines, keys
    with spaces and nested tables (a hand-written writer got each of them wrong)."""
    from agents.az.config import to_toml
    config = tiny_config()
    data = {**config.to_dict(), "note": 'a "quoted" \\ path\nand a second line',
            "options": {"odd key": 1.5, "nested": {"deeper": [1, 2], "flag": True}}}
    (tmp_path / "c.toml").write_text(to_toml(data))
    assert read_toml(tmp_path / "c.toml") == data
    assert TrainConfig.from_dict(tomllib.loads(to_toml(config.to_dict()))) == config


def test_the_loop_runs_evaluates_and_writes_its_run(tmp_path):
    out = tmp_path / "run"
    trainer = Trainer(tiny_config(), out)
    trainer.run(progress=False)
    rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert [r["iteration"] for r in rows] == [1, 2]
    evaluation = rows[-1]["evaluation"]
    assert {"net_vs_random", "search_vs_random"} <= set(evaluation)
    assert 0 <= evaluation["net_vs_random"]["low"] <= evaluation["net_vs_random"]["score"] <= 1
    assert read_toml(out / "config.toml")["game"] == "lin"
    assert (out / "curves.png").stat().st_size > 1000
    agent = make_agent(f"az:{out}:sims=4", seed=0)
    result = play_game(make_game("lin", **TINY["lin"]), (agent, make_agent("random", seed=1)), seed=0)
    assert result.moves > 0


def test_the_command_trains_with_the_compiled_search(tmp_path):
    config = tiny_toml(tmp_path, "asli", "board_size = 4")
    out = tmp_path / "run"
    assert main(["--config", str(config), "--search", "gumbel", "--out", str(out), "--no-progress"]) == 0
    assert read_toml(out / "config.toml")["selfplay"]["search"] == "gumbel"
    rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert rows[-1]["iteration"] == 1 and rows[-1]["buffer"] > 0
    with pytest.raises(SystemExit):
        main(["--config", str(config), "--search", "mcts", "--out", str(tmp_path / "bad"), "--no-progress"])
    with pytest.raises(ValueError, match="selfplay.search='mcts'"):
        TrainConfig.from_dict({"selfplay": {"search": "mcts"}})
    with pytest.raises(ValueError, match="selfplay.considered"):
        TrainConfig.from_dict({"selfplay": {"considered": 0}})


def test_device_cpu_and_auto_train_and_a_bad_device_is_refused(tmp_path):
    config = tiny_toml(tmp_path, "lin", "board_size = 5\nline_length = 3")
    for device in ("cpu", "auto"):
        out = tmp_path / device
        assert main(["--config", str(config), "--device", device, "--search", "gumbel", "--out", str(out),
                     "--no-progress"]) == 0
        assert read_toml(out / "config.toml")["device"] == device
        data = checkpoint.load(out / "latest.pt")
        assert all(t.device.type == "cpu" for t in data["model"].values())  # saved on the CPU, wherever it learned
    auto = pick_device("auto")
    assert auto.type == ("cuda" if torch.cuda.is_available() else auto.type)
    with pytest.raises(ValueError, match="device='tpu'"):
        TrainConfig.from_dict({"device": "tpu"})
    with pytest.raises(SystemExit):
        main(["--config", str(config), "--device", "gpu", "--out", str(tmp_path / "bad"), "--no-progress"])
    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="sees no CUDA GPU"):
            TrainConfig.from_dict({"device": "cuda"})
    # games in flight and per iteration: 0 is 32 on a CPU, as before; 1024 per worker on a GPU
    assert games_in_flight(SelfPlayConfig(), torch.device("cpu")) == 32
    assert games_in_flight(SelfPlayConfig(), torch.device("cuda")) == 1024
    assert games_in_flight(SelfPlayConfig(games_in_flight=5), torch.device("cuda")) == 5
    assert TrainConfig(device="cpu").games_in_iteration() == 32
    assert TrainConfig(device="cpu", games_per_iteration=7).games_in_iteration() == 7


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
def test_a_run_on_the_gpu_resumes_on_the_cpu_and_its_checkpoint_plays_there(tmp_path):
    Trainer(tiny_config(device="cuda", iterations=1), tmp_path / "run").run(progress=False)
    data = torch.load(tmp_path / "run" / "latest.pt", weights_only=True)
    assert any(t.device.type == "cuda" for t in data["optimizer"]["state"][0].values() if torch.is_tensor(t))
    resumed = Trainer(tiny_config(device="cpu", iterations=2), tmp_path / "run", resume=True)
    resumed.run(progress=False)
    assert resumed.iteration == 2 and next(resumed.net.parameters()).device.type == "cpu"
    agent = make_agent(f"az:{tmp_path / 'run'}:sims=4", seed=0)
    assert play_game(make_game("lin", **TINY["lin"]), (agent, make_agent("random", seed=1)), seed=0).moves > 0


def _weights(path):
    return checkpoint.load(path)["model"]


def test_resume_is_bit_identical(tmp_path):
    straight = Trainer(tiny_config(iterations=3, eval_every=2), tmp_path / "a")
    straight.run(progress=False)
    first = Trainer(tiny_config(iterations=2, eval_every=2), tmp_path / "b")
    first.run(progress=False)
    resumed = Trainer(tiny_config(iterations=3, eval_every=2), tmp_path / "b", resume=True)
    assert resumed.iteration == 2
    resumed.run(progress=False)
    a, b = _weights(tmp_path / "a" / "latest.pt"), _weights(tmp_path / "b" / "latest.pt")
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    assert resumed.buffer.added == straight.buffer.added


def test_worker_processes_play_the_same_games(tmp_path):
    here = Trainer(tiny_config(), tmp_path / "a")
    there = Trainer(tiny_config(workers=2), tmp_path / "b")
    try:
        (a, sa), (b, sb) = here.self_play(), there.self_play()
    finally:
        there.close()
    assert sa["games"] == sb["games"] == 4 and sa["moves"] == sb["moves"]
    assert (a.planes == b.planes).all() and (a.values == b.values).all()
    # the network's batches differ (4 games in one, 2 in each process): Gumbel's completed-Q targets
    # carry its rounding, scaled by sigma
    np.testing.assert_allclose(a.policies, b.policies, atol=1e-5)


@pytest.mark.parametrize("name", sorted(TINY))
def test_the_agent_plays_only_legal_actions(name):
    game = make_game(name, **TINY[name])
    torch.manual_seed(0)
    for sims, search in ((0, "python"), (6, "python"), (6, "gumbel"), (6, "puct")):
        net = PolicyValueNet(game, NET)
        agent = AZAgent(None, sims=sims, seed=0, search=search)
        agent._nets[agent._key(game)] = net.eval()
        rng = np.random.default_rng(0)
        for _ in range(4):
            state = game.new_state()
            for _ in range(rng.integers(0, 30)):
                if state.terminal:
                    break
                state.apply(int(rng.choice(state.legal_actions())))
            if not state.terminal:
                assert state.is_legal(agent.act(state))


def test_checkpoints_are_checked(tmp_path):
    out = tmp_path / "run"
    Trainer(tiny_config(iterations=1, eval_every=0), out).run(progress=False)
    with pytest.raises(ValueError, match="trained for lin.*not for asli"):
        AZAgent(out).net_for(make_game("asli", board_size=4))
    with pytest.raises(ValueError, match=r"trained for lin\(board_size=5.*not for lin\(board_size=7"):
        AZAgent(out).net_for(make_game("lin", board_size=7, line_length=3))
    junk = tmp_path / "junk.pt"
    junk.write_bytes(b"not a checkpoint at all")
    with pytest.raises(checkpoint.CheckpointError, match="not a readable checkpoint"):
        AZAgent(junk)
    foreign = tmp_path / "foreign.pt"
    torch.save({"weights": torch.zeros(3)}, foreign)
    with pytest.raises(checkpoint.CheckpointError, match="not a territory-envs network"):
        AZAgent(foreign)

    class Payload:  # a pickle that would run code: weights_only refuses it
        def __reduce__(self):
            return (print, ("ran code",))
    hostile = tmp_path / "hostile.pt"
    with open(hostile, "wb") as f:
        pickle.dump({"format": checkpoint.FORMAT, "x": Payload()}, f)
    with pytest.raises(checkpoint.CheckpointError):
        AZAgent(hostile)
    with pytest.raises(ValueError, match="no such file"):
        make_agent(f"az:{tmp_path / 'missing.pt'}")


def test_specs_and_settings_are_checked():
    for spec, message in (("az:sims=-1", "sims"), ("az:sims=x", "cannot read"), ("az:a:b", "given twice"),
                          ("az:c=0", "c="), ("az:search=mcts", "search=")):
        with pytest.raises(ValueError, match=message):
            make_agent(spec)
    assert make_agent("az:sims=8:search=gumbel").name == "az:sims=8:search=gumbel"
    for changes, message in (({"game": "chess"}, "unknown game"), ({"options": {"board_size": 4}}, "board_size"),
                             ({"batch_size": 0}, "batch_size"), ({"eval_opponents": "nobody"}, "nobody"),
                             ({"minutes": float("nan")}, "minutes")):
        with pytest.raises(ValueError, match=message):
            tiny_config(**changes).checked()
    with pytest.raises(ValueError, match="unknown setting"):
        TrainConfig.from_dict({"gmae": "lin"})


def test_the_command_refuses_bad_arguments(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--game", "chess", "--out", str(tmp_path / "x")])
    assert exit_.value.code == 2 and "unknown game" in capsys.readouterr().err


def test_the_command_trains_and_resumes(tmp_path):
    config = tiny_toml(tmp_path, "lin", "board_size = 5\nline_length = 3")
    out = tmp_path / "run"
    assert main(["--config", str(config), "--out", str(out), "--no-progress"]) == 0
    assert main(["--resume", str(out), "--iterations", "2", "--no-progress"]) == 0
    assert checkpoint.load(out / "latest.pt")["iteration"] == 2
    assert read_toml(out / "config.toml")["iterations"] == 2


def test_an_exported_network_plays_as_the_pretrained_one(tmp_path, monkeypatch):
    from agents.az import agent as az_agent
    out = tmp_path / "run"
    Trainer(tiny_config(iterations=1, eval_every=0), out).run(progress=False)
    shipped = tmp_path / "pretrained"
    shipped.mkdir()
    network = checkpoint.export_network(out, shipped / "lin-v1.pt")
    assert "optimizer" not in checkpoint.load(shipped / "lin-v1.pt") and network["iteration"] == 1
    assert (shipped / "lin-v1.safetensors").stat().st_size > 1000  # the same weights for users without torch
    Trainer(tiny_config(iterations=2, eval_every=0), out, resume=True).run(progress=False)
    checkpoint.export_network(out, shipped / "lin-v2.pt")  # a retrained network: a new version
    monkeypatch.setattr(az_agent, "PRETRAINED_DIR", shipped)
    game = make_game("lin", **TINY["lin"])
    result = play_game(game, (make_agent("az:sims=4"), make_agent("random")), seed=0)
    assert result.moves > 0
    assert az_agent.pretrained_versions("lin") == [1, 2] and az_agent.pretrained_versions("asli") == []

    def weights(agent):
        return agent.net_for(game).state_dict()["cell_logits.weight"]
    latest, first = make_agent("az"), make_agent("az:v1:sims=0")
    assert torch.equal(weights(latest), weights(make_agent("az:v2")))
    assert not torch.equal(weights(latest), weights(first))
    assert first.act(game.new_state()) in game.new_state().legal_actions()
    with pytest.raises(ValueError, match=r"no pretrained network v3 for lin \(versions .*: v1, v2\)"):
        make_agent("az:v3").act(game.new_state())
    for bad in ("az:v1:v2", f"az:v1:{out}"):
        with pytest.raises(ValueError, match="version"):
            make_agent(bad)
    with pytest.raises(ValueError, match="no pretrained network for asli"):
        az_agent.pretrained("asli")
    with pytest.raises(ValueError, match="trained for lin"):
        az_agent.pretrained("lin")  # the default options are not those it was trained for


@pytest.mark.parametrize("name", sorted(TINY))
def test_the_shipped_networks_play_legal_games(name):
    from agents.az.agent import pretrained, pretrained_path
    assert pretrained_path(name).is_file(), f"agents/pretrained/{name}.pt is not shipped"
    agent = pretrained(name, sims=2)
    result = play_game(make_game(name), (agent, make_agent("random")), seed=0)
    assert result.moves > 0


def test_random_openings_are_shared_by_a_pair_of_games():
    from territory_envs import read_record
    game = make_game("lin", **TINY["lin"])
    greedy = (make_agent("greedy", seed=0), make_agent("greedy", seed=1))
    a = read_record(play_game(game, greedy, seed=5, opening=3).record).history[:3]
    b = read_record(play_game(game, greedy, swap_sides=True, seed=5, opening=3).record).history[:3]
    c = read_record(play_game(game, greedy, seed=6, opening=3).record).history[:3]
    assert a == b and a != c
    with pytest.raises(ValueError, match="opening"):
        play_game(game, greedy, opening=-1)


# --- a short run says what it does and gets an evaluation -------------------------------------------
def evaluated_iterations(out):
    from agents.az.train import read_metrics
    return [r["iteration"] for r in read_metrics(out / "metrics.jsonl") if "evaluation" in r]


def test_a_short_run_is_evaluated_at_its_end(tmp_path):
    # eval_every=12 would first evaluate at iteration 12: a run of 1 iteration still gets one, at its end
    out = tmp_path / "run"
    Trainer(tiny_config(iterations=1, eval_every=12), out).run(progress=False)
    assert evaluated_iterations(out) == [1]
    assert (out / "ckpt_00001.pt").is_file()
    # its evaluation games are records, for the web board's replay: net and search, 2 games each
    from territory_envs import read_record
    records = sorted((out / "games").glob("ckpt_00001_*_vs_random_*.txt"))
    assert [p.name for p in records] == [f"ckpt_00001_{kind}_vs_random_{i:02d}.txt" for kind in ("net", "search")
                                         for i in range(2)]
    assert all(read_record(p.read_text()).over for p in records)


def test_evaluations_come_on_a_time_schedule_too(tmp_path):
    out = tmp_path / "run"
    Trainer(tiny_config(iterations=3, eval_every=100, eval_minutes=1e-6), out).run(progress=False)
    assert evaluated_iterations(out) == [1, 2, 3]
    off = tmp_path / "off"
    Trainer(tiny_config(iterations=2, eval_every=0, eval_minutes=1e-6), off).run(progress=False)
    assert evaluated_iterations(off) == []  # eval_every = 0: never


def test_the_plot_says_what_is_absent_and_why(tmp_path, monkeypatch):
    from agents.az import train
    said = []
    monkeypatch.setattr(train, "_say_absent", lambda ax, text: said.append(text))
    out = tmp_path / "run"
    config = tiny_config(iterations=1, eval_every=0, batch_size=10_000)
    Trainer(config, out).run(progress=False)
    assert (out / "curves.png").is_file()
    assert any("eval_every = 0 turns evaluation off" in text for text in said)
    assert any("replay buffer holds batch_size = 10000 positions" in text for text in said)
    assert "this run stopped before one" in train.no_evaluation_why(tiny_config())


def test_the_progress_says_what_the_first_iteration_waits_for(tmp_path, capsys):
    Trainer(tiny_config(iterations=1, eval_every=0), tmp_path / "quiet").run(progress=False)
    assert "iteration 1: self-play (the first also starts the workers and compiles" in capsys.readouterr().err
    Trainer(tiny_config(iterations=2, eval_every=2), tmp_path / "bar").run(progress=True)
    err = capsys.readouterr().err  # tqdm's bar
    assert "iteration 1: self-play (the first" in err and "iteration 2: evaluating" in err
    assert "0game" not in err and " games" in err


def test_every_flag_of_the_command_says_its_default_and_reads_as_words():
    from agents.az.train import build_parser
    parser = build_parser()
    for action in parser._actions:
        if action.dest == "help":
            continue
        assert action.help and "default" in action.help, action.option_strings
        if action.metavar is not None:
            assert action.metavar.isalpha() and action.metavar.isupper(), action.metavar  # a word, no OPTION_X
        elif action.nargs != 0:
            raise AssertionError(f"{action.option_strings} has no metavar")
    minutes = next(a for a in parser._actions if a.dest == "minutes")
    assert "resume" in minutes.help and "minutes" in minutes.help


def test_a_lin_run_on_the_5x5_board_takes_the_default_line(tmp_path):
    # the default line_length follows the board: --board-size 5 alone is a valid run
    from agents.az.train import config_from_args
    config = config_from_args(build_parser_args(["--game", "lin", "--board-size", "5"]))
    assert config.make_game().options["line_length"] == 5


def build_parser_args(argv):
    from agents.az.train import build_parser
    return build_parser().parse_args(argv)


def test_every_shipped_network_is_also_safetensors_that_load_without_torch():
    """agents/pretrained/<game>-v<N>.safetensors: the .pt's weights, and its game, options and
    network shape in the metadata, read by safetensors' numpy API in a process without torch."""
    import subprocess
    import sys

    from agents.az.agent import PRETRAINED_DIR
    shipped = sorted(PRETRAINED_DIR.glob("*.pt"))
    assert shipped and sorted(p.with_suffix(".safetensors") for p in shipped) == sorted(PRETRAINED_DIR.glob("*.safetensors"))
    script = """if True:
        import json, sys
        sys.modules["torch"] = None  # no torch here
        from safetensors import safe_open
        from safetensors.numpy import load_file
        out = {}
        for path in sys.argv[1:]:
            with safe_open(path, "np") as f:
                meta = {k: json.loads(v) for k, v in f.metadata().items()}
            out[path] = {"meta": meta, "weights": {k: v.tolist() for k, v in load_file(path).items()}}
        print(json.dumps(out))"""
    done = subprocess.run([sys.executable, "-c", script, *[str(p.with_suffix(".safetensors")) for p in shipped]],
                          capture_output=True, text=True, check=True)
    read = json.loads(done.stdout)
    for pt in shipped:
        data = checkpoint.load(pt)
        got = read[str(pt.with_suffix(".safetensors"))]
        assert {k: got["meta"][k] for k in ("game", "options", "net", "positions")} == \
            {k: data[k] for k in ("game", "options", "net", "positions")}
        assert got["meta"]["format"] == checkpoint.FORMAT
        assert set(got["weights"]) == set(data["model"])
        for name, tensor in data["model"].items():
            assert np.array_equal(np.asarray(got["weights"][name]), tensor.numpy()), name


def test_init_starts_a_new_run_from_a_trained_network(tmp_path, monkeypatch):
    from agents.az import agent as az_agent
    from agents.az.train import config_from_args, build_parser
    first = tmp_path / "first"
    Trainer(tiny_config(iterations=1, eval_every=0), first).run(progress=False)
    trained = checkpoint.load(first / "latest.pt")["model"]
    shipped = tmp_path / "pretrained"
    shipped.mkdir()
    checkpoint.export_network(first, shipped / "lin-v3.pt")
    monkeypatch.setattr(az_agent, "PRETRAINED_DIR", shipped)
    config = tiny_toml(tmp_path, "lin", "board_size = 5\nline_length = 3")
    # vN is the game's shipped network; the shape is the checkpoint's (channels 8, blocks 1, value_hidden 16),
    # not the config file's value_hidden (64 by default)
    args = build_parser().parse_args(["--config", str(config), "--init", "v3"])
    started = Trainer(config_from_args(args), tmp_path / "second")
    assert started.config.init == str(shipped / "lin-v3.pt") and started.config.net == NET
    assert started.iteration == 0 and started.buffer.added == 0
    assert all(torch.equal(started.net.state_dict()[k].cpu(), v) for k, v in trained.items())
    out = tmp_path / "third"
    assert main(["--config", str(config), "--init", str(first), "--out", str(out), "--no-progress"]) == 0
    assert read_toml(out / "config.toml")["init"] == str(first / "latest.pt")
    assert main(["--resume", str(out), "--iterations", "2", "--no-progress"]) == 0  # goes on from its own weights
    assert checkpoint.load(out / "latest.pt")["iteration"] == 2


@pytest.mark.parametrize("flags, why", [
    (["--resume", "RUN"], "give one of them"),
    (["--channels", "16"], "drop --channels"),
    (["--game", "asli"], "a lin network, not asli"),
    (["--line-length", "4"], "trained with line_length=3, not line_length=4"),
])
def test_init_refuses_settings_its_checkpoint_contradicts(tmp_path, capsys, flags, why):
    run = tmp_path / "run"
    Trainer(tiny_config(iterations=1, eval_every=0), run).run(progress=False)
    flags = [str(run) if f == "RUN" else f for f in flags]
    with pytest.raises(SystemExit) as exit_:
        main(["--init", str(run), "--out", str(tmp_path / "new"), *flags])
    assert exit_.value.code == 2 and why in capsys.readouterr().err
    assert not (tmp_path / "new").exists()
