"""The rules of Linage, as ``docs/rules/linage.txt`` and ``docs/rulings.md`` read them.

Vertical and Horizontal share a pool of neutral stones on a square board; Vertical moves first.

* A *region* is a maximal orthogonally connected set of empty points. A *line* is ``line_length``
  (default 3) contiguous empty points in one row (horizontal line) or one column (vertical line).
* A region with no horizontal line is owned by Vertical, one with no vertical line by Horizontal;
  a region with both is *free*.
* A placement is legal iff the point is empty, lies in a free region, and afterwards every region
  still contains a line. Passing (action ``H*W``) is always legal.
* Two passes in succession end the game, and so does the moment no free region remains.
* Score: Vertical gets the empty points of regions with no horizontal line; Horizontal those of
  regions with no vertical line, plus ``komi``. Stones count for nobody. Equal scores are a draw.

The legal mask by a local rule, linear in the cells. A stone on ``p`` touches only p's region R,
and splits it into the components of ``R - p``, each holding a neighbour of ``p``. A line avoids
``p`` or dies, so ``p`` is legal iff from every empty neighbour of ``p`` a line avoiding ``p`` can be
reached within ``R - p``. Usually the neighbour itself lies on one (run lengths in its row and
column say so at once); otherwise a breadth-first search from it looks for one, visiting at most
``SEARCH_CAP`` cells (it meets a line, or the component ends: ``p`` is illegal).

When a search gives up, the low-link method decides every candidate of the position at once
(:func:`lowlink_legal`). One depth-first pass per free region (Tarjan's low-links) gives, for every
``p``, the components of ``R - p``: the subtrees of the children ``c`` with ``low[c] >= disc[p]``,
and the rest of the region when ``p`` is not the root. Count each line once, at its first cell. The
lines of a component are the line starts in it (subtree sums) minus the at most
``2 * (line_length - 1)`` lines through ``p`` that start in it (found by their DFS discovery
interval). ``p`` is legal iff every component keeps at least one line. In 20,000 positions of random
9x9 games no search gave up (about 16 searches of a few cells per position).

Play is incremental (:func:`place_stone`). The run lengths and safe bits (:func:`line_facts`) are
kept from move to move: a stone changes them only in its row and column (:func:`place_line_facts`).
The regions are kept too (``memo``: a label per cell, line starts per region). A stone changes only
its own region, which was free: if its empty neighbours are joined round it, the region cannot
split and only loses the lines through the stone; otherwise the parts it leaves are flooded and get
their owners and points (:func:`place_region_facts`). Legality is decided again only where it can
change: next to the stone and to cells whose safe bits changed, and at cells a search decided
whose searched box the stone falls in. A position given whole (a new game, a loaded state) is
analysed in full (:func:`line_facts`, then :func:`region_facts`); the tests compare both ways at
every move.

Where things are:

* :mod:`.layout`: the kinds of region, the search cap, the layout of the kept regions;
* :mod:`.lines`: the runs and safe bits of every cell, kept from move to move;
* :mod:`.mask`: the local rule of the legal mask and the low-link method;
* :mod:`.regions`: the regions kept from move to move and a stone's update of everything;
* :mod:`.turn`: the end rule, the scalar row and the declared fields, a whole action, the planes;
* :mod:`.compiled`: the compiled interface the generic kernels call (the batched env, the playouts);
* :mod:`.state`: :class:`LinageGame` and :class:`LinageState`.
"""
from .state import LinageGame, LinageState, evaluate, ownership
from ...core.declaration import GameDeclaration
from ...core.symmetry import square_axis_symmetries


def symmetries(game):
    """Vertical and Horizontal trade places under a quarter turn or a diagonal reflection: only the
    reflections in the axes and the half turn keep the rules."""
    return square_axis_symmetries(game.geometry.size)


GAME = GameDeclaration(LinageGame, "Linage", evaluate, ownership=ownership, env_module="territory_envs.linage_v0", symmetries=symmetries,
                       cold_seconds=(12, 21), picture_moves=30)

__all__ = ["GAME", "LinageGame", "LinageState"]  # the public face; the kernels are imported from their modules
