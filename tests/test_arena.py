"""The arena's statistics against known values, and the round robin end to end on small boards."""
import csv
import itertools
import json
import math

import numpy as np
import pytest

from agents import arena
from agents.base import Agent
from agents.stats import ELO_PER_NAT, bradley_terry, score_rate, wilson_interval
from territory_envs import read_record

SMALL = {"lin": {"board_size": 5, "line_length": 4}, "linage": {"board_size": 4},
         "lifeline": {"board_size": 3}, "asli": {"board_size": 4}}
LIN = {"lin": SMALL["lin"]}
SMALL_OPTIONS = [f"--option={game}.{key}={value}" for game, opts in SMALL.items()
                 for key, value in opts.items()]


# --- fake agents (module level, so that spawned workers can unpickle them) -----------------------

class FirstLegal(Agent):
    """Always the first legal action: deterministic and weak."""

    name = "first-legal"

    def act(self, state) -> int:
        return int(state.legal_actions()[0])


class OnePly(Agent):
    """Wins at once when it can, avoids losing at once, else takes the best score margin one move
    ahead (ties at random): clearly stronger than random on small boards."""

    name = "one-ply"

    def act(self, state) -> int:
        side = state.to_move
        best, best_value = [], -math.inf
        for action in map(int, state.legal_actions()):
            child = state.clone().apply(action)
            if child.terminal and child.winner == side:
                return action
            scores = child.scores()
            value = 0.0 if scores is None else scores[side] - scores[1 - side]
            if child.terminal and child.winner == 1 - side:
                value = -1e9
            if value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return best[self.rng.integers(len(best))]


# --- Wilson intervals -----------------------------------------------------------------------------

