"""The game and its state: :class:`ThreesGame` (options, planes) and :class:`ThreesState` (the
state API over the compiled turn of :mod:`.compiled`), and the greedy evaluation."""
import numpy as np

from territory_envs.core.evaluation import material
from territory_envs.core.fields import Fields
from territory_envs.core.game import Game, GameState, Plane
from territory_envs.core.geometry import square
from territory_envs.core.options import check_int

from .compiled import COMPILED, act, observe
from .rules import row_through

PLANES = (
    Plane("own_stones", "stones of the observer"),
    Plane("opponent_stones", "stones of the opponent"),
    Plane("empty", "empty points"),
    Plane("legal", "the observer's legal placements (zeros when the observer is not to move)"),
    Plane("side", "constant: 0 if the observer plays Black, 1 if White"),
)


class ThreesGame(Game):
    """Threes with fixed options: ``board_size`` (3..7, default 5), ``line_length`` (3..board_size,
    default 3), ``max_moves``."""

    name = "threes"
    sides = ("black", "white")
    legend = "X a black stone, O a white stone, . an empty point. A row of {line_length} wins; a full board draws."
    option_defaults = {"board_size": 5, "line_length": 3}
    planes = PLANES
    compiled = COMPILED

    def _validate(self, o):
        o["board_size"] = check_int("board_size", o["board_size"], 3, 7)
        o["line_length"] = check_int("line_length", o["line_length"], 3, o["board_size"])
        return square(o["board_size"])

    def kernel_params(self):
        return (self.geometry.size, self.options["line_length"])


class ThreesState(GameState):
    fields = Fields()

    def _refresh(self):
        self.mask[:] = self.board == 0

    def _apply(self, action):
        return act(self.arrays(), action, self.game.params)

    def observation(self, player: int) -> np.ndarray:
        out = np.empty(self.game.obs_shape, dtype=np.int8)
        observe(self.arrays(), player ^ self.flip, self.game.params, out)
        return out

    def _rules_end(self):
        size, line_length = self.game.params
        winners = {int(self.board[i]) - 1 for i in np.flatnonzero(self.board)
                   if row_through(self.board, i, size, line_length)}
        if len(winners) == 1:
            return True, winners.pop()
        return (not self.mask.any(), -1)

    def _check_position(self):
        size, line_length = self.game.params
        rows = {int(self.board[i]) for i in np.flatnonzero(self.board) if row_through(self.board, i, size, line_length)}
        if len(rows) > 1:
            raise ValueError("state dict: 'board' has rows of both colours; the first one ends the game")


ThreesGame.state_class = ThreesState


def evaluate(positions, game, side, opponent_to_act):
    """The greedy evaluation: material and the opponent's mobility (``core.evaluation.material``)."""
    return material(positions, game, side, opponent_to_act)
