"""The rules of Asli, as ``docs/rules/asli.txt`` and ``docs/rulings.md`` read them.

We implement the text in ``asli.txt``. A different published version of Asli exists (with a
lone-group exception and prisoners cancelling in pairs); it is not this one.

Black and White play on a square board (4 neighbours); off the board lies the prison.

* A *group* is a maximal connected set of same-coloured stones; it is *dead* if no empty region
  next to it touches another group of its colour (a lone group is dead), as in Lifeline.
* A *territory* is a maximal connected set of empty points, owned by a player if every stone next
  to it is theirs (a territory touching no stone is nobody's). An *incursion* is a placement in a
  territory of the opponent (judged before the stone lands); it is *minimal* if it sends exactly
  one enemy group to the prison.
* A turn is one of: take one enemy stone out of the prison (action ``H*W``), or place a stone and
  move every dead enemy group to the prison. Each player's first turn places twice, capturing
  after each stone; a White first turn spent on a prison removal uses the double placement up.
* At the end of a turn no friendly group may be dead. A minimal incursion is illegal right after
  the opponent's minimal incursion (a prison removal in between clears the ban; a double first
  turn is minimal if either stone was, and the ban covers both stones).
* A player with no legal action loses. A placement turn that recreates a (board, player to move)
  seen at the end of any earlier turn or at the start ends the game in a draw: a Zobrist hash of
  every turn-boundary position is kept in the state.
* Komi pie: ``komi`` black stones start in the prison, each one an extra action for White.

The legal mask. At the start of every turn after the first ones, every group is alive. A stone on
``p`` in region ``R`` changes only ``R`` and the groups around it, and the new group ``G`` touches
every part of ``R - p``: so every other friendly group next to ``R`` shares a part with it, and the
stone is legal at once if ``G`` lives before any capture (captures only merge regions). That takes
counts made in one labelling pass (:func:`asli_structure`): the distinct groups of each colour per
region, the partner regions per group, the points of ``R`` each group touches. A stone whose group
does not live is legal iff it kills enemy groups (:func:`dying_groups`: only a group whose one
partner region is ``R`` can die; the parts of ``R - p`` come from a depth-first search of ``R`` with
low-links) whose removal revives ``G`` (:func:`captures_revive`), and it is no minimal incursion
under the ban. No point is simulated, and the mask takes time linear in the cells: each point
costs constant time. A cut point of a small region (up to ``SMALL_REGION`` points) scans the
region; a large region is searched once and its contacts with enemy groups listed in discovery
order, after which each point takes constant time (:func:`dying_by_ranges`). Whether a joining or
dying group touches another friendly group is looked at directly for small groups (up to
``DIRECT_WORK`` regions and stones) and through lists made once per position for large ones
(:func:`fill_contact_lists`). First turns are simulated. Tests compare the mask with the reference
engine at every step of random games, and with simulating every point.

The labelling is kept from move to move in each game's ``memo`` (:func:`label_structure`). A
prison removal leaves it as it is. A stone changes only its own region and the groups it joins
(:func:`structure_after_stone`): its region stays whole if the stone's empty neighbours lie in one
arc round it, ends if it has none, and is flooded for its parts otherwise (on boards of 8x8 and up;
a smaller board is labelled again, which is faster there). A capture labels the board again.
Tests compare the kept structure with a fresh labelling after every action of random games.

Where things are:

* :mod:`.rules`: the rule text as code: placements, captures, incursions, the direct legality of a turn;
* :mod:`.structure`: groups and territories, labelled and kept from move to move;
* :mod:`.mask`: the counting rule: the mask of a single-stone turn without simulation;
* :mod:`.turn`: a whole action, compiled (shared by the state, the batch and the playouts), planes;
* :mod:`.compiled`: the compiled interface the generic kernels call (the batched env, the playouts);
* :mod:`.state`: :class:`AsliGame` and :class:`AsliState`.
"""
from .state import AsliGame, AsliState, evaluate, ownership
from ...core.declaration import GameDeclaration

GAME = GameDeclaration(AsliGame, "Asli", evaluate, ownership=ownership, env_module="territory_envs.asli_v0",
                       cold_seconds=(26, 43), picture_moves=24)

__all__ = ["GAME", "AsliGame", "AsliState"]  # the public face; the kernels are imported from their modules
