"""Play a territory game in the terminal against an agent.

::

    territory-play lin --board-size 9 --vs mcts:400
    python -m agents.play lifeline --side second --vs greedy --record game.txt

The person types moves in the library's notation (``e5``; special actions by name: ``pass``,
``swap``, ``spend_komi``, ``remove_prisoner``) or a command: ``legal``, ``hint``, ``undo``, ``help``,
``quit``. A bad or illegal move gets a one-line reason and a new prompt. The person is tracked by
*player* (``player_0`` / ``player_1``), not by side, so a pie ``swap`` hands them the other colour.

Every game option is a flag (``--board-size``, ``--komi``, ...), built from
:func:`territory_envs.registry` so the flags follow the games; a flag the chosen game does not know,
or a value it refuses, is a usage error (exit code 2).
"""
from __future__ import annotations

import argparse
import math
import sys
import textwrap

from territory_envs import game_names, make_game, registry, write_record
from territory_envs.core.game import GameState, IllegalActionError
from territory_envs.core.options import excerpt

from ._cli import choice, defaults_text, integer, metavar, nonempty, options_by_game
from .registry import EXPECTED, make_agent

SIDES = ("first", "second")
HELP_COMMANDS = (
    ("legal", "list the legal moves"),
    ("hint", "suggest a move (without playing it)"),
    ("undo", "take back your last move and the replies since"),
    ("help", "this text"),
    ("quit", "stop the game and print its record so far"),
)
NON_FINITE = ("inf", "infinity", "nan")
COMMAND_ALIASES = {"?": "help", "h": "help", "q": "quit", "exit": "quit", "u": "undo", "l": "legal"}


# --- command line -------------------------------------------------------------------------------
def _option_value(text: str):
    """A flag value as the game expects it: an int, else a float, else the text (e.g. ``pie``).
    A number that overflows to ``inf`` (``1e400``, or too many digits for ``int``) stays text, so
    that the game's message quotes what was typed."""
    for convert in (int, float):
        try:
            value = convert(text)
        except ValueError:
            continue
        if isinstance(value, int) or math.isfinite(value) or text.strip().lower().lstrip("+-") in NON_FINITE:
            return value
        break
    return text


def _flag(option: str) -> str:
    return "--" + option.replace("_", "-")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="territory-play", description="Play a territory game in the terminal against an agent.",
        epilog="In the game, type a move in notation (e.g. c3, pass, swap) or: "
               + ", ".join(name for name, _ in HELP_COMMANDS) + ".")
    parser.add_argument("game", type=choice(game_names()), help=f"the game to play: {', '.join(game_names())}")
    options = parser.add_argument_group("game options (each game takes only its own)")
    for option in options_by_game():
        options.add_argument(_flag(option), dest=option, type=_option_value, default=None,
                             metavar=option.upper(), help=f"default: {defaults_text(option)}")
    parser.add_argument("--vs", default="mcts:400", metavar="SPEC",
                        help=f"the opponent: {EXPECTED} (default: mcts:400)")
    parser.add_argument("--side", type=choice(SIDES), metavar=metavar(SIDES), default="first",
                        help="the side you start with (default: first, e.g. black)")
    parser.add_argument("--hint", metavar="SPEC", default=None,
                        help="the agent the hint command asks (default: the same kind as --vs)")
    parser.add_argument("--seed", type=integer(low=0), default=None, help="seed of the agents (an integer >= 0)")
    parser.add_argument("--record", metavar="FILE", type=nonempty, default=None,
                        help="write the game record (territory_envs.write_record) to FILE at the end")
    return parser


def _game_from_args(parser: argparse.ArgumentParser, args):
    """The game with the options given on the command line; a usage error for a flag the game does
    not take or a value it refuses."""
    known = registry()[args.game]["options"]
    given = {name: getattr(args, name) for name in options_by_game() if getattr(args, name) is not None}
    foreign = [name for name in given if name not in known]
    if foreign:
        parser.error(f"{args.game} has no option {_flag(foreign[0])}; its options are "
                     f"{', '.join(_flag(name) for name in known)}")
    try:
        return make_game(args.game, **given)
    except ValueError as err:
        parser.error(str(err))


