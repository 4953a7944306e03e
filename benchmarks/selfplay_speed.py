"""Self-play speed of the AlphaZero trainer, and where its time goes.

::

    python -m benchmarks.selfplay_speed                # every game at its default size, default config
    python -m benchmarks.selfplay_speed lin --games 16
    python -m benchmarks.selfplay_speed --search python,gumbel,puct   # a row per game and search

One self-play worker in this process, one thread (as each worker process of ``territory-train``
runs), a network of the default size with random weights (speed does not depend on the weights
much; game lengths do, a little). It plays ``--games`` games and reports moves and recorded
positions per second, and the share of the time spent outside the network's forward passes (the
tree, the game, building the batches). Learning is timed apart: one optimiser step on a batch of
the default size (forward and backward).
"""
from __future__ import annotations

import argparse
import os
import time
from dataclasses import replace

import numba
import numpy as np
import torch

from agents.az.config import TrainConfig
from agents.az.network import PolicyValueNet
from agents.az.replay import ReplayBuffer
from agents.az.selfplay import SelfPlayWorker, games_in_flight, state_dict_cpu


class TimedNet(torch.nn.Module):
    """Wraps a network and adds up the seconds of its forward passes."""

    def __init__(self, net):
        super().__init__()
        self.net = net
        self.seconds = 0.0
        self.calls = 0

    def forward(self, *args):
        start = time.perf_counter()
        out = self.net(*args)
        self.seconds += time.perf_counter() - start
        self.calls += 1
        return out


def measure(name: str, games: int, search: str) -> dict:
    config = TrainConfig(game=name)
    game = config.make_game()
    torch.manual_seed(0)
    worker = SelfPlayWorker(game, config.net, replace(config.selfplay, search=search))
    worker.set_weights(state_dict_cpu(PolicyValueNet(game, config.net)))
    worker.play_games([[9, 9]])  # compile the game's kernels, warm torch
    timed = TimedNet(worker.search.net)
    worker.search.net = timed
    start = time.perf_counter()
    samples, stats = worker.play_games([[0, i] for i in range(games)])
    total = time.perf_counter() - start
    # one learning step on a batch of the default size
    net = PolicyValueNet(game, config.net)
    optimizer = torch.optim.AdamW(net.parameters(), lr=config.learning_rate)
    buffer = ReplayBuffer(game, len(samples))
    buffer.add(samples)
    rng = np.random.default_rng(0)
    steps, learn_start = 5, time.perf_counter()
    for _ in range(steps):
        batch = buffer.sample(config.batch_size, rng)
        logits, value = net(torch.from_numpy(batch.planes), torch.from_numpy(batch.masks))
        loss = -(torch.from_numpy(batch.policies) * torch.log_softmax(logits, 1).clamp_min(-1e4)).sum(1).mean() \
            + torch.nn.functional.mse_loss(value, torch.from_numpy(batch.values))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    learn = (time.perf_counter() - learn_start) / steps
    return {"game": name, "moves/s": stats["moves"] / total, "positions/s": stats["positions"] / total,
            "outside network": 1 - timed.seconds / total, "evals": timed.calls,
            "learn step (s)": learn, "seconds": total}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("games", nargs="*", default=["lin", "linage", "lifeline", "asli"])
    parser.add_argument("--games", dest="count", type=int, default=32)
    parser.add_argument("--search", default="python", help="comma-separated: python, gumbel, puct")
    args = parser.parse_args()
    torch.set_num_threads(1)
    numba.set_num_threads(1)
    config = TrainConfig()
    print(f"self-play, one worker, one thread ({os.cpu_count()} cores here); network {config.net}; "
          f"{games_in_flight(config.selfplay, torch.device('cpu'))} games in flight, {config.selfplay.full_simulations}/"
          f"{config.selfplay.fast_simulations} simulations, {args.count} games\n")
    print("| game | search | moves/s | positions/s | time outside the network | forward passes | learn step, "
          f"batch {config.batch_size} (s) |")
    print("|---|---|---|---|---|---|---|")
    for name in args.games:
        for search in args.search.split(","):
            r = measure(name, args.count, search)
            print(f"| {name} | {search} | {r['moves/s']:.0f} | {r['positions/s']:.1f} | {r['outside network']:.0%} | "
                  f"{r['evals']} | {r['learn step (s)']:.3f} |", flush=True)


if __name__ == "__main__":
    main()
