"""benchmarks/training_curve.py: a run's checkpoints rated against a fixed ladder; a checkpoint
rated before (same ladder, anchors and games) is not played again, so a resumed run's curve plays
only its new checkpoints."""
import dataclasses
import json

import torch

from agents.az import checkpoint
from agents.az.network import NetConfig, PolicyValueNet
from benchmarks import training_curve
from territory_envs import make_game

OPTIONS = {"board_size": 5, "line_length": 3}
NET = NetConfig(channels=8, blocks=1, value_hidden=16)


def _checkpoint(run, iteration, seed):
    torch.manual_seed(seed)
    net = PolicyValueNet(make_game("lin", **OPTIONS), NET)
    checkpoint.save(run / f"ckpt_{iteration:05d}.pt", {
        "game": "lin", "options": OPTIONS, "net": dataclasses.asdict(NET), "model": net.state_dict(),
        "step": iteration, "iteration": iteration, "positions": 100 * iteration})


def _curve(run, tmp_path):
    anchors = tmp_path / "anchors.json"
    anchors.write_text(json.dumps({"ratings": {"lin": {"agents": {"random": {"value": -300.0},
                                                                  "greedy": {"value": 100.0}}}}}))
    assert training_curve.main([str(run), "--anchors", str(anchors), "--ladder", "random,greedy",
                                "--games", "2", "--workers", "1"]) == 0
    return {row["checkpoint"]: row for row in json.loads((run / "ladder_curve.json").read_text())["rows"]}


def test_checkpoints_rated_before_are_not_played_again(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / "metrics.jsonl").write_text("".join(json.dumps({"iteration": i, "elapsed": 60.0 * i}) + "\n"
                                               for i in (1, 2)))
    _checkpoint(run, 1, seed=0)
    first = _curve(run, tmp_path)
    assert set(first) == {"ckpt_00001.pt"} and first["ckpt_00001.pt"]["minutes"] == 1.0

    # mark the saved row: only a row taken over unplayed keeps the mark
    saved = json.loads((run / "ladder_curve.json").read_text())
    saved["rows"][0]["az vs random"] = 0.123
    (run / "ladder_curve.json").write_text(json.dumps(saved))
    _checkpoint(run, 2, seed=1)
    second = _curve(run, tmp_path)
    assert second["ckpt_00001.pt"]["az vs random"] == 0.123
    assert second["ckpt_00002.pt"]["az vs random"] in (0.0, 0.25, 0.5, 0.75, 1.0)

    # another ladder, other anchors or another number of games: every checkpoint is played again
    curve, ladder = run / "ladder_curve.json", ["random", "greedy"]
    anchors = {"random": -300.0, "greedy": 100.0}
    assert len(training_curve._rated_before(curve, ladder, anchors, 2)) == 2
    assert training_curve._rated_before(curve, ladder, anchors, 4) == {}
    assert training_curve._rated_before(curve, ladder[:1], anchors, 2) == {}
    assert training_curve._rated_before(curve, ladder, {**anchors, "greedy": 0.0}, 2) == {}
