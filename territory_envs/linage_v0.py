"""Linage: the PettingZoo AEC environment.

Linage is a finite territory game for Vertical and Horizontal on a square board, played with a
shared pool of neutral stones (rules: ``territory_envs/games/linage/``). A *region* is a connected
set of empty points; a *line* is ``line_length`` contiguous empty points in a row (horizontal) or a
column (vertical). Vertical owns the regions with no horizontal line, Horizontal those with no
vertical line; the others are free. Place a stone in a free region so that every region keeps a
line, or pass. Two passes in a row, or no free region left, end the game; each side scores the empty
points of its regions, Horizontal adds ``komi``.

=================  ===========================================================================
Agents             ``player_0``, ``player_1``; ``player_0`` plays Vertical (moves first) unless
                   ``reset(options={"swap_sides": True})``.
Actions            ``Discrete(board_size**2 + 1)``: action ``r * board_size + c`` places on row
                   ``r``, column ``c`` (row 0 is the top row); action ``board_size**2`` is ``pass``
                   (always legal while the game goes on).
Observation        ``{"observation": int8 (board_size, board_size, 12), "action_mask": int8 (N+1,)}``.
                   The board is not transposed for Horizontal: planes, mask and actions share the
                   frame of docs/spec.md, and the side plane tells the network whose lines are whose.
Rewards            +1 win, -1 loss, 0 draw (only with a whole-number komi) or truncation, at the
                   last step.
Infos              numbers only, the same keys from ``reset`` on: ``side`` (0 Vertical, 1 Horizontal),
                   ``winner`` (the winning agent's index; -1 while playing, on a draw or a
                   truncation), ``score`` (the agent's owned points, komi included, once the game is over; else 0.0), ``illegal_action_by`` (the offender's index
                   after an illegal action, which ends the game, else -1).
Options            ``board_size`` 3..25 (9), ``line_length`` 2..5 and at most the board size (3),
                   ``komi`` any number (0.5), ``max_moves`` (2 * points + 2: never reached),
                   ``render_mode``,
                   ``render_overlays`` (tint derived facts in pictures), ``illegal_action`` (``"lose"``, the default, or ``"raise"``).
=================  ===========================================================================

Observation planes, from the observing agent's point of view:

=====  ===================  ========================================================================
Index  Name                 Meaning
=====  ===================  ========================================================================
0      stones               stones (neutral, shared by both players)
1      empty                empty points
2      on_board             points of the board (all ones)
3      own_regions          empty points of regions owned by the observer
4      opponent_regions     empty points of regions owned by the opponent
5      free_regions         empty points of free regions (holding lines of both directions)
6      on_horizontal_line   empty points on some horizontal line
7      on_vertical_line     empty points on some vertical line
8      legal                the observer's legal placements (zeros when the observer is not to move)
9      side                 constant: 0 if the observer plays Vertical, 1 if Horizontal
10     komi                 constant: round(100 * k / points) in [-100, 100], k = +komi for
                            Horizontal, -komi for Vertical
11     opponent_passed      constant: 1 if the last move was a pass (another pass ends the game)
=====  ===================  ========================================================================

Guarantees of ``env()``: PettingZoo's order enforcement, bounds and illegal-action checks are built
in (see ``territory_envs.core.env``). The game state is ``env.unwrapped.game_state`` (docs/spec.md state
API); ``env.state()`` is PettingZoo's global state (the side to move's planes and the agent seeing
them, in ``env.state_space``); ``parallel_env()`` is the same env as a PettingZoo ``ParallelEnv``.
"""
from __future__ import annotations

from .core.env import define_env
from .games.linage import LinageGame

raw_env, env, parallel_env = define_env(LinageGame, "linage_v0", __doc__, __name__)
