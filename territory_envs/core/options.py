"""Validation of game options: a bad option raises ``ValueError`` naming the option, the value and
what is allowed (SPEC.md)."""
from __future__ import annotations

import numbers


def check_int(name: str, value, low: int, high: int, *, odd: bool = False) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"option {name}={value!r}: must be an integer from {low} to {high}")
    value = int(value)
    if not low <= value <= high:
        raise ValueError(f"option {name}={value!r}: must be an integer from {low} to {high}")
    if odd and value % 2 == 0:
        raise ValueError(f"option {name}={value!r}: must be odd (allowed: odd integers from {low} to {high})")
    return value


def check_number(name: str, value, *, integer: bool = False, low=None, high=None):
    """A real number (or a whole number if ``integer``), optionally bounded; returned as int or float."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"option {name}={value!r}: must be a {'whole ' if integer else ''}number")
    if value != value or value in (float("inf"), float("-inf")):
        raise ValueError(f"option {name}={value!r}: must be a finite number")
    if integer:
        if value != int(value):
            raise ValueError(f"option {name}={value!r}: must be a whole number")
        value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError(f"option {name}={value!r}: must lie between {low} and {high}")
    return value


def check_choice(name: str, value, allowed: tuple) -> str:
    if value not in allowed:
        raise ValueError(f"option {name}={value!r}: must be one of {', '.join(map(repr, allowed))}")
    return value


def check_max_moves(value, default: int) -> int:
    if value is None:
        return default
    return check_int("max_moves", value, 1, 10**9)


def check_known(game: str, given: dict, known: tuple) -> None:
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise ValueError(f"{game}: unknown option {unknown[0]!r}; the options are {', '.join(known)}")