def _agent_from_spec(parser: argparse.ArgumentParser, flag: str, spec: str, seed):
    try:
        return make_agent(spec, seed)
    except ValueError as err:
        parser.error(f"{flag}: {err}")
    except ImportError as err:  # an agent kind whose module is not there (yet)
        parser.error(f"{flag} {excerpt(spec)}: this agent is not available ({err})")


# --- the game session ---------------------------------------------------------------------------
class PlaySession:
    """One game between the person (a player, 0 or 1) and an agent, read from ``read_line`` and
    written to ``out``. The state is the only truth: undo rebuilds it by replaying its history."""

    def __init__(self, game, person: int, opponent, hint_agent, out, read_line):
        self.game = game
        self.person = person
        self.opponent = opponent
        self.hint_agent = hint_agent
        self.out = out
        self.read_line = read_line
        self.state: GameState = game.new_state()
        self.movers: list[int] = []  # the player who made each move of the history

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    # --- the loop ---------------------------------------------------------------------------------
    def run(self) -> str:
        """Play until the game ends (``"over"``) or the person stops (``"quit"``)."""
        self._introduce()
        self._show_board()
        while not self.over:
            if self.state.current_player == self.person:
                if not self._person_turn():
                    return "quit"
            else:
                self._agent_turn()
        self._announce_result()
        return "over"

    @property
    def over(self) -> bool:
        """Ended by the rules, or by the ``max_moves`` bound (a draw, as in the arena)."""
        return self.state.over

    def _agent_turn(self) -> None:
        side = self._side_name(1 - self.person)
        action = int(self.opponent.act(self.state.clone()))
        swapped = self._play(action)
        self.say(f"{self.opponent.name} ({side}) plays {self.game.action_to_notation(action)}")
        self._say_swap(swapped)
        self._show_board()

    def _person_turn(self) -> bool:
        """Read lines until a move is played or a command ends the turn; False to stop the game."""
        self._say_turn_notes()
        while True:
            line = self.read_line(f"{self._side_name(self.person)} to play (you) > ")
            if line is None:
                self.say("(end of input)")
                return False
            text = line.strip().lower()
            if not text:
                continue
            command = COMMAND_ALIASES.get(text, text)
            if command == "quit":
                return False
            if command == "help":
                self._help()
            elif command == "legal":
                self._legal()
            elif command == "hint":
                self._hint()
            elif command == "undo":
                if self._undo():
                    return True
            elif self._try_move(text):
                return True

    def _try_move(self, text: str) -> bool:
        other_games = _special_actions_elsewhere(self.game)
        if text in other_games:
            own = self.game.special_actions
            self.say(f"{self.game.name.capitalize()} has no {text} (that is {other_games[text]}'s); "
                     + (f"its special actions: {', '.join(own)}" if own else "every move places a stone"))
            return False
        try:
            action = self.game.notation_to_action(text)
        except ValueError as err:
            self.say(f"{err}; type help for the commands")
            return False
        try:
            swapped = self._play(action)
        except IllegalActionError:
            self.say(f"illegal: {_why_illegal(self.state, action)}")
            return False
        self._say_swap(swapped)
        self._show_board()
        return True

    def _play(self, action: int) -> bool:
        """Apply ``action`` for the player to act; whether the person's side changed (a pie swap)."""
        side_before = self.state.side_of(self.person)
        mover = self.state.current_player
        self.state.apply(action)
        self.movers.append(mover)
        return self.state.side_of(self.person) != side_before

    def _say_swap(self, swapped: bool) -> None:
        """After the move that swapped the sides has been told: who plays what now."""
        if swapped:
            self.say(f"sides swapped: you now play {self._side_name(self.person)}, "
                     f"{self.opponent.name} plays {self._side_name(1 - self.person)}")

    # --- commands ---------------------------------------------------------------------------------
    def _help(self) -> None:
        special = self.game.special_actions
        self.say(f"moves: a point in notation such as {self._example_move()}"
                 + (f"; special actions: {', '.join(special)}" if special else ""))
        self.say("commands:")
        for name, meaning in HELP_COMMANDS:
            self.say(f"  {name:6} {meaning}")

    def _legal(self) -> None:
        moves = [self.game.action_to_notation(a) for a in self.state.legal_actions()]
        self.say(textwrap.fill(f"{len(moves)} legal: {' '.join(moves)}", width=78, subsequent_indent="  "))

    def _hint(self) -> None:
        action = int(self.hint_agent.act(self.state.clone()))
        self.say(f"hint ({self.hint_agent.name}): {self.game.action_to_notation(action)}")

    def _undo(self) -> bool:
        """Back to just before the person's last move (the agent's replies since go too), rebuilt by
        replaying the history from a fresh state. False when the person has not moved yet."""
        if self.person not in self.movers:
            self.say("nothing to undo: you have not moved yet")
            return False
        cut = len(self.movers) - 1 - self.movers[::-1].index(self.person)
        history = self.state.history
        taken_back = [self.game.action_to_notation(a) for a in history[cut:]]
        self.state, self.movers = replay(self.game, history[:cut])
        self.opponent.reset()  # drop whatever the agent kept of the abandoned line
        self.say(f"took back {len(taken_back)} move{'s' if len(taken_back) > 1 else ''}: {' '.join(taken_back)}")
        self._show_board()
        return True

    # --- what is shown ----------------------------------------------------------------------------
    def _introduce(self) -> None:
        self.say(f"{self.game.describe()}: you are {self._side_name(self.person)} (player_{self.person}), "
                 f"{self.opponent.name} is {self._side_name(1 - self.person)} (player_{1 - self.person})")
        self.say(textwrap.fill(self.game.explain(), 78))
        self.say(f"type a move (e.g. {self._example_move()}) or a command: "
                 + ", ".join(name for name, _ in HELP_COMMANDS))

    def _show_board(self) -> None:
        self.say()
        self.say(self.state.render_ansi())

    def _say_turn_notes(self) -> None:
        """Tell the person when a turn has two stones (double first placements)."""
        if self.movers and self.movers[-1] == self.person:
            self.say("you act again: second stone of your double placement")
        elif stone_keeps_turn(self.state):
            self.say("this turn you place two stones (double placement)")

    def _announce_result(self) -> None:
        state = self.state
        if not state.terminal:
            self.say(f"game over: the move limit ({self.game.max_moves}) is reached - draw")
        elif state.winner < 0:
            self.say(f"game over after {state.move_number} moves: draw")
        else:
            winner_player = state.winner ^ state.flip
            who = "you win" if winner_player == self.person else f"{self.opponent.name} wins"
            self.say(f"game over after {state.move_number} moves: {state.side_name(state.winner)} wins - {who}")
        scores = state.scores()
        if scores is not None:
            self.say(f"score: {self.game.sides[0]} {_number(scores[0])}, {self.game.sides[1]} {_number(scores[1])}")

    def _side_name(self, player: int) -> str:
        return self.state.side_name(self.state.side_of(player))

    def _example_move(self) -> str:
        cells = [a for a in self.game.new_state().legal_actions() if a < self.game.num_cells]
        return self.game.action_to_notation(cells[len(cells) // 2]) if cells else "c3"


def _special_actions_elsewhere(game) -> dict:
    """The special actions of the other games that ``game`` lacks, each with the games that have it."""
    found: dict = {}
    for name, entry in registry().items():
        for action in entry["special_actions"]:
            if action not in game.special_actions:
                found[action] = f"{found[action]} and {name.capitalize()}" if action in found else name.capitalize()
    return found


def replay(game, actions) -> tuple[GameState, list[int]]:
    """The state after ``actions`` from the start, and the player who made each of them."""
    state = game.new_state()
    movers = []
    for action in actions:
        movers.append(state.current_player)
        state.apply(action)
    return state, movers


def stone_keeps_turn(state: GameState) -> bool:
    """Whether placing a stone now leaves the same player to act (the first stone of a double
    placement), found by trying one on a copy: it holds for any game without knowing its rules."""
    cells = [int(a) for a in state.legal_actions() if a < state.game.num_cells]
    if not cells:
        return False
    probe = state.clone().apply(cells[0])
    return not probe.terminal and probe.current_player == state.current_player


def _why_illegal(state: GameState, action: int) -> str:
    """The reason in words: occupied, a special action not open now, or a point outside the mask."""
    notation = state.game.action_to_notation(action)
    if action < state.game.num_cells and state.board[action] != 0:
        return f"{notation} is occupied"
    if action >= state.game.num_cells:
        return f"{notation} is not allowed now"
    legal = [state.game.action_to_notation(a) for a in state.legal_actions()]
    shown = " ".join(legal[:12]) + (" ..." if len(legal) > 12 else "")
    return f"{notation} is not legal for {state.side_name(state.to_move)} now (legal: {shown})"


def _number(x) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def _line_reader(stdin, out):
    """``read_line(prompt) -> str | None`` (None at end of input). A terminal gets ``input`` (line
    editing); other input is echoed after the prompt so a transcript reads like a session."""
    if stdin is None and out is sys.stdout and sys.stdin.isatty() and sys.stdout.isatty():
        try:
            import readline  # line editing for input()
            readline.parse_and_bind("set editing-mode emacs")
        except ImportError:
            pass

        def read_terminal(prompt: str):
            try:
                return input(prompt)
            except EOFError:
                print(file=out)
                return None
        return read_terminal

    source = sys.stdin if stdin is None else stdin

    def read_stream(prompt: str):
        out.write(prompt)
        line = source.readline()
        if not line:
            out.write("\n")
            return None
        out.write(line if line.endswith("\n") else line + "\n")
        return line
    return read_stream


# --- entry point --------------------------------------------------------------------------------
def main(argv=None, stdin=None, stdout=None) -> int:
    """Run one game; 0 when it ends or the person quits, 2 for a usage error (on stderr), 1 when
    the record file cannot be written, 130 on Ctrl-C."""
    out = sys.stdout if stdout is None else stdout
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        game = _game_from_args(parser, args)
        opponent = _agent_from_spec(parser, "--vs", args.vs, args.seed)
        hint_seed = None if args.seed is None else args.seed + 1
        hint_agent = _agent_from_spec(parser, "--hint" if args.hint else "--vs", args.hint or args.vs, hint_seed)
    except SystemExit as exit:  # argparse: usage errors (2) and --help (0)
        return exit.code if isinstance(exit.code, int) else 2

    session = PlaySession(game, person=SIDES.index(args.side), opponent=opponent, hint_agent=hint_agent,
                          out=out, read_line=_line_reader(stdin, out))
    code = 0
    try:
        ending = session.run()
    except KeyboardInterrupt:
        print("\ninterrupted", file=out)
        ending, code = "quit", 130
    if ending == "quit":
        moves = session.state.move_number
        print(f"game stopped after {moves} move{'' if moves == 1 else 's'}; the record so far:", file=out)
        print(write_record(session.state), end="", file=out)
    if args.record:
        try:
            with open(args.record, "w", encoding="utf-8") as file:
                file.write(write_record(session.state))
        except OSError as err:
            print(f"cannot write the record to {args.record}: {err}", file=out)
            return 1
        print(f"record written to {args.record}", file=out)
    return code


if __name__ == "__main__":
    sys.exit(main())
