"""Validation of game options: a bad option raises ``ValueError`` naming the option, the value and
what is allowed (docs/spec.md)."""
from __future__ import annotations

import numbers

import numpy as np


def excerpt(value, limit: int = 60) -> str:
    """``repr(value)`` cut to about ``limit`` characters, for error messages about user input."""
    text = repr(value) if not isinstance(value, str) or len(value) <= 4 * limit else repr(value[:2 * limit])
    return text if len(text) <= limit else text[:limit - 3] + "..."


class BoardDefault:
    """An option's default that follows the board size (``value(board_size)``); ``rule`` says how,
    in the words the docs and ``registry()`` show."""

    def __init__(self, rule: str, value):
        self.rule, self.value = rule, value

    def __repr__(self) -> str:
        return self.rule


def check_int(name: str, value, low: int, high: int, *, odd: bool = False) -> int:
    """An integer (``int`` or numpy integer, not ``bool``) in ``low..high``, as a plain ``int``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ValueError(f"option {name}={excerpt(value)}: must be an integer from {low} to {high}")
    value = int(value)
    if not low <= value <= high:
        raise ValueError(f"option {name}={excerpt(value)}: must be an integer from {low} to {high}")
    if odd and value % 2 == 0:
        raise ValueError(f"option {name}={value!r}: must be odd (allowed: odd integers from {low} to {high})")
    return value


def check_number(name: str, value, *, integer: bool = False, low=None, high=None):
    """A finite real number, optionally bounded, returned as a plain Python ``int`` (any whole value
    where ``integer``: ``2``, ``2.0`` and ``np.int64(2)`` all give ``2``; else any ``Integral``) or
    ``float`` (``np.float32`` and ``Fraction`` values a float holds exactly)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"option {name}={excerpt(value)}: must be a {'whole ' if integer else ''}number")
    try:
        plain = int(value) if isinstance(value, numbers.Integral) else float(value)
    except (OverflowError, ValueError):
        raise ValueError(f"option {name}={excerpt(value)}: must be a finite number") from None
    if plain != plain or plain in (float("inf"), float("-inf")):
        raise ValueError(f"option {name}={excerpt(value)}: must be a finite number")
    if plain != value:
        raise ValueError(f"option {name}={excerpt(value)}: must be a number that a float holds exactly")
    if integer:
        if plain != int(plain):
            raise ValueError(f"option {name}={excerpt(value)}: must be a whole number")
        plain = int(plain)
    if (low is not None and plain < low) or (high is not None and plain > high):
        bounds = (f"lie between {low} and {high}" if low is not None and high is not None
                  else f"be at least {low}" if low is not None else f"be at most {high}")
        raise ValueError(f"option {name}={excerpt(value)}: must {bounds}")
    return plain


def check_bool(name: str, value) -> bool:
    """``True`` or ``False`` (numpy's bools too), returned as a plain ``bool``."""
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name}={excerpt(value)}: must be True or False")
    return bool(value)


def check_choice(name: str, value, allowed: tuple):
    """One of ``allowed`` (strings or ``None``), returned as the allowed value itself (plain ``str``)."""
    if (value is None or isinstance(value, str)) and value in allowed:
        return allowed[allowed.index(value)]
    raise ValueError(f"option {name}={excerpt(value)}: must be one of {', '.join(map(repr, allowed))}")


def check_max_moves(value, default: int) -> int:
    if value is None:
        return default
    return check_int("max_moves", value, 1, 10**9)


def check_known(game: str, given: dict, known: tuple) -> None:
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise ValueError(f"{game}: unknown option {unknown[0]!r}; the options are {', '.join(known)}")
