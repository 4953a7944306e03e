"""Threes: a fifth game, written only to show that a game plugs into every layer of territory_envs
through its own package and one ``register_game`` call (docs/architecture.md, "Adding a game").

The rules (``rules.txt`` beside this file):

* Black and White take turns placing a stone of their colour on an empty point of a square board
  (``board_size`` 3..7, default 5). Black moves first. There is no pass.
* A player who makes ``line_length`` (3 by default, 3..board_size) of their stones in a row,
  orthogonally or diagonally, wins at once.
* A full board without such a row is a draw. There is no score.

Where things are, one file per part as in the package's own games:

* :mod:`.rules`: the row through a stone, compiled;
* :mod:`.compiled`: the compiled interface the generic kernels call (``core.compiled``);
* :mod:`.state`: :class:`ThreesGame` and :class:`ThreesState`, and the greedy evaluation;
* :mod:`.reference`: a slow reference written from the rule text alone, for the differential test.
"""
from territory_envs import GameDeclaration

from .state import ThreesGame, ThreesState, evaluate  # noqa: F401

GAME = GameDeclaration(ThreesGame, "Threes", evaluate, env_doc=__doc__)
