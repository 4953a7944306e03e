"""A plain tree search over ``GameState`` objects, one tree at a time, written from the papers
(Silver et al. 2017 for PUCT; Danihelka et al., ICLR 2022, for Gumbel with sequential halving and
completed Q-values), to check the compiled search of ``agents/az/tree_search.py`` visit by visit."""
from __future__ import annotations

import math

import numpy as np


class Node:
    def __init__(self, state, evaluate):
        self.state = state
        self.player = state.current_player
        self.children = {}
        n = state.game.num_actions
        self.visits = np.zeros(n, dtype=np.int64)
        self.value_sum = np.zeros(n)
        self.prior = np.zeros(n)
        if state.over:
            self.value = float(state.returns()[self.player])
        else:
            priors, values = evaluate(state.observation(self.player)[None], state.legal_mask()[None])
            self.prior = np.asarray(priors[0], dtype=np.float64)
            self.value = float(values[0])

    @property
    def legal(self):
        return np.flatnonzero(self.state.legal_mask())


def halving_sequence(considered: int, simulations: int) -> list:
    """For each simulation, the visit count the root's chosen action must have: all ``considered``
    actions once, ..., then the better half, down to two, each phase an equal share of the budget."""
    if considered <= 1:
        return list(range(simulations))
    phases = math.ceil(math.log2(considered))
    out, counts, live = [], [0] * considered, considered
    while len(out) < simulations:
        rounds = max(1, simulations // (phases * live))
        for _ in range(rounds):
            out += counts[:live]
            counts[:live] = [c + 1 for c in counts[:live]]
        live = max(2, live // 2)
    return out[:simulations]


def sigma_completed_q(node) -> np.ndarray:
    """Completed Q over the legal actions (the mixed value for the unvisited), rescaled to [0, 1]
    over the legal actions, times ``(50 + max visits) * 0.1``; 0 elsewhere."""
    legal = node.legal
    visited = [a for a in legal if node.visits[a] > 0]
    q = {a: node.value_sum[a] / node.visits[a] for a in visited}
    mixed = node.value
    if visited:
        n = sum(node.visits[a] for a in visited)
        p = {a: max(node.prior[a], 1e-30) for a in visited}
        mixed = (node.value + n * sum(p[a] * q[a] for a in visited) / sum(p.values())) / (n + 1)
    completed = np.array([q.get(a, mixed) for a in legal])
    span = max(completed.max() - completed.min(), 1e-8)
    out = np.zeros(len(node.prior))
    out[legal] = (completed - completed.min()) / span * (50 + node.visits.max()) * 0.1
    return out


def improved_policy(node) -> np.ndarray:
    legal = [a for a in node.legal if node.prior[a] > 0]
    sigma = sigma_completed_q(node)
    z = np.array([math.log(node.prior[a]) + sigma[a] for a in legal])
    w = np.exp(z - z.max())
    out = np.zeros(len(node.prior))
    out[legal] = w / w.sum()
    return out


def _first_best(scores: dict) -> int:
    best = None
    for a in sorted(scores):
        if best is None or scores[a] > scores[best]:
            best = a
    return best


def _simulate(root, evaluate, choose_root, choose_interior) -> None:
    path, node = [], root
    while True:
        if node.state.over:
            value, leaf = node.value, node
            break
        a = choose_root(node) if node is root else choose_interior(node)
        path.append((node, a))
        if a not in node.children:
            node.children[a] = Node(node.state.clone().apply(int(a)), evaluate)
            value, leaf = node.children[a].value, node.children[a]
            break
        node = node.children[a]
    for parent, a in path:
        parent.visits[a] += 1
        parent.value_sum[a] += value if parent.player == leaf.player else -value


def gumbel_search(state, evaluate, simulations: int, gumbel: np.ndarray, considered: int = 16):
    """Returns ``(root visits, improved policy, chosen action)``."""
    root = Node(state, evaluate)
    m = min(considered, len(root.legal))
    bounds = halving_sequence(m, simulations)

    def score(a, sigma):
        return gumbel[a] + (math.log(root.prior[a]) if root.prior[a] > 0 else -1e9) + sigma[a]

    def choose_root(node):
        sigma = sigma_completed_q(node)
        bound = bounds[int(node.visits.sum())]
        at_bound = {a: score(a, sigma) for a in node.legal if node.visits[a] == bound}
        return _first_best(at_bound or {a: score(a, sigma) for a in node.legal})

    def choose_interior(node):
        pi = improved_policy(node)
        total = node.visits.sum()
        return _first_best({a: pi[a] - node.visits[a] / (1 + total) for a in node.legal})

    for _ in range(simulations):
        _simulate(root, evaluate, choose_root, choose_interior)
    sigma = sigma_completed_q(root)
    most = root.visits[root.legal].max()
    action = _first_best({a: score(a, sigma) for a in root.legal if root.visits[a] == most})
    return root.visits, improved_policy(root), action


def puct_search(state, evaluate, simulations: int, c_puct: float = 1.5, fpu: float = 0.2):
    """Returns the root's visits (AlphaZero's PUCT, unvisited actions at the value less ``fpu``)."""
    root = Node(state, evaluate)

    def choose(node):
        total = node.visits.sum()
        scores = {}
        for a in node.legal:
            q = node.value_sum[a] / node.visits[a] if node.visits[a] else node.value - fpu
            scores[a] = q + c_puct * node.prior[a] * math.sqrt(total + 1) / (1 + node.visits[a])
        return _first_best(scores)

    for _ in range(simulations):
        _simulate(root, evaluate, choose, choose)
    return root.visits
