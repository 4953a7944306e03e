"""A check two games share: Lifeline and Asli both start with first turns (a double placement
under Lifeline's strong pie and in Asli), whose flags a state dict must keep in step with the
board."""
from __future__ import annotations

import numpy as np

from ..core.kernels import colour_of


def check_first_turns(board: np.ndarray, to_move: int, pending: int, first: list, double: bool) -> None:
    """The first-turn flags against the board: Black's first turn comes before
    White's, and while a side's first turn (a double placement when ``double``) is not done, that
    side has no stone but the pending one and the turn is its own (Black's) or comes next."""
    if first[1] and not first[0]:
        raise ValueError("state dict: 'first_turn_done': White's first turn comes after Black's")
    for side in (0, 1):
        if first[side] or not double:
            continue
        own = int(np.count_nonzero(board == colour_of(side))) - (pending >= 0 and to_move == side)
        if own or (side == 0 and to_move != 0) or (side == 1 and first[0] and to_move != 1):
            raise ValueError(f"state dict: 'first_turn_done' says {('black', 'white')[side]}'s first turn "
                             f"is still to play, which the board and 'to_move' contradict")
