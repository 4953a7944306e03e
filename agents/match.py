"""One game between two agents on the state API (no env around it), recorded."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from territory_envs import write_record
from territory_envs.core.game import Game, IllegalActionError
from territory_envs.core.options import check_bool, excerpt

from .base import Agent, as_agent, check_seed


@dataclass
class GameResult:
    """The outcome of one game. Players are 0 (``player_0``) and 1 (``player_1``); ``first`` is the
    player that held the first side at the start; ``winner`` is a player or -1 for a draw
    (truncation at ``max_moves`` is a draw)."""

    game: str
    agents: tuple[str, str]
    first: int
    winner: int
    moves: int
    truncated: bool
    scores: tuple | None
    record: str = field(repr=False)

    @property
    def returns(self) -> tuple[float, float]:
        if self.winner < 0:
            return (0.0, 0.0)
        return (1.0, -1.0) if self.winner == 0 else (-1.0, 1.0)


def play_game(game: Game, agents: tuple[Agent, Agent], swap_sides: bool = False,
              seed: int | None = None, opening: int = 0) -> GameResult:
    """Play one game of ``game`` between ``agents[0]`` (``player_0``) and ``agents[1]``
    (``player_1``); ``player_0`` holds the first side unless ``swap_sides``. Each agent is reset
    with its own seed derived from ``seed`` (``None`` or an integer ``>= 0``) before the game.
    ``opening``: the first moves are that many uniformly random legal actions drawn from ``seed``
    (the same for both ``swap_sides``), so that deterministic agents play varied games.

    An agent may be a policy callable (:func:`~agents.base.as_agent`). An action that an agent
    returns and the game refuses (not an integer, out of range, illegal) raises
    :class:`~territory_envs.IllegalActionError` naming the agent, its player and the move."""
    if not isinstance(game, Game):
        raise TypeError(f"play_game: game={excerpt(game)}: must be a Game (territory_envs.make_game(...))")
    if not isinstance(agents, (tuple, list)) or len(agents) != 2:
        raise ValueError(f"play_game: agents={excerpt(agents)}: must be a pair (the agents of player_0 and "
                         f"player_1)")
    agents = (as_agent(agents[0]), as_agent(agents[1]))
    swap_sides = check_bool("play_game: swap_sides", swap_sides)
    seed = check_seed("play_game", seed)
    if isinstance(opening, bool) or not isinstance(opening, int) or opening < 0:
        raise ValueError(f"play_game: opening={excerpt(opening)}: must be an integer >= 0")
    for i, agent in enumerate(agents):
        agent.reset(None if seed is None else seed * 2 + i)
    state = game.new_state(swap_sides=swap_sides)
    rng = np.random.default_rng(seed)
    for _ in range(opening):
        if state.terminal:
            break
        state.apply(int(rng.choice(state.legal_actions())))
    while not state.over:
        player = state.current_player
        try:
            state.apply(agents[player].act(state))
        except IllegalActionError as err:
            raise IllegalActionError(f"agent {excerpt(agents[player].name)} (player_{player}) at move "
                                     f"{state.move_number + 1}: {err}") from None
    winner = state.winner ^ state.flip if state.terminal and state.winner >= 0 else -1
    return GameResult(game=game.name, agents=(agents[0].name, agents[1].name), first=int(swap_sides),
                      winner=winner, moves=state.move_number, truncated=not state.terminal,
                      scores=state.scores(), record=write_record(state))
