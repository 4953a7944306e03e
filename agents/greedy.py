"""A one-ply lookahead agent: try every legal action, keep those whose resulting position scores
best for the mover on the game's own evaluation (``GameDeclaration.evaluate``), break ties at random.

A won game scores +inf, a lost one -inf, a draw 0; other positions as the game evaluates them,
from the point of view of the player who just acted:

* **Lin**: the score margin: points in the mover's living domains minus the opponent's (komi
  included, as the game scores).
* **Linage**: the score margin: empty points of the mover's regions minus the opponent's (komi
  included). Early on every placement leaves it at 0 and the choice is random.
* **Lifeline**: material, own stones on the board minus the opponent's (captures count), then the
  opponent's mobility as a tie-break (fewer legal actions is better: a player without one loses).
* **Asli**: material, own stones on the board and enemy stones in the prison minus the opponent's
  (a prisoner is an extra action for its captor), then the opponent's mobility as above.

Mobility enters as ``-legal_actions / (num_actions + 1)``, less than one stone.
"""
from __future__ import annotations

import numpy as np

from territory_envs.core.evaluation import positions_of

from .base import Agent


def evaluate(state, player: int) -> float:
    """The value of ``state`` for ``player`` (0 or 1) by the table in the module docstring."""
    if state.terminal:
        if state.winner < 0:
            return 0.0
        return float("inf") if state.winner ^ state.flip == player else float("-inf")
    game = state.game
    values = game.declaration.evaluate(positions_of(state), game, np.array([state.side_of(player)]),
                                       np.array([state.current_player != player]))
    return float(values[0])


class GreedyAgent(Agent):
    """One-ply lookahead on :func:`evaluate`, ties broken at random; seeded."""

    name = "greedy"

    def act(self, state) -> int:
        player = state.current_player
        legal = state.legal_actions()
        if len(legal) == 0:
            raise ValueError("greedy: no legal action")
        values = np.empty(len(legal))
        for k, action in enumerate(legal):
            values[k] = evaluate(state.clone().apply(int(action)), player)
        best = np.flatnonzero(values == values.max())
        return int(legal[best[self.rng.integers(len(best))]])
