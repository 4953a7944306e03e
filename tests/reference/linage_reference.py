"""Slow, direct reference implementation of the board game Linage.

Written straight from docs/rules/linage.txt and the "All games" and
"Linage" sections of docs/rulings.md, for differential testing
against the fast engine. Clarity over speed: every query recomputes everything
from the board by plain breadth-first search and literal scans; nothing is
cached.

Rules as implemented:
- Square board of ``board_size`` x ``board_size`` points, orthogonal adjacency
  (4 neighbours). Every point is empty (0) or holds a neutral stone (1); the
  stones are shared, so they have no colour.
- A *region* is a maximal orthogonally connected set of empty points.
- A *line* is ``line_length`` (default 3) orthogonally contiguous empty points
  in one row (a *horizontal* line) or in one column (a *vertical* line).
  A line's points are connected and empty, so every line lies inside exactly
  one region; a region "contains" a line when all of its points are in it.
- A region is owned by Vertical if it contains no horizontal line, and by
  Horizontal if it contains no vertical line; it is *free* if it is owned by
  neither, i.e. it contains both a horizontal and a vertical line.
- Vertical moves first, turns alternate.
- A turn is a pass or a placement. A placement is legal iff the point is empty,
  the region holding it is free, and after the stone is placed every region
  of the board still contains at least one line (checked on a copy of the
  board, over every region).
- Passing is always legal while the game goes on.
- The game ends when two passes are made in succession, or as soon as no free
  region remains (then both players could only pass; the result is the same).
- Score: Vertical gets the number of empty points in the regions Vertical
  owns; Horizontal gets the number of empty points in the regions Horizontal
  owns, plus komi. Stones count for nobody. Equal scores are a draw (only
  possible with a whole-number komi).

Readings where the text leaves room (documented here, see also the methods):
- A region with no line at all would, by the definitions, be owned by *both*
  players (it contains no horizontal line and no vertical line), and its points
  would then count for both. Such a region can never arise in play: the
  initial board is a single region containing lines of both directions (since
  2 <= line_length <= board_size), only placements change the board, and a
  placement is legal only if every region afterwards still contains a line.
  The scoring here nevertheless follows the definitions literally: such a
  region counts for both players; ``region_owner`` reports it as ``BOTH``.
- "At all times, every region must include at least one line" is read as a
  condition on the position after a placement (the only thing that changes the
  board); it is checked over all regions, not only the one that was split.
- "in succession" for passes: a placement resets the count of consecutive
  passes to zero.
- ``to_move`` switches after every action, including the one that ends the
  game. ``winner`` and ``scores`` may be called at any time; they judge the
  current board as if the game ended now.
"""

import operator
from collections import deque

VERTICAL, HORIZONTAL = 0, 1  # the two sides; VERTICAL moves first
BOTH = 2  # owner of a region with no line at all (unreachable in real play)
EMPTY, STONE = 0, 1


def other(side):
    """The opposite side."""
    if side == VERTICAL:
        return HORIZONTAL
    if side == HORIZONTAL:
        return VERTICAL
    raise ValueError(f"not a side: {side!r}")