def test_wilson_interval_textbook_values():
    low, high = wilson_interval(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    # mirror symmetry, and draws as half wins fall in between
    low, high = wilson_interval(3, 17)
    assert wilson_interval(14, 17) == pytest.approx((1 - high, 1 - low))
    assert wilson_interval(7, 10)[0] < wilson_interval(7.5, 10)[0] < wilson_interval(8, 10)[0]
    assert score_rate(7.5, 10)["rate"] == 0.75
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


# --- Bradley-Terry --------------------------------------------------------------------------------

def test_two_agents_three_to_one_is_190_85_elo():
    n, p = 100, 0.75
    results = [(0, 1, 1.0)] * 75 + [(0, 1, 0.0)] * 25
    ratings = bradley_terry(["A", "B"], results, prior_draws=0)
    assert ratings.difference("A", "B").value == pytest.approx(400 * math.log10(3), abs=1e-9)
    assert ratings.elo == pytest.approx([95.4243, -95.4243], abs=1e-4)  # mean 0
    # observed information of the difference: n p (1 - p) in natural units
    assert ratings.difference("A", "B").se == pytest.approx(ELO_PER_NAT / math.sqrt(n * p * (1 - p)))
    assert ratings["A"].se == pytest.approx(ratings.difference("A", "B").se / 2)
    # draws count as half a win: 50 wins and 50 draws are a 75% score too
    with_draws = bradley_terry(["A", "B"], [(0, 1, 1.0)] * 50 + [(1, 0, 0.5)] * 50, prior_draws=0)
    assert with_draws.elo == pytest.approx(ratings.elo)
    # the default prior (one virtual draw each) is negligible over many games
    many = bradley_terry(["A", "B"], results * 40)
    assert many.difference("A", "B").value == pytest.approx(190.85, abs=0.5)


def test_perfect_separation_stays_finite_with_the_prior():
    results = [(0, 1, 1.0), (1, 0, 0.0)] * 5
    first = bradley_terry(["A", "B"], results)
    again = bradley_terry(["A", "B"], results)
    assert np.all(np.isfinite(first.elo)) and np.all(np.isfinite(first.se))
    assert first.elo[0] > 150 and np.array_equal(first.elo, again.elo)
    with pytest.raises(ValueError, match="prior_draws"):
        bradley_terry(["A", "B"], results, prior_draws=0)
    with pytest.raises(ValueError, match="not identified"):  # C never played
        bradley_terry(["A", "B", "C"], [(0, 1, 1.0), (1, 0, 1.0)], prior_draws=0)
    never_met = bradley_terry(["A", "B", "C"], [(0, 1, 1.0), (1, 0, 1.0)])
    assert never_met["C"].value == pytest.approx(0.0, abs=1e-9)


# scores of the row agent against the column agent: (games, score)
THREE = {(0, 1): (30, 20.0), (1, 2): (30, 17.5), (0, 2): (20, 15.0), (2, 0): (10, 4.0)}


def _three_results():
    results = []
    for (i, j), (games, score) in THREE.items():
        wins = int(score)
        results += [(i, j, 1.0)] * wins + [(i, j, 0.5)] * (score > wins) + [(i, j, 0.0)] * (
            games - wins - (score > wins))
    return results


def _log_likelihood(theta, prior):
    total = 0.0
    for (i, j), (games, score) in THREE.items():
        eta = theta[i] - theta[j]
        total += score * -np.logaddexp(0, -eta) + (games - score) * -np.logaddexp(0, eta)
    return total + sum(prior * -0.5 * (np.logaddexp(0, -t) + np.logaddexp(0, t)) for t in theta)


def _gradient_ascent(prior):
    theta = np.zeros(3)
    for _ in range(20000):
        grad = np.zeros(3)
        for (i, j), (games, score) in THREE.items():
            residual = score - games / (1 + np.exp(-(theta[i] - theta[j])))
            grad[i] += residual
            grad[j] -= residual
        grad += prior * (0.5 - 1 / (1 + np.exp(-theta)))
        theta += 0.02 * grad
    return theta


@pytest.mark.parametrize("prior", [0.0, 1.0])
def test_three_agents_match_a_brute_force_optimum(prior):
    ratings = bradley_terry("ABC", _three_results(), prior_draws=prior)
    theta = _gradient_ascent(prior)
    assert ratings.elo == pytest.approx(ELO_PER_NAT * (theta - theta.mean()), abs=1e-6)
    assert ratings.log_likelihood == pytest.approx(_log_likelihood(theta, prior), abs=1e-8)


def test_three_agents_intervals_match_a_numerical_hessian():
    """Independent of the pseudo-inverse: drop one parameter (t_C = -t_A - t_B), difference the
    log-likelihood twice, invert, map back to the mean-0 ratings."""
    ratings = bradley_terry("ABC", _three_results(), prior_draws=0)
    theta = ratings.elo / ELO_PER_NAT
    lift = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]])
    h = 1e-4
    hessian = np.zeros((2, 2))
    for a, b in itertools.product(range(2), repeat=2):
        def f(da, db):
            step = np.zeros(2)
            step[a] += da
            step[b] += db
            return _log_likelihood(theta + lift @ step, 0.0)
        hessian[a, b] = (f(h, h) - f(h, -h) - f(-h, h) + f(-h, -h)) / (4 * h * h)
    covariance = ELO_PER_NAT ** 2 * lift @ np.linalg.inv(-hessian) @ lift.T
    assert ratings.covariance == pytest.approx(covariance, rel=1e-4)


def test_first_side_advantage_in_a_saturated_model():
    # A scores 80% on the first side and 60% on the second: d + h = logit .8, -d + h = logit .4
    results = [(0, 1, 1.0)] * 8 + [(0, 1, 0.0)] * 2 + [(1, 0, 1.0)] * 4 + [(1, 0, 0.0)] * 6
    ratings = bradley_terry("AB", results, first_side_advantage=True, prior_draws=0)
    assert ratings.difference("A", "B").value == pytest.approx(200 * math.log10(6))
    assert ratings.first_side[None].value == pytest.approx(200 * math.log10(8 / 3))
    assert ratings.first_side[None].low < ratings.first_side[None].value < ratings.first_side[None].high
    # one side term per group: the second group's first side always scores one half
    grouped = [r + ("g1",) for r in results] + [(0, 1, 1.0, "g2"), (1, 0, 0.0, "g2")] * 5
    grouped_ratings = bradley_terry("AB", grouped, first_side_advantage=True, prior_draws=0)
    assert set(grouped_ratings.first_side) == {"g1", "g2"}
    assert grouped_ratings.first_side["g2"].value < grouped_ratings.first_side["g1"].value


