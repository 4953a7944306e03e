"""UCT Monte Carlo tree search with random playouts in compiled code.

Each playout descends the tree by UCB1 (``Q + c * sqrt(ln N_parent / N_child)``, with RAVE the
blend described in :class:`MCTSAgent`), expands one new child (one ``clone().apply()`` on the
state API, no env copies), and finishes the game with ``GameState.rollout``: random legal actions
played by the game's numba kernel (uniform, except that Linage passes only when it must and
Lifeline places next to an enemy stone when it can; see ``GameState.rollout``). The result (+1
win, -1 loss, 0 draw or ``max_moves``) is backed up along the path, counted at each node for the
player to act there, so turns where one player acts twice (double placements) and pie swaps need
nothing special.

The move played is the most visited child of the root. Finished games found in the tree are
solved and their values travel up (MCTS-Solver, Winands et al. 2008): a node with a child that
surely wins for its player is a sure win, one whose every child surely loses a sure loss; the
search always takes a sure win and never walks into a sure loss, and a proved win at the root is
played. Before the search every root action is tried once, so a move that wins at once is played
even if random playouts would rarely find it. The subtree under the actions played
since the last search is kept for the next one (tree reuse), found through the state's history.
"""
from __future__ import annotations

import math
import time

import numpy as np

from territory_envs.core.options import check_bool, check_int, check_number

from .base import Agent

MAX_PLAYOUTS = 10**9  # playouts per move (days of search at any speed)
MAX_SECONDS = 86400.0  # time budget per move


class Node:
    """A position in the tree: its state and the statistics of its children (arrays indexed like
    ``actions``; ``index`` maps an action to its child's position, -1 if illegal here)."""

    __slots__ = ("state", "player", "actions", "index", "children", "visits", "value", "amaf_visits",
                 "amaf_value", "jitter", "total", "proven", "status")

    def __init__(self, state, rng: np.random.Generator):
        self.state = state
        self.player = state.current_player  # the player to act here
        self.actions = state.legal_actions()
        self.index = np.full(state.game.num_actions, -1, dtype=np.int64)
        self.index[self.actions] = np.arange(len(self.actions))
        self.children: list[Node | None] = [None] * len(self.actions)
        self.visits = np.zeros(len(self.actions))
        self.value = np.zeros(len(self.actions))  # summed results for the player to act here
        self.amaf_visits = np.zeros(len(self.actions))
        self.amaf_value = np.zeros(len(self.actions))
        self.jitter = rng.random(len(self.actions)) * 1e-6  # random tie-breaks
        self.total = 0
        # solved children: +1 a sure win for the player to act here, -1 a sure loss, 0 unknown;
        # the node itself is won if one child is, lost if every child is
        self.proven = np.zeros(len(self.actions), dtype=np.int8)
        self.status = 0

    def child_for(self, action: int):
        k = self.index[action] if 0 <= action < len(self.index) else -1
        return self.children[k] if k >= 0 else None


