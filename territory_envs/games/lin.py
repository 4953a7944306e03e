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
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange

from ..core.batch import after_action, final_viewer, record_action, skip_game
from ..core.fields import FLIP, HEAD, TERMINAL, TO_MOVE, WINNER, Array, Fields, head_code
from ..core.game import Game, GameState, Plane
from ..core.geometry import square
from ..core.kernels import (EMPTY, components_holding, mark_line_ends, random_set_index, winner_by_score,
                             winner_player)
from ..core.options import check_int, check_number


@njit(cache=True)
def living_domains(board, colour, height, width, line_length, neighbours, degree, out):
    """Write into ``out`` (bool (N,)) the points that lie in living domains of ``colour``."""
    member = board != (3 - colour)
    line_ends = np.empty(member.shape[0], dtype=np.bool_)
    mark_line_ends(member, height, width, line_length, line_ends)
    components_holding(member, line_ends, neighbours, degree, out)


@njit(cache=True)
def refresh_lin(board, height, width, line_length, neighbours, degree, alive, mask, to_move):
    """Living domains of both colours into ``alive`` (2, N), the legal mask of side ``to_move``
    (0 Black, 1 White) into ``mask``; returns the number of contested points."""
    living_domains(board, 1, height, width, line_length, neighbours, degree, alive[0])
    living_domains(board, 2, height, width, line_length, neighbours, degree, alive[1])
    contested = 0
    for i in range(board.shape[0]):
        if alive[0, i] and alive[1, i]:
            contested += 1
        mask[i] = board[i] == EMPTY and alive[to_move, i]
    return contested


@njit(cache=True)
def has_dead_stones(board, colour, alive_row):
    """Is some stone of ``colour`` outside that colour's living domains (``alive_row``)? (One
    straight pass, no early exit: it runs at every move and is nearly always false.)"""
    dead = False
    for i in range(board.shape[0]):
        dead |= (board[i] == colour) & (not alive_row[i])
    return dead


# the eight cells around a point in cyclic order (each 4-adjacent to the next); even entries are
# its orthogonal neighbours
RING = ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1))


@njit(cache=True)
def domain_survives(board, cell, mover, height, width, line_length):
    """A stone of ``mover`` has just landed on ``cell`` inside a living domain ``D`` of the other
    colour (members: points not holding ``mover``). Is ``D - cell`` surely still one living
    domain? Yes if (1) the member neighbours of ``cell`` all lie on one arc of member points around
    it (a path through ``cell`` then goes around it: no split) and (2) a line of ``line_length``
    members passes through a neighbour of ``cell`` along a row or column (that line lies in
    ``D - cell``). False means "not sure": the caller floods."""
    r, c = cell // width, cell % width
    member = np.empty(8, dtype=np.bool_)
    start = -1  # a ring point outside the domain: arcs are counted from it, so none wraps around
    for k in range(8):
        rr, cc = r + RING[k][0], c + RING[k][1]
        member[k] = 0 <= rr < height and 0 <= cc < width and board[rr * width + cc] != mover
        if not member[k] and start < 0:
            start = k
    if start < 0:
        arcs = 1  # the whole ring is in the domain
    else:
        arcs = 0  # arcs of member ring points that hold an orthogonal neighbour
        in_arc = False
        holds_neighbour = False
        for t in range(1, 9):
            k = (start + t) % 8
            if member[k]:
                holds_neighbour = holds_neighbour or k % 2 == 0
                in_arc = True
            elif in_arc:
                arcs += holds_neighbour
                in_arc = False
                holds_neighbour = False
    return False if arcs != 1 else line_next_to(board, r, c, mover, height, width, line_length)


@njit(cache=True)
def line_next_to(board, r, c, mover, height, width, length):
    """Does a run of ``length`` members (points not holding ``mover``, which holds (r, c)) pass
    through an orthogonal neighbour of (r, c), along a row or a column?"""
    for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
        nr, nc = r + dr, c + dc
        if not (0 <= nr < height and 0 <= nc < width) or board[nr * width + nc] == mover:
            continue
        for along_row in (True, False):
            sr, sc = (0, 1) if along_row else (1, 0)
            run = 1
            for sign in (1, -1):  # both ways from the neighbour (towards (r, c) stops at once)
                rr, cc = nr + sign * sr, nc + sign * sc
                while run < length and 0 <= rr < height and 0 <= cc < width and board[rr * width + cc] != mover:
                    run += 1
                    rr += sign * sr
                    cc += sign * sc
            if run >= length:
                return True
    return False