def test_ratings_are_symmetric_and_ignore_result_order():
    results = _three_results()
    base = bradley_terry("ABC", results, first_side_advantage=True)
    shuffled = list(results)
    np.random.default_rng(1).shuffle(shuffled)
    assert bradley_terry("ABC", shuffled, first_side_advantage=True).elo == pytest.approx(base.elo, abs=1e-9)
    # renaming the agents permutes the ratings
    perm = [2, 0, 1]  # new index of A, B, C
    renamed = [(perm[i], perm[j], s) for i, j, s in results]
    permuted = bradley_terry(["B", "C", "A"], renamed, first_side_advantage=True)
    assert [permuted[n].value for n in "ABC"] == pytest.approx(list(base.elo), abs=1e-9)
    # every score flipped: ratings and side advantage change sign
    flipped = bradley_terry("ABC", [(i, j, 1 - s) for i, j, s in results], first_side_advantage=True)
    assert flipped.elo == pytest.approx(-base.elo, abs=1e-9)
    assert flipped.first_side[None].value == pytest.approx(-base.first_side[None].value, abs=1e-9)


def test_bad_results_are_refused():
    for bad in ([(0, 0, 1.0)], [(0, 2, 1.0)], [(0, 1, 1.5)], [(0, 1)]):
        with pytest.raises(ValueError):
            bradley_terry("AB", bad)


# --- the arena ------------------------------------------------------------------------------------

AGENTS = ["random", OnePly(), FirstLegal()]
GAMES_PER_PAIR = 4


@pytest.fixture(scope="module")
def serial(tmp_path_factory):
    out = tmp_path_factory.mktemp("serial")
    return out, arena.run_arena(list(SMALL), AGENTS, GAMES_PER_PAIR, seed=5, workers=1, options=SMALL,
                                out=out)


def test_arena_writes_every_file(serial):
    out, results = serial
    assert {p.name for p in out.iterdir()} == {"results.json", "games.csv", "ratings.csv",
                                              "ratings.png", "records"}
    with open(out / "games.csv") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(SMALL) * 3 * GAMES_PER_PAIR == len(list((out / "records").iterdir()))
    with open(out / "ratings.csv") as f:
        assert len(list(csv.DictReader(f))) == (len(SMALL) + 1) * 3
    saved = json.loads((out / "results.json").read_text())
    assert set(saved["ratings"]) == set(SMALL) | {"overall"}
    seeds = [game["seed"] for game in saved["games"]]
    assert seeds == [int(row["seed"]) for row in rows] and len(set(seeds)) == len(seeds)


def test_records_replay_to_the_reported_outcome(serial):
    out, results = serial
    for row in results["games"]:
        text = (out / row["record"]).read_text()
        state = read_record(text)
        players = [line.split(": ", 1)[1] for line in text.splitlines()
                   if line.startswith("# player_")]
        assert state.move_number == row["moves"] and state.game.name == row["game"]
        first = next(line for line in text.splitlines() if line.startswith("first_side:"))
        assert players[int(first[-1])] == row["first"]
        winner = players[state.winner ^ state.flip] if state.terminal and state.winner >= 0 else None
        assert winner == row["winner"]


def test_pairs_play_both_sides_equally_and_the_stronger_agent_leads(serial):
    _, results = serial
    for game in SMALL:
        for pair in results["pairs"][game]:
            a, b = pair["agents"]
            assert pair["by_side"][f"{a} first"]["games"] == pair["by_side"][f"{b} first"]["games"] \
                == GAMES_PER_PAIR // 2
            assert pair["wins"] + pair["draws"] + pair["losses"] == GAMES_PER_PAIR
    overall = results["ratings"]["overall"]["agents"]
    assert overall["one-ply"]["value"] > max(overall["random"]["value"], overall["first-legal"]["value"])
    assert sum(v["value"] for v in overall.values()) == pytest.approx(0.0, abs=1e-9)


