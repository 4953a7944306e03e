"""UCT Monte Carlo tree search with random playouts in compiled code.

Each playout descends the tree by UCB1 (``Q + c * sqrt(ln N_parent / N_child)``), expands one
untried action (one ``clone().apply()`` on the state API, no env copies), and finishes the game with
``GameState.rollout``: uniformly random legal actions played by the game's numba kernel. The
result (+1 win, -1 loss, 0 draw or ``max_moves``) is backed up to every node on the path, each
counted for the player who chose the action leading to it, so turns where one player acts twice
(double placements) and pie swaps need nothing special.

The move played is the most visited child of the root. The subtree under the actions played
since the last search is kept for the next one (tree reuse), found through the state's history.
"""
from __future__ import annotations

import math
import time

import numpy as np

from .base import Agent


class Node:
    """A position in the tree: its state, who acted to reach it, and the statistics of its
    children (arrays indexed like ``actions``)."""

    __slots__ = ("state", "mover", "actions", "children", "visits", "value", "untried", "total")

    def __init__(self, state, mover: int, rng: np.random.Generator):
        self.state = state
        self.mover = mover  # the player whose action led here (-1 at a fresh root)
        self.actions = state.legal_actions()
        self.children: list[Node | None] = [None] * len(self.actions)
        self.visits = np.zeros(len(self.actions))
        self.value = np.zeros(len(self.actions))  # summed results for the player to act here
        self.untried = list(rng.permutation(len(self.actions)))  # expanded in a random order
        self.total = 0

    def child_for(self, action: int):
        hits = np.flatnonzero(self.actions == action)
        return self.children[hits[0]] if len(hits) else None


class MCTSAgent(Agent):
    """UCT with compiled random playouts.

    ``playouts``: simulations per move (or ``None`` with ``time_budget`` seconds per move);
    ``exploration``: the UCB1 constant ``c``; ``reuse_tree``: keep the subtree between moves.
    """

    name = "mcts"

    def __init__(self, playouts: int | None = 256, exploration: float = 1.4, time_budget: float | None = None,
                 reuse_tree: bool = True, seed: int | None = None):
        super().__init__(seed)
        if playouts is None and time_budget is None:
            raise ValueError("MCTSAgent: give playouts or time_budget")
        if playouts is not None and (not isinstance(playouts, (int, np.integer)) or playouts < 1):
            raise ValueError(f"MCTSAgent: playouts={playouts!r} must be a positive integer")
        if time_budget is not None and not time_budget > 0:
            raise ValueError(f"MCTSAgent: time_budget={time_budget!r} must be a positive number of seconds")
        if not exploration >= 0:
            raise ValueError(f"MCTSAgent: exploration={exploration!r} must be >= 0")
        self.playouts = None if playouts is None else int(playouts)
        self.time_budget = time_budget
        self.exploration = float(exploration)
        self.reuse_tree = reuse_tree
        self.root: Node | None = None
        self.last_search: dict = {}

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.root = None

    # --- the search ---------------------------------------------------------------------------
    def act(self, state) -> int:
        if state.terminal:
            raise ValueError("mcts: the game is over")
        root = self._reused_root(state) if self.reuse_tree else None
        if root is None:
            root = Node(state.clone(), -1, self.rng)
        reused = root.total
        if len(root.actions) == 1:
            choice = int(root.actions[0])
        else:
            start = time.perf_counter()
            done = 0
            while (done < self.playouts) if self.playouts is not None else \
                    (time.perf_counter() - start < self.time_budget or done == 0):
                self._playout(root)
                done += 1
            best = np.flatnonzero(root.visits == root.visits.max())
            choice = int(root.actions[best[self.rng.integers(len(best))]])
            self.last_search = {"playouts": done, "reused_visits": reused, "seconds": time.perf_counter() - start,
                                "root_value": root.value.sum() / max(1, root.total)}
        self.root = root
        return choice

    def _playout(self, root: Node) -> None:
        node = root
        path = []  # (node, child index)
        while True:
            state = node.state
            if state.terminal or len(node.actions) == 0:
                result = _result(state)
                break
            if node.untried:
                k = node.untried.pop()
                child_state = state.clone().apply(int(node.actions[k]))
                child = Node(child_state, state.current_player, self.rng)
                node.children[k] = child
                path.append((node, k))
                if child_state.terminal:
                    result = _result(child_state)
                else:
                    result = child_state.rollout(int(self.rng.integers(1 << 31)))
                break
            k = self._select(node)
            path.append((node, k))
            node = node.children[k]
        for parent, k in path:
            player = parent.state.current_player
            parent.visits[k] += 1
            parent.total += 1
            if result >= 0:
                parent.value[k] += 1.0 if result == player else -1.0

    def _select(self, node: Node) -> int:
        visits = node.visits
        ucb = node.value / visits + self.exploration * np.sqrt(math.log(node.total) / visits)
        return int(np.argmax(ucb))

    def _reused_root(self, state):
        """The node of the previous tree that holds ``state``, or None."""
        root = self.root
        if root is None or root.state.game is not state.game:
            return None
        old = root.state.history
        new = state.history
        if len(new) < len(old) or new[:len(old)] != old:
            return None
        node = root
        for action in new[len(old):]:
            node = node.child_for(action)
            if node is None:
                return None
        if node.state.move_number != state.move_number or node.state.flip != state.flip \
                or not np.array_equal(node.state.board, state.board):
            return None
        node.mover = -1
        return node


def _result(state) -> int:
    """The winning player of a finished (or truncated) game, -1 for none."""
    if state.terminal and state.winner >= 0:
        return state.winner ^ state.flip
    return -1