class MCTSAgent(Agent):
    """UCT with compiled random playouts, by default with RAVE.

    ``playouts``: simulations per move, 1 to ``MAX_PLAYOUTS`` (or ``None`` with ``time_budget``
    seconds per move, above 0 and at most ``MAX_SECONDS``; giving both is an error);
    ``exploration``: the UCB constant ``c``, finite and ``>= 0`` (default 1.4 for plain UCT; 0.1
    with RAVE, whose all-moves-as-first values already spread the search: 0.1 beat 0.3 in small
    arena runs);
    ``rave``: blend each child's value with its all-moves-as-first value from the playouts
    (Gelly and Silver's schedule ``beta = sqrt(k / (3 n + k))``, ``k = rave_k``), which gives every
    playout's information to every move it contains and matters most at small playout counts
    (``rave_k`` 300: Asli's ``mcts:64`` beat ``greedy`` in 14 of 16 games with it, 9 of 16 with
    30);
    ``reuse_tree``: keep the subtree between moves;
    ``uniform_playouts``: playouts drawn uniformly over the legal actions in every game (off by
    default: see ``GameState.rollout`` for the two games whose playouts are shaped).
    """

    name = "mcts"

    def __init__(self, playouts: int | None = 256, exploration: float | None = None,
                 time_budget: float | None = None, rave: bool = True, rave_k: float = 300.0,
                 reuse_tree: bool = True, uniform_playouts: bool = False, seed: int | None = None):
        super().__init__(seed)
        try:
            if (playouts is None) == (time_budget is None):
                raise ValueError("give playouts or time_budget (with playouts=None), not "
                                 + ("neither" if playouts is None else "both"))
            if playouts is not None:
                playouts = check_int("playouts", playouts, 1, MAX_PLAYOUTS)
            if time_budget is not None:
                time_budget = float(check_number("time_budget", time_budget))
                if not 0 < time_budget <= MAX_SECONDS:
                    raise ValueError(f"option time_budget={time_budget!r}: must be a number of seconds above 0 "
                                     f"and at most {MAX_SECONDS:g}")
            rave = check_bool("rave", rave)
            if exploration is None:
                exploration = 0.1 if rave else 1.4
            exploration = float(check_number("exploration", exploration))
            if exploration < 0:
                raise ValueError(f"option exploration={exploration!r}: must be >= 0")
            rave_k = float(check_number("rave_k", rave_k))
            if rave_k <= 0:
                raise ValueError(f"option rave_k={rave_k!r}: must be > 0")
            reuse_tree = check_bool("reuse_tree", reuse_tree)
            uniform_playouts = check_bool("uniform_playouts", uniform_playouts)
        except ValueError as err:
            raise ValueError(f"MCTSAgent: {err}") from None
        self.playouts = playouts
        self.time_budget = time_budget
        self.exploration = exploration
        self.rave = rave
        self.rave_k = rave_k
        self.reuse_tree = reuse_tree
        self.uniform_playouts = uniform_playouts
        self.root: Node | None = None
        self.last_search: dict = {}
        self._trace = np.zeros((2, 0), dtype=np.int32)

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.root = None

    # --- the search ---------------------------------------------------------------------------
    def act(self, state) -> int:
        if state.terminal:
            raise ValueError("mcts: the game is over")
        root = self._reused_root(state) if self.reuse_tree else None
        if root is None:
            root = Node(state.clone(), self.rng)
        if self.rave and self._trace.shape[1] < state.game.max_moves:
            self._trace = np.zeros((2, state.game.max_moves), dtype=np.int32)
        reused = root.total
        if len(root.actions) == 1:
            choice = int(root.actions[0])
        elif self._find_win_in_one(root):
            choice = int(root.actions[np.argmax(root.proven)])
        else:
            start = time.perf_counter()
            done = 0
            while (done < self.playouts) if self.playouts is not None else \
                    (time.perf_counter() - start < self.time_budget or done == 0):
                self._playout(root)
                done += 1
            if root.status == 1:  # the search proved a win: play it
                choice = int(root.actions[np.argmax(root.proven)])
            else:
                visits = np.where(root.proven == -1, -1.0, root.visits) if root.status == 0 else root.visits
                best = np.flatnonzero(visits == visits.max())
                choice = int(root.actions[best[self.rng.integers(len(best))]])
            self.last_search = {"playouts": done, "reused_visits": reused, "seconds": time.perf_counter() - start,
                                "root_value": root.value.sum() / max(1, root.total)}
        self.root = root
        return choice

    def _playout(self, root: Node) -> None:
        node = root
        path = []  # (node, child index)
        played = 0  # playout actions in self._trace
        while True:
            state = node.state
            if state.over or len(node.actions) == 0:  # (truncated at max_moves, as the env: a draw)
                result = _result(state)
                break
            k = self._select(node)
            path.append((node, k))
            child = node.children[k]
            if child is None:  # expand, then finish the game at random
                child_state = state.clone().apply(int(node.actions[k]))
                node.children[k] = Node(child_state, self.rng)
                seed = int(self.rng.integers(1 << 31))
                result, played = child_state.rollout_with_length(seed, self._trace if self.rave else None,
                                                                 self.uniform_playouts)
                break
            node = child
        for parent, k in path:
            parent.visits[k] += 1
            parent.total += 1
            if result >= 0:
                parent.value[k] += 1.0 if result == parent.player else -1.0
        for parent, k in reversed(path):  # solved values travel up while they decide something
            if not _prove(parent, k):
                break
        if self.rave:
            self._update_amaf(path, result, played)

    def _update_amaf(self, path, result: int, played: int) -> None:
        """All-moves-as-first: every action a node's player played later in this simulation (in
        the tree below it or in the playout) counts as if played at that node."""
        trace = self._trace[:, :played]
        by_player = [trace[0, trace[1] == p] for p in (0, 1)]
        tree_actions = np.array([node.actions[k] for node, k in path], dtype=np.int64)
        tree_players = np.array([node.player for node, _ in path])
        for depth, (node, _) in enumerate(path):
            p = node.player
            later = tree_actions[depth:][tree_players[depth:] == p]
            children = node.index[np.concatenate((later, by_player[p]))]
            children = children[children >= 0]
            node.amaf_visits[children] += 1  # fancy-index += counts each child once
            if result >= 0:
                node.amaf_value[children] += 1.0 if result == p else -1.0

    def _find_win_in_one(self, root: Node) -> bool:
        """Look at every action of the root once: one that wins the game at once is played
        without a search (random playouts can miss a rarely played decisive move)."""
        if root.status == 1:
            return True
        for k, action in enumerate(root.actions):
            if root.children[k] is None:
                child_state = root.state.clone().apply(int(action))
                if _result(child_state) == root.player:
                    root.children[k] = Node(child_state, self.rng)
                    _prove(root, k)
                    return True
        return False

    def _select(self, node: Node) -> int:
        if node.status == 1:
            return int(np.argmax(node.proven))  # a sure win: the player to act takes it
        visits = node.visits
        seen = np.maximum(visits, 1)
        q = node.value / seen
        explore = self.exploration * np.sqrt(math.log(node.total + 1) / seen)
        if self.rave:
            amaf_q = node.amaf_value / np.maximum(node.amaf_visits, 1)
            beta = np.sqrt(self.rave_k / (3 * visits + self.rave_k))
            score = (1 - beta) * q + beta * amaf_q + explore
        else:
            score = np.where(visits > 0, q + explore, np.inf)  # every child once, in random order
        if node.status == 0:
            score = np.where(node.proven == -1, -np.inf, score)  # never walk into a sure loss
        return int(np.argmax(score + node.jitter))

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
        return node


def _prove(parent: Node, k: int) -> bool:
    """Record what is sure about child ``k`` of ``parent`` (a finished game, or a solved node) and
    update ``parent.status``; returns whether the parent became solved."""
    child = parent.children[k]
    if child.state.over:
        winner = _result(child.state)
        sure = 0 if winner < 0 else (1 if winner == parent.player else -1)
    else:
        sure = child.status if child.player == parent.player else -child.status
    if sure == 0 or parent.status != 0:
        return False
    parent.proven[k] = sure
    if sure == 1:
        parent.status = 1
    elif np.all(parent.proven == -1):
        parent.status = -1
    return parent.status != 0


def _result(state) -> int:
    """The winning player of a finished (or truncated) game, -1 for none."""
    if state.terminal and state.winner >= 0:
        return state.winner ^ state.flip
    return -1
