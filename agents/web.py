"""Play and replay territory games in a browser: a local page served by the standard library.

::

    territory-web                       # http://127.0.0.1:8000, then pick a game and an opponent
    python -m agents.web --port 8123 --record game.txt      # open a record to replay

The page draws the position with :meth:`GameState.render_svg` (legal cells ringed, the last move
marked, the game's tints and legend) and calls the same state API as everything else, through a
small JSON API on the same server:

=========================  ======================================================================
``GET /api/games``         the games, their options with defaults, their special actions
``GET /api/state``         the table: the picture, whose turn, the legal specials, the messages
``POST /api/new``          ``{"game", "options", "opponent", "side", "hint"}``; ``opponent`` is an
                           agent spec (``random``, ``greedy``, ``mcts:1024``, ``az``) or ``human``
                           (two people on one page)
``POST /api/move``         ``{"move": "e5"}`` (notation, or an action index); the agent replies
``POST /api/hint``         the hint agent's move, ringed on the board (not played)
``POST /api/undo``         back to before the person's last move
``POST /api/resign``       the person to move resigns
``GET /api/record``        the record of the game so far (``territory_envs.write_record``)
``POST /api/load``         ``{"record": text}``: a record to replay (arena records, trainer games)
``POST /api/replay``       ``{"index": k}``: show position ``k`` of the game (0 is the start)
=========================  ======================================================================

A bad request (an illegal move, a bad option, an unknown agent, a corrupt record) is answered with
status 400 and ``{"error": ...}``, shown on the page, and changes nothing. The server binds to
127.0.0.1 unless told otherwise; it serves one table, for the people in front of one machine.
"""
from __future__ import annotations

import argparse
import json
import sys
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlparse

from territory_envs import game_names, make_game, read_record, registry, write_record
from territory_envs.core.game import IllegalActionError
from territory_envs.core.options import excerpt

from .play import _option_value, replay
from .registry import make_agent

PAGE = Path(__file__).with_name("web_page.html")
HUMAN = "human"
MAX_BODY = 1 << 20  # a record of the largest board's longest game fits many times over


class BadRequest(ValueError):
    """A request the table refuses; its text is shown on the page."""


