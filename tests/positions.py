"""Build positions from pictures for the rule scenarios ('X' Black, 'O' White, '.' empty).

Each builder refuses, as ``state_from_dict`` does, a position that no game reaches; a scenario that
needs one (a dead group set up by hand, a mover left without a legal action) says
``reachable=False``."""
import numpy as np

from territory_envs import make_game


def load(game, data, reachable):
    """Load a position set up by hand. Unless it is the start, it is counted as reached after some
    moves whose record is unknown (``move_number`` the stones on the board, history empty): a state
    at move 0 must be the start of its game."""
    if data["move_number"] == 0 and data != game.new_state().to_dict():
        data["move_number"] = max(1, sum(1 for v in data["board"] if v))
    return game.state_from_dict(data, reachable=reachable)


def lin_position(rows, to_move="black", line_length=4, komi=0, reachable=True):
    rows = [r.replace(" ", "") for r in rows]
    size = len(rows)
    game = make_game("lin", board_size=size, line_length=line_length, komi=komi)
    data = game.new_state().to_dict()
    data["board"] = [".XO".index(ch) for row in rows for ch in row]
    data["to_move"] = 0 if to_move == "black" else 1
    return load(game, data, reachable)


def points(state, *names):
    return sorted(state.game.notation_to_action(n) for n in names)


def legal_names(state):
    return sorted(state.game.action_to_notation(a) for a in state.legal_actions())


def picture(state):
    n = state.game.geometry.width
    return ["".join(".XO"[v] for v in state.board[r * n:(r + 1) * n]) for r in range(n)]


def linage_position(rows, to_move="vertical", line_length=3, komi=0.5, passes=0, reachable=True):
    """A Linage position from a picture ('#' stone, '.' empty)."""
    rows = [r.replace(" ", "") for r in rows]
    game = make_game("linage", board_size=len(rows), line_length=line_length, komi=komi)
    data = game.new_state().to_dict()
    data["board"] = [".#".index(ch) for row in rows for ch in row]
    data["to_move"] = 0 if to_move == "vertical" else 1
    data["passes"] = passes
    return load(game, data, reachable)


def cells_at(state, *coords):
    return sorted(state.game.geometry.cell(r, c) for r, c in coords)


def lifeline_position(side, black=(), white=(), to_move="black", pie="strong", komi=0, reachable=True,
                      **fields):
    """A Lifeline position: stones given in notation; by default past both first turns."""
    game = make_game("lifeline", board_size=side, pie=pie, komi=komi)
    data = game.new_state().to_dict()
    board = [0] * game.num_cells
    for names, value in ((black, 1), (white, 2)):
        for name in names:
            board[game.geometry.from_notation(name)] = value
    data.update({"board": board, "to_move": 0 if to_move == "black" else 1,
                 "first_turn_done": [True, True], "removal_on": True, "swap_used": pie != "komi"})
    data.update(fields)
    return load(game, data, reachable)


def stone_names(state, value):
    return sorted(state.game.geometry.to_notation(i) for i in np.flatnonzero(state.board == value))


def names_of(state, actions):
    return sorted(state.game.action_to_notation(a) for a in actions)


def asli_position(rows, to_move="black", komi=0, reachable=True, **fields):
    """An Asli position from a picture ('X' Black, 'O' White, '.' empty), past both first turns
    unless told otherwise; the position itself counts as seen (for repetition)."""
    rows = [r.replace(" ", "") for r in rows]
    game = make_game("asli", board_size=len(rows), komi=komi)
    data = game.new_state().to_dict()
    data.update({"board": [".XO".index(ch) for row in rows for ch in row],
                 "to_move": 0 if to_move == "black" else 1, "first_turn_done": [True, True], "seen": []})
    data.update(fields)
    state = load(game, data, reachable)
    state._remember(state._hash())
    return state


def replay(game_name, moves, **options):
    state = make_game(game_name, **options).new_state()
    for move in moves:
        state.apply(state.game.notation_to_action(move))
    return state


def random_game(game, moves, seed=0):
    """A state of ``game`` after up to ``moves`` seeded random legal actions."""
    state = game.new_state()
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if state.terminal:
            break
        state.apply(int(rng.choice(state.legal_actions())))
    return state
