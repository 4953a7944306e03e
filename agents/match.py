"""One game between two agents on the state API (no env around it), recorded."""
from __future__ import annotations

from dataclasses import dataclass, field

from territory_envs import write_record
from territory_envs.core.game import Game

from .base import Agent


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
              seed: int | None = None) -> GameResult:
    """Play one game of ``game`` between ``agents[0]`` (``player_0``) and ``agents[1]``
    (``player_1``); ``player_0`` holds the first side unless ``swap_sides``. Each agent is reset
    with its own seed derived from ``seed`` before the game."""
    for i, agent in enumerate(agents):
        agent.reset(None if seed is None else seed * 2 + i)
    state = game.new_state(swap_sides=swap_sides)
    while not state.terminal and state.move_number < game.max_moves:
        player = state.current_player
        state.apply(agents[player].act(state))
    winner = state.winner ^ state.flip if state.terminal and state.winner >= 0 else -1
    return GameResult(game=game.name, agents=(agents[0].name, agents[1].name), first=int(swap_sides),
                      winner=winner, moves=state.move_number, truncated=not state.terminal,
                      scores=state.scores(), record=write_record(state))