@njit(cache=True)
def place_lin(board, side, cell, height, width, line_length, neighbours, degree, alive, mask):
    """Side ``side`` (0 Black, 1 White) places on ``cell`` (legal); enemy stones in no living
    enemy domain are removed; ``alive`` and ``mask`` (for the enemy, who moves next) are updated.
    Returns ``(removed, contested)``."""
    mover = side + 1
    enemy = 3 - mover
    board[cell] = mover
    removed = 0
    # a stone outside the enemy's living domains changes none of them (it only leaves a dead one,
    # or no domain of the enemy). Enemy stones already dead (a position set up by hand: play never
    # leaves any) need the full pass.
    if has_dead_stones(board, enemy, alive[enemy - 1]):
        settled = False
    elif not alive[enemy - 1, cell]:
        settled = True
    else:
        # in a living enemy domain: it stays one living domain if the stone splits nothing around
        # it and a line passes through a neighbour of the stone
        settled = domain_survives(board, cell, mover, height, width, line_length)
        alive[enemy - 1, cell] = False
    if not settled:
        living_domains(board, enemy, height, width, line_length, neighbours, degree, alive[enemy - 1])
        for i in range(board.shape[0]):
            if board[i] == enemy and not alive[enemy - 1, i]:
                board[i] = EMPTY
                removed += 1
    if removed > 0:
        # the mover's domains ("not the enemy") only grow when enemy stones go; its own stone on a
        # point of its living domain changes nothing for it
        living_domains(board, mover, height, width, line_length, neighbours, degree, alive[mover - 1])
    contested = 0
    for i in range(board.shape[0]):
        both = alive[0, i] and alive[1, i]
        contested += both
        mask[i] = board[i] == EMPTY and alive[enemy - 1, i]
    return removed, contested


@njit(cache=True)
def lin_scores(alive, komi):
    """Points in living domains of each colour, komi added to White's: ``(black, white)``."""
    black = 0
    white = komi
    for i in range(alive.shape[1]):
        black += alive[0, i]
        white += alive[1, i]
    return black, white


@njit(cache=True)
def lin_planes(board, alive, mask, observer, legal_for_observer, komi_plane, out):
    """Fill the observation ``out`` (H, W, 10) int8 for side ``observer`` (see PLANES)."""
    height, width = out.shape[0], out.shape[1]
    own = observer + 1
    opponent = 2 - observer
    # bitwise, not ``and``: short-circuit branches on random boards mispredict
    for r in range(height):
        for c in range(width):
            i = r * width + c
            b = board[i]
            a_own = alive[observer, i]
            a_opp = alive[1 - observer, i]
            out[r, c, 0] = b == own
            out[r, c, 1] = b == opponent
            out[r, c, 2] = b == EMPTY
            out[r, c, 3] = 1
            out[r, c, 4] = a_own
            out[r, c, 5] = a_opp
            out[r, c, 6] = a_own & a_opp
            out[r, c, 7] = legal_for_observer & (mask[i] != 0)
            out[r, c, 8] = observer
            out[r, c, 9] = komi_plane


PLANES = (
    Plane("own_stones", "stones of the observer"),
    Plane("opponent_stones", "stones of the opponent"),
    Plane("empty", "empty points"),
    Plane("on_board", "points of the board (all ones: Lin boards are square)"),
    Plane("own_living", "points in living domains of the observer's colour"),
    Plane("opponent_living", "points in living domains of the opponent's colour"),
    Plane("contested", "points in living domains of both colours (the game ends when none is left)"),
    Plane("legal", "the observer's legal placements (all zeros when the observer is not to move)"),
    Plane("side", "constant: 0 if the observer plays Black, 1 if White"),
    Plane("komi", "constant: the observer's komi as a percentage of the board's points, "
                  "round(100 * k / points) clipped to [-100, 100], k = +komi for White, -komi for Black",
          -100, 100),
)


@njit(cache=True)
def lin_game_over(contested):
    """How Lin ends: no point lies in living domains of both colours (``contested``, as
    :func:`place_lin` counts them). The state, the batch step and the playouts all ask here."""
    return contested == 0


# the compiled rules' own Python, for the state class: no call into numba for a comparison
_game_over, _winner_by_score = lin_game_over.py_func, winner_by_score.py_func


