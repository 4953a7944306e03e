"""Where Lifeline's step goes: the cost of each kind of turn over a game, and of the observation.

    python benchmarks/diagnostics/lifeline_cost.py [--board-size 6] [--games 60] [--seconds 1.0] [--repeats 3]

One thread, compiled loops only (no Python in the timing). The positions of ``--games`` seeded
uniform random games are recorded with the kind of action taken from each: a first turn's first
or second stone (Black's, White's), or a later turn (``usual``: one stone, every group alive
before it, the incremental path of :func:`usual_turn`). For each kind, ``act`` is played once from
every recorded position in turn (a different position each time, as in a batch, so branch
history does not learn one position), less a loop that only copies the position; plus
``new_game`` (a game's start) and ``observe`` (every step). Each figure is the median of
``--repeats`` runs, each as many calls as fill ``--seconds``.

The first table gives, per kind: how many such actions a game has, microseconds each, microseconds
per game, and the kind's share of a game's compiled work, which shows how much of an average step
the first turns and the observation take. The second splits the usual turn by what it does
(:func:`usual_case`): the stone's empty neighbours in several arcs between runs of one wall (the
region may split), the stone joining two or more groups, a group removed.

The last rows play 256 games in turn, each a random legal action then an observation (as the
vector env's step, without its bookkeeping), and the same 256 games in lockstep: every game plays
the first game's action, so each step repeats the one before it and every branch is predicted,
over as much data. The gap is what mispredicted branches cost (see ``asli_cost.py``).
"""
from __future__ import annotations

import argparse
import os
import sys

import numpy as np
from numba import njit

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import territory_envs  # noqa: E402
from benchmarks.diagnostics.asli_cost import median_us  # noqa: E402
from territory_envs.core.kernels import random_set_index  # noqa: E402
from territory_envs.games.lifeline import compiled, row, structure, turn

PASSES = 20  # over the recorded positions, per timed call
KINDS = ("first stone, Black", "second stone, Black", "first stone, White", "second stone, White", "usual turn")


def kind_of(s):
    """The kind (index in KINDS) of a placement from a position with scalars ``s``."""
    side = int(s[row.TO_MOVE])
    if s[row.PENDING] >= 0:
        return 1 if side == 0 else 3
    if s[row.FIRST_BLACK + side] == 0:
        return 0 if side == 0 else 2
    return 4


def usual_case(game, board, memo, side, p):
    """What a usual turn on ``p`` does, as :func:`usual_turn` branches: whether p's empty
    neighbours form several arcs round it between runs of one wall (``walls_apart`` false: the
    region may split, and its parts are flooded), whether the stone joins two or more friendly
    groups (``join_friends`` walks the joined stones); whether a group dies
    (``remove_dead_groups``) the caller knows."""
    neighbours, degree = game.kernel_args[1:]
    ring = np.full(6, -1, dtype=np.int32)
    structure.ring_of(p, game.geometry.width, neighbours, degree, ring)
    friends, _, arcs, _ = structure.round_the_stone(board, side + 1, ring, memo, np.zeros(12, dtype=np.int32))
    return arcs > 1 and not structure.walls_apart(board, ring, memo.copy()), friends >= 2


def recorded_positions(game, games, seed):
    """Every position of ``games`` seeded random games: the state arrays, stacked, the action
    taken, its kind (index in KINDS; -1 for a swap or a komi spend, not timed) and whether it
    removed stones."""
    rng = np.random.default_rng(seed)
    rows = {name: [] for name in ("board", "mask", "alive_cell", "links", "memo", "s")}
    actions, kinds, removed = [], [], []
    for _ in range(games):
        state = game.new_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            action = int(legal[rng.integers(len(legal))])
            for name, values in rows.items():
                values.append(getattr(state, name).copy())
            actions.append(action)
            kinds.append(kind_of(state.s) if action < game.num_cells else -1)
            stones = np.count_nonzero(state.board)
            state.apply(action)
            removed.append(np.count_nonzero(state.board) < stones + (action < game.num_cells))
    return ({name: np.array(values) for name, values in rows.items()}, np.array(actions, dtype=np.int64),
            np.array(kinds), np.array(removed))


@njit
def act_loop(passes, play, board, mask, alive_cell, links, memo, s, actions, pie, on_board, neighbours, degree):
    """Copy each position into scratch arrays and, with ``play``, act from it."""
    b, m, a, li, me, sc = board[0].copy(), mask[0].copy(), alive_cell[0].copy(), links[0].copy(), memo[0].copy(), \
        s[0].copy()
    for _ in range(passes):
        for i in range(board.shape[0]):
            b[:] = board[i]
            m[:] = mask[i]
            a[:] = alive_cell[i]
            li[:] = links[i]
            me[:] = memo[i]
            sc[:] = s[i]
            if play:
                turn.act(b, m, a, li, me, sc, actions[i], pie, on_board, neighbours, degree)
    return b[0]


@njit
def observe_loop(passes, board, mask, alive_cell, links, s, pie, points, on_board, out):
    for _ in range(passes):
        for i in range(board.shape[0]):
            turn.observe(board[i], mask[i], alive_cell[i], links[i], s[i], s[i, row.TO_MOVE], pie, points,
                             on_board, out)
    return out[0, 0, 0]


@njit
def new_game_loop(count, board, mask, alive_cell, links, memo, s, pie, komi, on_board, neighbours, degree):
    for _ in range(count):
        turn.new_game(board, mask, alive_cell, links, memo, s, pie, komi, on_board, neighbours, degree)
    return mask[0]


