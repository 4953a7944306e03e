"""The rules of Lin, as ``docs/rules/lin.txt`` and ``docs/rulings.md`` read them.

Black and White place stones on an odd square board. A *domain* of a colour is a maximal
orthogonally connected set of points holding no stone of the other colour; it is *alive* if it
contains ``line_length`` orthogonally contiguous points in one row or column (own stones and empty
points both count).

* A placement is legal iff the point is empty and lies in a living domain of the mover's colour.
  There is no pass.
* After a placement every enemy stone in no living enemy domain is removed.
* The game ends right after a placement when no point lies in living domains of both colours.
* Score: points (stones and empty points) in living domains of one's colour, plus ``komi`` for
  White. Higher score wins; a tie (possible with an odd komi) is a draw.

Why the step is cheap: a domain is a component of "not the other colour", and a component is alive
iff it holds a run of ``line_length`` member cells (a run is connected, so it lies inside one
component): the living domains are a flood from the cells where a line ends, through the members,
which never visits a dead domain. Black's placement only shrinks White's domains, and removing White
stones does not change them, so White's living domains are found once, after the stone, and not at
all when the stone lies in none of them, or when it splits nothing around it and a line passes
through a neighbour (:func:`domain_survives`, a look at the stone's ring and its neighbours' rows
and columns); Black's
domains do not change unless White stones were removed, and only then are they found again. Every
kernel below is linear in the cells.

Where things are:

* :mod:`.rules`: the living domains, a placement and its removals, the scores;
* :mod:`.turn`: the end rule, the scalar row and the declared fields, a whole action, the planes;
* :mod:`.compiled`: the compiled interface the generic kernels call (the batched env, the playouts);
* :mod:`.state`: :class:`LinGame` and :class:`LinState`.
"""
from .state import LinGame, LinState, evaluate, ownership
from ...core.declaration import GameDeclaration

GAME = GameDeclaration(LinGame, "Lin", evaluate, ownership=ownership, env_module="territory_envs.lin_v0",
                       cold_seconds=(4, 9), picture_moves=24)

__all__ = ["GAME", "LinGame", "LinState"]  # the public face; the kernels are imported from their modules