# --- a whole action, compiled: the turn the state class, the batch and the playouts share -------
CONTESTED = HEAD  # the row's one slot of Lin's own: points in living domains of both colours
NUM_SCALARS = HEAD + 1

FIELDS = Fields(NUM_SCALARS, arrays=(Array("alive", np.bool_, lambda g: (2, g.num_cells)),))  # living domains


@njit(cache=True)
def lin_act(board, alive, mask, s, action, height, width, line_length, neighbours, degree, komi):
    """Play one legal placement for the side to move in row ``s``: the stone, the removals, the
    living domains and the mask, the turn passed, the end and its winner. Returns the row's
    :func:`head_code`."""
    side = s[TO_MOVE]
    _, contested = place_lin(board, side, action, height, width, line_length, neighbours, degree, alive, mask)
    s[CONTESTED] = contested
    s[TO_MOVE] = 1 - side
    if lin_game_over(contested):
        black, white = lin_scores(alive, komi)
        s[TERMINAL] = 1
        s[WINNER] = winner_by_score(black, white)
    return head_code(s)


@njit(cache=True)
def lin_new_game(board, alive, mask, s, height, width, line_length, neighbours, degree):
    """Reset one game: empty board, Black to move by player_0, the first mask."""
    board[:] = EMPTY
    s[:] = 0
    s[WINNER] = -1
    s[CONTESTED] = refresh_lin(board, height, width, line_length, neighbours, degree, alive, mask, 0)


class LinGame(Game):
    """Lin with fixed options: ``board_size`` (odd, 5..25, default 9), ``line_length`` (2..board
    size, default 6), ``komi`` (integer, default 0, added to White's score), ``max_moves``."""

    name = "lin"
    sides = ("black", "white")
    legend = ("X a black stone, O a white stone, . an empty point. A side's score, shown all game, counts the "
              "points of its living domains (connected areas free of enemy stones that hold a line of "
              "{line_length} points), komi added to white's: on an empty board every point lives for both, so "
              "both start at the whole board. The game ends when no point lives for both; the higher score wins.")
    option_defaults = {"board_size": 9, "line_length": 6, "komi": 0}
    planes = PLANES

    def _validate(self, o):
        o["board_size"] = check_int("board_size", o["board_size"], 5, 25, odd=True)
        o["line_length"] = check_int("line_length", o["line_length"], 2, o["board_size"])
        o["komi"] = check_number("komi", o["komi"], integer=True, low=-625, high=625)
        points = o["board_size"] ** 2
        # komi plane per observing side: +komi for White, -komi for Black, as % of the board
        self.komi_planes = tuple(max(-100, min(100, round(100 * k / points))) for k in (-o["komi"], o["komi"]))
        geometry = square(o["board_size"])
        # the arguments of lin_act after the action (and, less komi, of refresh_lin after the board)
        self.act_args = (geometry.height, geometry.width, o["line_length"], geometry.neighbours, geometry.degree,
                         o["komi"])
        return geometry

    def default_max_moves(self) -> int:
        # random play ends 9x9 games in under 100 moves; stones are removed, so allow ample room
        return 20 * self.geometry.num_points


class LinState(GameState):
    """Lin's state: the living domains of each colour in ``alive``, declared with the row in
    :data:`FIELDS`."""

    __slots__ = ("alive",)
    fields = FIELDS

    @property
    def contested(self) -> int:
        """Points in living domains of both colours (the game ends when there are none)."""
        return int(self.s[CONTESTED])

    def _rules_end(self):
        if not _game_over(self.contested):
            return False, -1
        return True, _winner_by_score(*self.scores())

    def _check_position(self):
        # every turn removes the enemy stones it leaves outside their living domains, and a
        # placement never takes a domain from its own colour
        for colour in (0, 1):
            if np.any((self.board == colour + 1) & ~self.alive[colour]):
                raise ValueError(f"state dict: 'board' has {self.game.sides[colour]} stones outside "
                                 f"{self.game.sides[colour]}'s living domains")

    def _refresh(self):
        self.s[CONTESTED] = refresh_lin(self.board, *self.game.act_args[:5], self.alive, self.mask, self.to_move)

    def _apply(self, action):
        return lin_act(self.board, self.alive, self.mask, self.s, action, *self.game.act_args)

    def scores(self):
        return (int(self.alive[0].sum()), int(self.alive[1].sum()) + self.game.options["komi"])

    def observation(self, player: int) -> np.ndarray:
        side = player ^ self.flip
        out = np.empty(self.game.obs_shape, dtype=np.int8)
        lin_planes(self.board, self.alive, self.mask, side, side == self.to_move and not self.terminal,
                   self.game.komi_planes[side], out)
        return out

    def _rollout(self, seed, moves_left, trace, uniform):  # Lin's playouts are uniform either way
        return lin_rollout(self.board, self.alive, self.mask, self.s, moves_left, *self.game.act_args, seed, trace)

    tints = (("in a living domain of black only", (40, 40, 40), 0.25),
             ("in a living domain of white only", (250, 250, 250), 0.35),
             ("in living domains of both", (200, 60, 60), 0.2))

    def tint_masks(self):
        return [self.alive[0] & ~self.alive[1], self.alive[1] & ~self.alive[0], self.alive[0] & self.alive[1]]


