"""What every game shares: the immutable :class:`Game` (options, geometry, actions, observation
planes) and the mutable :class:`GameState` of docs/spec.md (clone, legal actions, apply, end, returns,
serialisation).

A game module subclasses both and supplies only its rules: ``GameState._apply`` (one action,
already known to be legal), ``_refresh`` (derived facts such as living domains and the legal mask,
recomputed from the stored bits), ``observation`` and ``scores``.

Players and sides: the state knows which *player* (0 for ``player_0``, 1 for ``player_1``) holds
which *side* (0 for the first side, Black or Vertical; 1 for the second). Player ``p`` holds side
``p ^ flip``. ``flip`` starts at 1 when the env is reset with ``swap_sides`` and is toggled by a pie
swap, so agents keep their names while sides move between them. ``returns()`` is indexed by player.
"""
from __future__ import annotations

import re

import functools
import json
import operator
from abc import ABC, abstractmethod
from dataclasses import dataclass

import numpy as np

from .batch import playout
from .compile_cache import announce_compile
from .fields import (FLIP, MAX_MOVE_NUMBER, TERMINAL, TO_MOVE, WINNER, Fields, field_array, field_bool,  # noqa: F401
                     field_bools, field_int, field_ints, HEAD_BITS, HEAD_FACTS)
from .geometry import Geometry
from .options import check_known, check_max_moves, excerpt


_NO_TRACE = np.empty((2, 0), dtype=np.int32)  # rollouts record no actions
_HEAD_MASK = (1 << HEAD_BITS) - 1  # the head_code bits of what act returns


class IllegalActionError(ValueError):
    """An action that is not an integer, out of range, masked out, or played after the end of the
    game."""


class IllegalActionWarning(UserWarning):
    """An env ended a game with a loss for the agent that played an illegal action (the default,
    ``illegal_action="lose"``; PettingZoo's ``TerminateIllegalWrapper`` warns alike). Filter it with
    ``warnings.simplefilter("ignore", IllegalActionWarning)``, or make the env raise instead with
    ``illegal_action="raise"``."""


def as_action(action, num_actions: int) -> int:
    """``action`` as a plain ``int`` in ``0..num_actions-1``, or :class:`IllegalActionError`.

    An action is an integer: whatever ``operator.index`` takes (``int``, numpy integers, 0-d integer
    arrays, integer tensors), except ``bool``. Floats are refused even when whole (``3.0``), as
    PettingZoo's classic envs refuse them, so a policy that emits floats is caught at once."""
    if isinstance(action, (bool, np.bool_)):
        raise IllegalActionError(f"action {action!r} is a bool, not an integer")
    try:
        a = operator.index(action)
    except TypeError:
        raise IllegalActionError(f"action {excerpt(action)} is not an integer "
                                 f"(an int or numpy integer; floats are refused)") from None
    if not 0 <= a < num_actions:
        raise IllegalActionError(f"action {excerpt(a)} out of range 0..{num_actions - 1}")
    return a


@dataclass(frozen=True)
class Plane:
    """One channel of the observation: its name, meaning and value range (int8)."""

    name: str
    description: str
    low: int = 0
    high: int = 1


