"""A training run's strength over time, in Elo against a fixed ladder of agents.

::

    python -m benchmarks.training_curve runs/lin-v2 \
        --anchors benchmarks/arena/lin-linage-asli-200-per-pair/results.json \
        --ladder mcts:64,mcts:256 --games 20 --png docs/images/training-lin.png

Each checkpoint the run kept (``ckpt_<iteration>.pt``, one per evaluation) plays ``--games`` games
against each agent of ``--ladder`` (both sides equally, each pair of games opening with two shared
random moves, over ``--workers`` spawned processes of one thread each), as the network with search
(``az:<ckpt>``, 64 simulations) and alone (``az:<ckpt>:sims=0``). The ladder agents' ratings are
fixed at those of the arena's ``results.json`` for the run's game (``--anchors``), and each
checkpoint gets the one rating that makes its results most likely against them (Bradley-Terry on
the Elo scale) with a 95% interval. Unlike the trainer's chain of checkpoint against previous
checkpoint, the scale does not drift: a later network is rated against the same agents as the
first. Prints a table and draws the ratings over the run's training minutes and over its positions
(``--png``). The rows are kept in the run's ``ladder_curve.json``; a checkpoint already rated
there against the same ladder, anchors and number of games is not played again, so a run continued
with ``--resume`` plays only its new checkpoints (the games are seeded by their index alone).
"""
from __future__ import annotations

import argparse
import json
import math
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from multiprocessing import get_context
from pathlib import Path

from agents.az import checkpoint
from agents.threads import start_worker

ELO = 400 / math.log(10)  # Elo points per nat of log-odds


def _play(task):
    game_name, options, a, b, index = task
    from agents import make_agent, play_game
    from territory_envs import make_game
    agents = (make_agent(a, seed=2 * index), make_agent(b, seed=2 * index + 1))
    result = play_game(make_game(game_name, **options), agents, swap_sides=bool(index % 2), seed=index // 2,
                       opening=2)
    return 1.0 if result.winner == 0 else 0.5 if result.winner < 0 else 0.0


def rating_against(results: list[tuple[float, float, int]]) -> tuple[float, float, float]:
    """The Elo rating that makes ``results`` (``(opponent rating, score, games)``) most likely,
    with its 95% interval (Fisher information), found by Newton steps on the log-likelihood. A
    clean sweep is kept finite by half a virtual draw against each opponent."""
    data = [(r, (s + 0.25) / (n + 0.5), n + 0.5) for r, s, n in results]
    x = sum(r for r, _, _ in data) / len(data)
    for _ in range(100):
        grad = hess = 0.0
        for r, rate, n in data:
            p = 1 / (1 + math.exp(-(x - r) / ELO))
            grad += n * (rate - p) / ELO
            hess += n * p * (1 - p) / ELO ** 2
        step = grad / hess
        x += max(-200.0, min(200.0, step))
        if abs(step) < 1e-6:
            break
    se = 1 / math.sqrt(hess)
    return x, x - 1.96 * se, x + 1.96 * se


class InProcess:
    """``--workers 1``: the games are played in this process, on the threads it has."""

    @staticmethod
    def map(function, tasks):
        return map(function, tasks)


