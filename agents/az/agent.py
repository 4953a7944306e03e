"""The AlphaZero agent: a trained network, alone (``sims=0``: the most likely legal action) or
guiding a search of ``sims`` simulations.

The search is the compiled Gumbel search (``agents/az/tree_search.py``) without root noise: the
``considered`` actions of highest prior, sequential halving among them by value, the best one
played (at 64 simulations it beat the PUCT search of the same budget 0.67 on Lin and 0.68 on
Linage, 60 games each, with the shipped networks). ``search=puct`` is the compiled PUCT search (the
most visited action) and ``search=python`` the PUCT tree of state objects (``search.py``).

Specs (``agents.make_agent``): ``az`` (the latest pretrained network of whichever game it is given,
64 simulations), ``az:v1`` (version 1 of each game's pretrained network: ``agents/pretrained/
<game>-v1.pt``), ``az:sims=0``, ``az:sims=256``, ``az:runs/lifeline`` (a run's latest checkpoint),
``az:path/to/ckpt.pt`` (any checkpoint), combined as ``az:runs/lin:sims=16``; ``az:search=puct``,
``az:search=python``.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from ..base import Agent
from . import checkpoint
from .network import evaluate, fused_for_inference
from . import SEARCHES
from .search import BatchedSearch, Node
from .tree_search import TreeSearch

PRETRAINED_DIR = Path(__file__).resolve().parent.parent / "pretrained"


def pretrained_versions(game_name: str) -> list[int]:
    """The versions of ``game_name``'s shipped network, oldest first: the files
    ``agents/pretrained/<game>-v<N>.pt``. A retrained network is a new version; the old stay."""
    found = (p.name[len(game_name) + 2:-3] for p in PRETRAINED_DIR.glob(f"{game_name}-v*.pt"))
    return sorted(int(v) for v in found if v.isdigit())


def pretrained_path(game_name: str, version: int | None = None) -> Path:
    """The file of version ``version`` of ``game_name``'s shipped network (default: the latest);
    ``ValueError`` naming the versions there are where it is absent."""
    versions = pretrained_versions(game_name)
    if version is None and versions:
        version = versions[-1]
    if version not in versions:
        have = ", ".join(f"v{v}" for v in versions) or "none"
        raise ValueError(f"az: no pretrained network{'' if version is None else f' v{version}'} for {game_name} "
                         f"(versions in {PRETRAINED_DIR}: {have}); train one with `territory-train --game "
                         f"{game_name}` and pass az:<run folder>")
    return PRETRAINED_DIR / f"{game_name}-v{version}.pt"


def resolve(source) -> Path:
    """A checkpoint file: ``source`` itself, or a run folder's ``latest.pt``."""
    path = Path(source)
    return path / "latest.pt" if path.is_dir() else path


class AZAgent(Agent):
    """``AZAgent(source=None, sims=64)``: ``source`` a checkpoint file or run folder; ``None`` takes
    the pretrained network of each game the agent is asked to play (loaded on first use), its latest
    version or ``version``."""

    def __init__(self, source=None, sims: int = 64, c_puct: float = 1.5, seed: int | None = None,
                 search: str = "gumbel", gumbel_scale: float = 0.0, version: int | None = None):
        super().__init__(seed)
        if version is not None and (source is not None or isinstance(version, bool) or not isinstance(version, int)
                                    or version < 1):
            raise ValueError(f"az: version={version!r}: a shipped network's version is an integer from 1, "
                             f"without a checkpoint")
        self.version = version
        if search not in SEARCHES:
            raise ValueError(f"az: search={search!r}: must be one of {', '.join(SEARCHES)}")
        self.search = search
        self.gumbel_scale = float(gumbel_scale)  # the compiled Gumbel search's root noise: 0 plays its best
        if isinstance(sims, bool) or not isinstance(sims, int) or not 0 <= sims <= 100_000:
            raise ValueError(f"az: sims={sims!r}: must be an integer from 0 to 100000")
        self.sims = sims
        if isinstance(c_puct, bool) or not isinstance(c_puct, (int, float)) or not 0 < c_puct < 1e6:
            raise ValueError(f"az: c={c_puct!r}: must be a number above 0")
        self.c_puct = float(c_puct)
        self.source = None if source is None else resolve(source)
        self._nets = {}  # (game, options) -> net
        if self.source is not None:
            data = checkpoint.load(self.source)
            net, game = checkpoint.build_net(data, source=f"checkpoint {str(self.source)!r}")
            self._nets[self._key(game)] = fused_for_inference(net)
        where = f"v{version}:" if version is not None else "" if source is None else f"{source}:"
        self.name = "az" if where == "" and sims == 64 else f"az:{where}sims={sims}"
        if search != "gumbel":
            self.name += f":search={search}"

    @staticmethod
    def _key(game):
        return game.name, tuple(sorted(game.options.items()))

    def net_for(self, game):
        key = self._key(game)
        if key in self._nets:
            return self._nets[key]
        if self.source is not None:  # a given checkpoint is of one game and options
            data = checkpoint.load(self.source)
            checkpoint.build_net(data, game, source=f"checkpoint {str(self.source)!r}")  # raises
        path = pretrained_path(game.name, self.version)
        net, _ = checkpoint.build_net(checkpoint.load(path), game, source=f"the pretrained {game.name} network "
                                                                           f"{path.stem}")
        self._nets[key] = net = fused_for_inference(net)
        return net

    @torch.no_grad()
    def act(self, state) -> int:
        net = self.net_for(state.game)
        if self.sims == 0:
            priors, _ = evaluate(net, state.observation(state.current_player)[None], state.legal_mask()[None])
            legal = state.legal_actions()
            return int(legal[np.argmax(priors[0][legal])])
        if self.search != "python":  # the compiled search: the state's game in a one-tree search
            tree = TreeSearch(state.game, 1, self.sims, lambda planes, masks: evaluate(net, planes, masks),
                              rule=self.search, c_puct=self.c_puct, seed=int(self.rng.integers(2**63)),
                              gumbel_scale=self.gumbel_scale)
            tree.load(0, state)
            _, best = tree.run()
            return int(best[0])
        search = BatchedSearch(net, self.c_puct)
        root = Node(state.clone())
        search.run([root], [self.sims])
        return search.choose(root, self.rng, 0.0)


def pretrained(game_name: str, sims: int = 64, version: int | None = None) -> AZAgent:
    """The shipped network of ``game_name`` (its latest version, or ``version``) as an agent
    (``ValueError`` if none is shipped)."""
    from territory_envs import make_game
    agent = AZAgent(None, sims=sims, version=version)
    agent.net_for(make_game(game_name))
    return agent
