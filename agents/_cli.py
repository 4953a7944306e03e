"""argparse ``type=`` functions for the command-line programs (:mod:`agents.arena`,
:mod:`agents.play`): a bad value becomes argparse's usage error (exit code 2) naming the argument,
and quotes at most a short excerpt of what was typed (argparse's own ``choices`` and ``type=int``
echo the whole value)."""
from __future__ import annotations

import argparse
import re

from territory_envs import registry
from territory_envs.core.options import excerpt

_INTEGER = re.compile(r"[+-]?[0-9]{1,4000}")  # int() takes up to 4300 digits


def integer(low: int | None = None, even: bool = False, meaning: str = ""):
    """An integer ``>= low`` (and even where ``even``); ``meaning`` says why, in the message."""
    def parse(text: str) -> int:
        if not _INTEGER.fullmatch(text.strip()):
            raise argparse.ArgumentTypeError(f"invalid int value: {excerpt(text)}")
        value = int(text)
        if (low is not None and value < low) or (even and value % 2):
            wanted = " ".join(filter(None, ["an even" if even else "an", "integer",
                                            None if low is None else f">= {low}"]))
            raise argparse.ArgumentTypeError(f"{excerpt(value)}: must be {wanted}{meaning}")
        return value
    parse.__name__ = "integer"
    return parse


def choice(allowed):
    """One of ``allowed``, in place of argparse's ``choices`` (give an optional argument
    ``metavar=metavar(allowed)`` for its usage line; a positional one is named by its metavar in
    argparse's messages, so list the choices in its help instead)."""
    def parse(text: str) -> str:
        if text not in allowed:
            raise argparse.ArgumentTypeError(f"invalid choice: {excerpt(text)} (choose from "
                                             f"{', '.join(map(repr, allowed))})")
        return text
    parse.__name__ = "choice"
    return parse


def nonempty(text: str) -> str:
    """A non-empty string (a file or folder name)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("must not be empty")
    return text


def metavar(allowed) -> str:
    return "{" + ",".join(allowed) + "}"


def options_by_game() -> dict:
    """Option name -> {game: default}, over every game of the registry."""
    options: dict = {}
    for game, entry in registry().items():
        for name, default in entry["options"].items():
            options.setdefault(name, {})[game] = default
    return options


def defaults_text(option: str) -> str:
    """The default of ``option`` in every game that takes it: ``"lin: 9; lifeline: 5"``, games with
    the same default named together."""
    by_value: dict = {}
    for game, default in options_by_game()[option].items():
        by_value.setdefault(str(default), []).append(game)
    if len(by_value) == 1 and len(next(iter(by_value.values()))) == len(registry()):
        return next(iter(by_value))
    return "; ".join(f"{', '.join(games)}: {value}" for value, games in by_value.items())
