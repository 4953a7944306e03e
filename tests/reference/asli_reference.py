"""Slow, direct reference implementation of the board game Asli.

Written straight from docs/rules/asli.txt and the "All games",
"Lifeline" (group, dead) and "Asli" sections of docs/rulings.md,
for differential testing against the fast engine, without looking at that
engine. Clarity over speed: every question is answered from the board by plain
breadth-first search, and the legality of an action is decided by literally
simulating the whole turn on a copy of the board. Nothing is cached.

Rules as implemented:
- Square board of ``board_size`` x ``board_size`` points, orthogonal adjacency.
  Action ``r * n + c`` places on (r, c); action ``n * n`` (``REMOVE``) takes one
  enemy stone out of the prison.
- A *group* is a maximal orthogonally connected set of same-coloured stones. It
  is *dead* if no path of empty points leads from it to another group of its
  colour (a lone group is dead).
- A *territory* is a maximal orthogonally connected set of empty points. A side
  owns it if every stone adjacent to it is of that side (at least one stone must
  touch it: a territory touching no stone is owned by nobody).
- An *incursion* is a placement in a territory owned by the opponent, judged on
  the board just before the stone is placed. It is *minimal* if it sends exactly
  one enemy group to the prison.
- A turn is exactly one of:
  (a) take one enemy stone out of the prison (legal while the prison holds a
      stone of the opponent's colour);
  (b) place a stone on an empty point, then move all dead enemy groups to the
      prison (all at once). On a side's first turn of the game, (b) is done
      twice, capturing after each stone; the two stones are two consecutive
      actions of the same side, with nothing else legal in between.
- At the end of a turn no friendly group may be dead (on a double first turn:
  checked after both stones). The first stone of a double turn is legal iff some
  second stone then completes a legal turn.
- A minimal incursion is illegal if the opponent's previous turn was a minimal
  incursion. A double first turn counts as a minimal incursion if either stone
  was one; the ban applies to both of its stones.
- A side with no legal action loses (the other side, the last to act, wins).
- Draw: a placement turn that ends with a (stones-only board, side to move) pair
  seen before (at the start, or at the end of any earlier turn, removal turns
  included) ends the game in a draw.
- Komi: ``komi`` black stones start in the prison. A White first turn spent on a
  prison removal is legal and uses up White's double placement.
"""

import operator
from collections import deque

BLACK, WHITE = 0, 1
DRAW = "draw"


def other(side):
    """The opposite side."""
    if side == BLACK:
        return WHITE
    if side == WHITE:
        return BLACK
    raise ValueError(f"not a side: {side!r}")


