"""Lin's rules as code: the living domains of each colour (:func:`living_domains`,
:func:`refresh_lin`), a placement and its removals (:func:`place_lin`, with the shortcut of
:func:`domain_survives`), and the scores (:func:`lin_scores`)."""
from __future__ import annotations

import numpy as np

from ...core.jit import kernel
from ...core.kernels import EMPTY, colour_of, components_holding, mark_line_ends, other_colour


@kernel
def living_domains(board, colour, height, width, line_length, neighbours, degree, out):
    """Write into ``out`` (bool (N,)) the points that lie in living domains of ``colour``."""
    member = board != other_colour(colour)
    line_ends = np.empty(member.shape[0], dtype=np.bool_)
    mark_line_ends(member, height, width, line_length, line_ends)
    components_holding(member, line_ends, neighbours, degree, out)


@kernel
def refresh_lin(board, height, width, line_length, neighbours, degree, alive, mask, to_move):
    """Living domains of both colours into ``alive`` (2, N), the legal mask of side ``to_move``
    (0 Black, 1 White) into ``mask``; returns the number of contested points."""
    living_domains(board, 1, height, width, line_length, neighbours, degree, alive[0])
    living_domains(board, 2, height, width, line_length, neighbours, degree, alive[1])
    contested = 0
    for i in range(board.shape[0]):
        if alive[0, i] and alive[1, i]:
            contested += 1
        mask[i] = board[i] == EMPTY and alive[to_move, i]
    return contested


@kernel
def has_dead_stones(board, colour, alive_row):
    """Is some stone of ``colour`` outside that colour's living domains (``alive_row``)? (One
    straight pass, no early exit: it runs at every move and is nearly always false.)"""
    dead = False
    for i in range(board.shape[0]):
        dead |= (board[i] == colour) & (not alive_row[i])
    return dead


# the eight cells around a point in cyclic order (each 4-adjacent to the next); even entries are
# its orthogonal neighbours
RING = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))


@kernel
def domain_survives(board, cell, mover, height, width, line_length):
    """A stone of ``mover`` has just landed on ``cell`` inside a living domain ``D`` of the other
    colour (members: points not holding ``mover``). Is ``D - cell`` surely still one living
    domain? Yes if (1) the member neighbours of ``cell`` all lie on one arc of member points around
    it (a path through ``cell`` then goes around it: no split) and (2) a line of ``line_length``
    members passes through a neighbour of ``cell`` along a row or column (that line lies in
    ``D - cell``). False means "not sure": the caller floods."""
    r, c = cell // width, cell % width
    member = np.empty(8, dtype=np.bool_)
    start = -1  # a ring point outside the domain: arcs are counted from it, so none wraps around
    for k in range(8):
        rr, cc = r + RING[k][0], c + RING[k][1]
        member[k] = 0 <= rr < height and 0 <= cc < width and board[rr * width + cc] != mover
        if not member[k] and start < 0:
            start = k
    if start < 0:
        arcs = 1  # the whole ring is in the domain
    else:
        arcs = 0  # arcs of member ring points that hold an orthogonal neighbour
        in_arc = False
        holds_neighbour = False
        for t in range(1, 9):
            k = (start + t) % 8
            if member[k]:
                holds_neighbour = holds_neighbour or k % 2 == 0
                in_arc = True
            elif in_arc:
                arcs += holds_neighbour
                in_arc = False
                holds_neighbour = False
    return False if arcs != 1 else line_next_to(board, r, c, mover, height, width, line_length)


@kernel
def line_next_to(board, r, c, mover, height, width, length):
    """Does a run of ``length`` members (points not holding ``mover``, which holds (r, c)) pass
    through an orthogonal neighbour of (r, c), along a row or a column?"""
    for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        nr, nc = r + dr, c + dc
        if not (0 <= nr < height and 0 <= nc < width) or board[nr * width + nc] == mover:
            continue
        for along_row in (True, False):
            sr, sc = (0, 1) if along_row else (1, 0)
            run = 1
            for sign in (1, -1):  # both ways from the neighbour (towards (r, c) stops at once)
                rr, cc = nr + sign * sr, nc + sign * sc
                while run < length and 0 <= rr < height and 0 <= cc < width and board[rr * width + cc] != mover:
                    run += 1
                    rr += sign * sr
                    cc += sign * sc
            if run >= length:
                return True
    return False


@kernel
def place_lin(board, side, cell, height, width, line_length, neighbours, degree, alive, mask):
    """Side ``side`` (0 Black, 1 White) places on ``cell`` (legal); enemy stones in no living
    enemy domain are removed; ``alive`` and ``mask`` (for the enemy, who moves next) are updated.
    Returns ``(removed, contested)``."""
    mover = colour_of(side)
    enemy = other_colour(mover)
    board[cell] = mover
    removed = 0
    # a stone outside the enemy's living domains changes none of them (it only leaves a dead one,
    # or no domain of the enemy). Enemy stones already dead (a position set up by hand: play never
    # leaves any) need the full pass.
    if has_dead_stones(board, enemy, alive[enemy - 1]):
        settled = False
    elif not alive[enemy - 1, cell]:
        settled = True
    else:
        # in a living enemy domain: it stays one living domain if the stone splits nothing around
        # it and a line passes through a neighbour of the stone
        settled = domain_survives(board, cell, mover, height, width, line_length)
        alive[enemy - 1, cell] = False
    if not settled:
        living_domains(board, enemy, height, width, line_length, neighbours, degree, alive[enemy - 1])
        for i in range(board.shape[0]):
            if board[i] == enemy and not alive[enemy - 1, i]:
                board[i] = EMPTY
                removed += 1
    if removed > 0:
        # the mover's domains ("not the enemy") only grow when enemy stones go; its own stone on a
        # point of its living domain changes nothing for it
        living_domains(board, mover, height, width, line_length, neighbours, degree, alive[mover - 1])
    contested = 0
    for i in range(board.shape[0]):
        both = alive[0, i] and alive[1, i]
        contested += both
        mask[i] = board[i] == EMPTY and alive[enemy - 1, i]
    return removed, contested


@kernel
def lin_scores(alive, komi):
    """Points in living domains of each colour, komi added to White's: ``(black, white)``."""
    black = 0
    white = komi
    for i in range(alive.shape[1]):
        black += alive[0, i]
        white += alive[1, i]
    return black, white
