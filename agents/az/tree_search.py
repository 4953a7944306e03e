"""The compiled, batched tree search: many games' trees in preallocated arrays, searched together.

The model is mctx (``mctx/_src/search.py``, ``tree.py``): a tree is arrays indexed by node, and one
simulation round over every tree of the batch is two compiled calls around one network call:

1. :func:`descend` (in parallel over the trees) walks each tree from its root to an unexpanded
   action, makes the child node by copying the parent's game rows and playing the action with the
   game's compiled turn (``CompiledGame.act``: never a Python state object), and writes the new
   leaf's observation and mask for the network. A leaf where the game is over (the rules' end, or
   ``max_moves`` reached: a draw, as the envs truncate) is backed up at once and needs no network.
2. The network evaluates all the leaves of the round in one batch.
3. :func:`expand_and_backup` stores each leaf's priors and value and backs the value up its path.

Each tree searches on its own clock (:meth:`TreeSearch.start`, :meth:`TreeSearch.step`): a tree
whose budget is spent hands back its result and can start its next search at once, its root's
evaluation riding in the same batch as the other trees' leaves, so that trees of small and large
budgets (self-play's fast and full searches) keep the network's batch full.

A node's statistics are kept from the point of view of the player who moves at it, so games where a
player moves twice in a row (Lifeline's double first move, Asli's pairs) need no special case.

Two ways to choose the actions, both over the same tree:

* ``"gumbel"`` (the default; Danihelka et al., *Policy improvement by planning with Gumbel*, ICLR
  2022): at the root, Gumbel-top-k sampling of ``considered`` actions and sequential halving among
  them; inside the tree, the deterministic choice whose visits follow the improved policy
  ``softmax(logits + sigma(completed Q))``. The policy target is that improved policy at the root.
  Completed Q-values: a visited action's mean value, an unvisited one the mix of the network's value
  and the visited actions' values; rescaled to [0, 1] over the legal actions, then
  ``sigma(q) = (50 + max visits) * 0.1 * q`` (mctx's defaults).
* ``"puct"`` (AlphaZero): ``Q + c * P * sqrt(N + 1) / (1 + n)``, an unvisited action valued at the
  node's network value less ``fpu``; Dirichlet noise can be mixed into the roots' priors. The policy
  target is the visit distribution.
"""
from __future__ import annotations

import math
from collections import namedtuple

import numpy as np
from numba import prange

from territory_envs.core.batch import NEW_GAME, SIT_OUT, next_random
from territory_envs.core.compiled import copy_rows, game_at
from territory_envs.core.fields import FLIP, TO_MOVE, head_flip, head_over, head_winner
from territory_envs.core.jit import kernel
from territory_envs.core.kernels import winner_player

GUMBEL, PUCT = 0, 1
ROOT_PENDING = -1  # a tree's simulation count while its root waits for the network
RULES = {"gumbel": GUMBEL, "puct": PUCT}
NO_NODE = -1
VALUE_SCALE, MAXVISIT_INIT = 0.1, 50.0  # sigma(q) = (MAXVISIT_INIT + max visits) * VALUE_SCALE * q


