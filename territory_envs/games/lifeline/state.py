"""The game and its state: :class:`LifelineGame` (options, pies, planes, actions) and
:class:`LifelineState` (the state API of docs/spec.md over the compiled turn of :mod:`.turn`, its
fields declared in :mod:`.row`)."""
from __future__ import annotations

import numpy as np

from ...core.evaluation import material
from ...core.game import Game, GameState
from ..first_turns import check_first_turns
from ...core.geometry import hexhex
from ...core.options import check_choice, check_int, check_number
from .row import ALL_ALIVE, FIELDS, FIRST_BLACK, FIRST_WHITE, KOMI_LEFT, PENDING, REMOVAL_ON, SWAP_USED
from .rules import KOMI, PIES, REMOVAL_FROM, STRONG, start_slots, swap_available
from .turn import PLANES, act, observe, refresh
from .compiled import COMPILED, start_template


class LifelineGame(Game):
    """Lifeline with fixed options: ``board_size`` (cells per side of the hexhex board, 3..15,
    default 5; the designers recommend 3..12), ``pie`` (``"strong"``, ``"weak"``, ``"komi"``),
    ``komi`` (whole number of komi points for White under the komi pie, default 0), ``max_moves``."""

    name = "lifeline"
    sides = ("black", "white")
    legend = ("X a black stone, O a white stone, . an empty cell (the rows of the hexagon are indented; each "
              "row starts with its number and the letter of its first cell). There is no score: the last "
              "player to place a stone wins.")
    special_actions = ("swap", "spend_komi")
    option_defaults = {"board_size": 5, "pie": "strong", "komi": 0}
    planes = PLANES
    compiled = COMPILED

    def _validate(self, o):
        o["board_size"] = check_int("board_size", o["board_size"], 3, 15)
        o["pie"] = check_choice("pie", o["pie"], PIES)
        o["komi"] = check_number("komi", o["komi"], integer=True, low=0, high=10_000)
        if o["komi"] != 0 and o["pie"] != "komi":
            # RULINGS: the komi option means nothing under the other pies, so a komi there is a mistake
            raise ValueError(f"option komi={o['komi']!r}: only the komi pie has komi (pie='komi'); "
                             f"pie={o['pie']!r} takes komi=0")
        self.pie_index = PIES.index(o["pie"])
        return hexhex(o["board_size"])

    def kernel_params(self):
        geometry = self.geometry
        return (self.pie_index, geometry.num_points, *self.kernel_args, *start_template(self))

    def default_max_moves(self) -> int:
        return 20 * self.geometry.num_points


class LifelineState(GameState):
    """The scalars of the game (pending stone, first turns done, swap, removal, komi left) live in
    the row ``s`` shared with the compiled turn logic (:data:`FIELDS` declares them); the
    properties below read it."""

    __slots__ = tuple(a.name for a in FIELDS.arrays)
    fields = FIELDS

    def _init_extra(self):
        start_slots(self.s, self.game.pie_index, self.game.options["komi"])

    # --- the scalars by name ------------------------------------------------------------------
    @property
    def pending(self) -> int:
        """The first stone of a double placement awaiting its second, or -1."""
        return int(self.s[PENDING])

    @property
    def first_turn_done(self) -> list:
        return [bool(self.s[FIRST_BLACK]), bool(self.s[FIRST_WHITE])]

    @property
    def swap_used(self) -> bool:
        return bool(self.s[SWAP_USED])

    @property
    def removal_on(self) -> bool:
        return bool(self.s[REMOVAL_ON])

    @property
    def komi_left(self) -> int:
        return int(self.s[KOMI_LEFT])

    @property
    def all_alive(self) -> bool:
        return bool(self.s[ALL_ALIVE])

    def _swap_available(self) -> bool:
        return bool(swap_available(self.s, self.game.pie_index))

    # --- state plumbing -----------------------------------------------------------------------
    def _load_extra(self, data):
        g = self.game
        pending = self.pending
        if pending >= 0 and (self.board[pending] != self.to_move + 1 or g.pie_index != STRONG
                             or self.first_turn_done[self.to_move]):
            raise ValueError("state dict: 'pending' must be -1 or the first stone of the mover's first turn "
                             "(strong pie)")
        if self.swap_used and g.pie_index == KOMI:
            raise ValueError("state dict: 'swap_used': the komi pie has no swap")

    def _rules_end(self):
        # the player to act with no legal action loses: the last to place wins (row.last_to_place_wins)
        return (False, -1) if self.mask.any() else (True, 1 - self.to_move)

    def _check_position(self):
        g = self.game
        check_first_turns(self.board, self.to_move, self.pending, self.first_turn_done, double=g.pie_index == STRONG)
        if not self.removal_on and (g.pie_index == STRONG or np.count_nonzero(self.board) >= REMOVAL_FROM):
            raise ValueError("state dict: 'removal_on' must be true under the strong pie and once four stones "
                             "have been placed")
        if self.removal_on and self.pending < 0 and not self.all_alive:
            raise ValueError("state dict: 'board' has a dead group, which the last turn would have removed")

    def _refresh(self):
        g = self.game
        refresh(self.board, self.mask, self.alive_cell, self.links, self.memo, self.s, g.pie_index, *g.kernel_args)

    def _apply(self, action):
        return act(self.board, self.mask, self.alive_cell, self.links, self.memo, self.s, action, self.game.pie_index,
                   *self.game.kernel_args)

    def observation(self, player: int) -> np.ndarray:
        g = self.game
        out = np.empty(g.obs_shape, dtype=np.int8)
        side = player ^ self.flip
        observe(self.board, self.mask, self.alive_cell, self.links, self.s, side, self.may_move(side), g.pie_index,
                g.geometry.num_points, g.geometry.on_board, out)
        return out

    tints = (("a stone whose group does not live", (220, 50, 50), 0.45),
             ("an empty cell touching two groups of one colour", (60, 160, 90), 0.3))

    def tint_masks(self):
        return [(self.board > 0) & ~self.alive_cell, self.links > 0]

    def _footer(self):
        parts = [super()._footer()]
        if self.pending >= 0:
            parts.append("second stone of a double placement")
        if self._swap_available():
            parts.append("swap available")
        if self.game.options["pie"] == "komi":
            parts.append(f"komi left {self.komi_left}")
        return " - ".join(p for p in parts if p)


LifelineGame.state_class = LifelineState


def evaluate(positions, game, side, opponent_to_act):
    """The greedy evaluation (``GameDeclaration.evaluate``): material, own stones on the board minus
    the opponent's (captures count), then the opponent's mobility (``core.evaluation.material``)."""
    return material(positions, game, side, opponent_to_act)
