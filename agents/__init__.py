"""Agents that play the territory games, and the tools to compare them.

* :mod:`agents.base`: the interface (``act(state)``, ``agent(observation, mask)``, ``reset(seed)``),
  :class:`RandomAgent`, :func:`as_agent` for any policy callable;
* :mod:`agents.greedy`: :class:`GreedyAgent`, one-ply lookahead on a documented evaluation;
* :mod:`agents.mcts`: :class:`MCTSAgent`, UCT with compiled random rollouts;
* :mod:`agents.registry`: :func:`make_agent` from specs such as ``"mcts:256"``;
* :mod:`agents.match`: :func:`play_game`, one recorded game between two agents;
* :mod:`agents.az`: AlphaZero self-play training (``territory-train``), :class:`AZAgent` and
  :func:`pretrained` (the shipped network of a game as an agent);
* :mod:`agents.arena`: round robins with ratings, from Python (:func:`agents.arena.run_arena`,
  :func:`agents.arena.format_tables`) or the command line (``territory-arena``);
* :mod:`agents.play`: a person against an agent on the command line (``territory-play``).
"""
from .base import Agent, CallableAgent, RandomAgent, as_agent
from .match import GameResult, play_game
from .registry import make_agent

__all__ = ["Agent", "CallableAgent", "RandomAgent", "as_agent", "make_agent", "play_game", "GameResult",
           "GreedyAgent", "MCTSAgent", "AZAgent", "pretrained"]


def __getattr__(name):
    # the search agents compile numba kernels on first use: import them only when asked
    if name == "GreedyAgent":
        from .greedy import GreedyAgent
        return GreedyAgent
    if name == "MCTSAgent":
        from .mcts import MCTSAgent
        return MCTSAgent
    if name in ("AZAgent", "pretrained"):  # torch is imported only when asked
        from .az import agent
        return getattr(agent, name)
    raise AttributeError(name)