class Game(ABC):
    """A game with fixed options. Cheap to share: states point to it and never change it."""

    name: str = ""
    sides: tuple[str, str] = ("black", "white")
    special_actions: tuple[str, ...] = ()
    option_defaults: dict = {}
    planes: tuple[Plane, ...] = ()
    state_class: type = None  # set by each game module
    compiled = None  # the game's compiled interface (a core.compiled.CompiledGame)

    def __init__(self, **options):
        check_known(self.name, options, tuple(self.option_defaults) + ("max_moves",))
        merged = {**self.option_defaults, **options}
        try:
            self.geometry: Geometry = self._validate(merged)
        except ValueError as error:  # a default the other options rule out: say it was a default
            named = re.match(r"option (\w+)=", str(error))
            if named and named[1] in self.option_defaults and named[1] not in options:
                raise ValueError(f"{error} ({named[1]} was not given: this is its default; "
                                 f"pass {named[1]}=... to choose another)") from None
            raise
        self.options = {k: merged[k] for k in self.option_defaults}
        self.max_moves = check_max_moves(merged.get("max_moves"), self.default_max_moves())
        self.options["max_moves"] = self.max_moves
        self.num_cells = self.geometry.num_cells
        # the geometry arguments of the connectivity kernels, in their usual order
        self.kernel_args = (self.geometry.on_board, self.geometry.neighbours, self.geometry.degree)
        self.num_actions = self.num_cells + len(self.special_actions)
        self.obs_shape = (self.geometry.height, self.geometry.width, len(self.planes))
        self.obs_low = np.broadcast_to(np.array([p.low for p in self.planes], np.int8), self.obs_shape)
        self.obs_high = np.broadcast_to(np.array([p.high for p in self.planes], np.int8), self.obs_shape)
        announce_compile(self.name)  # one line on stderr when this game's kernels are not cached yet

    # --- hooks for each game ------------------------------------------------------------------
    @abstractmethod
    def _validate(self, options: dict) -> Geometry:
        """Check ``options`` in place (normalising values) and return the board geometry."""

    # what the text board's symbols and the scores mean, for people; fields in braces are options
    legend = ""

    def explain(self) -> str:
        """What the text board's symbols and the scores mean (the play CLI and the demo print it)."""
        return self.legend.format(**self.options)

    def default_max_moves(self) -> int:
        return 10 * self.geometry.num_points

    @abstractmethod
    def kernel_params(self) -> tuple:
        """The constants the game's compiled interface takes (``p``, see :mod:`.compiled`), built
        once by :attr:`params`."""

    @functools.cached_property
    def params(self) -> tuple:
        """:meth:`kernel_params`, built on first use (it may run compiled code: Lifeline analyses
        the empty board once, after the first-use notice)."""
        return self.kernel_params()

    # --- actions and notation -----------------------------------------------------------------
    def action_to_notation(self, action: int) -> str:
        action = int(action)
        if 0 <= action < self.num_cells:
            return self.geometry.to_notation(action)
        if self.num_cells <= action < self.num_actions:
            return self.special_actions[action - self.num_cells]
        raise ValueError(f"action {action} out of range 0..{self.num_actions - 1}")

    def notation_to_action(self, text: str) -> int:
        t = text.strip().lower()
        if t in self.special_actions:
            return self.num_cells + self.special_actions.index(t)
        return self.geometry.from_notation(t)

    # --- states -------------------------------------------------------------------------------
    def new_state(self, swap_sides: bool = False) -> "GameState":
        return self.state_class(self, swap_sides)

    def state_from_dict(self, data: dict, reachable: bool = True) -> "GameState":
        """:meth:`GameState.from_dict` for this game (``ValueError`` naming the field at fault)."""
        return self.state_class.from_dict(data, game=self, reachable=reachable)

    def describe(self) -> str:
        opts = ", ".join(f"{k}={v}" for k, v in self.options.items())
        return f"{self.name}({opts})"

    def __repr__(self) -> str:
        return self.describe()


