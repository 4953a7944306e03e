"""AlphaZero's tree search (PUCT), run for many games at once so that the network sees batches.

Each game has its own tree over states of the state API (``clone`` and ``apply``, never env
copies). One simulation round descends every tree to a leaf, evaluates all the leaves in one
forward pass, expands them and backs their values up. A node keeps the statistics of its edges
from the point of view of its own mover, so games in which a player moves twice in a row (Lifeline's
double first move, Asli's pairs) need no special case: a value is turned to each node's mover as it
is backed up.
"""
from __future__ import annotations

import math

import numpy as np

from .network import evaluate


class Node:
    __slots__ = ("state", "player", "actions", "priors", "visits", "value_sum", "children", "value")

    def __init__(self, state):
        self.state = state
        self.player = state.current_player
        self.actions = None  # legal actions once expanded
        self.priors = self.visits = self.value_sum = None
        self.children = None
        self.value = 0.0  # the network's value for self.player (or the result, when terminal)

    @property
    def expanded(self) -> bool:
        return self.actions is not None

    def expand(self, priors: np.ndarray, value: float) -> None:
        self.actions = self.state.legal_actions()
        p = priors[self.actions].astype(np.float64)
        total = p.sum()
        self.priors = p / total if total > 0 else np.full(len(p), 1.0 / len(p))
        self.visits = np.zeros(len(self.actions), dtype=np.int64)
        self.value_sum = np.zeros(len(self.actions), dtype=np.float64)
        self.children = [None] * len(self.actions)
        self.value = float(value)

    def total_visits(self) -> int:
        return int(self.visits.sum()) if self.visits is not None else 0


class BatchedSearch:
    """PUCT with ``c_puct``; unvisited edges are valued at the parent's value less ``fpu_reduction``
    (first-play urgency), and Dirichlet noise ``(alpha, fraction)`` may be mixed into a root's
    priors for self-play."""

    def __init__(self, net, c_puct: float = 1.5, fpu_reduction: float = 0.2):
        self.net = net
        self.c_puct = c_puct
        self.fpu_reduction = fpu_reduction

    # --- one round over all trees ---------------------------------------------------------------
    def _descend(self, root: Node):
        path = []
        node = root
        while node.expanded and not node.state.over:  # (truncated at max_moves, as the env: a draw)
            i = self._select(node)
            path.append((node, i))
            child = node.children[i]
            if child is None:
                child = Node(node.state.clone().apply(int(node.actions[i])))
                node.children[i] = child
            node = child
        return path, node

    def _select(self, node: Node) -> int:
        n = node.visits
        total = n.sum()
        q = np.where(n > 0, node.value_sum / np.maximum(n, 1), node.value - self.fpu_reduction)
        u = self.c_puct * node.priors * math.sqrt(total + 1) / (1 + n)
        return int(np.argmax(q + u))

    @staticmethod
    def _backup(path, leaf: Node, value: float) -> None:
        """``value`` is for ``leaf.player``; each edge gets it from its own node's mover."""
        for node, i in path:
            node.visits[i] += 1
            node.value_sum[i] += value if node.player == leaf.player else -value

    def _leaf_value(self, leaf: Node) -> float:
        return float(leaf.state.returns()[leaf.player])

    def expand_roots(self, roots: list) -> None:
        todo = [r for r in roots if not r.expanded and not r.state.over]
        if todo:
            self._evaluate_and_expand(todo)

    def _evaluate_and_expand(self, leaves: list) -> np.ndarray:
        planes = np.stack([leaf.state.observation(leaf.player) for leaf in leaves])
        masks = np.stack([leaf.state.legal_mask() for leaf in leaves])
        priors, values = evaluate(self.net, planes, masks)
        for leaf, p, v in zip(leaves, priors, values):
            leaf.expand(p, v)
        return values

    def run(self, roots: list, simulations: list) -> None:
        """Run ``simulations[k]`` simulations on ``roots[k]`` (expanded or not), in rounds."""
        self.expand_roots(roots)
        for round_ in range(max(simulations, default=0)):
            paths, leaves = [], []
            for root, sims in zip(roots, simulations):
                if round_ >= sims or root.state.over:
                    continue
                path, leaf = self._descend(root)
                if leaf.state.over:
                    self._backup(path, leaf, self._leaf_value(leaf))
                else:
                    paths.append(path)
                    leaves.append(leaf)
            if leaves:
                values = self._evaluate_and_expand(leaves)
                for path, leaf, v in zip(paths, leaves, values):
                    self._backup(path, leaf, float(v))

    # --- roots -----------------------------------------------------------------------------------
    @staticmethod
    def add_noise(root: Node, rng: np.random.Generator, alpha: float, fraction: float) -> None:
        if root.expanded and len(root.actions) > 1:
            noise = rng.dirichlet(np.full(len(root.actions), alpha))
            root.priors = (1 - fraction) * root.priors + fraction * noise

    @staticmethod
    def policy(root: Node, num_actions: int) -> np.ndarray:
        """The visit distribution over all actions (the network's priors when nothing was visited)."""
        out = np.zeros(num_actions, dtype=np.float32)
        total = root.visits.sum()
        out[root.actions] = root.visits / total if total > 0 else root.priors
        return out

    @staticmethod
    def choose(root: Node, rng: np.random.Generator, temperature: float) -> int:
        """An action: most visited (ties to the prior) at temperature 0, else visits ** (1/T)."""
        visits = root.visits.astype(np.float64)
        if visits.sum() == 0:
            visits = root.priors
        if temperature <= 0:
            best = np.flatnonzero(visits == visits.max())
            return int(root.actions[best[np.argmax(root.priors[best])]])
        weights = visits ** (1.0 / temperature)
        return int(root.actions[rng.choice(len(weights), p=weights / weights.sum())])

    @staticmethod
    def advance(root: Node, action: int) -> Node:
        """The subtree after ``action`` (kept for the next move), or a new root."""
        if root.expanded:
            i = np.flatnonzero(root.actions == action)
            if len(i) and root.children[i[0]] is not None:
                return root.children[i[0]]
        return Node(root.state.clone().apply(action))