def test_same_seed_same_results_with_two_workers_and_other_seeds_differ(serial, tmp_path):
    out, results = serial
    parallel = arena.run_arena(list(SMALL), AGENTS, GAMES_PER_PAIR, seed=5, workers=2, options=SMALL,
                               out=tmp_path / "parallel", plot=False)
    assert (tmp_path / "parallel" / "results.json").read_text() == (out / "results.json").read_text()
    assert (tmp_path / "parallel" / "games.csv").read_text() == (out / "games.csv").read_text()
    assert parallel["records"] == results["records"]

    other = arena.run_arena(list(SMALL), AGENTS, GAMES_PER_PAIR, seed=6, workers=1, options=SMALL)
    assert all(a["seed"] != b["seed"] for a, b in zip(other["games"], results["games"]))
    assert other["records"] != results["records"]


def test_a_pairs_games_do_not_depend_on_the_agent_order():
    forward = arena.run_arena(["lin"], ["random", FirstLegal()], 2, seed=3, workers=1, options=LIN)
    backward = arena.run_arena(["lin"], [FirstLegal(), "random"], 2, seed=3, workers=1, options=LIN)
    assert forward["records"] == backward["records"]


def test_bad_input_is_refused_before_playing():
    bad = [dict(games=["chess"]), dict(agents=["random"]), dict(agents=["random", "random"]),
           dict(agents=["random", "alphazero"]), dict(games_per_pair=3),
           dict(options={"lin": {"board_size": 6}}), dict(options={"asli": {"board_size": 4}})]
    for change in bad:
        kwargs = dict(games=["lin"], agents=["random", FirstLegal()], games_per_pair=2, workers=1,
                      options=LIN)
        with pytest.raises(arena.ArenaConfigError):
            arena.run_arena(**{**kwargs, **change})


# --- the command line -----------------------------------------------------------------------------

@pytest.fixture
def first_legal_spec(monkeypatch):
    """Let the CLI (in-process, one worker) build the fake agent from the spec 'first-legal'."""
    real = arena.make_agent

    def make(spec, seed=None):
        return FirstLegal(seed) if spec == "first-legal" else real(spec, seed)
    monkeypatch.setattr(arena, "make_agent", make)


def test_cli_runs_and_prints_the_tables(first_legal_spec, tmp_path, capsys):
    out = tmp_path / "cli"
    code = arena.main(["--games", "lin,asli", "--agents", "random,first-legal", "--games-per-pair", "2",
                       "--workers", "1", "--out", str(out), "--no-plot", "--quiet"] + SMALL_OPTIONS[:2]
                      + ["--option", "asli.board_size=4"])
    assert code == 0 and capsys.readouterr().out == ""
    assert (out / "results.json").exists() and not (out / "ratings.png").exists()
    assert json.loads((out / "results.json").read_text())["config"]["options"]["lin"]["board_size"] == 5

    assert arena.main(["--games", "lin", "--agents", "random,first-legal", "--games-per-pair", "2",
                       "--workers", "1", "--out", str(out), "--no-plot"] + SMALL_OPTIONS[:2]) == 0
    printed = capsys.readouterr().out
    assert "== lin (board_size=5" in printed and "random vs first-legal" in printed
    assert "first side: score" in printed and "all games pooled" in printed


@pytest.mark.parametrize("args, message", [
    (["--games", "lin,chess"], "unknown game 'chess'"),
    (["--agents", "random,alphazero"], "alphazero"),
    (["--games-per-pair", "3"], "even"),
    (["--option", "lin.board_size"], "game.key=value"),
    (["--option", "lin.board_size=6"], "board_size"),
    (["--games-per-pair", "many"], "invalid int"),
])
def test_cli_bad_arguments_exit_2_and_write_nothing(first_legal_spec, tmp_path, capsys, args, message):
    out = tmp_path / "never"
    base = ["--games", "lin", "--agents", "random,first-legal", "--games-per-pair", "2", "--workers",
            "1", "--out", str(out), "--quiet"]
    assert arena.main(base + args) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_elo_figures_never_print_minus_zero():
    assert [arena._elo(v) for v in (-0.3, 0.0, 0.4, -0.6, 12.5, -190.85)] == ["+0", "+0", "+0", "-1", "+12", "-191"]
    table = {"agents": {"a": {"value": -0.3, "low": -40.2, "high": 39.6, "score": {"rate": 0.5, "games": 4}},
                        "b": {"value": 0.3, "low": -0.4, "high": 40.0, "score": {"rate": 0.5, "games": 4}}}}
    text = "\n".join(arena._ratings_lines(table))
    assert "-0" not in text.replace("-0.", "") and "+0 [" in text