class Table:
    """One game at a time: its state, who plays each player, the hint agent, and the replay cursor.
    Every change is made on a copy and kept only when it succeeded, so a refused request changes
    nothing."""

    def __init__(self):
        self.lock = threading.Lock()
        self.state = None
        self.players = {0: HUMAN, 1: HUMAN}  # player index -> HUMAN or an agent
        self.hint_agent = None
        self.resigned = None  # the player who resigned, if one did
        self.replay_index = None  # a position of the game being shown instead of the last one
        self.hint_cell = -1
        self.message = "pick a game and an opponent, then press New game"

    # --- requests ---------------------------------------------------------------------------------
    def new(self, request: dict) -> None:
        name = request.get("game")
        if name not in game_names():
            raise BadRequest(f"game {excerpt(name)}: expected one of {', '.join(game_names())}")
        options = request.get("options") or {}
        if not isinstance(options, dict):
            raise BadRequest("options: expected an object of option names and values")
        known = registry()[name]["options"]
        # the page's fields are text: "9" is the number 9, as on territory-play's command line
        options = {k: _option_value(v) if isinstance(v, str) else v for k, v in options.items() if v not in ("", None)}
        for key in options:
            if key not in known:
                raise BadRequest(f"{name} has no option {excerpt(key)}; its options are {', '.join(known)}")
        try:
            game = make_game(name, **options)
        except ValueError as err:
            raise BadRequest(str(err)) from None
        side = request.get("side", "first")
        if side not in ("first", "second"):
            raise BadRequest(f"side {excerpt(side)}: expected first or second")
        opponent_spec = str(request.get("opponent") or "mcts:64").strip()
        opponent = HUMAN if opponent_spec == HUMAN else self._agent(opponent_spec, "opponent")
        hint_spec = str(request.get("hint") or "mcts:256").strip()
        hint_agent = self._agent(hint_spec, "hint")
        person = 0 if side == "first" else 1
        self.state = game.new_state()
        self.players = {person: HUMAN, 1 - person: opponent}
        self.hint_agent = hint_agent
        self._fresh_view()
        opponent_name = "another person" if opponent == HUMAN else opponent.name
        self.message = f"{game.describe()}: you play player_{person} ({game.sides[person]}), {opponent_name} the other side"
        self._agents_move()

    def move(self, request: dict) -> None:
        state = self._playing()
        if self.players[state.current_player] != HUMAN:
            raise BadRequest("it is the agent's turn")
        move = request.get("move")
        try:
            if isinstance(move, int) and not isinstance(move, bool):
                action = move
            elif isinstance(move, str):
                action = state.game.notation_to_action(move)
            else:
                raise BadRequest(f"move {excerpt(move)}: expected a move in notation, e.g. c3, or an action index")
            trial = state.clone()
            trial.apply(action)
        except (IllegalActionError, ValueError) as err:
            raise BadRequest(f"{excerpt(move)} is not legal now: {err}") from None
        self.state = trial
        self._fresh_view()
        self.message = f"you played {state.game.action_to_notation(action)}"
        self._agents_move()

    def hint(self) -> None:
        state = self._playing()
        action = int(self.hint_agent.act(state.clone()))
        self.hint_cell = action if action < state.game.num_cells else -1
        self.message = f"hint ({self.hint_agent.name}): {state.game.action_to_notation(action)}"

    def undo(self) -> None:
        state = self._started()
        history = list(state.history)
        _, movers = replay(state.game, history)
        people = [i for i, player in enumerate(movers) if self.players[player] == HUMAN]
        if not people:
            raise BadRequest("nothing to undo: no person has moved yet")
        cut = people[-1]
        replayed, _ = replay(state.game, history[:cut])
        taken = [state.game.action_to_notation(a) for a in history[cut:]]
        for agent in self.players.values():
            if agent != HUMAN and hasattr(agent, "reset"):
                agent.reset()  # what the agent kept of the abandoned line goes
        self.state = replayed
        self._fresh_view()
        self.message = f"took back {' '.join(taken)}"

    def resign(self) -> None:
        state = self._playing()
        if self.players[state.current_player] != HUMAN:
            raise BadRequest("it is the agent's turn")
        self.resigned = state.current_player
        self.message = f"player_{self.resigned} resigned: player_{1 - self.resigned} wins"

    def load(self, request: dict) -> None:
        text = request.get("record")
        if not isinstance(text, str) or not text.strip():
            raise BadRequest("record: expected the text of a record")
        try:
            state = read_record(text)
        except ValueError as err:
            raise BadRequest(str(err)) from None
        self.state = state
        self.players = {0: HUMAN, 1: HUMAN}
        if self.hint_agent is None:
            self.hint_agent = self._agent("mcts:256", "hint")
        self._fresh_view()
        self.replay_index = 0
        self.message = f"loaded a record of {len(state.history)} moves: step through it, or play on from its end"

    def replay(self, request: dict) -> None:
        state = self._started()
        index = request.get("index")
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index <= len(state.history):
            raise BadRequest(f"index {excerpt(index)}: expected a position from 0 to {len(state.history)}")
        self.replay_index = None if index == len(state.history) else index
        self.hint_cell = -1

    def record(self) -> str:
        return write_record(self._started())

    # --- what the page shows ----------------------------------------------------------------------
    def view(self) -> dict:
        state = self.state
        if state is None:
            return {"svg": "", "message": self.message, "specials": [], "over": False, "moves": [], "index": 0}
        game = state.game
        shown = state if self.replay_index is None else state.positions()[self.replay_index]
        live = self.replay_index is None and not self._over()
        people_turn = live and self.players[state.current_player] == HUMAN
        cell_px = max(28, min(60, 480 // max(game.geometry.shape)))  # boards about 480 pixels across
        svg = shown.render_svg(legal=people_turn, clickable=people_turn, hint=self.hint_cell if live else -1,
                               cell_px=cell_px)
        specials = [game.action_to_notation(a) for a in state.legal_actions() if a >= game.num_cells] if people_turn else []
        status = self._status()
        return {"svg": svg, "message": self.message, "status": status, "specials": specials, "over": self._over(),
                "moves": [game.action_to_notation(a) for a in state.history],
                "index": len(state.history) if self.replay_index is None else self.replay_index,
                "your_turn": people_turn, "game": game.name}

    def _status(self) -> str:
        state = self.state
        if self.resigned is not None:
            return f"player_{self.resigned} resigned"
        if state.terminal:
            return "game over: " + ("a draw" if state.winner < 0 else f"{state.side_name(state.winner)} wins")
        if state.truncated:
            return "game over: the move limit"
        player = state.current_player
        who = "you" if self.players[player] == HUMAN else self.players[player].name
        return f"{state.side_name(state.to_move)} (player_{player}, {who}) to play"

    # --- inside -----------------------------------------------------------------------------------
    def _agent(self, spec: str, what: str):
        try:
            return make_agent(spec, seed=None)
        except (ValueError, ImportError) as err:
            raise BadRequest(f"{what} {excerpt(spec)}: {err}") from None

    def _started(self):
        if self.state is None:
            raise BadRequest("no game yet: press New game, or load a record")
        return self.state

    def _over(self) -> bool:
        return self.state is not None and (self.state.over or self.resigned is not None)

    def _playing(self):
        state = self._started()
        if self._over():
            raise BadRequest("the game is over: start a new one, undo, or load a record")
        if self.replay_index is not None:
            raise BadRequest("you are looking at an earlier position: step to the last one to play on")
        return state

    def _fresh_view(self) -> None:
        self.resigned, self.replay_index, self.hint_cell = None, None, -1

    def _agents_move(self) -> None:
        state = self.state
        while not state.over and self.players[state.current_player] != HUMAN:
            agent = self.players[state.current_player]
            action = int(agent.act(state.clone()))
            state.apply(action)
            self.message += f"; {agent.name} played {state.game.action_to_notation(action)}"


def games_info() -> dict:
    return {name: {"options": {k: v for k, v in entry["options"].items()}, "sides": list(entry["sides"]),
                   "special_actions": list(entry["special_actions"])} for name, entry in registry().items()}


def make_handler(table: Table):
    class Handler(BaseHTTPRequestHandler):
        server_version = "territory-web"

        def log_message(self, format, *args):  # quiet: the page says what happened
            pass

        def _send(self, status: int, body: bytes, content_type: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def _json(self, payload: dict, status: int = HTTPStatus.OK) -> None:
            self._send(status, json.dumps(payload, default=str).encode(), "application/json")

        def do_GET(self):
            path = urlparse(self.path).path
            if path in ("/", "/index.html"):
                return self._send(HTTPStatus.OK, PAGE.read_bytes(), "text/html; charset=utf-8")
            with table.lock:
                try:
                    if path == "/api/games":
                        return self._json({"games": games_info()})
                    if path == "/api/state":
                        return self._json(table.view())
                    if path == "/api/record":
                        return self._send(HTTPStatus.OK, table.record().encode(), "text/plain; charset=utf-8")
                except BadRequest as err:
                    return self._json({"error": str(err)}, HTTPStatus.BAD_REQUEST)
            self._json({"error": f"no page {excerpt(path)}"}, HTTPStatus.NOT_FOUND)

        def do_POST(self):
            path = urlparse(self.path).path
            actions = {"/api/new": table.new, "/api/move": table.move, "/api/load": table.load,
                       "/api/replay": table.replay, "/api/hint": lambda _: table.hint(),
                       "/api/undo": lambda _: table.undo(), "/api/resign": lambda _: table.resign()}
            if path not in actions:
                return self._json({"error": f"no action {excerpt(path)}"}, HTTPStatus.NOT_FOUND)
            try:
                length = int(self.headers.get("Content-Length") or 0)
                if length > MAX_BODY:
                    raise BadRequest(f"request of {length} bytes: at most {MAX_BODY}")
                raw = self.rfile.read(length) if length else b"{}"
                try:
                    request = json.loads(raw or b"{}")
                except (json.JSONDecodeError, UnicodeDecodeError):
                    raise BadRequest("the request is not JSON") from None
                if not isinstance(request, dict):
                    raise BadRequest("the request must be a JSON object")
                with table.lock:
                    actions[path](request)
                    return self._json(table.view())
            except BadRequest as err:
                with table.lock:
                    view = table.view()
                return self._json({**view, "error": str(err)}, HTTPStatus.BAD_REQUEST)

    return Handler


def serve(host: str = "127.0.0.1", port: int = 8000, record: str | None = None) -> ThreadingHTTPServer:
    """A server for one table (not yet serving: call ``serve_forever``); port 0 picks a free one."""
    table = Table()
    if record is not None:
        table.load({"record": Path(record).read_text()})
    server = ThreadingHTTPServer((host, port), make_handler(table))
    server.table = table
    return server


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="territory-web", description="Play and replay territory games in a browser.")
    parser.add_argument("--host", default="127.0.0.1", help="the address to bind (default: 127.0.0.1, this machine only)")
    parser.add_argument("--port", type=int, default=8000, help="the port (default: 8000; 0 picks a free one)")
    parser.add_argument("--record", default=None, metavar="FILE", help="a record to open for replay")
    args = parser.parse_args(argv)
    try:
        server = serve(args.host, args.port, args.record)
    except (OSError, BadRequest) as err:
        parser.error(str(err))
    host, port = server.server_address[:2]
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"territory-web: bound to {args.host}: anyone who reaches this machine can use the page", file=sys.stderr)
    print(f"territory-web: http://{host}:{port}/ (Ctrl-C stops it)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
