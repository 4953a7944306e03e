"""Self-play on a Ray cluster: the same :class:`~agents.az.selfplay.SelfPlayWorker` held by Ray
actors, one CPU and one thread each, on whichever nodes the cluster has.

``territory-train --game lin --ray-address auto --workers 16`` connects to a running cluster (``ray
start --head`` on one machine, ``ray start --address HEAD:6379`` on the others) and plays each
iteration's games on 16 actors. The games are seeded exactly as in local processes, so a run gives
the same positions on Ray as with ``--workers 16`` on one machine. ``ray_address = "local"`` starts
a Ray instance on this machine only. Ray is needed only here: ``pip install -e ".[ray]"``.
"""
from __future__ import annotations

from .network import NetConfig
from territory_envs.core.declaration import declared

from ..threads import current_threads, start_worker
from .selfplay import SelfPlayConfig, SelfPlayWorker


class _SelfPlayActor:
    """What one Ray actor holds: a worker on one thread."""

    def __init__(self, declaration, game_name: str, options: dict, net_config: dict, config: dict):
        from territory_envs import make_game
        start_worker(1, (declaration,))
        self.worker = SelfPlayWorker(make_game(game_name, **options), NetConfig(**net_config), SelfPlayConfig(**config))

    def play(self, weights: dict, seeds: list):
        self.worker.set_weights(weights)
        return self.worker.play_games(seeds)

    def threads(self) -> dict:
        return current_threads()

    def node(self) -> str:
        import ray
        return ray.get_runtime_context().get_node_id()


class RaySelfPlay:
    """``workers`` self-play actors on the Ray cluster at ``address`` (``"auto"``, ``"HOST:PORT"``,
    ``"ray://HOST:10001"`` or ``"local"``); ``play(weights, chunks)`` plays one chunk of seeds per
    actor and returns the results in the order of ``chunks``."""

    def __init__(self, address: str, workers: int, game_name: str, options: dict, net_config: dict,
                 selfplay_config: dict):
        try:
            import ray
        except ImportError:
            raise ValueError("ray_address: self-play on Ray needs the ray package "
                             "(pip install -e \".[ray]\")") from None
        self.ray = ray
        self.started_ray = not ray.is_initialized()
        if self.started_ray:
            ray.init(address=address, include_dashboard=False, log_to_driver=False)  # Ray reads all four forms
        actor = ray.remote(num_cpus=1)(_SelfPlayActor)
        self.actors = [actor.remote(declared(game_name), game_name, options, net_config, selfplay_config)
                       for _ in range(workers)]

    def play(self, weights: dict, chunks: list) -> list:
        ref = self.ray.put(weights)  # one copy in the object store, read by every actor
        return self.ray.get([actor.play.remote(ref, chunk) for actor, chunk in zip(self.actors, chunks)])

    def threads(self) -> dict:
        """The threads torch and numba run on in the first actor (``current_threads``)."""
        return self.ray.get(self.actors[0].threads.remote())

    def nodes(self) -> list:
        """The node id of every actor."""
        return self.ray.get([actor.node.remote() for actor in self.actors])

    def shutdown(self) -> None:
        for actor in self.actors:
            self.ray.kill(actor)
        self.actors = []
        if self.started_ray:
            self.ray.shutdown()