# --- sequential halving ------------------------------------------------------------------------------
def considered_visits(considered: int, simulations: int) -> list:
    """The visit count that sequential halving lets the root's next simulation go to, for each
    simulation: ``considered`` actions get a visit each, then the better half, ... down to two,
    each phase taking an equal share of the budget (Karnin et al. 2013; mctx's ``seq_halving``)."""
    if considered <= 1:
        return list(range(simulations))
    phases = math.ceil(math.log2(considered))
    sequence, visits, live = [], [0] * considered, considered
    while len(sequence) < simulations:
        for _ in range(max(1, simulations // (phases * live))):
            sequence.extend(visits[:live])
            for i in range(live):
                visits[i] += 1
        live = max(2, live // 2)
    return sequence[:simulations]


def halving_table(max_considered: int, simulations: int) -> np.ndarray:
    """int32 ``(max_considered + 1, simulations + 1)``: row ``m`` is :func:`considered_visits` for
    ``m`` actions (a last column for the choice after the search, never read as a visit bound)."""
    table = np.zeros((max_considered + 1, simulations + 1), dtype=np.int32)
    for m in range(max_considered + 1):
        table[m, :simulations] = considered_visits(m, simulations)
    return table


# --- the statistics of one node ----------------------------------------------------------------------
@kernel
def completed_q(tree, b, node, mask, out):
    """``out[a]``: the completed Q-value of every legal action of ``node`` (its mover's view),
    rescaled to [0, 1] over the legal actions and scaled by sigma; returns the improved policy's
    normaliser inputs in ``out`` only (illegal entries are left 0)."""
    visits, value_sum, prior = tree.child_visits[b, node], tree.child_value_sum[b, node], tree.prior[b, node]
    total, weighted, weight, max_visits = 0, 0.0, 0.0, 0
    for a in range(mask.shape[0]):
        if mask[a] != 0 and visits[a] > 0:
            q = value_sum[a] / visits[a]
            p = max(prior[a], 1e-30)
            total += visits[a]
            weighted += p * q
            weight += p
            max_visits = max(max_visits, visits[a])
    mixed = tree.raw_value[b, node]
    if total > 0:
        mixed = (mixed + total * weighted / weight) / (total + 1)
    low, high = np.inf, -np.inf
    for a in range(mask.shape[0]):
        if mask[a] != 0:
            q = value_sum[a] / visits[a] if visits[a] > 0 else mixed
            out[a] = q
            low = min(low, q)
            high = max(high, q)
    scale = (MAXVISIT_INIT + max_visits) * VALUE_SCALE / max(high - low, 1e-8)
    for a in range(mask.shape[0]):
        out[a] = (out[a] - low) * scale if mask[a] != 0 else 0.0


@kernel
def policy_from_sigma(prior, mask, out):
    """``out`` (sigma of the completed Q-values on entry): ``softmax(log prior + out)`` over the
    legal actions with a prior."""
    top = -np.inf
    for a in range(mask.shape[0]):
        if mask[a] != 0 and prior[a] > 0:
            top = max(top, out[a])
    total = 0.0
    for a in range(mask.shape[0]):
        out[a] = prior[a] * np.exp(out[a] - top) if mask[a] != 0 and prior[a] > 0 else 0.0
        total += out[a]
    for a in range(mask.shape[0]):
        out[a] /= total


@kernel
def gumbel_score(tree, b, sigma_q, a):
    """The root's ``gumbel + log prior + sigma(completed Q)`` of action ``a`` (the first two summed
    once per search in ``root_logits``)."""
    return tree.root_logits[b, a] + sigma_q[a]


@kernel
def choose_root_gumbel(tree, b, mask, scratch, considered_visit):
    """Sequential halving's choice: the best score among the legal actions visited exactly
    ``considered_visit`` times. The first ``considered`` simulations (bound 0) take the top actions
    by ``gumbel + log prior`` (the unvisited share one completed Q); later phases can only reach the
    actions those visited. With none at the bound (the table ran past the actions), the best score
    among all legal actions."""
    completed_q(tree, b, 0, mask, scratch)
    best, best_score, fallback, fallback_score = -1, -np.inf, -1, -np.inf
    for a in range(mask.shape[0]):
        if mask[a] != 0:
            score = gumbel_score(tree, b, scratch, a)
            if tree.child_visits[b, 0, a] == considered_visit and (best < 0 or score > best_score):
                best, best_score = a, score
            if fallback < 0 or score > fallback_score:
                fallback, fallback_score = a, score
    return best if best >= 0 else fallback


@kernel
def choose_interior_gumbel(tree, b, node, mask, scratch):
    """The action whose visit share lags the improved policy most (mctx's interior selection):
    ``argmax improved_policy(a) - visits(a) / (1 + total visits)``.

    The same choice as computing the improved policy (:func:`completed_q`, :func:`policy_from_sigma`)
    over every action, for the exponentials of the visited actions only: the unvisited actions share one completed Q, so among them only the first
    with the highest prior can win, and their share of the normaliser is their prior mass times one
    exponential. A node deep in the tree has few visited actions among many legal ones."""
    visits, value_sum, prior = tree.child_visits[b, node], tree.child_value_sum[b, node], tree.prior[b, node]
    total, weighted, weight, max_visits = 0, 0.0, 0.0, 0
    low, high = np.inf, -np.inf
    unvisited, unvisited_mass = -1, 0.0  # the unvisited action with the highest prior; their prior mass
    for a in range(mask.shape[0]):
        if mask[a] == 0:
            continue
        n = visits[a]
        if n > 0:
            q = value_sum[a] / n
            p = max(prior[a], 1e-30)
            total += n
            weighted += p * q
            weight += p
            max_visits = max(max_visits, n)
            low = min(low, q)
            high = max(high, q)
        else:
            if prior[a] > 0:
                unvisited_mass += prior[a]
            if unvisited < 0 or prior[a] > prior[unvisited]:
                unvisited = a
    mixed = tree.raw_value[b, node]
    if total > 0:
        mixed = (mixed + total * weighted / weight) / (total + 1)
    if unvisited >= 0:
        low = min(low, mixed)
        high = max(high, mixed)
    scale = (MAXVISIT_INIT + max_visits) * VALUE_SCALE / max(high - low, 1e-8)
    # softmax(log prior + sigma): its largest exponent, then the normaliser
    sigma_unvisited = (mixed - low) * scale
    top = sigma_unvisited if unvisited_mass > 0 else -np.inf
    if total > 0:
        for a in range(mask.shape[0]):
            if mask[a] != 0 and visits[a] > 0 and prior[a] > 0:
                top = max(top, (value_sum[a] / visits[a] - low) * scale)
    norm = unvisited_mass * np.exp(sigma_unvisited - top) if unvisited_mass > 0 else 0.0
    if total > 0:
        for a in range(mask.shape[0]):
            scratch[a] = 0.0
            if mask[a] != 0 and visits[a] > 0 and prior[a] > 0:
                scratch[a] = prior[a] * np.exp((value_sum[a] / visits[a] - low) * scale - top)
                norm += scratch[a]
    best, best_score = -1, -np.inf
    for a in range(mask.shape[0]):
        if mask[a] == 0:
            continue
        if visits[a] > 0:
            score = scratch[a] / norm - visits[a] / (1.0 + total)
        elif a == unvisited:
            score = prior[a] * np.exp(sigma_unvisited - top) / norm if prior[a] > 0 else 0.0
        else:
            continue
        if best < 0 or score > best_score:
            best, best_score = a, score
    return best


@kernel
def choose_puct(tree, b, node, mask, c_puct, fpu):
    """AlphaZero's PUCT choice, an unvisited action valued at the node's value less ``fpu``."""
    visits, value_sum, prior = tree.child_visits[b, node], tree.child_value_sum[b, node], tree.prior[b, node]
    total = 0
    for a in range(mask.shape[0]):
        total += visits[a]
    root_total = math.sqrt(total + 1)
    best, best_score = -1, -np.inf
    for a in range(mask.shape[0]):
        if mask[a] != 0:
            q = value_sum[a] / visits[a] if visits[a] > 0 else tree.raw_value[b, node] - fpu
            score = q + c_puct * prior[a] * root_total / (1 + visits[a])
            if best < 0 or score > best_score:
                best, best_score = a, score
    return best


@kernel
def backup(tree, b, node, value):
    """Back ``value`` (for ``node``'s mover) up to the root: each edge from its own node's mover."""
    player = tree.player[b, node]
    while node != 0:
        parent = tree.parent[b, node]
        a = tree.parent_action[b, node]
        tree.child_visits[b, parent, a] += 1
        tree.child_value_sum[b, parent, a] += value if tree.player[b, parent] == player else -value
        node = parent


# --- one simulation round ----------------------------------------------------------------------------
# Each parallel kernel below runs one function per tree (``*_tree``): numba (0.68) drops writes made
# through a named tuple's arrays directly in a prange body, but keeps those made in a called function.
@kernel
def descend_tree(game, params, arrays, move_number, max_moves, tree, rule, c_puct, fpu, tables, leaf_obs,
                 leaf_mask, leaf_node, scratch, b):
    nodes = tree.player.shape[1]
    simulation = tree.simulation[b]
    if simulation == ROOT_PENDING:  # the root's own evaluation is in this round's batch
        return
    leaf_node[b] = NO_NODE
    if simulation >= tree.budget[b] or tree.over[b, 0]:
        return
    tree.simulation[b] += 1
    base = b * nodes
    node = 0
    for _ in range(nodes):  # (a path is never longer than the tree has nodes)
        if tree.over[b, node]:
            backup(tree, b, node, tree.raw_value[b, node])
            break
        mask = arrays[1][base + node]
        if rule == PUCT:
            a = choose_puct(tree, b, node, mask, c_puct, fpu)
        elif node == 0:
            a = choose_root_gumbel(tree, b, mask, scratch[b], tables[tree.table[b], tree.considered[b], simulation])
        else:
            a = choose_interior_gumbel(tree, b, node, mask, scratch[b])
        child = tree.children[b, node, a]
        if child != NO_NODE:
            node = child
            continue
        child = tree.num_nodes[b]
        tree.num_nodes[b] += 1
        for i in range(tree.children.shape[2]):
            tree.children[b, child, i] = NO_NODE
            tree.child_visits[b, child, i] = 0
            tree.child_value_sum[b, child, i] = 0.0
        tree.children[b, node, a] = child
        tree.parent[b, child] = node
        tree.parent_action[b, child] = a
        copy_rows(arrays, base + node, base + child)
        move_number[base + child] = move_number[base + node] + 1
        g = game_at(arrays, base + child)
        head = game.act(g, a, params)
        s = g[2]
        tree.player[b, child] = s[TO_MOVE] ^ s[FLIP]
        if head_over(head):
            winner = winner_player(head_winner(head), head_flip(head))
            tree.over[b, child] = True
            tree.raw_value[b, child] = 0.0 if winner < 0 else (1.0 if winner == tree.player[b, child] else -1.0)
        elif move_number[base + child] >= max_moves:
            tree.over[b, child] = True
            tree.raw_value[b, child] = 0.0
        else:
            tree.over[b, child] = False
        if tree.over[b, child]:
            backup(tree, b, child, tree.raw_value[b, child])
        else:
            game.observe_mover(g, s[TO_MOVE], params, leaf_obs[b])
            leaf_mask[b, :] = g[1]
            leaf_node[b] = child
        break


@kernel(parallel=True)
def descend(game, params, arrays, move_number, max_moves, tree, rule, c_puct, fpu, tables, leaf_obs, leaf_mask,
            leaf_node, scratch):
    """Every tree with ``simulation[b] < budget[b]`` walks from its root to a new node (module
    docstring, step 1) and counts the simulation. ``leaf_node[b]``: the node the network must
    evaluate, or ``NO_NODE``; a tree whose root waits for the network keeps its root there.
    ``tables[tree.table[b]]``: the halving table of tree ``b``'s budget."""
    for b in prange(tree.num_nodes.shape[0]):
        descend_tree(game, params, arrays, move_number, max_moves, tree, rule, c_puct, fpu, tables, leaf_obs,
                     leaf_mask, leaf_node, scratch, b)


@kernel
def expand_and_backup_tree(tree, leaf_node, priors, values, b):
    node = leaf_node[b]
    if node == NO_NODE:
        return
    tree.prior[b, node, :] = priors[b]
    tree.raw_value[b, node] = values[b]
    if node == 0:
        tree.simulation[b] = 0  # the root evaluated: its search starts
        for a in range(priors.shape[1]):
            p = priors[b, a]
            tree.root_logits[b, a] = tree.gumbel[b, a] + (np.log(p) if p > 0 else -1e9)
    backup(tree, b, node, values[b])


@kernel(parallel=True)
def expand_and_backup(tree, leaf_node, priors, values):
    """Store each evaluated leaf's priors and value and back the value up (module docstring, step 3)."""
    for b in prange(leaf_node.shape[0]):
        expand_and_backup_tree(tree, leaf_node, priors, values, b)


# --- roots and results -------------------------------------------------------------------------------
@kernel
def start_search_tree(game, params, arrays, move_number, max_moves, tree, streams, max_considered, gumbel_scale,
                      leaf_obs, leaf_mask, leaf_node, b):
    nodes = tree.player.shape[1]
    tree.num_nodes[b] = 1
    tree.simulation[b] = 0
    g = game_at(arrays, b * nodes)
    s, mask = g[2], g[1]
    tree.player[b, 0] = s[TO_MOVE] ^ s[FLIP]
    legal = 0
    for a in range(mask.shape[0]):
        tree.children[b, 0, a] = NO_NODE
        tree.child_visits[b, 0, a] = 0
        tree.child_value_sum[b, 0, a] = 0.0
        tree.prior[b, 0, a] = 0.0
        legal += mask[a] != 0
        # a standard Gumbel from 53 random bits (u in (0, 1))
        u = ((next_random(streams, b) >> np.uint64(11)) + np.float64(0.5)) / 9007199254740992.0
        tree.gumbel[b, a] = -np.log(-np.log(u)) * gumbel_scale
    tree.considered[b] = min(max_considered, legal)
    tree.over[b, 0] = legal == 0 or move_number[b * nodes] >= max_moves
    tree.raw_value[b, 0] = 0.0
    leaf_node[b] = NO_NODE
    if not tree.over[b, 0]:
        game.observe_mover(g, s[TO_MOVE], params, leaf_obs[b])
        leaf_mask[b, :] = mask
        leaf_node[b] = 0
        tree.simulation[b] = ROOT_PENDING


@kernel(parallel=True)
def start_search(game, params, arrays, move_number, max_moves, tree, streams, max_considered, gumbel_scale, leaf_obs,
                 leaf_mask, leaf_node, starting):
    """Every tree with ``starting[b]`` back to its root alone (row ``b * nodes`` holds the root's
    game): its children cleared, its Gumbel noise drawn from the tree's random stream, the number of
    actions sequential halving considers, and the root's observation and mask for the network
    (``leaf_node[b]`` 0 and ``simulation[b]`` ``ROOT_PENDING``; ``NO_NODE`` and 0 for a root whose
    game is over)."""
    for b in prange(tree.num_nodes.shape[0]):
        if starting[b]:
            start_search_tree(game, params, arrays, move_number, max_moves, tree, streams, max_considered,
                              gumbel_scale, leaf_obs, leaf_mask, leaf_node, b)


@kernel
def root_results_tree(arrays, tree, rule, scratch, policy, best, b):
    mask = arrays[1][b * tree.player.shape[1]]
    visits = tree.child_visits[b, 0]
    policy[b, :] = 0.0
    best[b] = -1
    if tree.over[b, 0]:
        return
    most, total = 0, 0
    for a in range(mask.shape[0]):
        most = max(most, visits[a])
        total += visits[a]
    if rule == GUMBEL:
        completed_q(tree, b, 0, mask, scratch[b])
        policy[b, :] = scratch[b]
        policy_from_sigma(tree.prior[b, 0], mask, policy[b])
        top = -np.inf
        for a in range(mask.shape[0]):
            if mask[a] != 0 and visits[a] == most:
                score = gumbel_score(tree, b, scratch[b], a)
                if best[b] < 0 or score > top:
                    best[b], top = a, score
    else:
        top = -1.0
        for a in range(mask.shape[0]):
            if mask[a] != 0:
                policy[b, a] = visits[a] / total if total > 0 else tree.prior[b, 0, a]
                if best[b] < 0 or visits[a] > visits[best[b]] or (
                        visits[a] == visits[best[b]] and tree.prior[b, 0, a] > top):
                    best[b], top = a, tree.prior[b, 0, a]


@kernel(parallel=True)
def root_results(arrays, tree, rule, scratch, policy, best, which):
    """For every tree with ``which[b]``: ``policy[b]`` the search's policy target at the root (Gumbel: the improved
    policy; PUCT: the visit distribution, the priors where nothing was visited) and ``best[b]`` the
    action the search picks (Gumbel: the best score among the most visited; PUCT: the most visited,
    ties to the prior); -1 where the root's game is over."""
    for b in prange(tree.num_nodes.shape[0]):
        if which[b]:
            root_results_tree(arrays, tree, rule, scratch, policy, best, b)


@kernel(parallel=True)
def play_roots(game, params, arrays, move_number, nodes, actions, over):
    """Play ``actions[b]`` in the root game of every tree (``SIT_OUT``: none; ``NEW_GAME``: start a
    new game, as the batch step takes them); ``over[b]``: whether that game is now over (the rules'
    end; the caller checks ``max_moves``)."""
    for b in prange(actions.shape[0]):
        if actions[b] == SIT_OUT:
            continue
        row = b * nodes
        g = game_at(arrays, row)
        if actions[b] == NEW_GAME:
            move_number[row] = 0
            head = game.new_game(g, params)
        else:
            move_number[row] += 1
            head = game.act(g, actions[b], params)
        over[b] = head_over(head)


# --- the Python driver ---------------------------------------------------------------------------------
Tree = namedtuple("Tree", ("num_nodes", "considered", "budget", "simulation", "table", "player", "over", "raw_value", "parent",
                           "parent_action", "children", "child_visits", "child_value_sum", "prior", "gumbel", "root_logits"))


def new_tree(trees: int, nodes: int, actions: int) -> Tree:
    """The arrays of ``trees`` trees of at most ``nodes`` nodes each over ``actions`` actions."""
    per_tree = lambda dtype: np.zeros(trees, dtype=dtype)  # noqa: E731
    per_node = lambda dtype: np.zeros((trees, nodes), dtype=dtype)  # noqa: E731
    per_edge = lambda dtype: np.zeros((trees, nodes, actions), dtype=dtype)  # noqa: E731
    return Tree(per_tree(np.int32), per_tree(np.int32), per_tree(np.int32), per_tree(np.int32), per_tree(np.int32),
                per_node(np.int8),
                per_node(np.bool_), per_node(np.float64), per_node(np.int32), per_node(np.int32),
                per_edge(np.int32), per_edge(np.int32), per_edge(np.float64), per_edge(np.float64),
                np.zeros((trees, actions), dtype=np.float64), np.zeros((trees, actions), dtype=np.float64))


class TreeSearch:
    """``trees`` trees of one game, each searched with at most ``simulations`` simulations.

    ``evaluate(planes, masks) -> (priors, values)``: the network on a batch of the mover's int8
    planes and masks, priors ``(n, A)`` summing to 1 over the legal actions and values ``(n,)`` for
    the mover. Each tree's root is a game held in the search's own rows (:meth:`load` a state,
    :meth:`new_games`, :meth:`play`); :meth:`run` searches them all and returns the policy targets
    and the chosen actions. ``seed`` seeds one random stream per tree (the Gumbel noise), which is
    multiplied by ``gumbel_scale``: 1 samples (self-play), 0 plays the best actions by prior and
    value (an agent that wants its strongest move, as mctx's ``gumbel_scale``)."""

    def __init__(self, game, trees: int, simulations: int, evaluate, rule: str = "gumbel", considered: int = 16,
                 c_puct: float = 1.5, fpu: float = 0.2, seed: int | None = None, gumbel_scale: float = 1.0):
        from territory_envs.vector import GameRows
        if rule not in RULES:
            raise ValueError(f"search rule={rule!r}: must be one of {', '.join(RULES)}")
        self.game, self.trees, self.simulations = game, int(trees), int(simulations)
        self.nodes = self.simulations + 1
        self.evaluate, self.rule = evaluate, RULES[rule]
        self.max_considered, self.c_puct, self.fpu = int(considered), float(c_puct), float(fpu)
        self.gumbel_scale = float(gumbel_scale)
        self.rows = GameRows(game, self.trees * self.nodes)
        a = game.num_actions
        self.tree = new_tree(self.trees, self.nodes, a)
        self.leaf_obs = np.zeros((self.trees, *game.obs_shape), dtype=np.int8)
        self.leaf_mask = np.zeros((self.trees, a), dtype=np.int8)
        self.leaf_node = np.full(self.trees, NO_NODE, dtype=np.int64)
        self.root_obs = np.zeros_like(self.leaf_obs)  # the roots' planes and masks of each tree's last start
        self.root_mask = np.zeros_like(self.leaf_mask)  # (what self-play records beside the policy)
        self.priors = np.zeros((self.trees, a), dtype=np.float64)
        self.values = np.zeros(self.trees, dtype=np.float64)
        self.scratch = np.zeros((self.trees, a), dtype=np.float64)
        self.policy = np.zeros((self.trees, a), dtype=np.float64)
        self.best = np.zeros(self.trees, dtype=np.int64)
        self.over = np.zeros(self.trees, dtype=np.bool_)
        self.streams = np.random.SeedSequence(seed).generate_state(self.trees, dtype=np.uint64)
        self.searching = np.zeros(self.trees, dtype=np.bool_)  # started and not yet done
        self.noise = np.zeros((self.trees, a), dtype=np.float64)  # root noise to mix once the root is evaluated
        self.noise_pending = np.zeros(self.trees, dtype=np.bool_)
        self.noise_fraction = np.zeros(self.trees, dtype=np.float64)
        self._tables = {}

    # --- the roots ---------------------------------------------------------------------------------
    def root_rows(self) -> np.ndarray:
        return np.arange(self.trees) * self.nodes

    def load(self, b: int, state) -> None:
        """``state`` (a ``GameState`` of this game) as tree ``b``'s root."""
        self.rows.load(b * self.nodes, state)

    def new_games(self, which=None) -> None:
        """New games at the roots of the trees ``which`` (all by default)."""
        actions = np.full(self.trees, SIT_OUT, dtype=np.int64)
        actions[slice(None) if which is None else which] = NEW_GAME
        self.play(actions)

    def play(self, actions) -> np.ndarray:
        """Play ``actions[b]`` at every root (``SIT_OUT``, -1: none). Returns whether each root's game is over
        (the rules' end or ``max_moves``), an array reused by the next call."""
        self.rows.make_room(1)
        play_roots(self.game.compiled, self.game.params, self.rows.arrays(), self.rows.move_number, self.nodes,
                   np.asarray(actions, dtype=np.int64), self.over)
        self.over |= self.rows.move_number[::self.nodes] >= self.game.max_moves
        return self.over

    def root_moves(self) -> np.ndarray:
        return self.rows.move_number[::self.nodes]

    def root_players(self) -> np.ndarray:
        s = self.rows.scalars[::self.nodes]
        return s[:, TO_MOVE] ^ s[:, FLIP]

    def root_sides(self) -> np.ndarray:
        return self.rows.scalars[::self.nodes, TO_MOVE]

    # --- the search --------------------------------------------------------------------------------
    def _table_index(self, budget: int) -> int:
        if budget not in self._tables:
            self._tables[budget] = len(self._tables)
            depth = max(b for b in self._tables) + 1
            self._stacked = np.zeros((len(self._tables), self.max_considered + 1, depth), dtype=np.int32)
            for size, k in self._tables.items():
                self._stacked[k, :, :size + 1] = halving_table(self.max_considered, size)
        return self._tables[budget]

    def start(self, which=None, budgets=None, root_noise=None, noise_fraction: float = 0.25) -> None:
        """Start a new search at the roots of the trees ``which`` (indices or a boolean mask; all by
        default), tree ``b`` with ``budgets[b]`` simulations (an array over all trees; default
        ``simulations``; 0 keeps the network's priors). ``root_noise`` ``(trees, A)`` is mixed into
        those roots' priors with ``noise_fraction`` once the network has evaluated them (PUCT's
        Dirichlet noise; Gumbel explores through its own noise). The roots are evaluated in the next
        :meth:`step`, beside the other trees' leaves."""
        starting = np.zeros(self.trees, dtype=np.bool_)
        starting[slice(None) if which is None else which] = True
        t = self.tree
        wanted = np.full(self.trees, self.simulations) if budgets is None else np.minimum(budgets, self.simulations)
        t.budget[starting] = wanted[starting]
        for budget in np.unique(t.budget[starting]):
            t.table[starting & (t.budget == budget)] = self._table_index(int(budget))
        self.rows.make_room(self.simulations + 1)
        g = self.game
        start_search(g.compiled, g.params, self.rows.arrays(), self.rows.move_number, g.max_moves, t, self.streams,
                     self.max_considered, self.gumbel_scale, self.leaf_obs, self.leaf_mask, self.leaf_node, starting)
        self.root_obs[starting] = self.leaf_obs[starting]
        self.root_mask[starting] = self.leaf_mask[starting]
        self.searching |= starting
        self.noise_pending[starting] = root_noise is not None
        if root_noise is not None:
            self.noise[starting] = root_noise[starting]
            self.noise_fraction[starting] = noise_fraction

    def step(self) -> np.ndarray:
        """One simulation round of every tree that is searching: each descends to a new leaf (a tree
        whose root waits for the network does not), the network evaluates the leaves and the new
        roots in one batch, the values are backed up. Returns the trees whose search ended in this
        round (their budget spent, or their root's game over): :meth:`results` gives their policy
        targets and actions, and they wait until started again."""
        t, g = self.tree, self.game
        descend(g.compiled, g.params, self.rows.arrays(), self.rows.move_number, g.max_moves, t, self.rule,
                self.c_puct, self.fpu, self._stacked, self.leaf_obs, self.leaf_mask, self.leaf_node, self.scratch)
        todo = np.flatnonzero(self.leaf_node != NO_NODE)
        if len(todo) == self.trees:  # every tree has a leaf: no gathering
            self.priors[:], self.values[:] = self.evaluate(self.leaf_obs, self.leaf_mask)
        elif len(todo):
            priors, values = self.evaluate(self.leaf_obs[todo], self.leaf_mask[todo])
            self.priors[todo] = priors
            self.values[todo] = values
        expand_and_backup(t, self.leaf_node, self.priors, self.values)
        noisy = np.flatnonzero(self.noise_pending & (self.leaf_node == 0))
        if len(noisy):
            self._mix_noise(noisy)
        done = self.searching & ((t.simulation >= t.budget) | t.over[:, 0])
        self.searching &= ~done
        return np.flatnonzero(done)

    def _mix_noise(self, trees: np.ndarray) -> None:
        t, fraction = self.tree, self.noise_fraction[trees, None]
        legal = self.rows.mask[trees * self.nodes] != 0
        mixed = (1 - fraction) * t.prior[trees, 0] + fraction * np.where(legal, self.noise[trees], 0.0)
        t.prior[trees, 0] = mixed / np.maximum(mixed.sum(1, keepdims=True), 1e-30)
        self.noise_pending[trees] = False

    def results(self, which=None):
        """``(policy, best)`` of the trees ``which`` (all by default): the policy targets ``(trees, A)``
        and the chosen actions ``(trees,)`` (-1 for a root whose game is over), in arrays reused by
        the next call (rows of the other trees unchanged)."""
        chosen = np.zeros(self.trees, dtype=np.bool_)
        chosen[slice(None) if which is None else which] = True
        root_results(self.rows.arrays(), self.tree, self.rule, self.scratch, self.policy, self.best, chosen)
        return self.policy, self.best

    def run(self, budgets=None, root_noise=None, noise_fraction: float = 0.25):
        """Search every tree to its budget (:meth:`start` with these arguments, then :meth:`step`
        until all are done) and return :meth:`results`."""
        self.start(None, budgets, root_noise, noise_fraction)
        while self.searching.any():
            self.step()
        return self.results()
