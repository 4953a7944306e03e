"""Differential tests of Linage: the fast engine against the slow reference written from the rule
text (tests/reference/linage_reference.py), and the linear legal mask (articulation points and
line counts) against the direct quadratic one (place each candidate, relabel, look for lines)."""
import numpy as np
import pytest

from territory_envs import make_game
from territory_envs.core import kernels
from territory_envs.games.linage import layout
from tests.reference.linage_reference import ReferenceLinage

# (board_size, line_length, komi, games)
CONFIGS = [(4, 2, 0.5, 30), (4, 3, 0, 30), (5, 3, 0.5, 40), (5, 4, 1.5, 20), (7, 3, 0.5, 40),
           (7, 5, 0, 10), (9, 3, 0.5, 24), pytest.param(13, 3, 2.5, 6, marks=pytest.mark.slow)]


def direct_legal_cells(state):
    """Quadratic: try every empty point of a free region, relabel, check every region keeps a line."""
    geo, length = state.game.geometry, state.game.options["line_length"]
    n = geo.width

    def region_lines(board):
        empty = board == 0
        labels, count = kernels.label_components(empty, geo.neighbours, geo.degree)
        h = np.empty(board.size, bool)
        v = np.empty(board.size, bool)
        kernels.mark_line_starts(empty, n, n, length, h, v)
        return labels, count, kernels.any_per_component(labels, count, h), kernels.any_per_component(labels, count, v)

    labels, count, has_h, has_v = region_lines(state.board)
    legal = []
    for p in np.flatnonzero(state.board == 0):
        if not (has_h[labels[p]] and has_v[labels[p]]):
            continue
        board = state.board.copy()
        board[p] = 1
        _, c2, h2, v2 = region_lines(board)
        if (h2 | v2).all():
            legal.append(int(p))
    return legal


def same_regions(kept, whole):
    """The regions kept from move to move (``memo``) against those of the position analysed whole:
    the same partition of the empty cells (labels may differ), the same line starts per region,
    the same cells decided by a search, and as many labels as regions."""
    n = kept.game.num_cells
    a, b = kept.memo, whole.memo
    pairs = {(int(x), int(y)) for x, y in zip(a[:n], b[:n])}
    assert len({x for x, _ in pairs}) == len({y for _, y in pairs}) == len(pairs), "partitions differ"
    for x, y in pairs:
        if x >= 0:
            assert y >= 0 and a[n + x] == b[n + y] and a[2 * n + x] == b[2 * n + y], "line starts differ"
        else:
            assert y == -1
    recheck = layout.RECHECK * n
    counts_a, counts_b = layout.memo_counts(a, n), layout.memo_counts(b, n)
    assert counts_a[layout.LABELS_USED] == counts_b[layout.LABELS_USED] == len(pairs - {(-1, -1)}), "label count"
    searched_a = a[recheck:recheck + counts_a[layout.SEARCHED]]
    assert sorted(searched_a) == sorted(b[recheck:recheck + counts_b[layout.SEARCHED]]), "searched cells"
    return True


def play_and_compare(size, line, komi, seed):
    game = make_game("linage", board_size=size, line_length=line, komi=komi)
    state = game.new_state()
    ref = ReferenceLinage(size, line, komi)
    rng = np.random.default_rng(seed)
    pass_action = size * size
    while True:
        legal = state.legal_actions().tolist()
        assert legal == ref.legal_moves(), f"legal sets differ at move {state.move_number}"
        assert state.is_terminal() == ref.over
        if ref.over:
            break
        assert legal[:-1] == direct_legal_cells(state)
        # the facts kept from move to move equal those of the position analysed whole
        whole = state.game.state_from_dict(state.to_dict())
        for field in ("kind", "on_h", "on_v", "runs", "safe", "mask"):
            assert (getattr(whole, field) == getattr(state, field)).all(), field
        assert (whole.points, whole.free_regions) == (state.points, state.free_regions)
        assert same_regions(state, whole)
        on_h, on_v = ref.points_on_lines()
        assert {divmod(int(i), size) for i in np.flatnonzero(state.on_h)} == on_h
        assert {divmod(int(i), size) for i in np.flatnonzero(state.on_v)} == on_v
        # pass rarely, so games reach their natural end too
        action = pass_action if rng.random() < 0.08 or len(legal) == 1 else int(rng.choice(legal[:-1]))
        state.apply(action)
        ref.play(action)
        assert state.board.tolist() == ref.cells()
    assert state.scores() == ref.scores()
    winner = ref.winner()
    assert state.winner == (-1 if winner is None else winner)
    return state.move_number


@pytest.mark.parametrize("size,line,komi,games", CONFIGS)
def test_random_games_match_reference(size, line, komi, games):
    for g in range(games):
        play_and_compare(size, line, komi, seed=100 * size + 10 * line + g)


@pytest.mark.parametrize("size,line", [(19, 3), (25, 5), (11, 2)])
def test_linear_mask_matches_direct_on_large_boards(size, line):
    game = make_game("linage", board_size=size, line_length=line)
    rng = np.random.default_rng(size)
    for _ in range(2):
        state = game.new_state()
        while not state.is_terminal():
            if state.move_number % 7 == 0:
                assert state.legal_actions().tolist()[:-1] == direct_legal_cells(state)
            legal = state.legal_actions()
            state.apply(int(rng.choice(legal[:-1])) if len(legal) > 1 else int(legal[-1]))


@pytest.mark.parametrize("size,line", [(5, 2), (6, 3), (7, 3), (9, 4)])
def test_local_searches_and_lowlinks_agree_on_random_boards(size, line):
    """Every candidate decided three ways, on boards with stones at random densities (pockets,
    corridors and staircases that random play seldom makes): by low-links alone (search budget 0),
    by local searches that give up early (budget 1 and 3) and by searches that never give up."""
    from tests.kernel_helpers import analyse_linage
    game = make_game("linage", board_size=size, line_length=line)
    geo = game.geometry
    rng = np.random.default_rng(size * 10 + line)
    n = size * size
    boards = 0
    while boards < 300:
        state = game.new_state()
        state.board[:] = rng.random(n) < rng.uniform(0.1, 0.6)
        empty = state.board == 0
        labels, count = kernels.label_components(empty, geo.neighbours, geo.degree)
        h, v = np.empty(n, bool), np.empty(n, bool)
        kernels.mark_line_starts(empty, size, size, line, h, v)
        if not (kernels.any_per_component(labels, count, h) | kernels.any_per_component(labels, count, v)).all():
            continue  # a region without a line: no position of the game
        boards += 1
        expected = direct_legal_cells(state)
        for cap in (0, 1, 3, 10_000):
            kind = np.zeros(n, np.int8)
            legal = np.zeros(n, np.bool_)
            analyse_linage(state.board, size, size, line, geo.neighbours, geo.degree, kind, kind.astype(bool),
                           kind.astype(bool), legal, False, cap)
            assert np.flatnonzero(legal).tolist() == expected, (cap, state.board.reshape(size, size))
