"""Asli: the PettingZoo AEC environment.

Asli is a territory game for Black and White on a square board with a prison (rules:
``territory_envs/games/asli/``). We implement the text of ``asli.txt``; a different published
version (with a lone-group exception and prisoners cancelling in pairs) is not this one. Place a
stone and send every dead enemy group to the prison, or take an enemy stone out of the prison; a
group is dead unless an empty region next to it touches another group of its colour. No friendly
group may be dead at the end of your turn; a minimal incursion may not answer a minimal incursion.
The last player to act wins; recreating an earlier position with a placement is a draw.

=================  ===========================================================================
Agents             ``player_0``, ``player_1``; ``player_0`` plays Black unless
                   ``reset(options={"swap_sides": True})``. Each player's first turn places two
                   stones: the same agent acts twice in a row.
Actions            ``Discrete(board_size**2 + 1)``: ``r * board_size + c`` places on row ``r``,
                   column ``c`` (row 0 is the top row); ``board_size**2`` is ``remove_prisoner``
                   (take one enemy stone out of the prison, a whole turn).
Observation        ``{"observation": int8 (board_size, board_size, 14), "action_mask": int8 (N+1,)}``
Rewards            +1 to the last player to act, -1 to the player left without a legal action; 0 to
                   both on a draw by repetition or truncation.
Infos              numbers only, the same keys from ``reset`` on: ``side`` (0 Black, 1 White),
                   ``winner`` (the winning agent's index; -1 while playing, on a draw or a
                   truncation), ``score`` (always 0.0: the game has no score), ``illegal_action_by`` (the offender's index
                   after an illegal action, which ends the game, else -1),
                   ``prison_black`` and ``prison_white`` (stones of each colour in the prison).
Options            ``board_size`` 4..25 (9), ``komi`` whole number >= 0 (0): black stones in the
                   prison at the start, each an extra action for White; ``max_moves``
                   (20 * points + 2 * komi), ``render_mode``,
                   ``render_overlays`` (tint derived facts in pictures), ``illegal_action`` (``"lose"``, the default, or ``"raise"``).
=================  ===========================================================================

Observation planes, from the observing agent's point of view:

=====  ===================  ========================================================================
Index  Name                 Meaning
=====  ===================  ========================================================================
0      own_stones           stones of the observer
1      opponent_stones      stones of the opponent
2      empty                empty points
3      on_board             points of the board (all ones)
4      own_territory        empty points of territories the observer owns
5      opponent_territory   empty points of territories the opponent owns
6      own_danger           the observer's stones in groups alive through a single empty region
7      opponent_danger      the opponent's stones in groups alive through a single empty region
8      legal                the observer's legal placements (zeros when the observer is not to move)
9      own_prisoners        constant: enemy stones in the prison the observer may remove,
                            round(100 * k / points) clipped to 100
10     opponent_prisoners   constant: the observer's stones in the prison, same scale
11     ban                  constant: 1 if the last turn was a minimal incursion (the player to move
                            may not make one)
12     second_stone         constant: 1 when the next stone is the second of a double placement
13     side                 constant: 0 if the observer plays Black, 1 if White
=====  ===================  ========================================================================

Guarantees of ``env()``: PettingZoo's order enforcement, bounds and illegal-action checks are built
in (see ``territory_envs.core.env``). The game state is ``env.unwrapped.game_state`` (docs/spec.md state
API); ``env.state()`` is PettingZoo's global state (the side to move's planes and the agent seeing
them, in ``env.state_space``); ``parallel_env()`` is the same env as a PettingZoo ``ParallelEnv``.
"""
from __future__ import annotations

from .core.env import define_env
from .games.asli import AsliGame

raw_env, env, parallel_env = define_env(AsliGame, "asli_v0", __doc__, __name__)
