"""The one rule of Threes that needs a search: does a stone make a row?"""
from numba import njit


@njit(cache=True)
def row_through(board, cell, size, line_length):
    """Whether the stone on ``cell`` lies in a row of ``line_length`` stones of its colour,
    horizontally, vertically or diagonally."""
    colour = board[cell]
    r, c = cell // size, cell % size
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        count = 1
        for sign in (1, -1):
            rr, cc = r + sign * dr, c + sign * dc
            while 0 <= rr < size and 0 <= cc < size and board[rr * size + cc] == colour:
                count += 1
                rr += sign * dr
                cc += sign * dc
        if count >= line_length:
            return True
    return False
