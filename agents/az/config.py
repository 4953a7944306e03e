"""The training configuration: defaults, a TOML file, command-line flags, in that order.

A config file holds the same names as the flags (``game``, ``minutes``, ``seed``, ...) at its top
level, the game's options in ``[options]``, the network in ``[net]`` and self-play in
``[selfplay]``::

    game = "lifeline"
    minutes = 20
    [options]
    board_size = 5
    [selfplay]
    full_simulations = 64

The effective config is written to ``config.toml`` in the run folder, which ``--resume`` reads.
"""
from __future__ import annotations

import importlib.util
import math
import tomllib
from dataclasses import asdict, dataclass, field, fields, replace

from territory_envs import make_game

from .network import NetConfig, pick_device
from . import SEARCHES
from .selfplay import SelfPlayConfig, games_in_flight


@dataclass(frozen=True)
class TrainConfig:
    game: str = "lin"
    options: dict = field(default_factory=dict)
    seed: int = 0
    init: str = ""  # "": a new network; else the checkpoint whose weights a new run starts from (--init)
    device: str = "auto"  # the learner's and self-play's network: auto (a GPU where torch sees one), cpu, cuda, mps
    threads: int = 1  # torch's and numba's threads in the learner
    workers: int = 2  # self-play processes or Ray actors (one thread each); 0: self-play in the learner's process
    ray_address: str = ""  # "": processes on this machine; "auto", "HOST:PORT", "local": Ray actors (ray_pool.py)
    minutes: float = 20.0  # training time (self-play, learning and evaluation), summed over resumes
    iterations: int = 0  # stop after this many iterations as well (0: no limit)
    games_per_iteration: int = 0  # 0: 32 on a CPU; on a GPU, every worker's games in flight
    batch_size: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    train_ratio: float = 4.0  # times each new position is drawn for learning, on average
    ownership_weight: float = 1.0  # with net.aux_heads: the loss weight of the ownership target (mean over cells)
    score_weight: float = 0.5  # with net.aux_heads: of the score-margin target (games with points)
    replay_capacity: int = 50_000
    eval_every: int = 50  # iterations between evaluations (and kept checkpoints); 0: never evaluate. With
    #                       eval_minutes, about one every 10 minutes on 2 cores: a twentieth of the time
    eval_minutes: float = 10.0  # and minutes of training between them (0: by iterations only); a run also
    #                             evaluates at its end, so a short one gets at least one evaluation
    eval_games: int = 20  # games per opponent and per kind (network alone, with search)
    eval_opponents: str = "random,greedy"
    eval_simulations: int = 32
    eval_opening: int = 2  # random moves that open each pair of evaluation games (one each side)
    # net.aux_heads None: the auxiliary heads where they helped (heads_help, resolved by checked());
    # a bare NetConfig, as checkpoints written before the heads existed read, has none
    net: NetConfig = NetConfig(aux_heads=None)
    selfplay: SelfPlayConfig = SelfPlayConfig()

    def to_dict(self) -> dict:
        return asdict(self)

    @staticmethod
    def from_dict(data: dict) -> "TrainConfig":
        data = dict(data)
        unknown = set(data) - {f.name for f in fields(TrainConfig)}
        if unknown:
            raise ValueError(f"config: unknown setting(s) {', '.join(sorted(unknown))}")
        try:
            if "net" in data:  # the settings it names over the trainer's default network
                data["net"] = replace(TrainConfig.net, **data["net"])
            if "selfplay" in data:
                data["selfplay"] = SelfPlayConfig(**data["selfplay"])
        except TypeError as err:
            raise ValueError(f"config: {err}") from None
        return TrainConfig(**data).checked()

    def checked(self) -> "TrainConfig":
        """Raise ``ValueError`` naming the first bad setting; the game's options are checked by the
        game itself (and normalised)."""
        def number(name, value, low, integer=True):
            bad = isinstance(value, bool) or not isinstance(value, (int, float)) or (
                integer and not isinstance(value, int)) or not math.isfinite(value) or value < low
            if bad:
                raise ValueError(f"config: {name}={value!r}: must be {'an integer' if integer else 'a number'} "
                                 f">= {low}")
        for name, low in (("seed", 0), ("threads", 1), ("workers", 0), ("iterations", 0), ("games_per_iteration", 0),
                          ("batch_size", 1), ("replay_capacity", 1), ("eval_every", 0), ("eval_games", 2), ("eval_opening", 0),
                          ("eval_simulations", 0)):
            number(name, getattr(self, name), low)
        for name in ("minutes", "eval_minutes", "learning_rate", "weight_decay", "train_ratio", "ownership_weight",
                     "score_weight"):
            number(name, getattr(self, name), 0, integer=False)
        for name, low in (("channels", 1), ("blocks", 0), ("value_hidden", 1)):
            number(f"net.{name}", getattr(self.net, name), low)
        if self.net.aux_heads is not None and not isinstance(self.net.aux_heads, bool):
            raise ValueError(f"config: net.aux_heads={self.net.aux_heads!r}: must be true or false")
        sp = self.selfplay
        for name, low in (("games_in_flight", 0), ("full_simulations", 1), ("fast_simulations", 1),
                          ("temperature_moves", 0)):
            number(f"selfplay.{name}", getattr(sp, name), low)
        for name in ("full_fraction", "c_puct", "fpu_reduction", "dirichlet_alpha", "dirichlet_fraction",
                     "temperature"):
            number(f"selfplay.{name}", getattr(sp, name), 0, integer=False)
        if not 0 < sp.full_fraction <= 1:
            raise ValueError(f"config: selfplay.full_fraction={sp.full_fraction!r}: must be in (0, 1]")
        if sp.search not in SEARCHES:
            raise ValueError(f"config: selfplay.search={sp.search!r}: must be one of {', '.join(SEARCHES)}")
        number("selfplay.considered", sp.considered, 1)
        try:
            pick_device(self.device)
        except ValueError as err:
            raise ValueError(f"config: {err}") from None
        if not isinstance(self.init, str):
            raise ValueError(f"config: init={self.init!r}: must be a checkpoint's path")
        if not isinstance(self.ray_address, str):
            raise ValueError(f"config: ray_address={self.ray_address!r}: must be a string")
        if self.ray_address and self.workers < 1:
            raise ValueError(f"config: ray_address={self.ray_address!r} needs workers >= 1 (the Ray actors)")
        if self.ray_address and importlib.util.find_spec("ray") is None:
            raise ValueError(f"config: ray_address={self.ray_address!r}: self-play on Ray needs the ray package "
                             f"(pip install -e \".[ray]\")")
        if not isinstance(self.options, dict):
            raise ValueError(f"config: options must be a table of the game's options")
        game = make_game(self.game, **self.options)  # ValueError naming a bad game or option
        from ..registry import make_agent
        for spec in self.opponents():
            make_agent(spec)  # ValueError naming a bad spec
        net = self.net if self.net.aux_heads is not None else replace(self.net, aux_heads=heads_help(game))
        return replace(self, options={k: v for k, v in game.options.items() if k in self.options}, net=net)

    def opponents(self) -> list[str]:
        return [s.strip() for s in self.eval_opponents.split(",") if s.strip()]

    def make_game(self):
        return make_game(self.game, **self.options)

    def games_in_iteration(self) -> int:
        """``games_per_iteration``, or where it is 0 (auto) 32 on a CPU and on a GPU every
        self-play worker's games in flight (so that each searches one full batch)."""
        if self.games_per_iteration:
            return self.games_per_iteration
        device = pick_device(self.device)
        if device.type == "cpu":
            return 32
        return max(1, self.workers) * games_in_flight(self.selfplay, device)


def heads_help(game) -> bool:
    """Whether the trainer gives ``game``'s network the auxiliary heads unless told: on games with
    points (Lin, Linage), whose result is counted from who holds the cells, so that both targets
    speak of what decides the game. The ablation (BENCHMARKS.md) found them to help on Lin, and no
    gain on Lifeline and Asli (games won by the last move), where the run with them lost the
    head-to-head with search (Lifeline) or alone (Asli)."""
    return has_points(game)


def has_points(game) -> bool:
    """Whether ``game`` counts points (``GameState.scores``): only then is there a score-margin target."""
    return game.new_state().scores() is not None


def read_toml(path) -> dict:
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as err:
        raise ValueError(f"config {str(path)!r}: {err.strerror}") from None
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"config {str(path)!r}: {err}") from None


def to_toml(data: dict) -> str:
    """TOML of what :class:`TrainConfig` holds (``tomli_w``: any string, key and table written as
    TOML says)."""
    import tomli_w
    return tomli_w.dumps(data)
