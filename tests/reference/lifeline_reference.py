"""Slow, direct reference implementation of the board game Lifeline.

Written straight from docs/rules/lifeline.txt, the "All games" and
"Lifeline" sections of docs/rulings.md and the board / action
conventions of docs/spec.md, for differential testing against the fast
engine. Clarity over speed: nothing is cached; every legality question is
answered by simulating the whole turn on a copy of the board and comparing the
board at the end of the turn with the board at its start, and deadness is found
by a plain breadth-first search over empty cells.

Board and actions
- Hexhex board of side ``b``, embedded in an ``H x W`` grid, ``H = W = 2b - 1``.
  Grid cell (r, c) is on the board iff ``b - 1 <= r + c <= 3(b - 1)``.
  Neighbours of (r, c): (r-1, c), (r+1, c), (r, c-1), (r, c+1), (r-1, c+1),
  (r+1, c-1), on-board ones only.
- Action ``r * W + c`` places on (r, c); ``H * W`` is ``swap``; ``H * W + 1`` is
  ``spend_komi``.
- Cells in sets returned by ``play`` / ``dead_groups`` are (r, c) tuples.

Rules as implemented
- A *group* is a maximal connected set of same-coloured stones. A group is
  *dead* if no maximal empty region adjacent to it is also adjacent to another
  group of its colour (equivalently: no path of empty cells leads from the group
  to another group of its colour). A lone group is dead.
- A turn: place a stone (two stones on each side's first turn under the strong
  pie), then remove all dead enemy groups (judged together, on the board after
  the placement(s)), then remove all dead friendly groups (judged again, on the
  board after the enemy removals).
- The board at the end of a placement turn must differ from the board at its
  start.
- A double placement is two consecutive actions of the same side. The first
  stone is legal iff some second stone then completes a legal turn; the second
  stone is legal iff the pair is a legal turn. Nothing is removed between them
  and no other action is legal between them.
- Strong pie (default): double first placement for each side; on White's first
  turn (before White's first stone) White may instead swap: the agents exchange
  sides, the board stays, White is still to act and plays White's first turn as
  a double placement. Removal is on from the first turn.
- Weak pie: one stone per turn; no removal at all until a turn ends its
  placement with at least four stones on the board; that turn and every later
  turn remove. White may swap on White's first turn (after Black's single
  stone); White is then still to act with a single placement.
- Komi pie: as weak pie but without swap. Once four stones have been placed (in
  total, over the game), on White's turn White may spend one komi point instead
  of placing, only while ``komi_left > 0`` and White also has a legal
  placement. Spending is not a placement and does not change the board.
- A side to act with no legal action loses; the opponent wins. (The last
  player to place wins; see ``winner``.)
"""

from collections import deque

BLACK, WHITE = 0, 1

PIES = ("strong", "weak", "komi")


def other(side):
    """The opposite side."""
    if side == BLACK:
        return WHITE
    if side == WHITE:
        return BLACK
    raise ValueError(f"not a side: {side!r}")


