"""Self-play speed of the AlphaZero trainer, and where its time goes.

::

    python -m benchmarks.selfplay_speed                # every game at its default size, default config
    python -m benchmarks.selfplay_speed lin --games 16
    python -m benchmarks.selfplay_speed --search python,gumbel,puct   # a row per game and search
    python -m benchmarks.selfplay_speed lin --search gumbel --device cuda --in-flight 256,1024,4096

One self-play worker in this process, one thread (as each worker process of ``territory-train``
runs), a network of the default size with random weights (speed does not depend on the weights
much; game lengths do, a little). It plays ``--games`` games and reports moves and recorded
positions per second, and the share of the time spent outside the network's forward passes (the
tree, the game, building the batches). Learning is timed apart: one optimiser step on a batch of
the default size (forward and backward). ``--device`` puts the network on a GPU (the search stays
on the CPU) and ``--in-flight`` gives a row per number of games in flight (each row plays at least
that many games), the table of moves per second against the network's batch.
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
from agents.az.network import pick_device
from agents.az.selfplay import SelfPlayWorker, state_dict_cpu


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
        if out[0].is_cuda:  # the GPU's work, not only its launch
            torch.cuda.synchronize()
        self.seconds += time.perf_counter() - start
        self.calls += 1
        return out


def measure(name: str, games: int, search: str, device: str = "cpu", in_flight: int = 0) -> dict:
    config = TrainConfig(game=name)
    game = config.make_game()
    torch.manual_seed(0)
    worker = SelfPlayWorker(game, config.net, replace(config.selfplay, search=search, games_in_flight=in_flight),
                            device)
    games = max(games, worker.games_in_flight)
    worker.set_weights(state_dict_cpu(PolicyValueNet(game, config.net)))
    worker.play_games([[9, 9]])  # compile the game's kernels, warm torch
    timed = TimedNet(worker.search.net)
    worker.search.net = timed
    start = time.perf_counter()
    samples, stats = worker.play_games([[0, i] for i in range(games)])
    total = time.perf_counter() - start
    # one learning step on a batch of the default size, on the same device
    net = PolicyValueNet(game, config.net).to(worker.device)
    optimizer = torch.optim.AdamW(net.parameters(), lr=config.learning_rate)
    buffer = ReplayBuffer(game, len(samples))
    buffer.add(samples)
    rng = np.random.default_rng(0)
    steps, learn_start = 5, time.perf_counter()
    for _ in range(steps):
        batch = buffer.sample(config.batch_size, rng)
        planes, masks, policies, values = (torch.from_numpy(a).to(worker.device) for a in
                                           (batch.planes, batch.masks, batch.policies, batch.values))
        logits, value = net(planes, masks)
        loss = -(policies * torch.log_softmax(logits, 1).clamp_min(-1e4)).sum(1).mean() \
            + torch.nn.functional.mse_loss(value, values)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    if worker.device.type == "cuda":
        torch.cuda.synchronize()
    learn = (time.perf_counter() - learn_start) / steps
    return {"game": name, "in flight": worker.games_in_flight, "moves/s": stats["moves"] / total,
            "positions/s": stats["positions"] / total,
            "outside network": 1 - timed.seconds / total, "evals": timed.calls,
            "learn step (s)": learn, "seconds": total}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("games", nargs="*", default=["lin", "linage", "lifeline", "asli"])
    parser.add_argument("--games", dest="count", type=int, default=32)
    parser.add_argument("--search", default="python", help="comma-separated: python, gumbel, puct")
    parser.add_argument("--device", default="cpu", help="the network's device: cpu, cuda, mps, auto")
    parser.add_argument("--in-flight", default="0", help="comma-separated games in flight (0: the device's default)")
    args = parser.parse_args()
    torch.set_num_threads(1)
    numba.set_num_threads(1)
    config = TrainConfig()
    device = pick_device(args.device)
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else device.type
    print(f"self-play, one worker, one thread ({os.cpu_count()} cores here), network on {name}; network "
          f"{config.net}; {config.selfplay.full_simulations}/{config.selfplay.fast_simulations} simulations, "
          f"at least {args.count} games a row\n")
    print("| game | search | games in flight | moves/s | positions/s | time outside the network | forward passes | "
          f"learn step, batch {config.batch_size} (s) |")
    print("|---|---|---|---|---|---|---|---|")
    for game_name in args.games:
        for search in args.search.split(","):
            for in_flight in (int(n) for n in args.in_flight.split(",")):
                r = measure(game_name, args.count, search, args.device, in_flight)
                print(f"| {game_name} | {search} | {r['in flight']} | {r['moves/s']:.0f} | {r['positions/s']:.1f} | "
                      f"{r['outside network']:.0%} | {r['evals']} | {r['learn step (s)']:.3f} |", flush=True)


if __name__ == "__main__":
    main()
