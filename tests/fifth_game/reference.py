"""Threes written straight from ``rules.txt``, slowly and plainly: the legal placements, the end and
the winner of a position given as a list of rows."""


def legal(board):
    """The empty points, as (row, column)."""
    return [(r, c) for r, row in enumerate(board) for c, v in enumerate(row) if v == 0]


def has_row(board, colour, length):
    n = len(board)
    for r in range(n):
        for c in range(n):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, c + k * dc) for k in range(length)]
                if all(0 <= a < n and 0 <= b < n and board[a][b] == colour for a, b in cells):
                    return True
    return False


def play(board, colour, point, length):
    """The board after ``colour`` places on ``point``, and ``(over, winner colour or 0)``."""
    board = [row[:] for row in board]
    r, c = point
    assert board[r][c] == 0
    board[r][c] = colour
    if has_row(board, colour, length):
        return board, (True, colour)
    return board, (not legal(board), 0)