MAX_TURNS = 2000  # a game that runs longer starts again (random Lifeline games end far sooner)


@njit
def play_loop(steps, lockstep, board, mask, alive_cell, links, memo, scalars, moves, pie, komi, points, on_board,
              neighbours, degree, obs):
    """``steps`` rounds: each game of the batch in turn plays a random legal action and is observed,
    and starts again when it ends. With ``lockstep`` every game plays the first game's action (the
    games must start equal)."""
    action = -1
    for _ in range(steps):
        for e in range(board.shape[0]):
            s = scalars[e]
            if e == 0 or not lockstep:
                action = random_set_index(mask[e], mask.shape[1])
            turn.act(board[e], mask[e], alive_cell[e], links[e], memo[e], s, action, pie, on_board, neighbours,
                         degree)
            moves[e] += 1
            if s[row.TERMINAL] == 1 or moves[e] == MAX_TURNS:
                moves[e] = 0
                turn.new_game(board[e], mask[e], alive_cell[e], links[e], memo[e], s, pie, komi, on_board,
                                  neighbours, degree)
            turn.observe(board[e], mask[e], alive_cell[e], links[e], s, s[row.TO_MOVE], pie, points,
                             on_board, obs[e])


def batch_rows(game, seconds, repeats, games=256):
    """Microseconds per step of ``games`` independent games, and of as many in lockstep."""
    rows = {}
    board, mask, s, alive_cell, links, memo = compiled.start_template(game)
    template = (board, mask, alive_cell, links, memo, s)  # play_loop's order
    pie, komi, points = game.pie_index, game.options["komi"], game.geometry.num_points
    for lockstep in (False, True):
        arrays = [np.repeat(a[None, :], games, axis=0) for a in template]
        moves = np.zeros(games, dtype=np.int32)
        obs = np.zeros((games, *game.obs_shape), dtype=np.int8)
        steps = max(1, 4096 // games)
        run = (lambda: play_loop(steps, lockstep, *arrays, moves, pie, komi, points, *game.kernel_args, obs))
        label = f"act + observe, {games} games" + (" in lockstep" if lockstep else "")
        rows[label] = median_us(run, steps * games, seconds, repeats)
        if lockstep:  # the games stayed one game: the row measures what it says
            assert all((a == a[0]).all() for a in arrays)
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board-size", type=int, default=6)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    game = territory_envs.make_game("lifeline", board_size=args.board_size)
    geometry = game.kernel_args
    pie = game.pie_index
    rows, actions, kinds, removed = recorded_positions(game, args.games, seed=0)
    print(f"Lifeline side {args.board_size}, {args.games} random games, {len(actions) / args.games:.1f} "
          f"actions a game; one thread\n")

    def act_us(pick):  # act from each of the positions ``pick``, less the copying
        arrays = [rows[key][pick] for key in ("board", "mask", "alive_cell", "links", "memo", "s")]

        def run(play):
            return lambda: act_loop(PASSES, play, *arrays, actions[pick], pie, *geometry)
        return (median_us(run(True), PASSES * len(pick), args.seconds, args.repeats)
                - median_us(run(False), PASSES * len(pick), args.seconds, args.repeats))
    table = []
    for k, name in enumerate(KINDS):
        pick = np.flatnonzero(kinds == k)
        if len(pick):
            table.append((f"act: {name}", len(pick) / args.games, act_us(pick)))
    state = game.new_state()
    start_arrays = (state.board, state.mask, state.alive_cell, state.links, state.memo, state.s.copy())
    table.append(("new_game", 1.0, median_us(
        lambda: new_game_loop(1000, *start_arrays, pie, game.options["komi"], *geometry), 1000, args.seconds,
        args.repeats)))
    out = np.zeros(game.obs_shape, dtype=np.int8)
    table.append(("observe", len(actions) / args.games, median_us(
        lambda: observe_loop(PASSES, rows["board"], rows["mask"], rows["alive_cell"], rows["links"], rows["s"], pie,
                             game.geometry.num_points, geometry[0], out), PASSES * len(actions), args.seconds,
        args.repeats)))
    total = sum(count * us for _, count, us in table)
    print("| what | per game | us each | us per game | share |")
    print("|---|---|---|---|---|")
    for name, count, us in table:
        print(f"| {name} | {count:.1f} | {us:.2f} | {count * us:.1f} | {100 * count * us / total:.0f}% |")
    print(f"| all | | | {total:.1f} | 100% |")
    print(f"\nper step of a game: {total / (len(actions) / args.games):.2f} us")

    usual = np.flatnonzero(kinds == 4)
    cases = {}
    for i in usual:
        split, join = usual_case(game, rows["board"][i], rows["memo"][i], int(rows["s"][i][row.TO_MOVE]),
                                 int(actions[i]))
        cases.setdefault((split, join, bool(removed[i])), []).append(i)
    print("\nthe usual turn by what it does:\n")
    print("| arcs between runs of one wall | joins 2+ groups | removes | share of usual turns | us each |")
    print("|---|---|---|---|---|")
    for (split, join, gone), pick in sorted(cases.items(), key=lambda item: -len(item[1])):
        print(f"| {'yes' if split else 'no'} | {'yes' if join else 'no'} | {'yes' if gone else 'no'} | "
              f"{100 * len(pick) / len(usual):.1f}% | {act_us(np.array(pick)):.2f} |")
    print("\nmany games stepped in turn, one thread, microseconds per step:\n")
    for label, us in batch_rows(game, args.seconds, args.repeats).items():
        print(f"  {label:<36}{us:8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
