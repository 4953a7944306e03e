"""Slow, direct reference implementation of the board game Lin.

Written straight from docs/rules/lin.txt and the "Lin" and "All games"
sections of docs/rulings.md, for differential testing against the
fast engine. Clarity over speed: every query recomputes everything from the
board by plain breadth-first search; nothing is cached.

Rules as implemented:
- Square board of ``board_size`` x ``board_size`` points, orthogonal adjacency.
- A *domain* of a colour is a maximal orthogonally connected set of points that
  hold no stone of the other colour (own stones and empty points).
- A domain is *alive* iff it contains ``line_length`` orthogonally contiguous
  points in one row or one column.
- Black moves first, turns alternate, there is no pass.
- A placement is legal iff the point is empty and lies in a living domain of
  the mover's colour.
- After a placement, every enemy stone that lies in no living enemy domain is
  removed (all at once).
- The game ends right after a placement (judged on the position after the
  removals) when no point lies in living domains of both colours.
- Score: number of points (stones and empty points) in living domains of one's
  colour, plus komi for White. Equal scores are a draw.
"""

from collections import deque

EMPTY, BLACK, WHITE = 0, 1, 2


def other(colour):
    """The opposite colour."""
    if colour == BLACK:
        return WHITE
    if colour == WHITE:
        return BLACK
    raise ValueError(f"not a colour: {colour!r}")


class ReferenceLin:
    def __init__(self, board_size: int = 9, line_length: int = 6, komi: int = 0):
        if board_size < 1:
            raise ValueError("board_size must be at least 1")
        if line_length < 1 or line_length > board_size:
            raise ValueError("line_length must be between 1 and board_size")
        self.n = board_size
        self.line_length = line_length
        self.komi = komi
        self.board = [[EMPTY for _ in range(self.n)] for _ in range(self.n)]
        self.to_move = BLACK
        # Judged the same way as after a placement (never true on a legal start).
        self.over = self._no_point_in_both_living()

    # ------------------------------------------------------------------ geometry

    def _on_board(self, r, c):
        return 0 <= r < self.n and 0 <= c < self.n

    def _neighbours(self, r, c):
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            rr, cc = r + dr, c + dc
            if self._on_board(rr, cc):
                yield rr, cc

    # ------------------------------------------------------------------ domains

    def domains(self, colour):
        """All domains of ``colour``: a list of sets of points (r, c).

        Found by plain BFS over the points that do not hold a stone of the
        other colour.
        """
        enemy = other(colour)
        seen = set()
        result = []
        for r in range(self.n):
            for c in range(self.n):
                if self.board[r][c] == enemy or (r, c) in seen:
                    continue
                domain = set()
                queue = deque([(r, c)])
                seen.add((r, c))
                while queue:
                    p = queue.popleft()
                    domain.add(p)
                    for q in self._neighbours(*p):
                        if q not in seen and self.board[q[0]][q[1]] != enemy:
                            seen.add(q)
                            queue.append(q)
                result.append(domain)
        return result

    def is_alive(self, domain):
        """True iff ``domain`` contains ``line_length`` contiguous points in
        one row or one column."""
        k = self.line_length
        for (r, c) in domain:
            # A horizontal segment starting at (r, c) going right.
            if all((r, c + i) in domain for i in range(k)):
                return True
            # A vertical segment starting at (r, c) going down.
            if all((r + i, c) in domain for i in range(k)):
                return True
        return False

    def living_domain_points(self, colour):
        """Set of points (r, c) that lie in living domains of ``colour``."""
        points = set()
        for domain in self.domains(colour):
            if self.is_alive(domain):
                points |= domain
        return points

    def _no_point_in_both_living(self):
        both = self.living_domain_points(BLACK) & self.living_domain_points(WHITE)
        return len(both) == 0

    # ------------------------------------------------------------------ moves

    def legal_moves(self):
        """Sorted action indices r * n + c of legal placements; [] when over."""
        if self.over:
            return []
        living = self.living_domain_points(self.to_move)
        moves = []
        for r in range(self.n):
            for c in range(self.n):
                if self.board[r][c] == EMPTY and (r, c) in living:
                    moves.append(r * self.n + c)
        return sorted(moves)

    def play(self, action):
        """Place a stone for the player to move at ``action`` (= r * n + c).

        Raises ValueError (state unchanged) if the placement is illegal.
        Returns the set of points of removed enemy stones.
        """
        if self.over:
            raise ValueError("game is over")
        if isinstance(action, bool) or not isinstance(action, int):
            raise ValueError(f"action must be an int, got {action!r}")
        if not (0 <= action < self.n * self.n):
            raise ValueError(f"action {action} off the board")
        r, c = divmod(action, self.n)
        mover = self.to_move
        enemy = other(mover)
        if self.board[r][c] != EMPTY:
            raise ValueError(f"point {(r, c)} is not empty")
        if (r, c) not in self.living_domain_points(mover):
            raise ValueError(f"point {(r, c)} is in no living domain of the mover")

        # Place the stone.
        self.board[r][c] = mover

        # Remove every enemy stone that lies in no living enemy domain
        # (judged once on the position after the placement, removed all at once).
        enemy_living = self.living_domain_points(enemy)
        removed = set()
        for rr in range(self.n):
            for cc in range(self.n):
                if self.board[rr][cc] == enemy and (rr, cc) not in enemy_living:
                    removed.add((rr, cc))
        for (rr, cc) in removed:
            self.board[rr][cc] = EMPTY

        # Switch the player to move.
        self.to_move = enemy

        # End of game: no point lies in living domains of both colours.
        if self._no_point_in_both_living():
            self.over = True
        return removed

    # ------------------------------------------------------------------ result

    def scores(self):
        """(black, white): points in living domains of own colour, + komi for White."""
        black = len(self.living_domain_points(BLACK))
        white = len(self.living_domain_points(WHITE)) + self.komi
        return black, white

    def winner(self):
        """BLACK, WHITE, or None for a draw (only meaningful when the game is over)."""
        black, white = self.scores()
        if black > white:
            return BLACK
        if white > black:
            return WHITE
        return None

    def cells(self):
        """Flat board, index r * n + c, values EMPTY/BLACK/WHITE."""
        return [self.board[r][c] for r in range(self.n) for c in range(self.n)]
