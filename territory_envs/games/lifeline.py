"""The rules of Lifeline, as ``../shared/rules/lifeline.txt`` and RULINGS.md read them.

Black and White place stones on the cells of a hexhex board (6 neighbours).

* A *group* is a maximal connected set of same-coloured stones. A group is *dead* if no maximal
  empty region next to it also touches another group of its colour; a lone group is dead.
* A turn: place a stone (twice on each player's first turn in the standard game), then remove all
  dead enemy groups, then all dead friendly groups. The board at the end of the turn must differ
  from the board at its start (a placement whose only removed stone is itself is illegal).
* The last player to place wins: a player to act with no legal action loses.
* ``pie="strong"`` (default): double first placements; on White's first turn White may instead
  ``swap`` (action ``H*W``): the agents exchange sides, the board stays, White (the other agent now)
  plays White's first turn. ``pie="weak"``: one stone per turn; no removal until a turn brings the
  board to four stones (removal then stays on); White may swap on its first turn, after Black's
  single stone. ``pie="komi"``: the weak opening without swap; once removal is on, White may
  ``spend_komi`` (action ``H*W+1``) instead of placing, while ``komi`` points are left and White
  also has a legal placement.

The legal mask. When every group on the board is alive (so after every turn once removal is on), a
placement on ``p`` changes the board iff p's empty region touches a friendly group: then ``p`` joins
or shares a region with a friend and lives, and otherwise ``p`` lies in a region of enemies only,
whose six neighbours form a ring of empty arcs joined by enemy runs (at most one run off the board),
so every enemy group keeps a partner across the split and nothing but ``p`` can die. That is one
region labelling, linear in the cells. Elsewhere (first-turn pairs, the turn that switches removal
on, positions holding dead groups) the mask is computed by simulating each candidate turn exactly;
the differential tests check both against the reference engine.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..core.game import Game, GameState, Plane
from ..core.geometry import hexhex
from ..core.kernels import EMPTY, adjacent, has_sharing_partner, liveness, regions_next_to
from ..core.options import check_choice, check_int, check_number

PIES = ("strong", "weak", "komi")


@njit(cache=True)
def settle(board, side, on_board, neighbours, degree):
    """Remove the dead enemy groups of ``side`` (0 Black, 1 White), then its dead friendly groups.
    Returns ``(labels, count, alive, reach)`` of the final board (see ``liveness``)."""
    mover = side + 1
    enemy = 3 - mover
    labels, count, alive, reach = liveness(board, on_board, neighbours, degree)
    for colour in (enemy, mover):
        removed = False
        for i in range(board.shape[0]):
            if board[i] == colour and not alive[labels[i]]:
                board[i] = EMPTY
                removed = True
        if removed:  # freed cells may revive friendly groups; recompute before judging them
            labels, count, alive, reach = liveness(board, on_board, neighbours, degree)
    return labels, count, alive, reach


@njit(cache=True)
def describe(board, side, labels, alive, reach, on_board, neighbours, degree, alive_cell, links, mask):
    """From a liveness result: ``alive_cell`` (stones of living groups), ``links`` (per empty cell,
    bit ``c`` set when it touches two or more groups of colour ``c``), the local legal mask of
    ``side`` (empty cells whose region touches one of its groups) into ``mask``; returns whether
    every group on the board lives (the condition under which the local mask is exact) and the
    number of legal cells."""
    all_alive = True
    legal = 0
    for i in range(board.shape[0]):
        alive_cell[i] = False
        links[i] = 0
        mask[i] = False
        if not on_board[i]:
            continue
        k = labels[i]
        if board[i] != EMPTY:
            alive_cell[i] = alive[k]
            if not alive[k]:
                all_alive = False
            continue
        mask[i] = reach[k, side] != -1
        legal += mask[i]
        first_black = -1
        first_white = -1
        for d in range(degree[i]):
            nb = neighbours[i, d]
            if board[nb] == 1:
                if first_black == -1:
                    first_black = labels[nb]
                elif labels[nb] != first_black:
                    links[i] |= 1
            elif board[nb] == 2:
                if first_white == -1:
                    first_white = labels[nb]
                elif labels[nb] != first_white:
                    links[i] |= 2
    return all_alive, legal


@njit(cache=True)
def analyse(board, side, on_board, neighbours, degree, alive_cell, links, mask):
    """Derived facts of a position with ``side`` to move; returns ``describe``'s result."""
    labels, count, alive, reach = liveness(board, on_board, neighbours, degree)
    return describe(board, side, labels, alive, reach, on_board, neighbours, degree, alive_cell, links, mask)


