"""benchmarks/az_strength.py: a match's games depend on their index alone, so a match played in two
parts (``--first``) is the same games as one played whole."""
from benchmarks.az_strength import _play, match


def test_a_match_in_two_parts_is_the_whole_match():
    whole = [_play(("lin", "random", "random", i, 2)) for i in range(8)]
    first = match("lin", "random", "random", 4, 2, 1)
    rest = match("lin", "random", "random", 4, 2, 1, first=4)
    assert sum(whole[:4]) != sum(whole[4:])  # the parts are different games, or this test could not fail
    assert first["points"] == sum(whole[:4]) and rest["points"] == sum(whole[4:])
    assert (first["games"], rest["games"]) == (4, 4)
