"""Where Asli's step goes: its whole-position analysis, its legal mask, and the price of stepping
many games in turn.

    python benchmarks/diagnostics/asli_cost.py [--board-size 9] [--seconds 1.0] [--repeats 3] [--json out.json]

One thread, compiled loops only (no Python in the timing), microseconds per step:

* ``structure`` and ``structure + mask``: :func:`asli_structure` alone, then with
  :func:`analyse_structure` making the single-stone mask, over the positions of seeded random
  games (every single-stone turn), replayed one after another;
* ``act + observe, N games``: random legal actions played with ``act`` and observed, in a batch of
  N games stepped in turn (N = 1 steps one game over and over). The rise with N at fixed work per
  step is the price of a different game at each step (its board, and the branch history of its
  floods, are cold), which the vector env pays in full.
* ``... in lockstep``: the same, but every game of the batch plays the first game's action, so all
  are the same game and each step repeats the one before it: every branch is predicted, the data
  are as many and as far apart. The gap to the row above is what mispredicted branches cost.
* ``... shuffled``: the structure (and mask) rows over the same positions in a random order, so
  that consecutive positions are unrelated, as in the vector env: the floods' branches go cold.
* ``a stone's structure``: for a random empty point of each recorded position (shuffled), the
  structure of the board with a stone there, labelled whole (:func:`label_structure`) or updated
  from the kept one (:func:`structure_after_stone`), split by the arcs of empty points round the
  point (0: its region ends; 1: it stays whole; 2 or more: flooded for its parts), less the copy
  of the kept structure that both rows make. Sets ``FLOOD_PARTS_FROM``.
* ``corridor``: structure and mask of one position at sizes 9 to 25 (:func:`corridor_board`) where
  every point of a corridor joins the two black groups that line it and kills the two large white
  groups at its ends, and nothing revives the joined group: a mask that looked at the dying groups
  at each such point would grow with the square of the side; the cost per cell should stay flat.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time

import numba
import numpy as np
from numba import njit

from territory_envs.core.kernels import random_set_index
from territory_envs.games import asli
from territory_envs.games.asli import mask, structure, turn


def recorded_positions(game, games, seed):
    """Boards, sides and bans of every single-stone turn in ``games`` seeded random games."""
    rng = np.random.default_rng(seed)
    boards, sides, bans = [], [], []
    for _ in range(games):
        state = game.new_state()
        while not state.is_terminal():
            side = int(state.s[turn.TO_MOVE])
            if state.s[turn.FIRST_BLACK + side] == 1:
                boards.append(state.board.copy())
                sides.append(side)
                bans.append(bool(state.s[turn.LAST_MINIMAL]))
            state.apply(int(rng.choice(state.legal_actions())))
    return np.array(boards), np.array(sides, dtype=np.int32), np.array(bans)


@njit
def structure_loop(boards, sides, bans, with_mask, on_board, neighbours, degree):
    n = boards.shape[1]
    mask = np.zeros(n, dtype=np.bool_)
    owner = np.zeros(n, dtype=np.int8)
    danger = np.zeros(n, dtype=np.bool_)
    total = 0
    for i in range(boards.shape[0]):
        st = structure.asli_structure(boards[i], on_board, neighbours, degree)
        total += st.n_regions
        if with_mask:
            total += mask.analyse_structure(boards[i], sides[i], bans[i], True, st, on_board, neighbours, degree,
                                            mask, owner, danger)[1]
    return total


@njit
def stone_loop(mode, boards, memos, sides, points, arcs, on_board, neighbours, degree):
    """Per position: copy its kept structure (mode 0), and then label the board with a stone on
    its point (1) or update the structure for it (2); both copy the board."""
    n = boards.shape[1]
    memo = np.empty(memos.shape[1], memos.dtype)
    board = boards[0].copy()
    total = 0
    for i in range(boards.shape[0]):
        memo[:] = memos[i]
        if mode == 1:
            board[:] = boards[i]
            board[points[i]] = sides[i] + 1
            total += structure.label_structure(board, memo, on_board, neighbours, degree).n_groups
        elif mode == 2:
            board[:] = boards[i]
            board[points[i]] = sides[i] + 1
            st = structure.structure_view(memo, n, neighbours.shape[1])
            total += structure.structure_after_stone(st, memo, board, points[i], sides[i], arcs[i], neighbours,
                                                degree).n_groups
    return total


def stone_rows(boards, sides, tables, seconds, repeats):
    """Microseconds to label the board with a stone, and to update the kept structure for it, by
    the arcs round the stone (see the module's docstring)."""
    rng = np.random.default_rng(2)
    points = np.array([rng.choice(np.flatnonzero(b == 0)) for b in boards])
    arcs = np.array([structure.arcs_round(b, p) for b, p in zip(boards, points)])
    memos = np.zeros((len(boards), structure.memo_size(boards.shape[1], tables[1].shape[1])), dtype=structure.MEMO_DTYPE)
    for board, memo in zip(boards, memos):
        structure.label_structure(board, memo, *tables)
    rows = {}
    for k, name in enumerate(("ends", "stays whole", "may split")):
        pick = np.minimum(arcs, 2) == k
        args = (boards[pick].copy(), memos[pick].copy(), sides[pick].copy(), points[pick].copy(), arcs[pick].copy(),
                *tables)
        us = [median_us(lambda: stone_loop(mode, *args), int(pick.sum()), seconds, repeats) for mode in (0, 1, 2)]
        rows[f"a stone's structure, region {name} ({100 * pick.mean():.0f}%)"] = (us[1] - us[0], us[2] - us[0])
    return rows


def corridor_board(size):
    """Rows ``0..m - 2`` and two cells of column 0 are one white group, rows ``m + 2..`` and two
    cells of the last column another (``m = size // 2``); row ``m`` is an empty corridor between
    the black rows ``m - 1`` and ``m + 1``. Black to move: every corridor point is illegal, and
    takes a look at both white groups to tell."""
    b = np.zeros((size, size), dtype=np.int8)
    m = size // 2
    b[:m - 1, :] = 2
    b[m - 1:m + 1, 0] = 2
    b[m + 2:, :] = 2
    b[m:m + 2, size - 1] = 2
    b[m - 1, 1:] = 1
    b[m + 1, :size - 1] = 1
    return b.reshape(-1)


MAX_TURNS = 1000


@njit
def play_loop(steps, lockstep, board, mask, owner, danger, scalars, seen, memo, moves, keys, side_key, on_board,
              neighbours, degree, points, obs):
    """``steps`` rounds: each game of the batch in turn plays a random legal action and is observed;
    a game ends at ``MAX_TURNS`` turns at most (its table of positions has room for them). With
    ``lockstep`` every game plays the first game's action (the games must start equal)."""
    action = -1
    for _ in range(steps):
        for e in range(board.shape[0]):
            s = scalars[e]
            if e == 0 or not lockstep:
                action = random_set_index(mask[e], mask.shape[1])
            turn.act(board[e], mask[e], owner[e], danger[e], s, seen[e], memo[e], action, keys, side_key, on_board,
                     neighbours, degree)
            moves[e] += 1
            if s[turn.TERMINAL] == 1 or moves[e] == MAX_TURNS:
                moves[e] = 0
                turn.new_game(board[e], mask[e], owner[e], danger[e], s, seen[e], memo[e], 0, keys, side_key,
                              on_board, neighbours, degree)
            turn.observe(board[e], mask[e], owner[e], danger[e], s, s[turn.TO_MOVE], points, obs[e])


def median_us(run, count, seconds, repeats):
    """Median over ``repeats`` of the microseconds per item of ``run()`` (which handles ``count``
    items), each repeat as many calls as fill ``seconds``."""
    run()  # warm-up and compilation
    results = []
    for _ in range(repeats):
        calls, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            run()
            calls += 1
        results.append((time.perf_counter() - start) / (calls * count) * 1e6)
    return statistics.median(results)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board-size", type=int, default=9)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", default=None)
    args = parser.parse_args(argv)
    numba.set_num_threads(1)
    game = asli.AsliGame(board_size=args.board_size)
    geo = game.geometry
    tables = (geo.on_board, geo.neighbours, geo.degree)
    boards, sides, bans = recorded_positions(game, 40, 0)
    order = np.random.default_rng(1).permutation(len(boards))
    shuffled = (boards[order].copy(), sides[order].copy(), bans[order].copy())
    rows = {}
    for label, with_mask in (("structure", False), ("structure + mask", True)):
        rows[label] = median_us(lambda: structure_loop(boards, sides, bans, with_mask, *tables), len(boards),
                                args.seconds, args.repeats)
    for label, with_mask in (("structure, shuffled", False), ("structure + mask, shuffled", True)):
        rows[label] = median_us(lambda: structure_loop(*shuffled, with_mask, *tables), len(boards), args.seconds,
                                args.repeats)
    n = geo.num_cells
    height, width, planes = game.obs_shape
    for games, lockstep in ((1, False), (4, False), (16, False), (256, False), (256, True)):
        board = np.zeros((games, n), dtype=np.int8)
        mask = np.zeros((games, n + 1), dtype=np.int8)
        owner = np.zeros((games, n), dtype=np.int8)
        danger = np.zeros((games, n), dtype=np.bool_)
        scalars = np.zeros((games, turn.NUM_SCALARS), dtype=np.int32)
        seen = np.zeros((games, 4096), dtype=np.uint64)  # a power of two, over twice MAX_TURNS
        memo = np.zeros((games, structure.memo_size(n, geo.neighbours.shape[1])), dtype=structure.MEMO_DTYPE)
        moves = np.zeros(games, dtype=np.int32)
        obs = np.zeros((games, height, width, planes), dtype=np.int8)
        for e in range(games):
            turn.new_game(board[e], mask[e], owner[e], danger[e], scalars[e], seen[e], memo[e], 0, *game.zobrist,
                          *tables)
        steps = max(1, 4096 // games)
        run = (lambda: play_loop(steps, lockstep, board, mask, owner, danger, scalars, seen, memo, moves, *game.zobrist,
                                 *tables, geo.num_points, obs))
        label = f"act + observe, {games} game" + ("s" if games > 1 else "") + (" in lockstep" if lockstep else "")
        rows[label] = median_us(run, steps * games, args.seconds, args.repeats)
        if lockstep:  # the games stayed one game: the row measures what it says
            assert (board == board[0]).all() and (scalars == scalars[0]).all()
    stones = stone_rows(*shuffled[:2], tables, args.seconds, args.repeats)
    corridor = {}
    for size in (9, 13, 19, 25):
        wide = asli.AsliGame(board_size=size).geometry
        copies = np.repeat(corridor_board(size)[None, :], 100, axis=0)
        sides0 = np.zeros(100, dtype=np.int32)
        no_ban = np.zeros(100, dtype=np.bool_)
        corridor[size] = median_us(lambda: structure_loop(copies, sides0, no_ban, True, wide.on_board, wide.neighbours,
                                                          wide.degree), 100, args.seconds, args.repeats)
    print(f"asli {args.board_size}x{args.board_size}, one thread, microseconds per step "
          f"({len(boards)} recorded positions)")
    for label, us in rows.items():
        print(f"  {label:<36}{us:8.2f}")
    print("a stone on a random empty point of each position (shuffled): labelled, updated (microseconds)")
    for label, (whole, update) in stones.items():
        print(f"  {label:<52}{whole:8.2f}{update:8.2f}")
    print("corridor position, structure + mask: microseconds, and nanoseconds per cell")
    for size, us in corridor.items():
        print(f"  {f'{size}x{size}':<36}{us:8.2f}{us * 1000 / (size * size):8.1f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"board_size": args.board_size, "positions": len(boards), "us_per_step": rows, "stone_us": stones,
                       "corridor_us": corridor}, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