@njit(cache=True)
def play_stone(board, side, cell, removal, on_board, neighbours, degree, alive_cell, links, mask):
    """Place ``side``'s stone on ``cell`` (the last stone of its turn), remove if ``removal``, and
    describe the position for the opponent. Returns ``describe``'s result."""
    board[cell] = side + 1
    if removal:
        labels, count, alive, reach = settle(board, side, on_board, neighbours, degree)
    else:
        labels, count, alive, reach = liveness(board, on_board, neighbours, degree)
    return describe(board, 1 - side, labels, alive, reach, on_board, neighbours, degree, alive_cell, links, mask)


@njit(cache=True)
def turn_changes_board(start, side, first, second, removal, on_board, neighbours, degree):
    """Would placing ``first`` (and ``second`` if >= 0) from the board ``start``, then removing,
    leave a board different from ``start``?"""
    board = start.copy()
    board[first] = side + 1
    if second >= 0:
        board[second] = side + 1
    if removal:
        settle(board, side, on_board, neighbours, degree)
    for i in range(board.shape[0]):
        if board[i] != start[i]:
            return True
    return False


@njit(cache=True)
def exact_single_mask(board, side, removal, on_board, neighbours, degree, mask):
    for p in range(board.shape[0]):
        mask[p] = on_board[p] and board[p] == EMPTY and turn_changes_board(
            board, side, p, -1, removal, on_board, neighbours, degree)