LinGame.state_class = LinState


# --- batched play (territory_envs.vector) -------------------------------------------------------
@njit(cache=True, parallel=True)
def lin_batch_step(actions, board, alive, mask, scalars, move_number, height, width, line_length, neighbours,
                   degree, komi, komi_planes, max_moves, outputs):
    """One action in every game of the batch, in parallel. A game that ends records its last
    observation and scores in ``final_obs``/``final_scores`` and starts again; ``obs`` then holds
    the new game's first observation. The last observation is of player ``final_view[e]``, or of
    the side that would move where that is -1. A game whose action is -1 sits the step out: it
    reports no reward and no end, and nothing of it changes. ``outputs`` is the env's
    ``(obs, rewards, terminated, truncated, final_obs, final_scores, final_view)``."""
    obs, rewards, terminated, truncated, final_obs, final_scores, final_view = outputs
    for e in prange(actions.shape[0]):
        if skip_game(e, actions, rewards, terminated, truncated):
            continue
        s = scalars[e]
        lin_act(board[e], alive[e], mask[e], s, actions[e], height, width, line_length, neighbours, degree, komi)
        over = s[TERMINAL] == 1
        black, white = 0, komi
        if over or move_number[e] + 1 >= max_moves:
            black, white = lin_scores(alive[e], komi)
        if after_action(e, over, s[WINNER], s[FLIP], move_number, max_moves, mask, rewards, terminated, truncated):
            final_scores[e, 0] = black
            final_scores[e, 1] = white
            viewer = final_viewer(final_view[e], s[TO_MOVE], s[FLIP])
            lin_planes(board[e], alive[e], mask[e], viewer, truncated[e] and viewer == s[TO_MOVE], komi_planes[viewer],
                       final_obs[e])
            move_number[e] = 0
            lin_new_game(board[e], alive[e], mask[e], s, height, width, line_length, neighbours, degree)
        lin_planes(board[e], alive[e], mask[e], s[TO_MOVE], True, komi_planes[s[TO_MOVE]], obs[e])


@njit(cache=True, parallel=True)
def lin_batch_reset(board, alive, mask, scalars, move_number, height, width, line_length, neighbours, degree,
                    komi_planes, obs):
    for e in prange(board.shape[0]):
        move_number[e] = 0
        lin_new_game(board[e], alive[e], mask[e], scalars[e], height, width, line_length, neighbours, degree)
        lin_planes(board[e], alive[e], mask[e], 0, True, komi_planes[0], obs[e])


# --- random playouts (agents.mcts) ----------------------------------------------------------------
@njit(cache=True)
def lin_rollout(board, alive, mask, s, moves_left, height, width, line_length, neighbours, degree, komi, seed,
                trace):
    """Uniformly random legal placements from this position (copied, not changed) to the end, at
    most ``moves_left`` of them. Returns ``(winner player or -1 for a draw or the bound, moves)``;
    the actions and the players who played them go into ``trace`` (2, L) as far as it reaches."""
    np.random.seed(seed)
    board = board.copy()
    alive = alive.copy()
    mask = mask.copy()
    s = s.copy()
    n = board.shape[0]
    for move in range(moves_left):
        cell = random_set_index(mask, n)
        if cell < 0:
            return winner_player(1 - s[TO_MOVE], s[FLIP]), move  # no legal action: the side to move loses
        record_action(trace, move, cell, s)
        lin_act(board, alive, mask, s, cell, height, width, line_length, neighbours, degree, komi)
        if s[TERMINAL]:
            return winner_player(s[WINNER], s[FLIP]), move + 1
    return -1, moves_left