class GameState(ABC):
    """The full state of one game: the board, the legal mask, the move number and history, the
    scalar row ``s`` and the arrays its game declares in :attr:`fields` (see
    :mod:`territory_envs.core.fields`). Every field is either stored (serialised) or derived from
    the stored fields by ``_refresh`` (never serialised, always copied by ``clone``).

    ``to_move`` (side to move: 0 first side, 1 second side), ``flip``, ``terminal`` and ``winner``
    (side that won, -1 for none: ongoing or a draw) are the head of the row, kept as attributes
    too so that the env reads them without a numpy access; only :meth:`_read_head` and
    :meth:`apply` set them, from the row."""

    __slots__ = ("game", "board", "s", "move_number", "history", "mask", "to_move", "flip", "terminal", "winner")

    fields: Fields = Fields()  # each game declares its own

    def __init__(self, game: Game, swap_sides: bool = False):
        self.game = game
        self.board = np.zeros(game.num_cells, dtype=np.int8)
        self.s = self.fields.new_row(int(bool(swap_sides)))
        self.move_number = 0
        self.history: list[int] = []
        self.mask = np.zeros(game.num_actions, dtype=np.int8)
        self._read_head()
        self._init_extra()
        self._new_arrays()
        self._refresh()

    def _read_head(self) -> None:
        s = self.s
        self.to_move, self.flip = int(s[TO_MOVE]), int(s[FLIP])
        self.terminal, self.winner = bool(s[TERMINAL]), int(s[WINNER])

    def _new_arrays(self) -> None:
        for array in self.fields.arrays:
            setattr(self, array.name, array.new(self.game))

    # --- hooks --------------------------------------------------------------------------------
    def _init_extra(self) -> None:
        """Set the game's own slots of the row (and any other stored field) to their values at
        the start."""

    @abstractmethod
    def _refresh(self) -> None:
        """Recompute the derived fields (the declared arrays, the legal mask, the row's derived
        slots) from the stored ones."""

    @abstractmethod
    def _apply(self, action: int) -> int:
        """Play a legal action through the game's compiled turn, which updates the row and the
        arrays; return its :func:`~territory_envs.core.fields.head_code`."""

    def _extra_fields(self) -> dict:
        """State-dict fields beyond the declared row fields (Asli's table of positions)."""
        return {}

    def _load_extra(self, data: dict) -> None:
        """Read the fields of :meth:`_extra_fields` and check what the declared row fields say
        together (``ValueError`` naming the field)."""

    def scores(self):
        """Points per side, ``(first, second)``, komi included; ``None`` for games without points."""
        return None

    def info(self) -> dict:
        """Game facts for ``infos`` besides side, winner, score and illegal_action_by (e.g. Asli's
        prison): numbers only, the same keys all game long."""
        return {}

    # a game whose ``info()`` changes during play counts the changes here, so the env rebuilds its
    # infos only then (a per-state slot in that game's class)
    info_version = 0

    @abstractmethod
    def observation(self, player: int) -> np.ndarray:
        """int8 planes ``(H, W, C)`` seen by ``player`` (the game's docstring table)."""

    def may_move(self, side: int) -> bool:
        """Whether ``side`` is to move in a game that goes on (``core.fields.may_move``, from the head
        read after each action): its observation then shows its legal actions."""
        return side == self.to_move and not self.terminal

    # the tints of pictures, ``(what it shows, rgb, alpha)``, in the order of :meth:`tint_masks`
    # (docs/generate.py prints them as each game's legend)
    tints: tuple = ()

    def tint_masks(self) -> list:
        """One bool mask ``(N,)`` per entry of :attr:`tints`: the cells it tints."""
        return []

    def overlays(self) -> list:
        """Derived facts to tint in pictures: ``(mask (N,), rgb, alpha)``, from :attr:`tints`."""
        return [(mask, rgb, alpha) for mask, (_, rgb, alpha) in zip(self.tint_masks(), self.tints)]

    # --- players and sides --------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        """The player (0 or 1) to act, whatever side it holds."""
        return self.to_move ^ self.flip

    def side_of(self, player: int) -> int:
        return player ^ self.flip

    def side_name(self, side: int) -> str:
        return self.game.sides[side]

    # --- the docs/spec.md state API ----------------------------------------------------------------
    def legal_mask(self) -> np.ndarray:
        """int8 mask over all actions for the player to act (all zeros at the end). Read-only view."""
        view = self.mask.view()
        view.flags.writeable = False
        return view

    def legal_actions(self) -> np.ndarray:
        return np.flatnonzero(self.mask)

    def is_legal(self, action) -> bool:
        try:
            return bool(self.mask[self._as_action(action)])
        except IllegalActionError:
            return False

    def _as_action(self, action) -> int:
        return as_action(action, self.game.num_actions)

    def apply(self, action) -> "GameState":
        """Play ``action`` for the player to act. An illegal action raises
        :class:`IllegalActionError` and leaves the state unchanged. Returns ``self``."""
        a = action if type(action) is int else self._as_action(action)
        if self.terminal or not 0 <= a < self.game.num_actions or not self.mask[a]:
            self._refuse(a)
        head = self._apply(a)
        self.history.append(a)
        self.move_number += 1
        self.to_move, self.flip, over, winner = HEAD_FACTS[head & _HEAD_MASK]
        if over:
            self.terminal = True
            self.winner = winner
            self.mask[:] = 0
        return self

    def _refuse(self, a: int):
        if not 0 <= a < self.game.num_actions:
            raise IllegalActionError(f"action {a} out of range 0..{self.game.num_actions - 1}")
        if self.terminal:
            raise IllegalActionError(f"action {a}: the game is over")
        raise IllegalActionError(
            f"illegal action {a} ({self.game.action_to_notation(a)}) for "
            f"{self.side_name(self.to_move)}; legal: "
            f"{' '.join(self.game.action_to_notation(x) for x in self.legal_actions()[:12])}"
            f"{' ...' if self.mask.sum() > 12 else ''}")

    def is_terminal(self) -> bool:
        return self.terminal

    @property
    def truncated(self) -> bool:
        """The game goes on but has reached ``game.max_moves`` actions: where every env truncates
        the episode, and where the searches stop (a truncated game counts as a draw)."""
        return not self.terminal and self.move_number >= self.game.max_moves

    @property
    def over(self) -> bool:
        """Ended by the rules or truncated at ``max_moves``: no env plays it further."""
        return self.terminal or self.move_number >= self.game.max_moves

    def returns(self) -> np.ndarray:
        """+1 / -1 / 0 per player (index 0 is ``player_0``); zeros while the game goes on."""
        out = np.zeros(2, dtype=np.float32)
        if self.terminal and self.winner >= 0:
            winner_player = self.winner ^ self.flip
            out[winner_player] = 1.0
            out[1 - winner_player] = -1.0
        return out

    def rollout(self, seed: int, uniform: bool = False) -> int:
        """Play random legal actions from here to the end, in compiled code, leaving this state
        unchanged (the playouts of :class:`agents.mcts.MCTSAgent`). Returns the winning player, or
        -1 for a draw or for reaching ``max_moves``.

        Every action is drawn uniformly among the legal ones, except where a uniform draw would
        tell a search little (with ``uniform=True`` these exceptions are off too):

        * Linage passes only when no placement is legal (random passes end most playouts at once);
        * Lifeline places on a legal cell next to an enemy stone whenever there is one (except for
          the second stone of a double placement): a player loses when all its groups are gone,
          and uniform playouts spend their moves filling their own areas while the fights that
          decide the game are left to chance. BENCHMARKS.md has the measurements.
        """
        return self.rollout_with_length(seed, uniform=uniform)[0]

    def rollout_with_length(self, seed: int, trace: np.ndarray | None = None,
                            uniform: bool = False) -> tuple[int, int]:
        """:meth:`rollout` and the number of actions it played. With ``trace`` (int32, shape (2, L))
        the first L actions go into ``trace[0]`` and the players who played them into ``trace[1]``
        (for RAVE statistics, and so a test can replay them through :meth:`apply`)."""
        if self.terminal:
            return (self.winner ^ self.flip if self.winner >= 0 else -1), 0
        moves_left = self.game.max_moves - self.move_number
        if moves_left <= 0:
            return -1, 0
        g = self.game
        winner, moves = playout(g.compiled, self.arrays(), g.params, moves_left, bool(uniform), int(seed) & 0x7FFFFFFF,
                                _NO_TRACE if trace is None else trace)
        return int(winner), int(moves)

    def arrays(self) -> tuple:
        """The state's arrays in the order of the compiled interface: ``(board, mask, s, *declared
        arrays, *tables)`` (the state's own, not copies)."""
        fields = self.fields
        return (self.board, self.mask, self.s, *(getattr(self, a.name) for a in fields.arrays),
                *(getattr(self, t.name) for t in fields.tables))

    def clone(self) -> "GameState":
        """An independent copy (cheap: a few small array copies; the game is shared)."""
        new = object.__new__(type(self))
        new.game = self.game
        new.board = self.board.copy()
        new.s = self.s.copy()
        new.move_number = self.move_number
        new.history = self.history.copy()
        new.mask = self.mask.copy()
        new.to_move, new.flip, new.terminal, new.winner = self.to_move, self.flip, self.terminal, self.winner
        for array in self.fields.arrays:
            setattr(new, array.name, getattr(self, array.name).copy())
        self._clone_extra(new)
        return new

    def _clone_extra(self, new: "GameState") -> None:
        """Copy what the game keeps beyond its declared fields into ``new``."""

    # --- serialisation ------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """A plain dict (JSON-ready) with every stored bit of the state."""
        return {
            "game": self.game.name,
            "options": dict(self.game.options),
            "board": self.board.tolist(),
            "to_move": self.to_move,
            "flip": self.flip,
            "move_number": self.move_number,
            "history": list(self.history),
            "terminal": self.terminal,
            "winner": self.winner,
            **self.fields.row_dict(self.s),
            **self._extra_fields(),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict, game: Game | None = None, reachable: bool = True) -> "GameState":
        """Rebuild a state from :meth:`to_dict` output. A dict that no game reaches is refused with a
        ``ValueError`` naming the field at fault: a missing field, a value of the wrong type or out
        of range, fields that contradict each other or the rules (a pending stone that is not the
        mover's, an end the position does not have, a group left dead after its turn).

        ``history`` is what the record of the state holds. When it reaches back to the start of the
        game (as long as ``move_number``; so a state at move 0 is the start), it must lead to exactly
        this state; a shorter one (a position set up by hand, or taken out of a batch, and played
        on) is the tail after that position, which the other checks cover.

        ``reachable=False`` takes a position set up by hand that no game reaches (a dead group left
        on the board, a mover without a legal action while the game goes on), as rule scenarios
        need; its fields must still be well formed and agree with each other."""
        try:
            return cls._from_dict(data, game, reachable)
        except KeyError as err:
            raise ValueError(f"state dict: missing field {err.args[0]!r}") from None

    @classmethod
    def _from_dict(cls, data: dict, game: Game | None, reachable: bool) -> "GameState":
        if not isinstance(data, dict):
            raise ValueError(f"state dict: expected a dict, got {type(data).__name__}")
        from .declaration import declared
        options = data["options"]
        if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
            raise ValueError(f"state dict: 'options' must be a dict of option names, got {excerpt(options)}")
        if game is None:
            if not isinstance(data["game"], str):
                raise ValueError(f"state dict: 'game' must be a game name, got {excerpt(data['game'])}")
            try:
                game = declared(data["game"]).game_class(**options)
            except ValueError as err:
                field = "'game'" if "unknown game" in str(err) else "'options'"
                raise ValueError(f"state dict: {field}: {err}") from None
        elif data["game"] != game.name:
            raise ValueError(f"state dict: 'game' is {excerpt(data['game'])}, given to {game.name}")
        elif options != game.options and type(game)(**options).options != game.options:
            raise ValueError(f"state dict: 'options' {excerpt(options)} are not those of {game.describe()}")
        if not issubclass(game.state_class, cls):
            raise ValueError(f"state dict: a {game.name} state given to {cls.__name__}")
        state = object.__new__(game.state_class)
        state.game = game
        if hasattr(data["board"], "__len__") and len(data["board"]) != game.num_cells:
            raise ValueError(f"state dict: 'board' holds {len(data['board'])} cells, but 'options' "
                             f"{excerpt(options)} make a board of {game.num_cells}")
        board = field_array(data, "board", (game.num_cells,), 0, 2)
        if np.any(board[~game.geometry.on_board] != 0):
            raise ValueError("state dict: 'board' has stones off the board")
        state.board = board.astype(np.int8)
        state.s = s = state.fields.new_row()
        s[TO_MOVE] = field_int(data, "to_move", 0, 1)
        s[FLIP] = field_int(data, "flip", 0, 1)
        state.move_number = field_int(data, "move_number", 0, MAX_MOVE_NUMBER)
        history = data["history"]
        if not isinstance(history, (list, tuple)):
            raise ValueError(f"state dict: 'history' must be a list of actions, got {type(history).__name__}")
        if len(history) > state.move_number:
            raise ValueError(f"state dict: 'history' holds {len(history)} actions, more than 'move_number' "
                             f"{state.move_number}")
        state.history = [field_int({"history": a}, "history", 0, game.num_actions - 1) for a in history]
        s[TERMINAL] = field_bool(data, "terminal")
        s[WINNER] = field_int(data, "winner", -1, 1)
        if not s[TERMINAL] and s[WINNER] != -1:
            raise ValueError("state dict: 'winner' must be -1 while the game goes on")
        state.mask = np.zeros(game.num_actions, dtype=np.int8)
        state._read_head()
        state.fields.load_row(data, game, s)
        state._load_extra(data)
        state._new_arrays()
        state._refresh()
        if len(state.history) == state.move_number:
            state._check_history()  # first: a record from the start names the first field it contradicts
        if reachable:
            ended, winner = state._rules_end()
            if state.terminal != ended:
                raise ValueError(f"state dict: 'terminal' is {state.terminal}, but by the rules the game "
                                 f"{'is over' if ended else 'goes on'} in this position")
            if ended and state.winner != winner:
                raise ValueError(f"state dict: 'winner' is {state.winner}, but by the rules it is {winner}")
            state._check_position()
        if state.terminal:
            state.mask[:] = 0
        return state

    def _check_history(self) -> None:
        """A history from the start of the game must replay to exactly this state."""
        replay = self.game.new_state(swap_sides=bool(self.start_flip()))
        for number, action in enumerate(self.history, start=1):
            if not replay.is_legal(action):
                raise ValueError(f"state dict: 'history' action {number} ({self.game.action_to_notation(action)}) "
                                 f"is illegal in the game it records")
            replay.apply(action)
        mine, replayed = self.to_dict(), replay.to_dict()
        for key, value in mine.items():
            if replayed[key] != value:
                raise ValueError(f"state dict: {key!r} is not what 'history' leads to")

    def start_flip(self) -> int:
        """``flip`` at the start of the game: every pie swap in the history toggled it."""
        if "swap" not in self.game.special_actions:
            return self.flip
        swap = self.game.num_cells + self.game.special_actions.index("swap")
        return self.flip ^ (sum(a == swap for a in self.history) & 1)

    # --- what a reachable position keeps (the dict checks of from_dict) ------------------------
    def _rules_end(self) -> tuple[bool, int]:
        """``(over, winning side or -1)`` by the rules, from the stored fields and the derived ones
        (the mask before the end empties it)."""
        return False, -1

    def _check_position(self) -> None:
        """Raise ``ValueError`` naming the field if the position breaks a fact every turn keeps."""

    @classmethod
    def from_json(cls, text: str, game: Game | None = None, reachable: bool = True) -> "GameState":
        if not isinstance(text, (str, bytes, bytearray)):
            raise ValueError(f"state JSON: expected a string, got {type(text).__name__}")
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as err:
            raise ValueError(f"state JSON: not JSON ({excerpt(str(err))})") from None
        return cls.from_dict(data, game=game, reachable=reachable)

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and self.to_dict() == other.to_dict()

    __hash__ = None

    # --- display ------------------------------------------------------------------------------
    def render_ansi(self) -> str:
        from .render import render_ansi
        return render_ansi(self.game.geometry.kind, *self.game.geometry.shape, self.game.geometry.on_board,
                           self._display_board(), header=self._header(), footer=self._footer())

    def render_rgb(self, overlays: bool = True, cell_px: int | None = None) -> np.ndarray:
        from .render import render_rgb
        return render_rgb(self.game.geometry.kind, *self.game.geometry.shape, self.game.geometry.on_board,
                          self._display_board(), overlays=self.overlays() if overlays else (), last_move=self._last_cell(),
                          cell_px=cell_px)

    def _last_cell(self) -> int:
        """The cell of the last move, or -1 (no move yet, or a pass, a swap)."""
        return self.history[-1] if self.history and self.history[-1] < self.game.num_cells else -1

    def render_svg(self, theme: str = "light", overlays: bool = True, legend: bool = True,
                   cell_px: float | None = None, coords: bool = True, legal: bool = False, hint: int = -1,
                   clickable: bool = False) -> str:
        """The position as an SVG document: coordinates, tints (``overlays``) with their ``legend``,
        the stones, the last move, the header and the score; ``theme`` ``"light"`` or ``"dark"``.
        For a page people play on: ``legal`` rings the cells the mover may take, ``hint`` rings one
        cell, ``clickable`` puts a ``class="hit"`` shape with ``data-cell`` over every cell."""
        from .svg import render_svg
        geometry = self.game.geometry
        legal_cells = self.legal_mask()[:self.game.num_cells] if legal else None
        return render_svg(geometry.kind, *geometry.shape, geometry.on_board, self._display_board(),
                          overlays=self.overlays() if overlays else (), last_move=self._last_cell(),
                          cell_px=cell_px, coords=coords, theme=theme, caption=(self._header(), self._footer()),
                          legend=self.tints if overlays and legend else (), title=self._header(),
                          legal=legal_cells, hint=hint, clickable=clickable)

    def _repr_svg_(self) -> str:
        """Jupyter shows a state as its picture."""
        return self.render_svg()

    def positions(self) -> list["GameState"]:
        """Every position of the game from its start to this one (``len(history) + 1`` states)."""
        state = self.game.new_state(swap_sides=bool(self.start_flip()))
        out = [state.clone()]
        for action in self.history:
            state.apply(action)
            out.append(state.clone())
        return out

    def animate_svg(self, seconds_per_frame: float = 0.6, theme: str = "light", overlays: bool = True,
                    cell_px: float | None = None) -> str:
        """The whole game so far as one looping animated SVG, a frame per position."""
        from .svg import animate_svg
        geometry = self.game.geometry
        frames = [(s._display_board(), s.overlays() if overlays else (), s._last_cell(), (s._header(), s._footer()))
                  for s in self.positions()]
        return animate_svg(geometry.kind, *geometry.shape, geometry.on_board, frames,
                           seconds_per_frame=seconds_per_frame, cell_px=cell_px, theme=theme,
                           legend=self.tints if overlays else (), title=f"{self.game.describe()}: {len(frames) - 1} moves")

    def save_gif(self, path, seconds_per_frame: float = 0.6, overlays: bool = True, cell_px: int | None = None) -> None:
        """The whole game so far as an animated GIF of the numpy pictures (needs Pillow)."""
        try:
            from PIL import Image
        except ImportError as err:
            raise ImportError("save_gif needs Pillow: pip install pillow (animate_svg needs nothing)") from err
        if seconds_per_frame <= 0:
            raise ValueError(f"save_gif: seconds_per_frame must be > 0, got {seconds_per_frame!r}")
        frames = [Image.fromarray(s.render_rgb(overlays=overlays, cell_px=cell_px)) for s in self.positions()]
        frames[0].save(path, save_all=True, append_images=frames[1:], duration=int(seconds_per_frame * 1000), loop=0)

    def _display_board(self) -> np.ndarray:
        """Stone codes for pictures: 1 first side, 2 second side, 3 neutral."""
        return self.board

    def _header(self) -> str:
        g = self.game
        if self.terminal:
            return f"{g.name} {g.geometry.describe()} - game over after {self.move_number} moves"
        player = self.current_player
        return (f"{g.name} {g.geometry.describe()} - move {self.move_number + 1}: "
                f"{self.side_name(self.to_move)} (player_{player}) to play")

    def _footer(self) -> str:
        parts = []
        s = self.scores()
        if s is not None:
            parts.append(f"score {self.game.sides[0]} {_num(s[0])}, {self.game.sides[1]} {_num(s[1])}")
        if self.terminal:
            parts.append("draw" if self.winner < 0 else f"{self.side_name(self.winner)} wins")
        return " - ".join(parts)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.describe()} move {self.move_number}>"


def _num(x) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)
