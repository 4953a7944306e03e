"""The game and its state: :class:`AsliGame` (options, planes, actions) and :class:`AsliState`
(the state API of docs/spec.md over the compiled turn of :mod:`.turn`)."""
from __future__ import annotations

import numpy as np

from ...core.evaluation import material, owners, stone_owners
from ...core.game import Game, GameState, field_int
from ..first_turns import check_first_turns
from ...core.geometry import square
from ...core.kernels import hash_contains, hash_insert, hash_rehash, liveness
from ...core.options import check_int, check_number
from .rules import BLACK_OWNS, WHITE_OWNS
from .turn import (FIELDS, FIRST_BLACK, FIRST_WHITE, LAST_MINIMAL, OUT_PRISON, PENDING, PENDING_MINIMAL, PLANES,
                   PRISON_BLACK, PRISON_WHITE, SEEN_COUNT, act, compute_mask, observe, start_slots, zobrist_hash,
                   zobrist_keys)
from .compiled import COMPILED


class AsliGame(Game):
    """Asli with fixed options: ``board_size`` (4..25, default 9), ``komi`` (black stones in the
    prison at the start, whole number >= 0, default 0), ``max_moves``."""

    name = "asli"
    sides = ("black", "white")
    legend = ("X a black stone, O a white stone, . an empty point; the line under the board counts the stones "
              "of each colour in the prison (a prisoner is an extra action for its captor). There is no score: "
              "the last player to act wins.")
    special_actions = ("remove_prisoner",)
    option_defaults = {"board_size": 9, "komi": 0}
    planes = PLANES
    compiled = COMPILED

    def _validate(self, o):
        o["board_size"] = check_int("board_size", o["board_size"], 4, 25)
        o["komi"] = check_number("komi", o["komi"], integer=True, low=0, high=10_000)
        self.zobrist = zobrist_keys(o["board_size"] ** 2)
        geometry = square(o["board_size"])
        self.act_args = (*self.zobrist, geometry.on_board, geometry.neighbours, geometry.degree)
        self.num_points = geometry.num_points
        return geometry

    def kernel_params(self):
        return (self.options["komi"], self.num_points, *self.act_args)

    def default_max_moves(self) -> int:
        return 20 * self.geometry.num_points + 2 * self.options["komi"]  # each komi stone is one more turn