def test_the_help_lists_every_agent_kind(capsys):
    assert arena.main(["--help"]) == 0
    helped = capsys.readouterr().out
    for kind in ("random", "greedy", "mcts:<playouts>", "mcts:t=<seconds>", "az[:<vN,", "sims=<n>"):
        assert kind in "".join(helped.split()), kind  # argparse wraps lines inside long words
    assert "--threads" in helped


@pytest.mark.parametrize("threads", [0, 1.5, "2"])
def test_bad_thread_counts_are_refused(threads):
    with pytest.raises(arena.ArenaConfigError, match="threads"):
        arena.run_arena(["lin"], ["random", "greedy"], games_per_pair=2, workers=2, threads=threads)


def test_the_ladder_rates_added_agents_and_names_the_shipped_networks(tmp_path, monkeypatch, capsys):
    # the ladder's own agents, made cheap here (its mcts:1024 games take minutes), and one added agent
    monkeypatch.setattr(arena, "LADDER", ("random", "az:sims=0"))
    code = arena.main(["--ladder", "--agents", "greedy,random", "--games", "lin", "--games-per-pair", "2",
                       "--workers", "1", "--out", str(tmp_path / "ladder"), "--no-plot"])
    out = capsys.readouterr().out
    assert code == 0
    results = json.loads((tmp_path / "ladder" / "results.json").read_text())
    assert results["config"]["agents"] == ["random", "az:sims=0", "greedy"]
    from agents.az.agent import pretrained_path
    latest = pretrained_path("lin").name  # az is the latest version
    assert results["networks"] == {"lin": {"az:sims=0": latest}}
    assert f"shipped networks: az:sims=0 = {latest}" in out
    assert arena.shipped_networks({"lin": {}}, {"az:v1": "az:v1", "mcts": "mcts:64"}) == {"lin": {"az:v1": "lin-v1.pt"}}


# --- games reused from an earlier run ---------------------------------------------------------------

def _no_play(task):
    raise AssertionError(f"played {task.players} again instead of reusing it")


def _without_reuse_note(results):
    return {key: value for key, value in results.items() if key != "reused"}


def test_a_run_reusing_its_own_results_plays_nothing_and_agrees(serial, tmp_path, monkeypatch):
    out, results = serial
    monkeypatch.setattr(arena, "play_task", _no_play)
    again = arena.run_arena(list(SMALL), AGENTS, GAMES_PER_PAIR, seed=5, workers=1, options=SMALL,
                            out=tmp_path / "again", plot=False, reuse=[out / "results.json"])
    assert again["reused"]["games"] == len(results["games"])
    assert _without_reuse_note(again) == _without_reuse_note(results)  # records copied, rows equal


def test_an_added_agent_plays_only_its_own_pairs_and_matches_a_run_from_scratch(serial, tmp_path, monkeypatch):
    out, _ = serial
    four = AGENTS + ["greedy"]
    scratch = arena.run_arena(list(SMALL), four, GAMES_PER_PAIR, seed=5, workers=1, options=SMALL)
    played = []
    real = arena.play_task
    monkeypatch.setattr(arena, "play_task", lambda task: played.append(task) or real(task))
    added = arena.run_arena(list(SMALL), four, GAMES_PER_PAIR, seed=5, workers=1, options=SMALL,
                            reuse=str(out / "results.json"))
    assert len(played) == len(SMALL) * 3 * GAMES_PER_PAIR  # greedy against each of the other three
    assert all("greedy" in task.players for task in played)
    assert _without_reuse_note(added) == _without_reuse_note(scratch)