class ReferenceLinage:
    def __init__(self, board_size: int = 9, line_length: int = 3, komi: float = 0.5):
        if board_size < 2:
            raise ValueError("board_size must be at least 2")
        if line_length < 2 or line_length > board_size:
            raise ValueError("line_length must be between 2 and board_size")
        self.n = board_size
        self.line_length = line_length
        self.komi = komi
        self.board = [[EMPTY for _ in range(self.n)] for _ in range(self.n)]
        self.to_move = VERTICAL
        self.passes = 0
        # Judged as after any action; never true on the empty board.
        self.over = not self._some_free_region()

    # ------------------------------------------------------------------ basics

    @property
    def PASS(self):
        """The pass action index: one past the last point, n * n."""
        return self.n * self.n

    def cells(self):
        """The board flattened row by row: index r * n + c."""
        return [self.board[r][c] for r in range(self.n) for c in range(self.n)]

    def _on_board(self, r, c):
        return 0 <= r < self.n and 0 <= c < self.n

    def _neighbours(self, r, c):
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = r + dr, c + dc
            if self._on_board(rr, cc):
                yield rr, cc

    # ------------------------------------------------------------------ regions

    @staticmethod
    def _regions_of(board, n):
        """Regions of ``board``: maximal orthogonally connected sets of empty points."""
        seen = set()
        result = []
        for r in range(n):
            for c in range(n):
                if board[r][c] != EMPTY or (r, c) in seen:
                    continue
                region = set()
                queue = deque([(r, c)])
                seen.add((r, c))
                while queue:
                    pr, pc = queue.popleft()
                    region.add((pr, pc))
                    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                        qr, qc = pr + dr, pc + dc
                        if (
                            0 <= qr < n
                            and 0 <= qc < n
                            and board[qr][qc] == EMPTY
                            and (qr, qc) not in seen
                        ):
                            seen.add((qr, qc))
                            queue.append((qr, qc))
                result.append(region)
        return result

    def regions(self):
        """All regions of the current board, as a list of sets of points (r, c)."""
        return self._regions_of(self.board, self.n)

    def _region_of(self, r, c):
        """The region holding the empty point (r, c)."""
        for region in self.regions():
            if (r, c) in region:
                return region
        raise ValueError(f"point {(r, c)} is not empty")

    # ------------------------------------------------------------------ lines

    def _has_horizontal_line(self, region):
        """True iff ``region`` contains line_length contiguous points of one row."""
        k = self.line_length
        for (r, c) in region:
            # A horizontal line starting at (r, c) and running to the right.
            if all((r, c + i) in region for i in range(k)):
                return True
        return False

    def _has_vertical_line(self, region):
        """True iff ``region`` contains line_length contiguous points of one column."""
        k = self.line_length
        for (r, c) in region:
            # A vertical line starting at (r, c) and running downwards.
            if all((r + i, c) in region for i in range(k)):
                return True
        return False

    def _has_line(self, region):
        return self._has_horizontal_line(region) or self._has_vertical_line(region)

    def points_on_lines(self):
        """(points on some horizontal line, points on some vertical line).

        Found by literally checking every run of line_length points in every
        row and every column of the board for being all empty.
        """
        n, k = self.n, self.line_length
        on_horizontal = set()
        on_vertical = set()
        for r in range(n):
            for c0 in range(n - k + 1):
                run = [(r, c0 + i) for i in range(k)]
                if all(self.board[pr][pc] == EMPTY for pr, pc in run):
                    on_horizontal.update(run)
        for c in range(n):
            for r0 in range(n - k + 1):
                run = [(r0 + i, c) for i in range(k)]
                if all(self.board[pr][pc] == EMPTY for pr, pc in run):
                    on_vertical.update(run)
        return on_horizontal, on_vertical

    # ------------------------------------------------------------------ ownership

    def region_owners(self, region):
        """The set of sides that own ``region`` (empty set: the region is free).

        Vertical owns it if it contains no horizontal line; Horizontal owns it
        if it contains no vertical line. A region with no line at all is owned
        by both (unreachable in play, kept literal).
        """
        owners = set()
        if not self._has_horizontal_line(region):
            owners.add(VERTICAL)
        if not self._has_vertical_line(region):
            owners.add(HORIZONTAL)
        return owners

    def region_owner(self, region):
        """VERTICAL, HORIZONTAL, None (free), or BOTH (a region with no line)."""
        owners = self.region_owners(region)
        if not owners:
            return None
        if owners == {VERTICAL}:
            return VERTICAL
        if owners == {HORIZONTAL}:
            return HORIZONTAL
        return BOTH

    def _is_free(self, region):
        return not self.region_owners(region)

    def _some_free_region(self):
        return any(self._is_free(region) for region in self.regions())

    # ------------------------------------------------------------------ legality

    def _placement_is_legal(self, r, c):
        if not self._on_board(r, c) or self.board[r][c] != EMPTY:
            return False
        if not self._is_free(self._region_of(r, c)):
            return False
        copy = [row[:] for row in self.board]
        copy[r][c] = STONE
        for region in self._regions_of(copy, self.n):
            if not self._has_line(region):
                return False
        return True

    def legal_moves(self):
        """Sorted legal action indices (r * n + c, and PASS); [] once the game is over."""
        if self.over:
            return []
        moves = []
        for r in range(self.n):
            for c in range(self.n):
                if self._placement_is_legal(r, c):
                    moves.append(r * self.n + c)
        moves.append(self.PASS)
        return moves

    def play(self, action):
        """Play ``action``; ValueError (state unchanged) if it is illegal."""
        if self.over:
            raise ValueError("the game is over")
        try:
            action = operator.index(action)  # accepts ints (and numpy ints), not floats
        except TypeError:
            raise ValueError(f"not an action: {action!r}") from None
        if action == self.PASS:
            self.passes += 1
        else:
            if action < 0 or action > self.PASS:
                raise ValueError(f"action out of range: {action}")
            r, c = divmod(action, self.n)
            if not self._placement_is_legal(r, c):
                raise ValueError(f"illegal placement at {(r, c)}")
            self.board[r][c] = STONE
            self.passes = 0
        self.to_move = other(self.to_move)
        if self.passes >= 2 or not self._some_free_region():
            self.over = True

    # ------------------------------------------------------------------ scoring

    def scores(self):
        """(Vertical's score, Horizontal's score + komi).

        Each side counts the empty points of the regions it owns.
        """
        vertical = 0
        horizontal = 0
        for region in self.regions():
            owners = self.region_owners(region)
            if VERTICAL in owners:
                vertical += len(region)
            if HORIZONTAL in owners:
                horizontal += len(region)
        return float(vertical), float(horizontal + self.komi)

    def winner(self):
        """VERTICAL, HORIZONTAL, or None for a tie (whole-number komi only)."""
        v, h = self.scores()
        if v > h:
            return VERTICAL
        if h > v:
            return HORIZONTAL
        return None
