"""Lifeline's rules, in the order of docs/rules/lifeline.txt, so that the two read side by side.
The turn that strings them together (a double first turn, a pending stone, the swap, the komi
spend) is :mod:`.turn`; the legal mask of every kind of turn, :mod:`.mask`.

1. Definitions: a group and a dead group (``core.kernels.liveness``), and what they say of each
   cell and of the placements that follow (:func:`describe`, :func:`analyse`).
2. Play: place, remove the dead enemy groups, then the dead friendly ones (:func:`settle`,
   :func:`play_stone`); the board must change (:func:`turn_changes_board`); the last player to
   place wins (:func:`last_to_place_wins`); White may swap on its first turn
   (:func:`swap_available`).
3. Variants: the strong, weak and komi pies (:data:`PIES`, :data:`REMOVAL_FROM`,
   :func:`start_slots`, :func:`komi_spend_legal`).
"""
from __future__ import annotations

from ...core.fields import TERMINAL, TO_MOVE, WINNER
from ...core.jit import kernel
from ...core.kernels import EMPTY, colour_of, liveness, other_colour
from .row import FIRST_WHITE, KOMI_LEFT, PENDING, REMOVAL_ON, SWAP_USED
from .structure import build_memo

PIES = ("strong", "weak", "komi")  # the ``pie`` option; its index is the ``pie`` of the kernels
STRONG, WEAK, KOMI = range(3)


# --- Definitions: "A group is dead if there is no path of connected empty cells between that group
# and any other group of its color" (core.kernels.liveness labels groups and regions and judges them)
@kernel
def describe(board, side, labels, alive, reach, on_board, alive_cell, mask):
    """From a liveness result: ``alive_cell`` (stones of living groups) and the local legal mask of
    ``side`` (empty cells whose region touches one of its groups) into ``mask``; returns whether
    every group on the board lives (the condition under which the local mask is exact) and the
    number of legal cells."""
    all_alive = True
    legal = 0
    for i in range(board.shape[0]):
        alive_cell[i] = False
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
    return all_alive, legal


@kernel
def analyse(board, side, on_board, neighbours, degree, alive_cell, links, mask, memo=None):
    """Derived facts of a position with ``side`` to move: ``links`` (per empty cell, bit ``c`` set
    when it touches two or more groups of colour ``c``), ``memo`` if given, and ``describe``'s,
    whose result it returns."""
    labels, count, alive, reach = liveness(board, on_board, neighbours, degree, links)
    if memo is not None:
        build_memo(board, labels, count, neighbours, degree, memo)
    return describe(board, side, labels, alive, reach, on_board, alive_cell, mask)


# --- Play: "Place a stone of your color on an empty cell. [...] Remove all dead enemy groups.
# Remove all dead friendly groups."
@kernel
def settle(board, side, on_board, neighbours, degree, links=None):
    """Remove the dead enemy groups of ``side`` (0 Black, 1 White), then its dead friendly groups.
    Returns ``(labels, count, alive, reach)`` of the final board (see ``liveness``; with ``links``,
    the final board's links go there)."""
    mover = colour_of(side)
    enemy = other_colour(mover)
    labels, count, alive, reach = liveness(board, on_board, neighbours, degree, links)
    for colour in (enemy, mover):
        removed = False
        for i in range(board.shape[0]):
            if board[i] == colour and not alive[labels[i]]:
                board[i] = EMPTY
                removed = True
        if removed:  # freed cells may revive friendly groups; recompute before judging them
            labels, count, alive, reach = liveness(board, on_board, neighbours, degree, links)
    return labels, count, alive, reach


@kernel
def play_stone(board, side, cell, removal, on_board, neighbours, degree, alive_cell, links, mask, memo):
    """Place ``side``'s stone on ``cell`` (the last stone of its turn), remove if ``removal``, and
    describe the position for the opponent (as ``analyse``, ``memo`` included). Returns
    ``describe``'s result."""
    board[cell] = colour_of(side)
    if removal:
        labels, count, alive, reach = settle(board, side, on_board, neighbours, degree, links)
    else:
        labels, count, alive, reach = liveness(board, on_board, neighbours, degree, links)
    build_memo(board, labels, count, neighbours, degree, memo)
    return describe(board, 1 - side, labels, alive, reach, on_board, alive_cell, mask)


# --- "The board positions at the start and at the end of your turn must be different."
@kernel
def turn_changes_board(start, side, first, second, removal, on_board, neighbours, degree):
    """Would placing ``first`` (and ``second`` if >= 0) from the board ``start``, then removing,
    leave a board different from ``start``?

    One liveness of the board with the stones placed decides, without removing anything: a dead
    enemy group is removed from cells that held its stones at the start, so the board changes;
    otherwise the friendly groups are judged on that same board, and the board changes iff a placed
    stone lives or a stone of the start dies."""
    if not removal:
        return True  # the placed stone stays
    mover = colour_of(side)
    board = start.copy()
    board[first] = mover
    if second >= 0:
        board[second] = mover
    labels, _, alive, _ = liveness(board, on_board, neighbours, degree)
    for i in range(board.shape[0]):
        if board[i] == EMPTY:
            continue
        lives = alive[labels[i]]
        if board[i] != mover and not lives:  # a dead enemy group goes
            return True
        if board[i] == mover and lives == (start[i] == EMPTY):  # placed and lives, or old and dies
            return True
    return False


# --- "The last player to make a placement wins."
@kernel(inline="always")
def last_to_place_wins(s, side):
    """The player to act has no legal action: the game ends and ``side``, the last to place, wins."""
    s[TERMINAL] = 1
    s[WINNER] = side


# --- "White will have the option, on their first turn only, to swap sides with Black."
@kernel
def swap_available(s, pie):
    """May the player to move swap now (the strong and weak pies, White's first turn, no swap yet)?"""
    return pie != KOMI and s[TO_MOVE] == 1 and s[SWAP_USED] == 0 and s[FIRST_WHITE] == 0 and s[PENDING] < 0


# --- Variants: the strong pie (a double first turn), the weak pie ("dead groups are not removed
# until there are at least four stones on the board") and the komi pie ("White will have the option
# to spend a point of komi instead of making a placement")
REMOVAL_FROM = 4  # under the weak and komi pies, dead groups are removed from the fourth stone on


@kernel
def start_slots(s, pie, komi):
    """Lifeline's own slots of a new game's row: no pending stone, removal on under the strong
    pie, the komi points under the komi pie."""
    s[PENDING] = -1
    s[REMOVAL_ON] = pie == STRONG
    s[KOMI_LEFT] = komi if pie == KOMI else 0


@kernel(inline="always")
def komi_spend_legal(s, pie, side, has_placement):
    """May ``side``, to move, spend a komi point instead of placing (the komi pie: White, with
    points left, once removal is on, not in the middle of a double placement, and only while it has
    a placement it could make instead)?"""
    return (pie == KOMI and side == 1 and s[REMOVAL_ON] == 1 and s[KOMI_LEFT] > 0 and has_placement
            and s[PENDING] < 0)