class ReferenceAsli:
    def __init__(self, board_size: int = 9, komi: int = 0):
        if board_size < 1:
            raise ValueError("board_size must be at least 1")
        if komi < 0:
            raise ValueError("komi must be at least 0")
        self.n = board_size
        self.komi = komi
        self.REMOVE = self.n * self.n
        # board[r][c] is None (empty), BLACK or WHITE.
        self.board = [[None for _ in range(self.n)] for _ in range(self.n)]
        self.to_move = BLACK
        # prison[BLACK] = black stones in the prison, prison[WHITE] = white ones.
        self.prison = [komi, 0]
        self.over = False
        self.result = None
        # first_turn_pending[side]: that side has not yet completed its first turn.
        self.first_turn_pending = [True, True]
        # Between the two stones of a double first turn: the first stone's point
        # and whether it was a minimal incursion. None otherwise.
        self.pending_first = None
        # Whether the last completed turn (the opponent's) was a minimal incursion.
        self.prev_turn_minimal = False
        # (stones-only board as a tuple of cells, side to move) at the start and
        # at the end of every completed turn.
        self.history = {(tuple(self.cells()), self.to_move)}
        # The side to move at the start has no legal action on a 1x1 board.
        self._check_no_legal_action(loser=self.to_move)

    # ------------------------------------------------------------------ geometry

    def _on_board(self, r, c):
        return 0 <= r < self.n and 0 <= c < self.n

    def _neighbours(self, point):
        r, c = point
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = r + dr, c + dc
            if self._on_board(rr, cc):
                yield rr, cc

    def _points(self):
        for r in range(self.n):
            for c in range(self.n):
                yield r, c

    @staticmethod
    def _copy_board(board):
        return [list(row) for row in board]

    # ------------------------------------------------------------------ groups

    def _group_at(self, board, point):
        """The set of stones connected to the stone at ``point`` (same colour)."""
        colour = board[point[0]][point[1]]
        assert colour is not None
        group = {point}
        queue = deque([point])
        while queue:
            p = queue.popleft()
            for q in self._neighbours(p):
                if q not in group and board[q[0]][q[1]] == colour:
                    group.add(q)
                    queue.append(q)
        return group

    def _groups(self, board, colour):
        """All groups of ``colour`` on ``board``: a list of sets of points."""
        seen = set()
        result = []
        for p in self._points():
            if board[p[0]][p[1]] == colour and p not in seen:
                group = self._group_at(board, p)
                seen |= group
                result.append(group)
        return result

    def _is_dead(self, board, group):
        """True iff no path of empty points leads from ``group`` to another group
        of its colour. Literal BFS over the empty points reachable from the group."""
        p0 = next(iter(group))
        colour = board[p0[0]][p0[1]]
        seen = set()
        queue = deque()
        for p in group:
            for q in self._neighbours(p):
                if board[q[0]][q[1]] is None and q not in seen:
                    seen.add(q)
                    queue.append(q)
        while queue:
            e = queue.popleft()
            for q in self._neighbours(e):
                v = board[q[0]][q[1]]
                if v is None:
                    if q not in seen:
                        seen.add(q)
                        queue.append(q)
                elif v == colour and q not in group:
                    return False  # reached another group of the same colour
        return True

    def _all_alive(self, board, colour):
        """True iff no group of ``colour`` on ``board`` is dead."""
        return all(not self._is_dead(board, g) for g in self._groups(board, colour))

    # ------------------------------------------------------------------ territories

    def _region_at(self, board, point):
        """The maximal connected set of empty points containing empty ``point``."""
        assert board[point[0]][point[1]] is None
        region = {point}
        queue = deque([point])
        while queue:
            p = queue.popleft()
            for q in self._neighbours(p):
                if q not in region and board[q[0]][q[1]] is None:
                    region.add(q)
                    queue.append(q)
        return region

    def _owner(self, board, region):
        """The side owning the territory ``region``, or None (no stone touches it,
        or stones of both colours touch it)."""
        colours = set()
        for p in region:
            for q in self._neighbours(p):
                v = board[q[0]][q[1]]
                if v is not None:
                    colours.add(v)
        if len(colours) == 1:
            return next(iter(colours))
        return None

    def _territories(self, board):
        seen = set()
        result = []
        for p in self._points():
            if board[p[0]][p[1]] is None and p not in seen:
                region = self._region_at(board, p)
                seen |= region
                result.append((region, self._owner(board, region)))
        return result

    def territories(self):
        """Every territory of the current board: list of (set of (r, c), owner or None)."""
        return self._territories(self.board)

    # ------------------------------------------------------------------ one stone

    def _place(self, board, point, mover):
        """Simulate one placement (b) on a copy of ``board``.

        Returns (new_board, captured_points, is_incursion, is_minimal_incursion).
        The incursion is judged on ``board`` just before the stone is placed;
        then the stone is placed and all dead enemy groups (judged once, on the
        board with the new stone) are moved off the board together.
        """
        assert board[point[0]][point[1]] is None
        enemy = other(mover)
        incursion = self._owner(board, self._region_at(board, point)) == enemy
        new = self._copy_board(board)
        new[point[0]][point[1]] = mover
        dead = [g for g in self._groups(new, enemy) if self._is_dead(new, g)]
        captured = set()
        for g in dead:
            captured |= g
        for (r, c) in captured:
            new[r][c] = None
        minimal = incursion and len(dead) == 1
        return new, captured, incursion, minimal

    # ------------------------------------------------------------------ legality

    def _is_first_stone(self):
        return self.first_turn_pending[self.to_move] and self.pending_first is None

    def _is_legal(self, action):
        """Decide legality of ``action`` for the side to act by simulating the turn."""
        if self.over:
            return False
        mover = self.to_move
        enemy = other(mover)
        banned = self.prev_turn_minimal
        if action == self.REMOVE:
            if self.pending_first is not None:
                return False  # nothing but the second stone between two stones
            if self.prison[enemy] < 1:
                return False
            # The board does not change; the end-of-turn check still applies.
            return self._all_alive(self.board, mover)
        if not (0 <= action < self.n * self.n):
            return False
        point = divmod(action, self.n)
        if self.board[point[0]][point[1]] is not None:
            return False
        board1, _, _, minimal1 = self._place(self.board, point, mover)
        if banned and minimal1:
            return False
        if not self._is_first_stone():
            # A single placement, or the second stone of a double first turn (the
            # first stone already passed the ban): the turn ends here.
            return self._all_alive(board1, mover)
        # First stone of a double first turn: legal iff some second stone then
        # completes a legal turn.
        for point2 in self._points():
            if board1[point2[0]][point2[1]] is not None:
                continue
            board2, _, _, minimal2 = self._place(board1, point2, mover)
            if banned and minimal2:
                continue
            if self._all_alive(board2, mover):
                return True
        return False

    def _legal_actions(self):
        for action in range(self.n * self.n + 1):
            if self._is_legal(action):
                yield action

    def legal_moves(self):
        """Sorted legal action indices for the side to act; [] when the game is over."""
        if self.over:
            return []
        return sorted(self._legal_actions())

    # ------------------------------------------------------------------ play

    def play(self, action):
        """Perform ``action`` for the side to act.

        Raises ValueError (state unchanged) if the action is illegal. Returns the
        set of points (r, c) whose stones went to the prison by this action.
        """
        if isinstance(action, bool):
            raise ValueError(f"action must be an int, got {action!r}")
        try:
            action = operator.index(action)
        except TypeError:
            raise ValueError(f"action must be an int, got {action!r}") from None
        if self.over:
            raise ValueError("game is over")
        if not self._is_legal(action):
            raise ValueError(f"illegal action {action}")
        mover = self.to_move
        enemy = other(mover)

        if action == self.REMOVE:
            self.prison[enemy] -= 1
            self._end_turn(placement=False, minimal=False)
            return set()

        point = divmod(action, self.n)
        first_stone = self._is_first_stone()
        board1, captured, _, minimal = self._place(self.board, point, mover)
        self.board = board1
        self.prison[enemy] += len(captured)
        if first_stone:
            # Same side acts again: the second stone of the double first turn.
            self.pending_first = {"point": point, "minimal": minimal}
            return captured
        if self.pending_first is not None:
            minimal = minimal or self.pending_first["minimal"]
            self.pending_first = None
        self._end_turn(placement=True, minimal=minimal)
        return captured

    def _end_turn(self, placement, minimal):
        mover = self.to_move
        self.first_turn_pending[mover] = False
        self.prev_turn_minimal = minimal
        self.to_move = other(mover)
        key = (tuple(self.cells()), self.to_move)
        if placement and key in self.history:
            self.over = True
            self.result = DRAW
        self.history.add(key)
        if not self.over:
            self._check_no_legal_action(loser=self.to_move)

    def _check_no_legal_action(self, loser):
        if next(self._legal_actions(), None) is None:
            self.over = True
            self.result = other(loser)

    # ------------------------------------------------------------------ views

    @property
    def mid_turn(self):
        """True between the two stones of a double first turn."""
        return self.pending_first is not None

    def cells(self):
        """Flat board, index r * n + c: 0 empty, 1 black, 2 white."""
        code = {None: 0, BLACK: 1, WHITE: 2}
        return [code[self.board[r][c]] for r in range(self.n) for c in range(self.n)]

    def dead_groups(self, colour):
        """Dead groups of ``colour`` on the current board (list of sets of points)."""
        return [g for g in self._groups(self.board, colour) if self._is_dead(self.board, g)]
