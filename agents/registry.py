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
=====================  ==========================================================================
"""
from __future__ import annotations

from .base import Agent, RandomAgent, as_agent

AGENT_KINDS = ("random", "greedy", "mcts")


def make_agent(spec, seed: int | None = None) -> Agent:
    """An agent from a spec string (table above), an :class:`Agent`, or a policy callable."""
    if not isinstance(spec, str):
        return as_agent(spec)
    text = spec.strip()
    kind, _, rest = text.partition(":")
    if kind == "random" and not rest:
        agent = RandomAgent(seed)
    elif kind == "greedy" and not rest:
        from .greedy import GreedyAgent
        agent = GreedyAgent(seed)
    elif kind == "mcts":
        from .mcts import MCTSAgent
        agent = MCTSAgent(seed=seed, **_mcts_options(text, rest))
    else:
        raise ValueError(f"agent {spec!r}: unknown; expected random, greedy, "
                         f"mcts:<playouts>[:c=<C>][:rave=0|1][:k=<K>][:uniform=0|1] or mcts:t=<seconds>")
    agent.name = text
    return agent


def _mcts_options(spec: str, rest: str) -> dict:
    options = {}
    for part in filter(None, rest.split(":")):
        key, eq, value = part.partition("=")
        try:
            if not eq:
                options["playouts"] = int(key)
            elif key == "c":
                options["exploration"] = float(value)
            elif key == "t":
                options["time_budget"] = float(value)
                options["playouts"] = None
            elif key == "rave" and value in ("0", "1"):
                options["rave"] = value == "1"
            elif key == "k":
                options["rave_k"] = float(value)
            elif key == "uniform" and value in ("0", "1"):
                options["uniform_playouts"] = value == "1"
            else:
                raise ValueError
        except ValueError:
            raise ValueError(f"agent {spec!r}: cannot read {part!r}; expected <playouts>, c=<C>, "
                             f"rave=0|1, k=<K>, uniform=0|1 or t=<seconds>") from None
    return options
