"""Lifeline: the PettingZoo AEC environment.

Lifeline is a territorial game for Black and White on the cells of a hexhex board (rules:
``territory_envs/games/lifeline/``). Place a stone, then remove dead enemy groups, then dead
friendly groups; a group is dead unless an empty region next to it touches another group of its
colour. The board must change during a turn. The last player to place wins. Three pie rules
balance the first move: ``strong`` (double first placements and White's swap), ``weak`` and
``komi``.

=================  ===========================================================================
Agents             ``player_0``, ``player_1``; ``player_0`` plays Black unless
                   ``reset(options={"swap_sides": True})``. A ``swap`` exchanges the sides between
                   the agents (names stay): ``infos[agent]["side"]`` always tells.
                   On each first turn of the strong pie the same agent acts twice in a row.
Board              hexhex of side ``b`` in the ``(2b-1) x (2b-1)`` grid of docs/spec.md: cell ``(r, c)``
                   is on the board iff ``b-1 <= r+c <= 3(b-1)``; neighbours ``(r-1,c) (r+1,c)
                   (r,c-1) (r,c+1) (r-1,c+1) (r+1,c-1)``. Off-board cells are never legal.
Actions            ``Discrete(H*W + 2)``: ``r * W + c`` places on cell ``(r, c)``; ``H*W`` is
                   ``swap``, ``H*W + 1`` is ``spend_komi`` (both masked when not available).
                   Notation: grid column letter and row number from the bottom (``e5`` is the
                   centre of side 5; ``a1`` its bottom-left corner).
Observation        ``{"observation": int8 (H, W, 15), "action_mask": int8 (H*W + 2,)}``
Rewards            +1 to the last player to place (the player left without a legal action gets
                   -1), 0 to both on truncation.
Infos              numbers only, the same keys from ``reset`` on: ``side`` (0 Black, 1 White),
                   ``winner`` (the winning agent's index; -1 while playing, on a draw or a
                   truncation), ``score`` (always 0.0: the game has no score), ``illegal_action_by`` (the offender's index
                   after an illegal action, which ends the game, else -1).
Options            ``board_size`` 3..15 (5; the designers recommend 3..12), ``pie`` ``"strong"``
                   (default), ``"weak"``, ``"komi"``, ``komi`` whole number >= 0 (0; only with
                   ``pie="komi"``: other pies refuse a komi other than 0),
                   ``max_moves`` (20 * cells), ``render_mode``,
                   ``render_overlays`` (tint derived facts in pictures), ``illegal_action`` (``"lose"``, the default, or ``"raise"``).
=================  ===========================================================================

Observation planes, from the observing agent's point of view:

=====  =================  ==========================================================================
Index  Name               Meaning
=====  =================  ==========================================================================
0      own_stones         stones of the observer
1      opponent_stones    stones of the opponent
2      empty              empty cells of the board
3      on_board           cells of the hexagon inside the square grid
4      own_alive          the observer's stones in living groups
5      opponent_alive     the opponent's stones in living groups
6      own_links          empty cells next to two or more of the observer's groups
7      legal              the observer's legal placements (zeros when the observer is not to move)
8      second_stone       constant: 1 when the next stone is the second of a double placement
9      swap_available     constant: 1 when the player to move may swap now
10     pie_weak           constant: 1 under the weak pie
11     pie_komi           constant: 1 under the komi pie
12     removal_on         constant: 1 once dead groups are removed (always under the strong pie)
13     komi_left          constant: White's komi points left, round(100 * k / cells) clipped to 100
14     side               constant: 0 if the observer plays Black, 1 if White
=====  =================  ==========================================================================

Guarantees of ``env()``: PettingZoo's order enforcement, bounds and illegal-action checks are built
in (see ``territory_envs.core.env``). The game state is ``env.unwrapped.game_state`` (docs/spec.md state
API); ``env.state()`` is PettingZoo's global state (the side to move's planes and the agent seeing
them, in ``env.state_space``); ``parallel_env()`` is the same env as a PettingZoo ``ParallelEnv``.
"""
from __future__ import annotations

from .core.env import define_env
from .games.lifeline import LifelineGame

raw_env, env, parallel_env = define_env(LifelineGame, "lifeline_v0", __doc__, __name__)
