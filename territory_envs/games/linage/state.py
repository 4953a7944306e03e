"""The game and its state: :class:`LinageGame` (options, planes, actions) and :class:`LinageState`
(the state API of docs/spec.md over the compiled turn of :mod:`.turn`, its fields declared there)."""
from __future__ import annotations

import numpy as np

from ...core.evaluation import margin, owners
from ...core.game import Game, GameState
from ...core.geometry import square
from ...core.kernels import EMPTY, any_per_component, komi_planes, label_components
from ...core.options import check_int, check_number
from .layout import HORIZONTAL_OWNS, VERTICAL_OWNS
from .turn import (FIELDS, FREE_REGIONS, HORIZONTAL_POINTS, PASSES, PLANES, VERTICAL_POINTS, _game_over,
                   _winner_by_score, linage_act, linage_analyse, linage_scores, observe)
from .compiled import COMPILED


class LinageGame(Game):
    """Linage with fixed options: ``board_size`` (3..25, default 9), ``line_length`` (2..5 and at
    most the board size, default 3), ``komi`` (any number, default 0.5, added to Horizontal's
    score), ``max_moves``."""

    name = "linage"
    sides = ("vertical", "horizontal")
    legend = ("# a stone (the stones are shared, of no side), . an empty point. A side's score, shown all game, "
              "counts the points of the regions it owns (a region without a horizontal line is vertical's, one "
              "without a vertical line horizontal's), komi added to horizontal's. The game ends after two passes "
              "in a row or when no region is free; the higher score wins.")
    special_actions = ("pass",)
    option_defaults = {"board_size": 9, "line_length": 3, "komi": 0.5}
    planes = PLANES
    compiled = COMPILED

    def _validate(self, o):
        o["board_size"] = check_int("board_size", o["board_size"], 3, 25)
        o["line_length"] = check_int("line_length", o["line_length"], 2, min(5, o["board_size"]))
        o["komi"] = check_number("komi", o["komi"], low=-1000, high=1000)
        self.komi_planes = komi_planes(o["komi"], o["board_size"] ** 2)
        geometry = square(o["board_size"])
        # the geometry arguments of linage_act and linage_analyse, in their order; then komi, linage_act's last
        self.geo_args = (geometry.height, geometry.width, o["line_length"], geometry.neighbours, geometry.degree)
        self.act_args = (*self.geo_args, o["komi"])
        return geometry

    def kernel_params(self):
        return (*self.geo_args, float(self.options["komi"]), self.komi_planes)

    def default_max_moves(self) -> int:
        # every placement fills a point and a pass is never followed by a pass in a live game,
        # so no game lasts more than 2 * points + 1 moves
        return 2 * self.geometry.num_points + 2


class LinageState(GameState):
    """Linage's state: the passes in a row and the analysis in the row ``s``, the lines and
    regions in the arrays, all declared in :data:`FIELDS`."""

    __slots__ = tuple(a.name for a in FIELDS.arrays)
    fields = FIELDS

    @property
    def passes(self) -> int:
        """Consecutive passes just played."""
        return int(self.s[PASSES])

    @property
    def free_regions(self) -> int:
        return int(self.s[FREE_REGIONS])

    @property
    def points(self) -> tuple:
        """Points of the regions each side owns, ``(vertical, horizontal)``, komi not included."""
        return int(self.s[VERTICAL_POINTS]), int(self.s[HORIZONTAL_POINTS])

    def _load_extra(self, data):
        if np.any(self.board == 2):
            raise ValueError("state dict: 'board': Linage stones are neutral (values 0 or 1)")

    def _rules_end(self):
        if not _game_over(self.passes, self.free_regions):
            return False, -1
        return True, _winner_by_score(*self.scores())

    def _check_position(self):
        # a placement is legal only if every region keeps a line afterwards (and the empty board has one)
        g = self.game.geometry
        labels, count = label_components(self.board == EMPTY, g.neighbours, g.degree)
        if not np.all(any_per_component(labels, count, self.on_h | self.on_v)):
            raise ValueError("state dict: 'board' has a region without a line")

    def _refresh(self):
        linage_analyse(self.board, self.runs, self.safe, self.on_h, self.on_v, self.kind, self.mask, self.memo, self.s,
                       *self.game.geo_args)

    def _apply(self, action):
        return linage_act(self.board, self.runs, self.safe, self.on_h, self.on_v, self.kind, self.mask, self.memo,
                          self.s, action, *self.game.act_args)

    def scores(self):
        return tuple(score.item() for score in linage_scores.py_func(self.s, self.game.options["komi"]))

    def observation(self, player: int) -> np.ndarray:
        out = np.empty(self.game.obs_shape, dtype=np.int8)
        side = player ^ self.flip
        observe(self.board, self.kind, self.on_h, self.on_v, self.mask, self.s, side, self.may_move(side),
                self.game.komi_planes, out)
        return out

    def _display_board(self):
        return self.board * 3  # neutral stones

    def _footer(self):
        text = super()._footer()
        return text + (" - the last move was a pass" if self.passes == 1 and not self.terminal else "")

    tints = (("in a region of vertical", (60, 90, 200), 0.35),
             ("in a region of horizontal", (200, 80, 60), 0.35))

    def tint_masks(self):
        return [self.kind == VERTICAL_OWNS, self.kind == HORIZONTAL_OWNS]


LinageGame.state_class = LinageState


def ownership(positions, game):
    """Who holds each cell (``GameDeclaration.ownership``): +1 on the empty points of regions
    Vertical owns, -1 of those Horizontal owns, 0 elsewhere (stones are neutral), as the score
    counts them."""
    kind = positions.kind
    return owners(kind == VERTICAL_OWNS, kind == HORIZONTAL_OWNS)


def evaluate(positions, game, side, opponent_to_act):
    """The greedy evaluation (``GameDeclaration.evaluate``): the score margin, komi included (early
    on every placement leaves it at 0 and the greedy choice is random)."""
    vertical, horizontal = linage_scores.py_func(positions.scalars.T.astype(np.int64), game.options["komi"])
    return margin(vertical, horizontal, side)
