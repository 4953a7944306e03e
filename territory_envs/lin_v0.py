"""Lin: the PettingZoo AEC environment.

Lin is a drawless territory game for Black and White on an odd square board (rules:
``territory_envs/games/lin/``). A *domain* of a colour is a connected set of points holding no
enemy stone; it lives if it contains ``line_length`` contiguous points in a row or column. Place a
stone on an empty point of one of your living domains; enemy stones left in no living domain are
removed. The game ends when no point lies in living domains of both colours; each side scores the
points of its living domains, White adds ``komi``.

=================  ===========================================================================
Agents             ``player_0``, ``player_1``; ``player_0`` plays Black unless
                   ``reset(options={"swap_sides": True})``.
Actions            ``Discrete(board_size**2)``: action ``r * board_size + c`` places on row ``r``,
                   column ``c`` (row 0 is the top row, written ``a<board_size>`` in notation).
Observation        ``{"observation": int8 (board_size, board_size, 10), "action_mask": int8 (N,)}``
Rewards            +1 win, -1 loss, 0 draw (only with an odd komi) or truncation, at the last step.
Infos              numbers only, the same keys from ``reset`` on: ``side`` (0 Black, 1 White),
                   ``winner`` (the winning agent's index; -1 while playing, on a draw or a
                   truncation), ``score`` (the agent's living points, komi included, once the game is over; else 0.0), ``illegal_action_by`` (the offender's index
                   after an illegal action, which ends the game, else -1).
Options            ``board_size`` odd 5..25 (9), ``line_length`` 2..board_size (6, or the board
                   size on the 5x5 board, as the rules allow on tiny boards), ``komi``
                   integer (0), ``max_moves`` (20 * points), ``render_mode``,
                   ``render_overlays`` (tint derived facts in pictures), ``illegal_action``
                   (``"lose"``, the default, or ``"raise"``).
=================  ===========================================================================

Observation planes, from the observing agent's point of view:

=====  =================  ==========================================================================
Index  Name               Meaning
=====  =================  ==========================================================================
0      own_stones         stones of the observer
1      opponent_stones    stones of the opponent
2      empty              empty points
3      on_board           points of the board (all ones: Lin boards are square)
4      own_living         points in living domains of the observer's colour
5      opponent_living    points in living domains of the opponent's colour
6      contested          points in living domains of both colours (the game ends when none is left)
7      legal              the observer's legal placements (zeros when the observer is not to move)
8      side               constant: 0 if the observer plays Black, 1 if White
9      komi               constant: round(100 * k / points) in [-100, 100], k = +komi for White,
                          -komi for Black
=====  =================  ==========================================================================

Guarantees of ``env()``: PettingZoo's order enforcement, bounds and illegal-action checks are built
in (see ``territory_envs.core.env``). The game state is ``env.unwrapped.game_state`` (docs/spec.md state
API); ``env.state()`` is PettingZoo's global state (the side to move's planes and the agent seeing
them, in ``env.state_space``); ``parallel_env()`` is the same env as a PettingZoo ``ParallelEnv``.
"""
from __future__ import annotations

from .core.env import define_env
from .games.lin import LinGame

raw_env, env, parallel_env = define_env(LinGame, "lin_v0", __doc__, __name__)
