"""The game and its state: :class:`LinGame` (options, planes, actions) and :class:`LinState` (the
state API of docs/spec.md over the compiled turn of :mod:`.turn`, its fields declared there)."""
from __future__ import annotations

import numpy as np

from ...core.evaluation import margin, owners
from ...core.game import Game, GameState
from ...core.geometry import square
from ...core.kernels import komi_planes
from ...core.options import BoardDefault, check_int, check_number
from .rules import lin_scores, refresh_lin
from .turn import CONTESTED, FIELDS, PLANES, _game_over, _winner_by_score, lin_act, observe
from .compiled import COMPILED


class LinGame(Game):
    """Lin with fixed options: ``board_size`` (odd, 5..25, default 9), ``line_length`` (2..board
    size; default 6, the rule text's, or the board size on a board smaller than that, as the text
    allows on tiny boards), ``komi`` (integer, default 0, added to White's score), ``max_moves``."""

    name = "lin"
    sides = ("black", "white")
    legend = ("X a black stone, O a white stone, . an empty point. A side's score, shown all game, counts the "
              "points of its living domains (connected areas free of enemy stones that hold a line of "
              "{line_length} points), komi added to white's: on an empty board every point lives for both, so "
              "both start at the whole board. The game ends when no point lives for both; the higher score wins.")
    option_defaults = {"board_size": 9,
                       "line_length": BoardDefault("6, or the board size if smaller", lambda size: min(6, size)),
                       "komi": 0}
    planes = PLANES
    compiled = COMPILED

    def _validate(self, o):
        o["board_size"] = check_int("board_size", o["board_size"], 5, 25, odd=True)
        if isinstance(o["line_length"], BoardDefault):
            o["line_length"] = o["line_length"].value(o["board_size"])
        o["line_length"] = check_int("line_length", o["line_length"], 2, o["board_size"])
        o["komi"] = check_number("komi", o["komi"], integer=True, low=-625, high=625)
        self.komi_planes = komi_planes(o["komi"], o["board_size"] ** 2)
        geometry = square(o["board_size"])
        # the geometry arguments of the kernels (refresh_lin's after the board), in their order; then
        # komi, lin_act's last
        self.geo_args = (geometry.height, geometry.width, o["line_length"], geometry.neighbours, geometry.degree)
        self.act_args = (*self.geo_args, o["komi"])
        return geometry

    def kernel_params(self):
        return (*self.act_args, self.komi_planes)

    def default_max_moves(self) -> int:
        # random play ends 9x9 games in under 100 moves; stones are removed, so allow ample room
        return 20 * self.geometry.num_points


class LinState(GameState):
    """Lin's state: the living domains of each colour in ``alive``, declared with the row in
    :data:`FIELDS`."""

    __slots__ = tuple(a.name for a in FIELDS.arrays)
    fields = FIELDS

    @property
    def contested(self) -> int:
        """Points in living domains of both colours (the game ends when there are none)."""
        return int(self.s[CONTESTED])

    def _rules_end(self):
        if not _game_over(self.contested):
            return False, -1
        return True, _winner_by_score(*self.scores())

    def _check_position(self):
        # every turn removes the enemy stones it leaves outside their living domains, and a
        # placement never takes a domain from its own colour
        for colour in (0, 1):
            if np.any((self.board == colour + 1) & ~self.alive[colour]):
                raise ValueError(f"state dict: 'board' has {self.game.sides[colour]} stones outside "
                                 f"{self.game.sides[colour]}'s living domains")

    def _refresh(self):
        self.s[CONTESTED] = refresh_lin(self.board, *self.game.geo_args, self.alive, self.mask, self.to_move)

    def _apply(self, action):
        return lin_act(self.board, self.alive, self.mask, self.s, action, *self.game.act_args)

    def scores(self):
        return lin_scores(self.alive, self.game.options["komi"])

    def observation(self, player: int) -> np.ndarray:
        out = np.empty(self.game.obs_shape, dtype=np.int8)
        side = player ^ self.flip
        observe(self.board, self.alive, self.mask, self.s, side, self.may_move(side), self.game.komi_planes, out)
        return out

    tints = (("in a living domain of black only", (40, 40, 40), 0.25),
             ("in a living domain of white only", (250, 250, 250), 0.35),
             ("in living domains of both", (200, 60, 60), 0.2))

    def tint_masks(self):
        return [self.alive[0] & ~self.alive[1], self.alive[1] & ~self.alive[0], self.alive[0] & self.alive[1]]


LinGame.state_class = LinState


def ownership(positions, game):
    """Who holds each cell (``GameDeclaration.ownership``): +1 in living domains of Black only, -1
    of White only, 0 in both or neither, as the score counts them."""
    alive = positions.alive
    return owners(alive[:, 0], alive[:, 1])


def evaluate(positions, game, side, opponent_to_act):
    """The greedy evaluation (``GameDeclaration.evaluate``): the score margin, komi included
    (:func:`~territory_envs.games.lin.rules.lin_scores` over a batch of positions)."""
    alive = positions.alive
    return margin(alive[:, 0].sum(axis=1), alive[:, 1].sum(axis=1) + game.options["komi"], side)
