"""The rules of Lifeline, as ``docs/rules/lifeline.txt`` and ``docs/rulings.md`` read them.

Black and White place stones on the cells of a hexhex board (6 neighbours).

* A *group* is a maximal connected set of same-coloured stones. A group is *dead* if no maximal
  empty region next to it also touches another group of its colour; a lone group is dead.
* A turn: place a stone (twice on each player's first turn in the standard game), then remove all
  dead enemy groups, then all dead friendly groups. The board at the end of the turn must differ
  from the board at its start (a placement whose only removed stone is itself is illegal).
* The last player to place wins: a player to act with no legal action loses.
* ``pie="strong"`` (default): double first placements; on White's first turn White may instead
  ``swap`` (action ``H*W``): the agents exchange sides, the board stays, White (the other agent now)
  plays White's first turn. ``pie="weak"``: one stone per turn; no removal until a turn brings the
  board to four stones (removal then stays on); White may swap on its first turn, after Black's
  single stone. ``pie="komi"``: the weak opening without swap; once removal is on, White may
  ``spend_komi`` (action ``H*W+1``) instead of placing, while ``komi`` points are left and White
  also has a legal placement.

The legal mask. When every group on the board is alive (so after every turn once removal is on), a
placement on ``p`` changes the board iff p's empty region touches a friendly group: then ``p`` joins
or shares a region with a friend and lives, and otherwise ``p`` lies in a region of enemies only,
whose six neighbours form a ring of empty arcs joined by enemy runs (at most one run off the board),
so every enemy group keeps a partner across the split and nothing but ``p`` can die. That is one
region labelling, linear in the cells. A first turn's pair, when the side has no other stone, is
legal iff it lives or an enemy group is dead already (a lemma, before :func:`first_stone_mask`).
Elsewhere (the turn that switches removal on, positions holding dead groups, pairs beside other
stones of the side) the mask is computed by simulating each candidate turn exactly; the differential
tests check all of these against the reference engine.

Play is incremental in the usual turn (removal on, one stone, every group alive before it): the
regions, groups, the number of each colour's groups next to each region, the life of each group
and each colour's placements are kept from move to move (``memo``). A stone changes only its own
region and the groups it joins (:func:`usual_turn`); a removed group's cells merge with the
regions next to them (:func:`remove_dead_groups`). Any other turn is settled and analysed whole
(:func:`build_memo`); the tests compare both ways at every usual turn.

Where things are:

* :mod:`.rules`: the rule text as code: a turn settled whole, the local rule's placements;
* :mod:`.structure`: the facts kept from move to move and the usual turn that updates them;
* :mod:`.row`: the layout of the scalar row and the declaration of the state's fields;
* :mod:`.mask`: the legal mask where the local rule does not cover it (exact simulation, double
  first turns) and the special actions;
* :mod:`.turn`: a whole action, compiled (shared by the state, the batch and the playouts), planes;
* :mod:`.compiled`: the compiled interface the generic kernels call (the batched env, the playouts);
* :mod:`.state`: :class:`LifelineGame` and :class:`LifelineState`.
"""
from .state import LifelineGame, LifelineState, evaluate
from ...core.declaration import GameDeclaration

GAME = GameDeclaration(LifelineGame, "Lifeline", evaluate, env_module="territory_envs.lifeline_v0",
                       cold_seconds=(24, 35), picture_moves=14)

__all__ = ["GAME", "LifelineGame", "LifelineState"]  # the public face; the kernels are imported from their modules