def _rated_before(path: Path, ladder: list, anchors: dict, games: int) -> dict:
    """``{(checkpoint file, iteration, positions): row}`` from an earlier curve of the same run
    against the same ladder, anchors and number of games; empty otherwise."""
    if not path.is_file():
        return {}
    saved = json.loads(path.read_text())
    if saved.get("ladder") != ladder or saved.get("anchors") != anchors or saved.get("games") != games:
        return {}
    return {(row["checkpoint"], row["iteration"], row["positions"]): row for row in saved["rows"]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", help="a training run's folder")
    parser.add_argument("--anchors", required=True, help="an arena results.json rating the ladder on the run's game")
    parser.add_argument("--ladder", default="mcts:64,mcts:256")
    parser.add_argument("--games", type=int, default=40, help="games per checkpoint, kind and ladder agent (even)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--png", help="draw the curves into this file")
    args = parser.parse_args(argv)
    run = Path(args.run)
    points = sorted(run.glob("ckpt_*.pt"))
    if not points:
        parser.error(f"{run}: no checkpoints (ckpt_<iteration>.pt)")
    first = checkpoint.load(points[0])
    game_name, options = first["game"], first["options"]
    anchors = json.loads(Path(args.anchors).read_text())["ratings"][game_name]["agents"]
    ladder = [spec.strip() for spec in args.ladder.split(",")]
    elapsed = {}
    for line in (run / "metrics.jsonl").read_text().splitlines():
        record = json.loads(line)
        elapsed[record["iteration"]] = record["elapsed"] / 60
    anchor_values = {s: anchors[s]["value"] for s in ladder}
    rated = _rated_before(run / "ladder_curve.json", ladder, anchor_values, args.games)
    rows = []
    named = ", ".join(f"{s} ({anchors[s]['value']:+.0f})" for s in ladder)
    print(f"{run}: {game_name} {options}; ladder {named}; "
          f"{args.games} games per checkpoint, kind and ladder agent\n")
    print("| checkpoint | minutes | positions | " + " | ".join(f"{kind} vs {s}" for kind in ("az", "net") for s in ladder)
          + " | az Elo [95%] | net alone Elo [95%] |")
    print("|---" * (5 + 2 * len(ladder)) + "|")
    with (ProcessPoolExecutor(args.workers, mp_context=get_context("spawn"), initializer=start_worker,
                              initargs=(1,)) if args.workers > 1 else nullcontext(InProcess())) as pool:
        for path in points:
            data = checkpoint.load(path)
            row = {"checkpoint": path.name, "iteration": data["iteration"], "positions": data["positions"],
                   "minutes": elapsed.get(data["iteration"], float("nan"))}
            before = rated.get((path.name, data["iteration"], data["positions"]))
            for kind, spec in (("az", f"az:{path}"), ("net", f"az:{path}:sims=0")):
                if before is not None:
                    row[kind] = tuple(before[kind])
                    row.update({f"{kind} vs {opponent}": before[f"{kind} vs {opponent}"] for opponent in ladder})
                    continue
                results = []
                for opponent in ladder:
                    tasks = [(game_name, options, spec, opponent, i) for i in range(args.games)]
                    score = sum(pool.map(_play, tasks))
                    row[f"{kind} vs {opponent}"] = score / args.games
                    results.append((anchors[opponent]["value"], score, args.games))
                row[kind] = rating_against(results)
            rows.append(row)
            print(f"| {path.name} | {row['minutes']:.0f} | {row['positions']:,} | "
                  + " | ".join(f"{row[f'{kind} vs {s}']:.2f}" for kind in ("az", "net") for s in ladder)
                  + " | " + " | ".join(f"{row[k][0]:+.0f} [{row[k][1]:+.0f}, {row[k][2]:+.0f}]" for k in ("az", "net"))
                  + " |", flush=True)
    (run / "ladder_curve.json").write_text(json.dumps({"ladder": ladder, "anchors": anchor_values,
                                                       "games": args.games, "rows": rows}, indent=1))
    if args.png:
        plot(rows, ladder, {s: anchors[s]["value"] for s in ladder}, f"{game_name} ({run.name})", args.png)
    return 0


def plot(rows: list[dict], ladder: list[str], anchors: dict, title: str, png) -> None:
    from matplotlib.figure import Figure
    fig = Figure(figsize=(11, 4))
    axes = fig.subplots(1, 2, sharey=True)
    for ax, key, label in ((axes[0], "minutes", "training minutes (2 cores)"), (axes[1], "positions",
                                                                                "training positions")):
        for kind, name in (("az", "network + 64 simulations"), ("net", "network alone")):
            xs = [r[key] for r in rows]
            ys = [r[kind][0] for r in rows]
            err = [[r[kind][0] - r[kind][1] for r in rows], [r[kind][2] - r[kind][0] for r in rows]]
            ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=name)
        for spec, value in anchors.items():
            ax.axhline(value, color="gray", linestyle="--", linewidth=0.8)
            ax.text(ax.get_xlim()[0], value, f" {spec}", va="bottom", fontsize=8, color="gray")
        ax.set_xlabel(label)
    axes[0].set_ylabel("Elo against the fixed ladder")
    axes[0].legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    Path(png).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=100)


if __name__ == "__main__":
    raise SystemExit(main())