def test_games_of_other_options_seeds_or_network_versions_are_not_reused(serial, tmp_path):
    out, results = serial
    earlier = out / "results.json"
    other_seed = arena.run_arena(["lin"], AGENTS, 2, seed=6, workers=1, options=LIN, reuse=[earlier])
    other_size = arena.run_arena(["lin"], AGENTS, 2, seed=5, workers=1,
                                 options={"lin": {"board_size": 7, "line_length": 4}}, reuse=[earlier])
    same = arena.run_arena(["lin"], AGENTS, 2, seed=5, workers=1, options=LIN, reuse=[earlier])
    assert other_seed["reused"]["games"] == other_size["reused"]["games"] == 0
    assert same["reused"]["games"] == 3 * 2  # the first two games of each pair

    # an az played by name is the same agent only with the same shipped file
    saved = json.loads(earlier.read_text())
    row = dict(saved["games"][0], first="az", second="random", winner="az")
    task = arena.GameTask("lin", (), ("az", "random"), False, row["seed"])
    for file, now, expected in (("lin-v1.pt", "lin-v1.pt", True), ("lin-v1.pt", "lin-v2.pt", False)):
        fake = tmp_path / f"{file}-{now}.json"
        fake.write_text(json.dumps({**saved, "games": [row], "networks": {"lin": {"az": file}}}))
        networks = {"lin": {"az": now}}
        found = arena.reusable_games([fake], {"lin": saved["config"]["options"]["lin"]}, networks)
        assert (arena._game_key(task, networks) in found) is expected


def test_reused_games_without_their_records_keep_no_record(serial, tmp_path, monkeypatch):
    out, results = serial
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "results.json").write_text((out / "results.json").read_text())  # no records/ beside it
    monkeypatch.setattr(arena, "play_task", _no_play)
    again = arena.run_arena(list(SMALL), AGENTS, GAMES_PER_PAIR, seed=5, workers=1, options=SMALL,
                            out=tmp_path / "again", plot=False, reuse=[alone / "results.json"])
    assert all(row["record"] is None for row in again["games"])
    assert not list((tmp_path / "again" / "records").iterdir())
    assert again["ratings"] == results["ratings"]


def test_a_file_that_is_not_an_arenas_results_is_refused(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"games": []}')
    with pytest.raises(arena.ArenaConfigError, match="bad.json"):
        arena.run_arena(["lin"], AGENTS, 2, workers=1, options=LIN, reuse=[bad])
    code = arena.main(["--games", "lin", "--agents", "random,greedy", "--games-per-pair", "2", "--workers", "1",
                       "--out", str(tmp_path / "never"), "--reuse", str(tmp_path / "missing.json"), "--quiet"])
    assert code == 2 and "missing.json" in capsys.readouterr().err and not (tmp_path / "never").exists()


def test_an_interrupted_run_goes_on_where_it_stopped(serial, tmp_path, monkeypatch):
    out, results = serial
    real, calls = arena.play_task, []

    def killed_after_five(task):
        if len(calls) == 5:
            raise KeyboardInterrupt
        calls.append(task)
        return real(task)
    monkeypatch.setattr(arena, "play_task", killed_after_five)
    folder = tmp_path / "interrupted"
    with pytest.raises(KeyboardInterrupt):
        arena.run_arena(list(SMALL), AGENTS, GAMES_PER_PAIR, seed=5, workers=1, options=SMALL, out=folder,
                        plot=False)
    journal = folder / arena.JOURNAL
    assert len(journal.read_text().splitlines()) == 5
    with open(journal, "a") as f:
        f.write('{"game": "lin", "opt')  # the line being written when the process was killed

    calls.clear()
    monkeypatch.setattr(arena, "play_task", lambda task: calls.append(task) or real(task))
    resumed = arena.run_arena(list(SMALL), AGENTS, GAMES_PER_PAIR, seed=5, workers=1, options=SMALL,
                              out=folder, plot=False)
    assert len(calls) == len(results["games"]) - 5 and resumed["reused"]["resumed"] == 5
    assert resumed["records"] == results["records"]
    assert (folder / "results.json").read_text() != "" and not journal.exists()
    assert {k: v for k, v in resumed.items() if k != "reused"} == _without_reuse_note(results)