@njit(cache=True)
def first_stone_mask(board, side, quick, on_board, neighbours, degree, mask):
    """First stone of a double placement: legal iff some second stone completes a legal turn.
    With ``quick`` (the side has no stone on the board, as on every first turn) a sufficient
    condition is checked first: an empty neighbour ``x`` with an empty neighbour ``q`` not touching
    the stone; the two lone stones then share x's region and live, so the board changes.
    Otherwise the partner is searched by simulation."""
    n = board.shape[0]
    for p in range(n):
        mask[p] = False
        if not on_board[p] or board[p] != EMPTY:
            continue
        if quick and has_sharing_partner(board, p, neighbours, degree):
            mask[p] = True
            continue
        for k in range(1, n):
            q = (p + n // 2 + k) % n
            if q != p and on_board[q] and board[q] == EMPTY and turn_changes_board(
                    board, side, p, q, True, on_board, neighbours, degree):
                mask[p] = True
                break


@njit(cache=True)
def second_stone_mask(start, side, first, quick, on_board, neighbours, degree, mask):
    """Second stone of a double placement (``start``: the board before the first stone): legal
    iff the pair is a legal turn. With ``quick`` (the side has no other stone) a sufficient
    condition is checked first: the second stone does not touch the first and lies in a region
    next to it; the two lone stones then share a region and live. Otherwise simulate the pair."""
    with_first = start.copy()
    with_first[first] = side + 1
    labels, near = regions_next_to(with_first, first, on_board, neighbours, degree)
    for p in range(start.shape[0]):
        mask[p] = False
        if p == first or not on_board[p] or start[p] != EMPTY:
            continue
        if quick and near[labels[p]] and not adjacent(p, first, neighbours, degree):
            mask[p] = True
        else:
            mask[p] = turn_changes_board(start, side, first, p, True, on_board, neighbours, degree)


@njit(cache=True)
def lifeline_planes(board, alive_cell, links, on_board, mask, observer, legal_for_observer,
                    second_stone, swap, pie, removal_on, komi_plane, out):
    """Fill the observation ``out`` (H, W, 15) for side ``observer`` (see PLANES); ``pie`` is the
    index in PIES."""
    height, width = out.shape[0], out.shape[1]
    own = observer + 1
    for r in range(height):
        for c in range(width):
            i = r * width + c
            b = board[i]
            out[r, c, 0] = b == own
            out[r, c, 1] = b != EMPTY and b != own
            out[r, c, 2] = on_board[i] and b == EMPTY
            out[r, c, 3] = on_board[i]
            out[r, c, 4] = b == own and alive_cell[i]
            out[r, c, 5] = b != EMPTY and b != own and alive_cell[i]
            out[r, c, 6] = (links[i] >> observer) & 1
            out[r, c, 7] = legal_for_observer and mask[i]
            out[r, c, 8] = second_stone
            out[r, c, 9] = swap
            out[r, c, 10] = pie == 1
            out[r, c, 11] = pie == 2
            out[r, c, 12] = removal_on
            out[r, c, 13] = komi_plane
            out[r, c, 14] = observer


PLANES = (
    Plane("own_stones", "stones of the observer"),
    Plane("opponent_stones", "stones of the opponent"),
    Plane("empty", "empty cells of the board"),
    Plane("on_board", "cells of the hexagon inside the square grid"),
    Plane("own_alive", "the observer's stones in living groups"),
    Plane("opponent_alive", "the opponent's stones in living groups"),
    Plane("own_links", "empty cells next to two or more of the observer's groups"),
    Plane("legal", "the observer's legal placements (zeros when the observer is not to move)"),
    Plane("second_stone", "constant: 1 when the next stone is the second of a double placement"),
    Plane("swap_available", "constant: 1 when the player to move may swap now"),
    Plane("pie_weak", "constant: 1 under the weak pie"),
    Plane("pie_komi", "constant: 1 under the komi pie"),
    Plane("removal_on", "constant: 1 once dead groups are removed (always under the strong pie)"),
    Plane("komi_left", "constant: White's komi points left, round(100 * k / cells) clipped to 100",
          0, 100),
    Plane("side", "constant: 0 if the observer plays Black, 1 if White"),
)


class LifelineGame(Game):
    """Lifeline with fixed options: ``board_size`` (cells per side of the hexhex board, 3..15,
    default 5; the designers recommend 3..12), ``pie`` (``"strong"``, ``"weak"``, ``"komi"``),
    ``komi`` (whole number of komi points for White under the komi pie, default 0), ``max_moves``."""

    name = "lifeline"
    sides = ("black", "white")
    special_actions = ("swap", "spend_komi")
    option_defaults = {"board_size": 5, "pie": "strong", "komi": 0}
    planes = PLANES

    def _validate(self, o):
        o["board_size"] = check_int("board_size", o["board_size"], 3, 15)
        o["pie"] = check_choice("pie", o["pie"], PIES)
        o["komi"] = check_number("komi", o["komi"], integer=True, low=0, high=10_000)
        self.pie_index = PIES.index(o["pie"])
        return hexhex(o["board_size"])

    def default_max_moves(self) -> int:
        return 20 * self.geometry.num_points


class LifelineState(GameState):
    __slots__ = ("pending", "first_turn_done", "swap_used", "removal_on", "komi_left",
                 "alive_cell", "links", "all_alive")

    def _init_extra(self):
        self.pending = -1  # the first stone of a double placement awaiting its second
        self.first_turn_done = [False, False]  # per side
        self.swap_used = False
        self.removal_on = self.game.options["pie"] == "strong"
        self.komi_left = self.game.options["komi"] if self.game.options["pie"] == "komi" else 0

    def _extra_fields(self):
        return {"pending": self.pending, "first_turn_done": list(self.first_turn_done),
                "swap_used": self.swap_used, "removal_on": self.removal_on, "komi_left": self.komi_left}

    def _load_extra(self, data):
        self.pending = int(data["pending"])
        self.first_turn_done = [bool(x) for x in data["first_turn_done"]]
        self.swap_used = bool(data["swap_used"])
        self.removal_on = bool(data["removal_on"])
        self.komi_left = int(data["komi_left"])
        if len(self.first_turn_done) != 2 or self.komi_left < 0:
            raise ValueError("state dict: bad 'first_turn_done' or 'komi_left'")
        if self.pending >= 0 and self.board[self.pending] != self.to_move + 1:
            raise ValueError("state dict: 'pending' must be a stone of the side to move")

    def _clone_extra(self, new):
        new.pending = self.pending
        new.first_turn_done = self.first_turn_done.copy()
        new.swap_used = self.swap_used
        new.removal_on = self.removal_on
        new.komi_left = self.komi_left
        new.alive_cell = self.alive_cell.copy()
        new.links = self.links.copy()
        new.all_alive = self.all_alive

    # --- the rules ----------------------------------------------------------------------------
    def _double_turn(self) -> bool:
        return self.game.pie_index == 0 and not self.first_turn_done[self.to_move]

    def _swap_available(self) -> bool:
        return (self.game.options["pie"] != "komi" and self.to_move == 1 and not self.swap_used
                and not self.first_turn_done[1] and self.pending < 0)

    def _refresh(self):
        g = self.game.geometry
        self.alive_cell = np.zeros(g.num_cells, dtype=np.bool_)
        self.links = np.zeros(g.num_cells, dtype=np.int8)
        self.all_alive, _ = analyse(self.board, self.to_move, g.on_board, g.neighbours, g.degree,
                                    self.alive_cell, self.links, self.mask[:g.num_cells])
        self._finish_mask()

    def _finish_mask(self):
        """The mask of the side to move, given the local mask ``describe`` left in ``mask``: exact
        where the local rule does not hold."""
        g = self.game.geometry
        board, side, cells = self.board, self.to_move, self.mask[:g.num_cells]
        args = (g.on_board, g.neighbours, g.degree)
        if self.pending >= 0:
            start = board.copy()
            start[self.pending] = EMPTY
            lone = not np.any(start == side + 1)
            second_stone_mask(start, side, self.pending, lone, *args, cells)
        elif self._double_turn():
            first_stone_mask(board, side, not np.any(board == side + 1), *args, cells)
        elif not self.removal_on:
            if np.count_nonzero(board) + 1 >= 4:  # this turn brings the fourth stone: it removes
                exact_single_mask(board, side, True, *args, cells)
            else:
                cells[:] = g.on_board & (board == EMPTY)
        elif not self.all_alive:
            exact_single_mask(board, side, True, *args, cells)
        has_placement = bool(cells.any())
        self.mask[-2] = self._swap_available()
        self.mask[-1] = (self.game.options["pie"] == "komi" and side == 1 and self.removal_on
                         and self.komi_left > 0 and has_placement and self.pending < 0)

    def _apply(self, action):
        game = self.game
        n = game.num_cells
        side = self.to_move
        if action == n:  # swap: the agents exchange sides, White's first turn is still to play
            self.flip ^= 1
            self.swap_used = True
            self._finish_mask()
            return
        if action == n + 1:  # spend a komi point instead of placing
            self.komi_left -= 1
            self.to_move = 1 - side
            self._refresh()
            self._end_turn(side)
            return
        if self.pending >= 0:
            self.pending = -1
        elif game.pie_index == 0 and not self.first_turn_done[side]:  # first stone of a pair
            self.board[action] = side + 1
            self.pending = action
            self._refresh()
            return
        elif not self.removal_on and np.count_nonzero(self.board) >= 3:  # the fourth stone
            self.removal_on = True
        self.all_alive, legal = play_stone(self.board, side, action, self.removal_on, *game.kernel_args,
                                           self.alive_cell, self.links, self.mask[:n])
        self.first_turn_done[side] = True
        self.to_move = opponent = 1 - side
        if self.all_alive and self.removal_on and self.first_turn_done[opponent]:
            # the usual case: the local mask is exact, no swap; only a komi spend to settle
            self.mask[n] = 0
            self.mask[n + 1] = spend = (opponent == 1 and self.komi_left > 0 and legal > 0
                                        and game.pie_index == 2)
            if legal == 0 and not spend:
                self.terminal = True
                self.winner = side
            return
        self._finish_mask()
        self._end_turn(side)

    def _end_turn(self, side):
        if not self.mask.any():  # the player to act has no legal action: the last to place wins
            self.terminal = True
            self.winner = side

    def observation(self, player: int) -> np.ndarray:
        side = player ^ self.flip
        g = self.game
        geo = g.geometry
        komi_plane = min(100, round(100 * self.komi_left / geo.num_points)) if self.komi_left else 0
        out = np.empty(g.obs_shape, dtype=np.int8)
        lifeline_planes(self.board, self.alive_cell, self.links, geo.on_board, self.mask, side,
                        side == self.to_move and not self.terminal, self.pending >= 0,
                        self._swap_available(), g.pie_index, self.removal_on, komi_plane, out)
        return out

    def overlays(self):
        dead = (self.board > 0) & ~self.alive_cell
        return [(dead, (220, 50, 50), 0.45), (self.links > 0, (60, 160, 90), 0.3)]

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
