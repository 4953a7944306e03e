"""Agents by name, as the arena and the play CLI take them on the command line.

=====================  ==========================================================================
spec                   agent
=====================  ==========================================================================
``random``             :class:`~agents.base.RandomAgent`
``greedy``             :class:`~agents.greedy.GreedyAgent` (one-ply lookahead on the game's evaluation)
``mcts:256``           :class:`~agents.mcts.MCTSAgent` with 256 playouts per move
``mcts:256:c=0.8``     the same with exploration constant 0.8
``mcts:t=0.5``         MCTS with a time budget of 0.5 s per move instead of a playout count
``mcts:256:rave=0``    plain UCT, without RAVE
``mcts:256:k=30``      RAVE with equivalence constant 30 (default 300)
``mcts:256:uniform=1`` playouts uniform over the legal actions in every game (see ``GameState.rollout``)
``az``                 :class:`~agents.az.agent.AZAgent`: the pretrained network of the game, 64 simulations
``az:v1``              version 1 of the game's pretrained network (``agents/pretrained/<game>-v1.pt``)
``az:sims=0``          the network alone (its most likely legal action); ``az:sims=256`` a deeper search
``az:runs/lin``        a training run's latest checkpoint (or ``az:path/to/ckpt.pt``), ``az:runs/lin:sims=16``
``az:search=puct``     the compiled PUCT search instead of Gumbel's (``python``: the PUCT tree of objects)
=====================  ==========================================================================

Each part of an ``mcts`` spec comes at most once, and a playout count and ``t=`` exclude each
other; numbers are plain decimals (``64``, ``0.5``, ``1e-3``), checked as
:class:`~agents.mcts.MCTSAgent` checks them (finite, in range). A bad spec is a ``ValueError``
that quotes (an excerpt of) it.
"""
from __future__ import annotations

import re

from territory_envs.core.options import excerpt

from .az import SEARCHES
from .base import Agent, RandomAgent, as_agent, check_seed

AGENT_KINDS = ("random", "greedy", "mcts", "az")
EXPECTED = ("random, greedy, mcts:<playouts>[:c=<C>][:rave=0|1][:k=<K>][:uniform=0|1], mcts:t=<seconds> or "
            "az[:<vN, checkpoint or run folder>][:sims=<n>][:c=<C>][:search=python|gumbel|puct]")

# plain ASCII numbers, short enough to convert (the agent then checks the range); inf and nan are
# read so that the agent can say why they are refused
_INTEGER = re.compile(r"[+-]?[0-9]{1,40}")
_DECIMAL = re.compile(r"[+-]?([0-9]{1,40}(\.[0-9]{0,40})?|\.[0-9]{1,40})([eE][+-]?[0-9]{1,4})?|[+-]?(inf|nan)",
                      re.IGNORECASE)
# spec key -> (MCTSAgent keyword, how its value is read)
_MCTS_KEYS = {"c": ("exploration", "number"), "t": ("time_budget", "number"), "k": ("rave_k", "number"),
              "rave": ("rave", "flag"), "uniform": ("uniform_playouts", "flag")}


def make_agent(spec, seed: int | None = None) -> Agent:
    """An agent from a spec string (table above), an :class:`Agent`, or a policy callable. A bad
    spec or ``seed`` (``None`` or an integer ``>= 0``) is a ``ValueError`` naming it."""
    if not isinstance(spec, str):
        return as_agent(spec)
    seed = check_seed("make_agent", seed)
    text = spec.strip()
    kind, _, rest = text.partition(":")
    try:
        if kind == "random" and not rest:
            agent = RandomAgent(seed)
        elif kind == "greedy" and not rest:
            from .greedy import GreedyAgent
            agent = GreedyAgent(seed)
        elif kind == "mcts":
            from .mcts import MCTSAgent
            agent = MCTSAgent(seed=seed, **_mcts_options(rest))
        elif kind == "az":
            from .az.agent import AZAgent
            agent = AZAgent(seed=seed, **_az_options(rest))
        else:
            raise ValueError(f"unknown; expected {EXPECTED}")
    except ValueError as err:
        raise ValueError(f"agent {excerpt(spec)}: {err}") from None
    agent.name = text
    return agent


def _mcts_options(rest: str) -> dict:
    """The :class:`~agents.mcts.MCTSAgent` keywords of the parts after ``mcts:``."""
    options = {}
    for part in filter(None, rest.split(":")):
        key, eq, value = part.partition("=")
        if not eq and _INTEGER.fullmatch(key):
            key, name, parsed = "<playouts>", "playouts", int(key)
        elif eq and key in _MCTS_KEYS and (value in ("0", "1") if _MCTS_KEYS[key][1] == "flag"
                                           else _DECIMAL.fullmatch(value)):
            name, how = _MCTS_KEYS[key]
            parsed = value == "1" if how == "flag" else float(value)
        else:
            raise ValueError(f"cannot read {excerpt(part)}; expected <playouts>, c=<C>, rave=0|1, k=<K>, "
                             f"uniform=0|1 or t=<seconds>")
        if name in options:
            raise ValueError(f"{key if key.startswith('<') else key + '='} given twice")
        options[name] = parsed
        if "playouts" in options and "time_budget" in options:
            raise ValueError("a playout count and t=<seconds> exclude each other")
    if "time_budget" in options:
        options["playouts"] = None
    return options


def _az_options(rest: str) -> dict:
    """The :class:`~agents.az.agent.AZAgent` keywords of the parts after ``az:``: ``sims=<n>``,
    ``c=<C>``, ``search=<python|gumbel|puct>`` and at most one of ``v<version>`` (a pretrained
    network's version) and a checkpoint file or run folder (``./v1`` for a folder named ``v1``)."""
    options = {}
    for part in filter(None, rest.split(":")):
        key, eq, value = part.partition("=")
        if eq and key == "sims" and _INTEGER.fullmatch(value):
            name, parsed = "sims", int(value)
        elif eq and key == "c" and _DECIMAL.fullmatch(value):
            name, parsed = "c_puct", float(value)
        elif eq and key == "search" and value in SEARCHES:
            name, parsed = "search", value
        elif not eq and re.fullmatch(r"v[0-9]{1,6}", part):
            name, parsed = "version", int(part[1:])
        elif not eq:
            name, parsed = "source", part
        else:
            raise ValueError(f"cannot read {excerpt(part)}; expected a checkpoint or run folder, sims=<n>, c=<C> or "
                             f"search=<{'|'.join(SEARCHES)}>")
        if name in options:
            raise ValueError(f"{'a checkpoint' if name == 'source' else 'a version' if name == 'version' else key + '='} "
                             f"given twice")
        options[name] = parsed
    return options