class ReferenceLifeline:
    def __init__(self, board_size: int = 5, pie: str = "strong", komi: int = 0):
        if isinstance(board_size, bool) or not isinstance(board_size, int) or board_size < 1:
            raise ValueError(f"board_size must be an int >= 1, got {board_size!r}")
        if pie not in PIES:
            raise ValueError(f"pie must be one of {PIES}, got {pie!r}")
        if pie == "komi":
            if isinstance(komi, bool) or not isinstance(komi, int) or komi < 0:
                raise ValueError(f"komi must be a whole number >= 0, got {komi!r}")
        self.b = board_size
        self.size = 2 * board_size - 1
        self.pie = pie
        self.komi = komi
        self.SWAP = self.size * self.size
        self.SPEND = self.size * self.size + 1

        self.board = {}
        for r in range(self.size):
            for c in range(self.size):
                if self._on_board(r, c):
                    self.board[(r, c)] = None

        self.to_move = BLACK
        self.swapped = False
        self.komi_left = komi if pie == "komi" else 0
        self.over = False
        self._winner = None

        # Has each side completed its first (placement) turn?
        self.first_turn_done = {BLACK: False, WHITE: False}
        # Total number of placement actions made so far (stones placed).
        self.placements = 0
        # Weak / komi pie: has removal been switched on (it stays on)?
        self.removal_on = pie == "strong"
        # Has White used the first-turn swap option (only one is possible)?
        self.swap_used = False
        # Mid double placement: the first stone's cell and the board at the
        # start of the turn; None otherwise.
        self.pending = None
        self.turn_start_board = None
        # Side that made the latest placement (for diagnostics).
        self.last_placer = None

    # ------------------------------------------------------------------ geometry

    def _on_board(self, r, c):
        n = self.b - 1
        return 0 <= r < self.size and 0 <= c < self.size and n <= r + c <= 3 * n

    def neighbours(self, cell):
        r, c = cell
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1), (-1, 1), (1, -1)):
            rr, cc = r + dr, c + dc
            if self._on_board(rr, cc):
                yield (rr, cc)

    def cell_of(self, action):
        return divmod(action, self.size)

    def action_of(self, cell):
        return cell[0] * self.size + cell[1]

    # ------------------------------------------------------------------ groups

    def groups(self, board, side):
        """All groups of ``side`` on ``board``: list of sets of cells (BFS)."""
        seen = set()
        result = []
        for cell in sorted(board):
            if board[cell] != side or cell in seen:
                continue
            group = set()
            queue = deque([cell])
            seen.add(cell)
            while queue:
                p = queue.popleft()
                group.add(p)
                for q in self.neighbours(p):
                    if q not in seen and board[q] == side:
                        seen.add(q)
                        queue.append(q)
            result.append(group)
        return result

    def is_dead(self, board, group):
        """True iff no path of empty cells leads from ``group`` to another group
        of its colour: BFS over empty cells starting from the empty cells
        adjacent to the group, looking for an empty cell adjacent to a stone of
        the group's colour that is not in the group."""
        side = board[next(iter(group))]
        start = set()
        for p in group:
            for q in self.neighbours(p):
                if board[q] is None:
                    start.add(q)
        seen = set(start)
        queue = deque(sorted(start))
        while queue:
            e = queue.popleft()
            for q in self.neighbours(e):
                if board[q] == side and q not in group:
                    return False  # reached another friendly group
                if board[q] is None and q not in seen:
                    seen.add(q)
                    queue.append(q)
        return True

    def dead_groups_on(self, board):
        result = []
        for side in (BLACK, WHITE):
            for g in self.groups(board, side):
                if self.is_dead(board, g):
                    result.append(g)
        return sorted(result, key=min)

    def dead_groups(self):
        """Current dead groups (both colours) on the current board, as sets of
        (r, c) cells, sorted by their smallest cell."""
        return self.dead_groups_on(self.board)

    # ------------------------------------------------------------------ turn simulation

    def simulate_turn(self, start_board, stones, side, removal_on):
        """Play a whole placement turn on a copy of ``start_board``.

        Places ``stones`` (a list of empty cells) for ``side``; then, if removal
        is on (or switched on now: four stones on the board in weak / komi pie),
        removes all dead enemy groups, then all dead friendly groups.
        Returns (end_board, removed_cells, removal_on_after).
        """
        board = dict(start_board)
        for s in stones:
            assert board[s] is None
            board[s] = side
        if not removal_on:
            stones_on_board = sum(1 for v in board.values() if v is not None)
            if stones_on_board >= 4:
                removal_on = True
        removed = set()
        if removal_on:
            enemy = other(side)
            dead_enemy = [g for g in self.groups(board, enemy) if self.is_dead(board, g)]
            for g in dead_enemy:
                for p in g:
                    board[p] = None
                    removed.add(p)
            dead_friendly = [g for g in self.groups(board, side) if self.is_dead(board, g)]
            for g in dead_friendly:
                for p in g:
                    board[p] = None
                    removed.add(p)
        return board, removed, removal_on

    def turn_is_legal(self, start_board, stones, side, removal_on):
        end_board, _, _ = self.simulate_turn(start_board, stones, side, removal_on)
        return end_board != start_board

    # ------------------------------------------------------------------ legality

    def _double_turn_now(self):
        """Is the side to act on a double-placement first turn?"""
        return self.pie == "strong" and not self.first_turn_done[self.to_move]

    def _empty_cells(self, board):
        return sorted(cell for cell, v in board.items() if v is None)

    def legal_placements(self):
        """Sorted list of cells where the side to act may legally place now."""
        side = self.to_move
        if self.pending is not None:
            start = self.turn_start_board
            return [y for y in self._empty_cells(self.board)
                    if self.turn_is_legal(start, [self.pending, y], side, self.removal_on)]
        start = self.board
        empties = self._empty_cells(start)
        result = []
        if self._double_turn_now():
            for x in empties:
                if any(self.turn_is_legal(start, [x, y], side, self.removal_on)
                       for y in empties if y != x):
                    result.append(x)
        else:
            for x in empties:
                if self.turn_is_legal(start, [x], side, self.removal_on):
                    result.append(x)
        return result

    def swap_legal(self):
        return (self.pie in ("strong", "weak")
                and self.to_move == WHITE
                and self.pending is None
                and not self.first_turn_done[WHITE]
                and not self.swap_used)

    def spend_legal(self, placements=None):
        if not (self.pie == "komi"
                and self.to_move == WHITE
                and self.pending is None
                and self.placements >= 4
                and self.komi_left > 0):
            return False
        if placements is None:
            placements = self.legal_placements()
        return len(placements) > 0

    def legal_moves(self):
        """Sorted legal action indices for the side to act; [] when over."""
        if self.over:
            return []
        placements = self.legal_placements()
        moves = [self.action_of(c) for c in placements]
        if self.swap_legal():
            moves.append(self.SWAP)
        if self.spend_legal(placements):
            moves.append(self.SPEND)
        return sorted(moves)

    # ------------------------------------------------------------------ playing

    def play(self, action):
        """Apply ``action`` for the side to act.

        Raises ValueError (state unchanged) if it is illegal. Returns the set of
        (r, c) cells whose stones were removed by this action (empty for the
        first stone of a double placement, a swap or a spend).
        """
        if self.over:
            raise ValueError("game is over")
        if isinstance(action, bool) or not isinstance(action, int):
            raise ValueError(f"action must be an int, got {action!r}")
        if action not in self.legal_moves():
            raise ValueError(f"illegal action {action}")

        side = self.to_move
        removed = set()
        if action == self.SWAP:
            self.swapped = not self.swapped
            self.swap_used = True
            # The board stays and White (now the other agent) is still to act.
        elif action == self.SPEND:
            self.komi_left -= 1
            self.to_move = other(side)
        else:
            cell = self.cell_of(action)
            self.placements += 1
            self.last_placer = side
            if self._double_turn_now() and self.pending is None:
                # First stone of a double placement: placed, nothing removed.
                self.turn_start_board = dict(self.board)
                self.pending = cell
                self.board[cell] = side
            else:
                if self.pending is not None:
                    start = self.turn_start_board
                    stones = [self.pending, cell]
                else:
                    start = self.board
                    stones = [cell]
                end, removed, removal_on = self.simulate_turn(start, stones, side, self.removal_on)
                assert end != start
                self.board = end
                self.removal_on = removal_on
                self.pending = None
                self.turn_start_board = None
                self.first_turn_done[side] = True
                self.to_move = other(side)

        if not self.legal_moves():
            self.over = True
            self._winner = other(self.to_move)
        return removed

    # ------------------------------------------------------------------ result / views

    def winner(self):
        """The winning side once over (the side to act had no legal action, so
        its opponent wins), else None."""
        return self._winner if self.over else None

    def agent_of(self, side):
        """Index of the agent (0 = started as Black) that now holds ``side``."""
        return side ^ int(self.swapped)

    def cells(self):
        """Flat grid r * W + c: -1 off-board, 0 empty, 1 black stone, 2 white stone."""
        out = []
        for r in range(self.size):
            for c in range(self.size):
                if (r, c) not in self.board:
                    out.append(-1)
                else:
                    v = self.board[(r, c)]
                    out.append(0 if v is None else (1 if v == BLACK else 2))
        return out

    def clone(self):
        new = ReferenceLifeline.__new__(ReferenceLifeline)
        new.__dict__.update(self.__dict__)
        new.board = dict(self.board)
        new.first_turn_done = dict(self.first_turn_done)
        new.turn_start_board = None if self.turn_start_board is None else dict(self.turn_start_board)
        return new