class AsliState(GameState):
    """The scalars of the game (prison, pending stone, first turns, the ban) live in the row ``s``
    shared with the compiled turn logic (:data:`FIELDS` declares them); ``seen`` is the hash table
    of every turn-boundary position (Zobrist hashes of board and side to move), grown before it
    fills."""

    __slots__ = tuple(a.name for a in FIELDS.arrays) + ("seen", "info_version", "room_until")
    fields = FIELDS

    def _init_extra(self):
        self.info_version = 0
        self.room_until = 0
        start_slots(self.s, self.game.options["komi"])
        self.seen = np.zeros(64, dtype=np.uint64)
        self._remember(self._hash())

    def _hash(self) -> int:
        keys, side_key = self.game.zobrist
        return int(zobrist_hash(self.board, self.to_move, keys, side_key))

    def _remember(self, h: int) -> None:
        """Add a position hash to ``seen`` (growing the table when half full)."""
        self._make_room()
        if hash_insert(self.seen, np.uint64(h)):
            self.s[SEEN_COUNT] += 1

    def _make_room(self) -> None:
        """Grow ``seen`` before it is half full. A turn adds one position at most, so the next
        ``room_until - move_number`` turns need no check."""
        if 2 * (int(self.s[SEEN_COUNT]) + 2) > self.seen.shape[0]:
            bigger = np.zeros((1, 2 * self.seen.shape[0]), dtype=np.uint64)
            hash_rehash(self.seen[None], bigger)
            self.seen = bigger[0]
        self.room_until = self.move_number + self.seen.shape[0] // 2 - 2 - int(self.s[SEEN_COUNT])

    # --- the scalars by name ------------------------------------------------------------------
    @property
    def prison(self) -> list:
        """Stones of each colour in the prison: [black, white]."""
        return [int(self.s[PRISON_BLACK]), int(self.s[PRISON_WHITE])]

    @property
    def pending(self) -> int:
        return int(self.s[PENDING])

    @property
    def pending_minimal(self) -> bool:
        return bool(self.s[PENDING_MINIMAL])

    @property
    def first_turn_done(self) -> list:
        return [bool(self.s[FIRST_BLACK]), bool(self.s[FIRST_WHITE])]

    @property
    def last_minimal(self) -> bool:
        """The last turn was a minimal incursion: the ban is on."""
        return bool(self.s[LAST_MINIMAL])

    def seen_positions(self) -> list:
        return sorted(int(h) for h in self.seen[self.seen != 0])

    # --- state plumbing -----------------------------------------------------------------------
    def _extra_fields(self):
        return {"seen": self.seen_positions()}

    def _load_extra(self, data):
        seen = data["seen"]
        if not isinstance(seen, (list, tuple)):
            raise ValueError(f"state dict: 'seen' must be a list of position hashes, got {type(seen).__name__}")
        hashes = [field_int({"seen": h}, "seen", 1, 2**64 - 1) for h in seen]  # 0 marks a free slot
        self.info_version = 0
        self.room_until = 0
        self.seen = np.zeros(64, dtype=np.uint64)
        for h in hashes:
            self._remember(h)
        pending = self.pending
        if pending >= 0 and (self.board[pending] != self.to_move + 1 or self.first_turn_done[self.to_move]):
            raise ValueError("state dict: 'pending' must be -1 or the first stone of the mover's first turn")
        if self.pending_minimal and pending < 0:
            raise ValueError("state dict: 'pending_minimal' needs a pending stone")

    def _rules_end(self):
        if self.terminal and self.winner == -1 and hash_contains(self.seen, np.uint64(self._hash())):
            return True, -1  # a draw: the position recurs (the count of earlier visits is not kept)
        # the player to act with no legal action loses: the last to act wins
        return (False, -1) if self.mask.any() else (True, 1 - self.to_move)

    def _check_position(self):
        check_first_turns(self.board, self.to_move, self.pending, self.first_turn_done, double=True)
        # a turn sends the dead enemy groups to the prison and may leave no friendly group dead
        if self.pending < 0:
            g = self.game.geometry
            labels, _, alive, _ = liveness(self.board, g.on_board, g.neighbours, g.degree)
            stones = self.board > 0
            if np.any(stones & ~alive[np.maximum(labels, 0)]):
                raise ValueError("state dict: 'board' has a dead group, which the last turn would have captured")

    def _clone_extra(self, new):
        new.info_version = self.info_version
        new.room_until = self.room_until
        new.seen = self.seen.copy()

    def _refresh(self):
        compute_mask(self.board, self.mask, self.owner, self.danger, self.s, self.memo, *self.game.kernel_args)

    def _apply(self, action):
        if self.move_number >= self.room_until:
            self._make_room()
        result = act(self.board, self.mask, self.owner, self.danger, self.s, self.seen, self.memo, action,
                     *self.game.act_args)
        if result & OUT_PRISON:
            self.info_version += 1
        return result

    def observation(self, player: int) -> np.ndarray:
        g = self.game
        out = np.empty(g.obs_shape, dtype=np.int8)
        side = player ^ self.flip
        observe(self.board, self.mask, self.owner, self.danger, self.s, side, self.may_move(side), g.num_points, out)
        return out

    def info(self) -> dict:
        prison = self.prison
        return {"prison_black": int(prison[0]), "prison_white": int(prison[1])}

    tints = (("black's territory", (40, 40, 40), 0.25), ("white's territory", (250, 250, 250), 0.35),
             ("a stone whose group lives through one region only", (220, 50, 50), 0.35))

    def tint_masks(self):
        return [self.owner == BLACK_OWNS, self.owner == WHITE_OWNS, self.danger]

    def _footer(self):
        prison = self.prison
        parts = [super()._footer(), f"prison: {prison[0]} black, {prison[1]} white"]
        if self.last_minimal and not self.terminal:
            parts.append("minimal incursion banned")
        if self.pending >= 0:
            parts.append("second stone of a double placement")
        return " - ".join(p for p in parts if p)


AsliGame.state_class = AsliState


def ownership(positions, game):
    """Who holds each cell (``GameDeclaration.ownership``): its stone's colour, or the owner of its
    territory (+1 Black, -1 White, 0 a territory nobody owns)."""
    owner = positions.owner
    return stone_owners(positions, game) + owners(owner == BLACK_OWNS, owner == WHITE_OWNS)


def evaluate(positions, game, side, opponent_to_act):
    """The greedy evaluation (``GameDeclaration.evaluate``): material as Lifeline's, enemy stones in
    the prison counting for their captor (a prisoner is an extra action)."""
    prison = positions.scalars[:, PRISON_BLACK:PRISON_WHITE + 1].astype(np.int64)  # [black, white] stones
    rows = np.arange(len(side))
    return material(positions, game, side, opponent_to_act, extra=prison[rows, 1 - side] - prison[rows, side])
