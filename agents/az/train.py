"""The self-play trainer: ``territory-train --game lin --minutes 20 --out runs/lin``.

An iteration plays ``games_per_iteration`` whole games with the current network
(:class:`~agents.az.selfplay.SelfPlayWorker`), adds their positions to the replay buffer, and takes
enough optimiser steps for each new position to be drawn ``train_ratio`` times on average (each
drawn under a random board symmetry). Every ``eval_every`` iterations the network is evaluated,
alone and with search, both sides equally, against ``eval_opponents`` and against the previous
evaluated checkpoint, which chains an Elo over the run. Iterations end at a game boundary, so a
checkpoint holds everything: ``--resume`` goes on bit for bit as if the run had not stopped.

The run folder holds ``config.toml`` (the effective config), ``metrics.jsonl`` (one JSON object per
iteration and per evaluation), ``latest.pt`` and ``replay.npz`` (what resuming needs),
``ckpt_<iteration>.pt`` at each evaluation, and ``curves.png`` at the end.

``--init`` starts a new run from a trained network's weights (a shipped version, a checkpoint or a
run folder) with a fresh optimiser and an empty replay buffer: how a shipped network is trained on
when its run folder is gone. The network's shape, game and options are the checkpoint's.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
import textwrap
import time
from dataclasses import asdict
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from . import SEARCHES, checkpoint
from .agent import pretrained_path, resolve
from .config import TrainConfig, has_points, read_toml, to_toml
from .network import DEVICES, NetConfig, PolicyValueNet, pick_device
from .replay import ReplayBuffer
from .ray_pool import RaySelfPlay
from .._cli import defaults_text
from ..threads import set_threads
from .selfplay import ProcessSelfPlay, Samples, SelfPlayConfig, SelfPlayWorker, state_dict_cpu


class Trainer:
    def __init__(self, config: TrainConfig, out, resume: bool = False):
        self.config = config = config.checked()
        self.out = Path(out)
        self.game = config.make_game()
        set_threads(config.threads)
        torch.manual_seed(config.seed)
        self.device = pick_device(config.device)
        self.net = PolicyValueNet(self.game, config.net).to(self.device)
        self.optimizer = torch.optim.AdamW(self.net.parameters(), lr=config.learning_rate,
                                           weight_decay=config.weight_decay)
        self.buffer = ReplayBuffer(self.game, config.replay_capacity)
        self.has_points = has_points(self.game)  # else no score-margin target
        self.rng = np.random.default_rng([config.seed, 1])  # batches and symmetries
        self.worker = SelfPlayWorker(self.game, config.net, config.selfplay, config.device)
        self.pool = None  # the self-play processes or Ray actors, started on first use when config.workers > 0
        self.iteration = 0
        self.steps = 0
        self.elapsed = 0.0  # seconds of training, over all resumes
        self.chain_elo = 0.0  # Elo of the latest evaluated checkpoint, the first one at 0
        self.previous = None  # path of the previous evaluated checkpoint
        self.last_evaluation = 0.0  # self.elapsed when the latest evaluation ended
        self.iteration_in_process = False  # whether this process has played an iteration already
        if resume:
            self._restore()
        elif config.init:
            self._start_from(config.init)
        self.out.mkdir(parents=True, exist_ok=True)
        (self.out / "config.toml").write_text(to_toml(config.to_dict()))

    # --- the loop ---------------------------------------------------------------------------------
    def run(self, progress: bool = True, tensorboard: bool = False) -> None:
        cfg = self.config
        bar = progress_bar(progress)
        board = tensorboard_writer(self.out, tensorboard)
        while not self._finished():
            start = time.perf_counter()
            bar.status(self._self_play_status())
            record = self.iterate()
            if self._evaluation_due(time.perf_counter() - start):
                bar.status(f"iteration {self.iteration}: evaluating")
                record["evaluation"] = self.evaluate()
            self.elapsed += time.perf_counter() - start
            record["elapsed"] = self.elapsed
            if "evaluation" in record:
                self.last_evaluation = self.elapsed
            self._log(record, board)
            self._save()
            bar.update(record)
        bar.close()
        self.close()
        if board is not None:
            board.close()
        plot_curves(self.out / "metrics.jsonl", self.out / "curves.png", cfg)

    def _finished(self, elapsed: float | None = None) -> bool:
        """Whether the run stops here: its minutes spent (over all resumes) or its iterations done."""
        cfg = self.config
        elapsed = self.elapsed if elapsed is None else elapsed
        return elapsed >= cfg.minutes * 60 or bool(cfg.iterations and self.iteration >= cfg.iterations)

    def _evaluation_due(self, iteration_seconds: float) -> bool:
        """After an iteration of ``iteration_seconds``: every ``eval_every`` iterations, every
        ``eval_minutes`` of training, and at the end of the run (so that a short run is evaluated
        once); never with ``eval_every = 0``."""
        cfg = self.config
        if not cfg.eval_every:
            return False
        now = self.elapsed + iteration_seconds
        return (self.iteration % cfg.eval_every == 0 or self._finished(now)
                or bool(cfg.eval_minutes and now - self.last_evaluation >= cfg.eval_minutes * 60))

    def _self_play_status(self) -> str:
        if not self.iteration_in_process:  # the first iteration of a process waits for more than its games
            return (f"iteration {self.iteration + 1}: self-play (the first also starts the workers and compiles "
                    f"the game's kernels when numba's cache lacks them)")
        return f"iteration {self.iteration + 1}: self-play"

    def iterate(self) -> dict:
        cfg = self.config
        samples, stats = self.self_play()
        self.iteration_in_process = True
        self.buffer.add(samples)
        learn_start = time.perf_counter()
        steps = math.ceil(len(samples) * cfg.train_ratio / cfg.batch_size) if len(self.buffer) >= cfg.batch_size else 0
        losses = [self.learn_step() for _ in range(steps)]
        self.iteration += 1
        mean = {k: float(np.mean([l[k] for l in losses])) for k in losses[0]} if losses else {}
        return {"kind": "iteration", "iteration": self.iteration, "steps": self.steps,
                "games": stats["games"], "moves": stats["moves"], "positions": stats["positions"],
                "buffer": len(self.buffer), "selfplay_seconds": stats["seconds"],
                "learn_seconds": time.perf_counter() - learn_start,
                "positions_per_second": stats["positions"] / max(stats["seconds"], 1e-9),
                "moves_per_second": stats["moves"] / max(stats["seconds"], 1e-9),
                "first_side_wins": stats["first_side_wins"], "draws": stats["draws"],
                "truncated": stats["truncated"], **mean}

    def self_play(self):
        """This iteration's games, each seeded by (seed, iteration, game): in this process, or split
        over ``workers`` processes or Ray actors (the same games either way)."""
        cfg = self.config
        seeds = [[cfg.seed, self.iteration, i] for i in range(cfg.games_in_iteration())]
        weights = state_dict_cpu(self.net)
        if not cfg.workers:
            self.worker.set_weights(weights)
            threads = torch.get_num_threads()
            torch.set_num_threads(1)  # small batches: one thread is faster than two
            try:
                return self.worker.play_games(seeds)
            finally:
                torch.set_num_threads(threads)
        if self.pool is None:
            args = (cfg.workers, self.game.name, self.game.options, asdict(cfg.net), cfg.selfplay.to_dict())
            # Ray actors run their network on their own machine's CPU; local processes on the device
            self.pool = RaySelfPlay(cfg.ray_address, *args) if cfg.ray_address else ProcessSelfPlay(*args, cfg.device)
        size = -(-len(seeds) // cfg.workers)
        chunks = [seeds[k:k + size] for k in range(0, len(seeds), size)]  # in order, so samples are too
        results = self.pool.play(weights, chunks)
        samples = Samples.concatenate([r[0] for r in results], self.game)
        stats = {k: sum(r[1][k] for r in results) for k in results[0][1] if k != "seconds"}
        stats["seconds"] = max(r[1]["seconds"] for r in results)
        return samples, stats

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()
            self.pool = None

    def learn_step(self) -> dict:
        cfg = self.config
        batch = self.buffer.sample(cfg.batch_size, self.rng)
        self.net.train()
        planes, masks, target, values = (torch.from_numpy(a).to(self.device) for a in
                                         (batch.planes, batch.masks, batch.policies, batch.values))
        aux = {}
        if cfg.net.aux_heads:
            logits, value, owners, score = self.net(planes, masks, aux=True)
            on = self.net.on_board.flatten(1)  # (1, H*W): off-board cells of a hexhex grid own nothing
            owner_target = torch.from_numpy(batch.owners).to(self.device).float()
            aux["ownership_loss"] = (((owners - owner_target) ** 2) * on).sum(1).mean() / on.sum()
            if self.has_points:
                aux["score_loss"] = F.mse_loss(score, torch.from_numpy(batch.margins).to(self.device))
        else:
            logits, value = self.net(planes, masks)
        log_p = torch.log_softmax(logits, 1).masked_fill(masks == 0, 0.0)
        policy_loss = -(target * log_p).sum(1).mean()
        value_loss = F.mse_loss(value, values)
        loss = policy_loss + value_loss
        if aux:
            loss = loss + cfg.ownership_weight * aux["ownership_loss"] + cfg.score_weight * aux.get("score_loss", 0.0)
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        self.optimizer.step()
        self.net.eval()
        self.steps += 1
        with torch.no_grad():
            p = torch.softmax(logits, 1)
            entropy = -(p * log_p).sum(1).mean()
        return {"loss": loss.item(), "policy_loss": policy_loss.item(), "value_loss": value_loss.item(),
                "policy_entropy": entropy.item(), **{k: v.item() for k, v in aux.items()}}

    # --- evaluation --------------------------------------------------------------------------------
    def evaluate(self) -> dict:
        from ..match import play_game
        from ..registry import make_agent
        from ..stats import wilson_interval
        from .agent import AZAgent
        cfg = self.config
        path = self.out / f"ckpt_{self.iteration:05d}.pt"
        checkpoint.save(path, self._network_data())
        results = {}
        kinds = [("net", 0), ("search", cfg.eval_simulations)] if cfg.eval_simulations else [("net", 0)]
        games_dir = self.out / "games"
        games_dir.mkdir(exist_ok=True)
        eval_seed = cfg.seed * 1_000_003 + self.iteration
        for kind, sims in kinds:
            me = AZAgent(path, sims=sims, seed=0)
            opponents = [(spec, make_agent(spec, seed=1)) for spec in cfg.opponents()]
            if self.previous is not None:
                opponents.append(("previous", AZAgent(self.previous, sims=sims, seed=1)))
            for spec, opponent in opponents:
                score = 0.0
                for i in range(cfg.eval_games):
                    result = play_game(self.game, (me, opponent), swap_sides=bool(i % 2), seed=eval_seed + i // 2,
                                       opening=cfg.eval_opening)
                    score += 1.0 if result.winner == 0 else 0.5 if result.winner < 0 else 0.0
                    # every evaluation game as a record, to replay (territory-web) or export
                    name = f"{path.stem}_{kind}_vs_{spec.replace(':', '-').replace('/', '-')}_{i:02d}.txt"
                    (games_dir / name).write_text(result.record)
                low, high = wilson_interval(score, cfg.eval_games)
                results[f"{kind}_vs_{spec}"] = {"score": score / cfg.eval_games, "low": low, "high": high,
                                                "games": cfg.eval_games, "elo": elo(score / cfg.eval_games, cfg.eval_games)}
        if self.previous is not None:
            self.chain_elo += results["net_vs_previous"]["elo"]
        self.previous = path
        return {"checkpoint": path.name, "chain_elo": self.chain_elo, **results}

    # --- checkpoints ---------------------------------------------------------------------------------
    def _network_data(self) -> dict:
        return {"game": self.game.name, "options": self.game.options, "net": self.net.describe(),
                "model": state_dict_cpu(self.net), "step": self.steps, "iteration": self.iteration,
                "positions": self.buffer.added}

    def _save(self) -> None:
        data = self._network_data()
        data.update({"optimizer": self.optimizer.state_dict(), "config": self.config.to_dict(),
                     "elapsed": self.elapsed, "chain_elo": self.chain_elo, "last_evaluation": self.last_evaluation,
                     "previous": None if self.previous is None else self.previous.name,
                     "rng": {"train": json.dumps(self.rng.bit_generator.state),
                             "torch": torch.get_rng_state(), "python": json.dumps(random.getstate())}})
        np.savez(self.out / "replay.tmp.npz", **self.buffer.state())
        Path(self.out / "replay.tmp.npz").replace(self.out / "replay.npz")
        checkpoint.save(self.out / "latest.pt", data)

    def _restore(self) -> None:
        data = checkpoint.load(self.out / "latest.pt")
        if "optimizer" not in data:
            raise checkpoint.CheckpointError(f"{self.out / 'latest.pt'}: not a run checkpoint (no optimiser state)")
        checkpoint.build_net(data, self.game, source=f"run {str(self.out)!r}")
        self.net.load_state_dict(data["model"])
        self.net.eval()
        self.optimizer.load_state_dict(data["optimizer"])
        with np.load(self.out / "replay.npz") as replay:
            self.buffer.load({k: replay[k] for k in replay.files})
        self.rng.bit_generator.state = json.loads(data["rng"]["train"])
        torch.set_rng_state(data["rng"]["torch"])
        state = json.loads(data["rng"]["python"])
        random.setstate((state[0], tuple(state[1]), state[2]))
        self.iteration, self.steps = int(data["iteration"]), int(data["step"])
        self.elapsed, self.chain_elo = float(data["elapsed"]), float(data["chain_elo"])
        self.last_evaluation = float(data.get("last_evaluation", 0.0))  # absent from runs saved before it existed
        self.previous = None if data["previous"] is None else self.out / data["previous"]

    def _start_from(self, source) -> None:
        data = checkpoint.load(source)
        checkpoint.build_net(data, self.game, source=f"--init {str(source)!r}")  # the same game and shape
        self.net.load_state_dict(data["model"])

    def _log(self, record: dict, board) -> None:
        with open(self.out / "metrics.jsonl", "a") as f:
            f.write(json.dumps(record) + "\n")
        if board is not None:
            for key, value in record.items():
                if isinstance(value, (int, float)) and key != "iteration":
                    board.add_scalar(key, value, self.iteration)
            for key, value in record.get("evaluation", {}).items():
                if isinstance(value, dict):
                    board.add_scalar(f"eval/{key}", value["score"], self.iteration)


def elo(score: float, games: int) -> float:
    """The Elo difference that a score rate means, kept finite (a half game away from 0 and 1)."""
    s = min(max(score, 0.5 / games), 1 - 0.5 / games)
    return 400 * math.log10(s / (1 - s))


# --- reporting ---------------------------------------------------------------------------------------
class _Bar:
    """The progress of a run: a bar of games played that says what the run is doing (tqdm), or,
    without it, a JSON line per iteration on stdout and the first status on stderr."""

    def __init__(self, enabled: bool):
        self.bar = None
        if enabled:
            try:
                from tqdm import tqdm
                self.bar = tqdm(unit=" games", dynamic_ncols=True)
            except ImportError:
                pass
        self.latest = ""
        self.told = False

    def status(self, text: str) -> None:
        """What the run does now, until the next update."""
        if self.bar is not None:
            self.bar.set_description_str(text)
        elif not self.told:
            print(f"territory-train: {text}", file=sys.stderr, flush=True)
            self.told = True

    def update(self, record: dict) -> None:
        if "evaluation" in record:
            ev = record["evaluation"]
            self.latest = " ".join(f"{k}={v['score']:.2f}" for k, v in ev.items() if isinstance(v, dict))
        if self.bar is not None:
            self.bar.update(record["games"])
            self.bar.set_postfix_str(f"it {record['iteration']} pos/s {record['positions_per_second']:.0f} "
                                     f"loss {record.get('loss', float('nan')):.3f} {self.latest}")
        else:
            print(json.dumps({k: v for k, v in record.items() if not isinstance(v, dict)}), flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def progress_bar(enabled: bool) -> _Bar:
    return _Bar(enabled)


def tensorboard_writer(out: Path, enabled: bool):
    if not enabled:
        return None
    try:
        from torch.utils.tensorboard import SummaryWriter
    except ImportError:
        print("territory-train: --tensorboard needs the tensorboard package (pip install tensorboard)",
              file=sys.stderr)
        return None
    return SummaryWriter(str(out / "tensorboard"))


def read_metrics(path) -> list[dict]:
    path = Path(path)
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def plot_curves(metrics_path, png_path, config: TrainConfig | None = None) -> bool:
    """Losses and Elo over training time, from ``metrics.jsonl`` (False without matplotlib). A panel
    with nothing to draw says what is absent and why (``config`` gives the settings it names)."""
    try:
        from matplotlib.figure import Figure  # no pyplot: the caller's backend (a notebook's) stays as it is
    except ImportError:
        return False
    rows = read_metrics(metrics_path)
    if not rows:
        return False
    minutes = [r["elapsed"] / 60 for r in rows]
    fig = Figure(figsize=(11, 4))
    left, right = fig.subplots(1, 2)
    for key in ("loss", "policy_loss", "value_loss", "ownership_loss", "score_loss"):
        points = [(m, r[key]) for m, r in zip(minutes, rows) if key in r]
        if points:
            left.plot(*zip(*points), label=key)
    left.set_xlabel("minutes")
    left.set_title("losses")
    if left.lines:
        left.legend()
    else:
        _say_absent(left, no_learning_why(rows, config))
    evals = [(m, r["evaluation"]) for m, r in zip(minutes, rows) if "evaluation" in r]
    if evals:
        names = sorted({k for _, e in evals for k, v in e.items() if isinstance(v, dict) and "previous" not in k})
        for name in names:
            pts = [(m, e[name]["elo"]) for m, e in evals if name in e]
            right.plot(*zip(*pts), marker="o", label=name.replace("_vs_", " vs "))
        right.plot([m for m, _ in evals], [e["chain_elo"] for _, e in evals], marker="s", color="black",
                   label="Elo over the run's checkpoints")
        right.legend(fontsize=8)
    else:
        _say_absent(right, no_evaluation_why(config))
    right.set_xlabel("minutes")
    right.set_title("Elo")
    fig.tight_layout()
    fig.savefig(png_path, dpi=100)
    return True


def no_learning_why(rows: list[dict], config: TrainConfig | None) -> str:
    """Why a run has no loss yet: learning starts once the replay buffer holds a batch."""
    held = rows[-1].get("buffer", 0)
    batch = f"batch_size = {config.batch_size}" if config is not None else "a batch"
    return f"no learning step yet: learning starts when the replay buffer holds {batch} positions (it holds {held})"


def no_evaluation_why(config: TrainConfig | None) -> str:
    """Why a run has no evaluation."""
    if config is not None and not config.eval_every:
        return "no evaluation: eval_every = 0 turns evaluation off"
    when = (f"every {config.eval_every} iterations, every {config.eval_minutes:g} minutes and at the end of a run"
            if config is not None else "at the end of a run")
    return f"no evaluation yet: the network is evaluated {when}; this run stopped before one"


def _say_absent(ax, text: str) -> None:
    ax.text(0.5, 0.5, textwrap.fill(text, 44), ha="center", va="center", transform=ax.transAxes, fontsize=9,
            color="dimgray")
    ax.set_xticks([])
    ax.set_yticks([])


# --- the command ---------------------------------------------------------------------------------------
def build_parser() -> argparse.ArgumentParser:
    d, sp = TrainConfig(), SelfPlayConfig()
    net = d.net
    p = argparse.ArgumentParser(
        prog="territory-train", description="AlphaZero self-play training on one game.",
        epilog="Settings come from the defaults, then --config or the resumed run's config.toml, then the flags.")
    p.add_argument("--game", metavar="GAME", help=f"lin, linage, lifeline or asli (default: {d.game})")
    p.add_argument("--config", metavar="FILE", help="a TOML file of settings, named as the flags (default: none)")
    p.add_argument("--out", metavar="FOLDER", help="the run folder (default: runs/<game>)")
    p.add_argument("--resume", metavar="FOLDER", help="continue the run in this folder where it stopped, with its "
                   "config.toml (default: start a new run)")
    p.add_argument("--init", metavar="SOURCE", help="start a new run from these weights: vN (version N of the "
                   "game's shipped network), a checkpoint or a run folder; the network's shape, game and options "
                   "are its own, the optimiser and replay buffer new (default: a new network)")
    p.add_argument("--minutes", type=float, metavar="MINUTES",
                   help=f"training time in minutes, self-play, learning and evaluation, summed over the run and "
                        f"its resumes: resuming a run of 20 with --minutes 40 trains 20 more (default: {d.minutes:g})")
    p.add_argument("--iterations", type=int, metavar="N",
                   help=f"also stop after N iterations in all, over resumes (default: {d.iterations}, no limit)")
    p.add_argument("--seed", type=int, metavar="N", help=f"seeds the network, the games and the batches "
                   f"(default: {d.seed})")
    p.add_argument("--device", metavar="DEVICE",
                   help=f"where the network learns and evaluates self-play's positions: {', '.join(DEVICES)} or "
                        f"cuda:N; auto takes a GPU where torch sees one (then 1024 games in flight per worker and "
                        f"an iteration of one batch each, unless set); the search runs on the CPU "
                        f"(default: {d.device})")
    p.add_argument("--threads", type=int, metavar="N", help=f"torch's and numba's threads in the learner, which "
                   f"also evaluates (default: {d.threads}; each self-play worker runs on one)")
    p.add_argument("--workers", type=int, metavar="N", help=f"self-play processes, or Ray actors with "
                   f"--ray-address; 0: self-play in the learner's process (default: {d.workers})")
    p.add_argument("--ray-address", metavar="ADDRESS", help="self-play on Ray actors: 'auto' (a running cluster), "
                   "HOST:PORT, ray://HOST:10001 or 'local' (default: none, processes on this machine)")
    game_options = (("board-size", "SIZE", "points per side (hexhex: cells per side)"),
                    ("line-length", "POINTS", "the line length"), ("komi", "POINTS", "komi"),
                    ("pie", "PIE", "strong, weak or komi"), ("max-moves", "MOVES", "a game is cut off after it"))
    for name, word, meaning in game_options:
        dest = name.replace("-", "_")
        p.add_argument(f"--{name}", dest=f"option_{dest}", metavar=word,
                       help=f"game option: {meaning} (default: {defaults_text(dest)})")
    p.add_argument("--games-per-iteration", type=int, metavar="GAMES",
                   help="self-play games per iteration (default: 0, which is 32 on a CPU and every worker's games in "
                        "flight on a GPU)")
    p.add_argument("--games-in-flight", type=int, metavar="GAMES",
                   help="games each self-play worker searches together, the network's batch (default: 0, which is "
                        "32 on a CPU and 1024 on a GPU)")
    p.add_argument("--batch-size", type=int, metavar="POSITIONS",
                   help=f"positions per learning step (default: {d.batch_size})")
    p.add_argument("--search", choices=SEARCHES, metavar="SEARCH",
                   help=f"self-play's tree search: python (PUCT over state objects), gumbel or puct (the compiled "
                        f"batched search) (default: {sp.search})")
    p.add_argument("--simulations", type=int, metavar="N",
                   help=f"search simulations of a recorded move (default: {sp.full_simulations}; the other moves "
                        f"get {sp.fast_simulations})")
    p.add_argument("--channels", type=int, metavar="N", help=f"the network's channels (default: {net.channels})")
    p.add_argument("--blocks", type=int, metavar="N", help=f"the network's residual blocks (default: {net.blocks})")
    p.add_argument("--aux-heads", action=argparse.BooleanOptionalAction, default=None,
                   help="train KataGo's ownership and score-margin heads beside the policy and value, as "
                        "auxiliary targets (net.aux_heads; default: on for the games with points, Lin and Linage, "
                        "off for the others, as the ablation of BENCHMARKS.md suggests)")
    p.add_argument("--eval-every", type=int, metavar="ITERATIONS",
                   help=f"iterations between evaluations; 0: never evaluate (default: {d.eval_every})")
    p.add_argument("--eval-minutes", type=float, metavar="MINUTES",
                   help=f"also evaluate after this many minutes of training since the last evaluation; 0: by "
                        f"iterations only; a run also evaluates at its end, unless --eval-every is 0 "
                        f"(default: {d.eval_minutes:g})")
    p.add_argument("--eval-games", type=int, metavar="GAMES",
                   help=f"games per opponent and kind (network alone, with search) (default: {d.eval_games})")
    p.add_argument("--eval-opponents", metavar="SPECS",
                   help=f"comma-separated agent specs evaluated against (default: {d.eval_opponents})")
    p.add_argument("--tensorboard", action="store_true", help="also log to TensorBoard in FOLDER/tensorboard "
                   "(default: off)")
    p.add_argument("--no-progress", action="store_true", help="print a JSON line per iteration instead of a "
                   "progress bar (default: the bar)")
    return p


def _option_value(text: str):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def config_from_args(args) -> TrainConfig:
    if args.resume and args.init:
        raise ValueError("--init starts a new run and --resume goes on with one: give one of them")
    data = {}
    if args.resume:
        data = read_toml(Path(args.resume) / "config.toml")
        data.setdefault("net", {}).setdefault("aux_heads", False)  # a run written before the heads existed has none
    if args.config:
        data.update(read_toml(args.config))
    flat = {"game": args.game, "minutes": args.minutes, "iterations": args.iterations, "seed": args.seed,
            "device": args.device, "threads": args.threads, "workers": args.workers, "ray_address": args.ray_address, "games_per_iteration": args.games_per_iteration,
            "batch_size": args.batch_size, "eval_every": args.eval_every, "eval_minutes": args.eval_minutes,
            "eval_games": args.eval_games,
            "eval_opponents": args.eval_opponents}
    data.update({k: v for k, v in flat.items() if v is not None})
    options = dict(data.get("options", {}))
    for key, value in vars(args).items():
        if key.startswith("option_") and value is not None:
            options[key[len("option_"):]] = _option_value(value)
    data["options"] = options
    net = dict(data.get("net", {}))
    for key in ("channels", "blocks"):
        if getattr(args, key) is not None:
            net[key] = getattr(args, key)
    if args.aux_heads is not None:
        net["aux_heads"] = args.aux_heads
    data["net"] = net
    selfplay = dict(data.get("selfplay", {}))
    if args.simulations is not None:
        selfplay["full_simulations"] = args.simulations
    if args.search is not None:
        selfplay["search"] = args.search
    if args.games_in_flight is not None:
        selfplay["games_in_flight"] = args.games_in_flight
    data["selfplay"] = selfplay
    if args.init:
        data = with_init(data, args.init, shape_flags=[f"--{k}" for k in ("channels", "blocks")
                                                       if getattr(args, k) is not None]
                         + ([] if args.aux_heads is None else ["--aux-heads"]))
    return TrainConfig.from_dict(data)


def init_checkpoint(source: str, game_name: str) -> Path:
    """The checkpoint file that ``--init source`` names: ``vN``, version N of ``game_name``'s shipped
    network, or a checkpoint file or run folder."""
    if re.fullmatch(r"v\d+", source):
        return pretrained_path(game_name, int(source[1:]))
    return resolve(source)


def with_init(data: dict, source: str, shape_flags=()) -> dict:
    """The settings ``data`` of a run started from ``source``'s weights: its game, options and network
    shape are the checkpoint's; ``ValueError`` where the settings name others."""
    if shape_flags:
        raise ValueError(f"--init takes the network's shape from its checkpoint: drop {', '.join(shape_flags)}")
    game_name = data.get("game", TrainConfig.game)
    path = init_checkpoint(source, game_name)
    trained = checkpoint.load(path)
    options = data.get("options", {})
    if trained["game"] != game_name and "game" in data:
        raise ValueError(f"--init {source}: a {trained['game']} network, not {game_name}")
    clash = {k: v for k, v in options.items() if trained["options"].get(k, v) != v}
    if clash:
        given = ", ".join(f"{k}={v}" for k, v in clash.items())
        trained_with = ", ".join(f"{k}={trained['options'][k]}" for k in clash)
        raise ValueError(f"--init {source}: trained with {trained_with}, not {given}")
    return {**data, "init": str(path), "game": trained["game"], "options": dict(trained["options"]),
            "net": asdict(NetConfig(**trained["net"]))}


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        config = config_from_args(args)
        if args.resume:
            trainer = Trainer(config, args.resume, resume=True)
        else:
            out = Path(args.out or f"runs/{config.game}")
            if (out / "latest.pt").exists():
                parser.error(f"--out {str(out)!r} holds a run already; --resume it or choose another folder")
            trainer = Trainer(config, out)
    except ValueError as err:
        parser.error(str(err))
    trainer.run(progress=not args.no_progress, tensorboard=args.tensorboard)
    print(f"territory-train: {trainer.iteration} iterations, {trainer.buffer.added} positions, "
          f"{trainer.elapsed / 60:.1f} min; checkpoints in {trainer.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
