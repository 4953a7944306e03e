"""How much of Asli's legal mask a move leaves as it was: an upper bound on what keeping the mask
from move to move could save.

    python benchmarks/diagnostics/asli_locality.py [--board-size 9] [--games 15] [--seed 0]

The mask of the side X to move is compared with X's mask at its previous turn (two turns earlier;
single-stone turns only, so both are made by the same rule). Whether a point ``p`` of region ``r``
is legal depends, in the rule of ``analyse_structure``, on

* one hop: ``r`` and the groups next to ``r`` (the friends a stone joins, the enemy groups it may
  kill);
* two hops: the other regions of those groups and the groups next to those regions (whether a
  joined group has a partner elsewhere, whether a dying group touches another friendly group).

A region is *clean* at one (two) hops when no point that changed between the two positions (a
stone placed, captured or taken away) lies in, or next to, any region or group of that
neighbourhood. Only a clean region's points could keep their mask entry; the script prints the
share of empty points whose region is clean. Other dependencies (stones next to a dying group) are
left out, so the share is an upper bound.
"""
from __future__ import annotations

import argparse

import numpy as np

from territory_envs.games import asli
from territory_envs.games.asli import structure, turn


def clean_shares(board, changed, st, neighbours, degree):
    """``(empty points, clean at one hop, clean at two hops)`` for the position ``board`` with
    structure ``st``; ``changed``: a boolean per point."""
    near_change = changed.copy()  # a point that changed or lies next to one
    for i in np.nonzero(changed)[0]:
        near_change[neighbours[i, :degree[i]]] = True
    region_dirty = np.zeros(st.n_regions, dtype=bool)
    group_dirty = np.zeros(st.n_groups, dtype=bool)
    for r in range(st.n_regions):
        region_dirty[r] = near_change[st.region_cells[st.region_offsets[r]:st.region_offsets[r + 1]]].any()
    for g in range(st.n_groups):
        group_dirty[g] = near_change[st.group_cells[st.group_offsets[g]:st.group_offsets[g + 1]]].any()
    groups_of = [st.pair_group[st.pair_start[r]:st.pair_start[r + 1]] for r in range(st.n_regions)]
    regions_of = [[] for _ in range(st.n_groups)]
    for r in range(st.n_regions):
        for g in groups_of[r]:
            regions_of[g].append(r)
    empty = one = two = 0
    for r in range(st.n_regions):
        size = st.region_offsets[r + 1] - st.region_offsets[r]
        empty += size
        dirty = region_dirty[r] or group_dirty[groups_of[r]].any()
        if not dirty:
            one += size
        far = {x for g in groups_of[r] for x in regions_of[g]}
        dirty = dirty or any(region_dirty[x] or group_dirty[groups_of[x]].any() for x in far)
        if not dirty:
            two += size
    return empty, one, two


def check_clean_shares() -> None:
    """A change beside one region dirties it, the regions that share a group with it at two hops,
    and nothing when nothing changed (run before every measurement)."""
    from territory_envs import make_game
    geo = make_game("asli", board_size=5).geometry
    board = np.zeros(25, dtype=np.int8)
    board[2::5] = 1  # column c: one black group between region a-b and region d-e
    st = structure.asli_structure(board, geo.on_board, geo.neighbours, geo.degree)
    changed = np.zeros(25, dtype=bool)
    assert clean_shares(board, changed, st, geo.neighbours, geo.degree) == (20, 20, 20)
    changed[0] = True  # a corner of region a-b: not next to the black group
    assert clean_shares(board, changed, st, geo.neighbours, geo.degree) == (20, 10, 0)
    changed[:] = False
    changed[2] = True  # a black stone: next to both regions
    assert clean_shares(board, changed, st, geo.neighbours, geo.degree) == (20, 0, 0)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board-size", type=int, default=9)
    parser.add_argument("--games", type=int, default=15)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    check_clean_shares()
    game = asli.AsliGame(board_size=args.board_size)
    geo = game.geometry
    rng = np.random.default_rng(args.seed)
    positions = empty = one = two = 0
    for _ in range(args.games):
        state = game.new_state()
        last_turn = {}  # side -> the board at the start of its last single-stone turn
        while not state.is_terminal():
            side = int(state.s[turn.TO_MOVE])
            single = state.s[turn.FIRST_BLACK + side] == 1 and state.s[turn.PENDING] < 0
            if single:
                board = state.board.copy()
                if side in last_turn:
                    st = structure.asli_structure(board, geo.on_board, geo.neighbours, geo.degree)
                    counts = clean_shares(board, board != last_turn[side], st, geo.neighbours, geo.degree)
                    empty, one, two = empty + counts[0], one + counts[1], two + counts[2]
                    positions += 1
                last_turn[side] = board
            state.apply(int(rng.choice(state.legal_actions())))
    print(f"asli {args.board_size}x{args.board_size}, {args.games} seeded random games, {positions} positions "
          f"(single-stone turns after one of the same side)")
    print(f"  empty points per position                  {empty / positions:8.1f}")
    print(f"  share whose region is clean at one hop     {one / empty:8.1%}")
    print(f"  share whose region is clean at two hops    {two / empty:8.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
