"""Self-play: many games in flight, searched in batches, played to the end.

:class:`SelfPlayWorker` is a plain object (a game, a network, a random generator) that a process
pool or a Ray actor can hold: ``set_weights`` then ``play_games`` returns the positions and their
training targets. Playout-cap randomisation (KataGo): a move gets the full search with probability
``full_fraction`` and becomes a training position, with noise at the root and its visit
distribution as the policy target; the other moves get a cheap search without noise, only to play
well enough, and are not recorded. Every recorded position's value target is the game's result for
its mover (0 for a draw or a game cut at ``max_moves``); its auxiliary targets are who holds each
cell when the game ended (``GameDeclaration.ownership``) and the final score margin over the number
of points, both for its mover.
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass

import numpy as np
import torch

from territory_envs.core.batch import SIT_OUT
from territory_envs.core.compiled import game_at
from territory_envs.core.declaration import declared
from territory_envs.core.evaluation import Positions, positions_of
from territory_envs.core.fields import FLIP, TERMINAL, WINNER
from territory_envs.core.kernels import winner_player

from ..threads import current_threads, start_worker
from .network import NetConfig, PolicyValueNet, evaluate, fused_for_inference, pick_device
from .search import BatchedSearch, Node
from .tree_search import TreeSearch


@dataclass(frozen=True)
class SelfPlayConfig:
    games_in_flight: int = 0  # games searched together (the network's batch); 0: 32 on a CPU, 1024 on a GPU
    full_simulations: int = 64
    fast_simulations: int = 16
    full_fraction: float = 0.25  # share of moves searched fully and recorded
    c_puct: float = 1.5
    fpu_reduction: float = 0.2
    dirichlet_alpha: float = 0.0  # 0: 10 / (number of points), as AlphaZero's 0.03 for 361 points
    dirichlet_fraction: float = 0.25
    temperature_moves: int = 0  # moves played by visit counts before the best one; 0: points / 4
    temperature: float = 1.0
    # "gumbel" or "puct": the compiled batched search (tree_search.py), Gumbel considering at most
    # `considered` actions at the root; "python": the tree of state objects (search.py, PUCT)
    search: str = "gumbel"
    considered: int = 16

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass
class Samples:
    """Training positions: the mover's planes and mask, the policy and value targets, and the
    auxiliary targets (who holds each cell at the end, the final score margin), all for the mover."""
    planes: np.ndarray  # int8 (N, H, W, C)
    masks: np.ndarray  # int8 (N, A)
    policies: np.ndarray  # float32 (N, A)
    values: np.ndarray  # float32 (N,)
    owners: np.ndarray  # int8 (N, H*W): +1 the mover holds the cell at the end, -1 the opponent, 0 nobody
    margins: np.ndarray  # float32 (N,): the mover's final points minus the opponent's, over the points

    FIELDS = ("planes", "masks", "policies", "values", "owners", "margins")

    def __len__(self) -> int:
        return len(self.values)

    @staticmethod
    def empty(game) -> "Samples":
        h, w, c = game.obs_shape
        return Samples(np.zeros((0, h, w, c), np.int8), np.zeros((0, game.num_actions), np.int8),
                       np.zeros((0, game.num_actions), np.float32), np.zeros(0, np.float32),
                       np.zeros((0, h * w), np.int8), np.zeros(0, np.float32))

    @staticmethod
    def concatenate(parts: list["Samples"], game) -> "Samples":
        if not parts:
            return Samples.empty(game)
        return Samples(*(np.concatenate([getattr(p, f) for p in parts]) for f in Samples.FIELDS))


class _Game:
    """One game in flight: its search tree, its own random stream, the positions it recorded."""

    def __init__(self, state, rng: np.random.Generator):
        self.root = Node(state)
        self.rng = rng
        self.records = []  # (planes, mask, policy, player)
        self.index = 0  # its place among the games of the call
        self.full = False  # is the current move searched fully


def games_in_flight(config: SelfPlayConfig, device: torch.device) -> int:
    """``config.games_in_flight``, or where it is 0 (auto) enough for the device: 32 on a CPU (a
    batch that one thread runs at full speed), 1024 on a GPU (batches of thousands of leaves keep
    it busy)."""
    return config.games_in_flight or (32 if device.type == "cpu" else 1024)


class SelfPlayWorker:
    """``device``: where the network runs its forward passes (``auto``, ``cpu``, ``cuda``, ``mps``:
    :func:`~agents.az.network.pick_device`); the search runs on the CPU either way."""

    def __init__(self, game, net_config: NetConfig, config: SelfPlayConfig, device: str = "cpu"):
        self.game = game
        self.device = pick_device(device)
        self.games_in_flight = games_in_flight(config, self.device)
        self.config = config
        self.net = PolicyValueNet(game, net_config)
        self.net.eval()
        self.search = BatchedSearch(self._inference_net(), config.c_puct, config.fpu_reduction)
        points = game.geometry.num_points
        self.alpha = config.dirichlet_alpha or 10.0 / points
        self.temperature_moves = config.temperature_moves or max(1, points // 4)

    def _inference_net(self):
        return fused_for_inference(self.net).to(self.device)

    def set_weights(self, state_dict: dict) -> None:
        self.net.load_state_dict(state_dict)
        self.search.net = self._inference_net()

    def play_games(self, seeds: list) -> tuple[Samples, dict]:
        """Play one whole game per entry of ``seeds`` (each seeds the game's own random stream, so
        a game does not depend on which worker plays it beside which others), ``games_in_flight``
        at a time. Returns the recorded positions, in the order of ``seeds``, and statistics
        (games, moves, positions, seconds, results)."""
        if self.config.search != "python":
            return self._play_compiled(seeds)
        cfg, start = self.config, time.perf_counter()
        parts, stats = {}, {"games": 0, "moves": 0, "positions": 0, "first_side_wins": 0, "draws": 0,
                            "truncated": 0}
        todo = list(enumerate(seeds))[::-1]
        live: list[_Game] = []
        while todo or live:
            while todo and len(live) < self.games_in_flight:
                index, seed = todo.pop()
                live.append(_Game(self.game.new_state(), np.random.default_rng(seed)))
                live[-1].index = index
            self._move(live)
            for g in [g for g in live if self._finished(g.root.state)]:
                live.remove(g)
                parts[g.index] = self._targets(g)
                state = g.root.state
                self._count(stats, state.move_number, state.terminal, state.winner)
        samples = Samples.concatenate([parts[i] for i in sorted(parts)], self.game)
        stats["positions"] = len(samples)
        stats["seconds"] = time.perf_counter() - start
        return samples, stats

    def _finished(self, state) -> bool:
        return state.over

    def _move(self, live: list[_Game]) -> None:
        """One move in every live game: search (full or fast), record, play."""
        cfg = self.config
        roots = [g.root for g in live]
        self.search.expand_roots(roots)
        sims = []
        for g in live:
            g.full = bool(g.rng.random() < cfg.full_fraction)
            if g.full:
                self.search.add_noise(g.root, g.rng, self.alpha, cfg.dirichlet_fraction)
            sims.append(max(0, (cfg.full_simulations if g.full else cfg.fast_simulations) - g.root.total_visits()))
        self.search.run(roots, sims)
        for g in live:
            root = g.root
            if g.full:
                g.records.append((root.state.observation(root.player), root.state.legal_mask(),
                                  self.search.policy(root, self.game.num_actions), root.player,
                                  root.state.to_move))
            temperature = cfg.temperature if root.state.move_number < self.temperature_moves else 0.0
            action = self.search.choose(root, g.rng, temperature)
            g.root = self.search.advance(root, action)

    def _targets(self, g: _Game) -> Samples:
        state = g.root.state
        scores = state.scores()
        margin = 0.0 if scores is None else float(scores[0] - scores[1])
        owners = self.game.declaration.cell_owners(positions_of(state), self.game)[0]
        return self._samples(g.records, state.returns(), owners, margin)

    def _samples(self, records: list, returns, owners: np.ndarray, margin: float) -> Samples:
        """A finished game's recorded positions ``(planes, mask, policy, player, side)`` with their
        targets: ``returns`` per player (zeros for a draw or a game cut at ``max_moves``), and the
        end's ``owners`` and score ``margin`` as the first side sees them, turned to each mover's."""
        if not records:
            return Samples.empty(self.game)
        planes, masks, policies, players, sides = zip(*records)
        sign = np.where(np.array(sides) == 0, 1, -1).astype(np.int8)
        return Samples(np.stack(planes), np.stack(masks), np.stack(policies),
                       np.array([returns[p] for p in players], dtype=np.float32),
                       sign[:, None] * owners.astype(np.int8)[None, :],
                       (sign * margin / self.game.geometry.num_points).astype(np.float32))

    # --- the compiled search ----------------------------------------------------------------------
    def _play_compiled(self, seeds: list) -> tuple[Samples, dict]:
        """``play_games`` on the compiled search: the games live in the search's root rows, one per
        tree, each tree searching on its own clock (a fast search's move does not wait for a full
        one's), and a finished game's tree takes the next seed at once. A game's moves depend only
        on its seed (its generator and its tree's Gumbel stream are seeded by it when it takes a
        tree) and the network. Gumbel plays the search's choice (its noise explores); PUCT samples
        the visits for the first ``temperature_moves`` moves."""
        cfg, start, game = self.config, time.perf_counter(), self.game
        trees = min(self.games_in_flight, max(1, len(seeds)))
        search = TreeSearch(game, trees, max(cfg.full_simulations, cfg.fast_simulations),
                            lambda planes, masks: evaluate(self.search.net, planes, masks), rule=cfg.search,
                            considered=cfg.considered, c_puct=cfg.c_puct, fpu=cfg.fpu_reduction)
        parts, stats = {}, {"games": 0, "moves": 0, "positions": 0, "first_side_wins": 0, "draws": 0,
                            "truncated": 0}
        todo = list(enumerate(seeds))[::-1]
        slots: list = [None] * trees  # the game in each tree: (index, generator, records)
        a = game.num_actions
        noise = np.zeros((trees, a))
        budgets = np.zeros(trees, dtype=np.int64)
        full = np.zeros(trees, dtype=bool)
        actions = np.full(trees, SIT_OUT, dtype=np.int64)

        def take_games(free: list) -> list:
            """The next seeds' games in the trees ``free`` (as many as are left)."""
            taken = free[:len(todo)]
            for b in taken:
                index, seed = todo.pop()
                slots[b] = (index, np.random.default_rng(seed), [])
                search.streams[b] = np.random.SeedSequence(seed).generate_state(1, dtype=np.uint64)[0]
            if taken:
                search.new_games(taken)
            return taken

        def start_moves(which: list) -> None:
            """Each game in ``which`` draws whether its move is searched fully and starts searching."""
            for b in which:
                full[b] = slots[b][1].random() < cfg.full_fraction
                budgets[b] = cfg.full_simulations if full[b] else cfg.fast_simulations
            noisy = [b for b in which if full[b]] if cfg.search == "puct" else []
            for b in noisy:
                legal = np.flatnonzero(search.rows.mask[b * search.nodes])
                noise[b] = 0.0
                noise[b, legal] = slots[b][1].dirichlet(np.full(len(legal), self.alpha))
            if noisy:
                search.start(noisy, budgets, noise, cfg.dirichlet_fraction)
            quiet = [b for b in which if b not in noisy]
            if quiet:
                search.start(quiet, budgets)

        start_moves(take_games(list(range(trees))))
        while search.searching.any():
            done = search.step()
            if not len(done):
                continue
            policy, best = search.results(done)
            players, moves, sides = search.root_players(), search.root_moves(), search.root_sides()
            actions[:] = SIT_OUT
            for b in done:
                index, rng, records = slots[b]
                if full[b]:
                    records.append((search.root_obs[b].copy(), search.root_mask[b].copy(),
                                    policy[b].astype(np.float32), int(players[b]), int(sides[b])))
                actions[b] = best[b]
                if cfg.search == "puct" and moves[b] < self.temperature_moves and cfg.temperature > 0:
                    weights = policy[b] ** (1.0 / cfg.temperature)
                    actions[b] = rng.choice(a, p=weights / weights.sum())
            over = search.play(actions)
            going, freed = [], []
            for b in done:
                if over[b]:
                    parts[slots[b][0]] = self._finish_compiled(search, b, slots[b][2], stats)
                    slots[b] = None
                    freed.append(b)
                else:
                    going.append(b)
            going += take_games(freed)
            if going:
                start_moves(going)
        samples = Samples.concatenate([parts[i] for i in sorted(parts)], game)
        stats["positions"] = len(samples)
        stats["seconds"] = time.perf_counter() - start
        return samples, stats

    def _finish_compiled(self, search, b: int, records: list, stats: dict) -> Samples:
        """The targets of the game that ended in tree ``b``, and its count in ``stats``."""
        row = b * search.nodes
        s = search.rows.scalars[row]
        terminal, winner = bool(s[TERMINAL]), int(s[WINNER])
        returns = np.zeros(2, dtype=np.float32)
        if terminal and winner >= 0:
            player = winner_player(winner, int(s[FLIP]))
            returns[player], returns[1 - player] = 1.0, -1.0
        self._count(stats, int(search.rows.move_number[row]), terminal, winner)
        game = self.game
        first, second = game.compiled.final_scores(game_at(search.rows.arrays(), row), game.params)
        owners = game.declaration.cell_owners(Positions(search.rows, rows=[row]), game)[0]
        return self._samples(records, returns, owners, first - second)

    @staticmethod
    def _count(stats: dict, moves: int, terminal: bool, winner: int) -> None:
        """A finished game of ``moves`` moves in ``stats`` (``winner``: a side, -1 for none)."""
        stats["games"] += 1
        stats["moves"] += moves
        if not terminal:
            stats["truncated"] += 1
        elif winner < 0:
            stats["draws"] += 1
        elif winner == 0:  # side 0 moved first
            stats["first_side_wins"] += 1


def state_dict_cpu(net: torch.nn.Module) -> dict:
    """A copy of ``net``'s weights on the CPU, wherever it lives: what workers and checkpoints take."""
    return {k: v.detach().to("cpu", copy=True) for k, v in net.state_dict().items()}


# --- worker processes ------------------------------------------------------------------------------
_PROCESS_WORKER = None


def _init_process(declaration, game_name: str, options: dict, net_config: dict, config: dict, device: str) -> None:
    """Initialiser of a self-play process: one thread for torch and numba and the game registered
    (agents/threads.py), one worker."""
    global _PROCESS_WORKER
    from territory_envs import make_game
    start_worker(1, (declaration,))
    _PROCESS_WORKER = SelfPlayWorker(make_game(game_name, **options), NetConfig(**net_config),
                                     SelfPlayConfig(**config), device)


def _play_in_process(weights: dict, seeds: list) -> tuple[Samples, dict]:
    _PROCESS_WORKER.set_weights(weights)
    return _PROCESS_WORKER.play_games(seeds)


class ProcessSelfPlay:
    """``workers`` self-play processes on this machine (spawned, one thread each); ``play(weights,
    chunks)`` plays one chunk of seeds per process and returns the results in the order of
    ``chunks``. :class:`agents.az.ray_pool.RaySelfPlay` is the same on a Ray cluster."""

    def __init__(self, workers: int, game_name: str, options: dict, net_config: dict, selfplay_config: dict,
                 device: str = "cpu"):
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        self.executor = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                            initializer=_init_process,
                                            initargs=(declared(game_name), game_name, options, net_config,
                                                      selfplay_config, device))

    def play(self, weights: dict, chunks: list) -> list:
        futures = [self.executor.submit(_play_in_process, weights, chunk) for chunk in chunks]
        return [f.result() for f in futures]

    def threads(self) -> dict:
        """The threads torch and numba run on in a worker process (``current_threads``)."""
        return self.executor.submit(current_threads).result()

    def shutdown(self) -> None:
        self.executor.shutdown()
