"""Round robin between agents on the territory games, with win rates and Bradley-Terry ratings.

    python -m agents.arena --games lin,linage,lifeline,asli --agents random,greedy,mcts:64,mcts:256
    python -m agents.arena --ladder --agents az:runs/lin     # an agent rated against the baseline ladder

Every unordered pair of agents plays ``--games-per-pair`` games of every game, half with each agent
on the first side, over ``--workers`` processes that each run torch and numba on ``--threads``
threads (1 by default: processes that each took every core would fight over them, see
:mod:`agents.threads`). Each game's seed comes from ``(--seed, game, pair, index)`` alone, so the
tables do not depend on ``--workers`` or on the order in which the processes finish.

``--ladder`` is the baseline ladder that agents are cited against: ``random``, ``greedy``,
``mcts:64``, ``mcts:256``, ``mcts:1024``, and each game's latest shipped network alone and with
search (``az:sims=0``, ``az``; the results name its file, ``lin-v1.pt``).

``--reuse results.json`` takes from an earlier run every game that this one would play again (the
same game and options, the same two agents, the same arena seed and index, and for ``az`` the same
shipped network file): rating a new agent against a published ladder plays only the new agent's
games. The earlier run's records are copied where its ``records/`` folder is beside the file.
While it plays, the arena appends each finished game to ``games.partial.jsonl`` in ``--out``: a
run that was interrupted, started again into the same folder, plays only the games it had not
finished (the file goes once ``results.json`` is written).

Written into ``--out``: ``results.json`` (everything), ``games.csv`` (one row per game),
``ratings.csv``, ``records/`` (every game's record, replayable with
:func:`territory_envs.read_record`) and ``ratings.png``. Ratings are Bradley-Terry Elo with mean 0,
per game (with a first-side term: what moving first is worth) and over all games pooled (with one
first-side term per game), under a weak prior of one virtual draw per agent so that a clean sweep
still gets a finite rating; see :mod:`agents.stats` for the model and the intervals.
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import itertools
import json
import numbers
import os
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from functools import lru_cache
from multiprocessing import get_context
from pathlib import Path
from typing import NamedTuple

from territory_envs import game_names, make_game
from territory_envs.core.declaration import declared
from territory_envs.core.options import excerpt

from ._cli import integer, nonempty
from .match import play_game
from .registry import EXPECTED, make_agent
from .stats import bradley_terry, score_rate
from .threads import set_threads, start_worker

OVERALL = "overall"
# the baseline ladder (--ladder): what a user rates an agent against; az is each game's latest
# shipped network (agents/pretrained/<game>-v<N>.pt, named in the results)
LADDER = ("random", "greedy", "mcts:64", "mcts:256", "mcts:1024", "az:sims=0", "az")
EVEN_WHY = " (half with each agent on the first side)"


class ArenaConfigError(ValueError):
    """Bad arena input (game, agent, option, count): reported before anything is played or written."""


class GameTask(NamedTuple):
    """One game to play, small and picklable: what a worker needs to rebuild the game and agents."""

    game: str
    options: tuple  # sorted (key, value) pairs
    players: tuple  # agent specs of player_0 and player_1
    swap: bool  # player_1 holds the first side
    seed: int


def game_seed(seed: int, game: str, pair: tuple[str, str], index: int) -> int:
    """A 31-bit seed from the arena seed, the game, the pair of agent names and the game's index:
    stable across processes and Python runs (unlike ``hash``)."""
    text = json.dumps([int(seed), game, list(pair), int(index)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big") >> 1


def parse_option(text: str) -> tuple[str, str, object]:
    """``"lin.board_size=7"`` -> ``("lin", "board_size", 7)``; the value is read as JSON when it
    can be (numbers, true/false), else kept as a string."""
    target, eq, value = text.partition("=")
    game, dot, key = target.strip().partition(".")
    if not eq or not dot or not game or not key.strip():
        raise ArenaConfigError(f"--option {excerpt(text)}: expected game.key=value, e.g. lin.board_size=7")
    value = value.strip()
    try:
        parsed = json.loads(value)
    except ValueError:  # not JSON, or an integer with more digits than int() converts
        parsed = value
    return game, key.strip(), parsed


def agent_name(spec) -> str:
    return spec.strip() if isinstance(spec, str) else make_agent(spec).name


# --- checking the input ---------------------------------------------------------------------------

def _split(items) -> list:
    if isinstance(items, str):
        return [part.strip() for part in items.split(",") if part.strip()]
    return list(items)


def _check_games(games, options) -> dict:
    """The games in order, each with its full options (defaults and max_moves resolved)."""
    games = _split(games)
    if not games:
        raise ArenaConfigError("no game given")
    for name in games:
        if name not in game_names():
            raise ArenaConfigError(f"unknown game {excerpt(name)}; the games are {', '.join(game_names())}")
    for name in games:
        if games.count(name) > 1:
            raise ArenaConfigError(f"game {name!r} is listed twice")
    options = dict(options or {})
    for name in options:
        if name not in games:
            raise ArenaConfigError(f"option for {excerpt(name)}, which is not among the games "
                                   f"({', '.join(games)})")
    resolved = {}
    for name in games:
        try:
            resolved[name] = dict(make_game(name, **options.get(name, {})).options)
        except (ValueError, TypeError) as err:
            raise ArenaConfigError(f"{name} options: {err}") from None
    return resolved


def _check_agents(agents) -> dict:
    """Agent name -> spec, checking that each spec builds and the names are distinct."""
    agents = _split(agents)
    if len(agents) < 2:
        raise ArenaConfigError("at least two agents are needed")
    by_name = {}
    for spec in agents:
        try:
            make_agent(spec, 0)
        except (ValueError, TypeError, ImportError) as err:
            message = str(err) if isinstance(err, ValueError) else f"agent {excerpt(spec)}: {err}"
            raise ArenaConfigError(message) from None
        name = agent_name(spec)
        if name in by_name:
            raise ArenaConfigError(f"agent {excerpt(name)} is listed twice")
        by_name[name] = spec
    return by_name


def _check_count(games_per_pair) -> int:
    if not _is_int(games_per_pair) or games_per_pair < 2 or games_per_pair % 2:
        raise ArenaConfigError(f"games per pair must be a positive even number{EVEN_WHY}, not "
                               f"{excerpt(games_per_pair)}")
    return int(games_per_pair)


def _check_run(seed, workers, out) -> tuple[int, int]:
    """The seed (any integer) and the number of processes (at least 1); ``out`` must name a folder."""
    if not _is_int(seed):
        raise ArenaConfigError(f"seed={excerpt(seed)}: must be an integer")
    workers = (os.cpu_count() or 1) if workers is None else workers
    if not _is_int(workers) or workers < 1:
        raise ArenaConfigError(f"workers={excerpt(workers)}: must be an integer >= 1")
    if out is not None and (not isinstance(out, (str, os.PathLike)) or not str(out).strip()):
        raise ArenaConfigError(f"out={excerpt(out)}: must name a folder")
    return int(seed), int(workers)


def _make_out(out) -> None:
    """Create the output folder (and its ``records``) before the games, so that a path that cannot
    be one fails at once rather than after the whole round robin."""
    try:
        (Path(out) / "records").mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ArenaConfigError(f"out={excerpt(str(out))}: cannot make the folder "
                               f"({err.strerror or err})") from None


def _is_int(value) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


# --- playing --------------------------------------------------------------------------------------

def build_tasks(game_options: dict, agents: dict, games_per_pair: int, seed: int) -> list[tuple]:
    """``(key, task)`` for every game of the round robin in canonical order; ``key`` is
    ``(game, pair index, index)``. Within a pair, ``player_0`` is the agent whose name sorts first
    and the first side alternates, so a pair's games do not depend on the order of ``agents``."""
    names = list(agents)
    tasks = []
    for game, options in game_options.items():
        for pair_index, pair in enumerate(itertools.combinations(names, 2)):
            players = tuple(sorted(pair))
            for index in range(games_per_pair):
                task = GameTask(game, tuple(sorted(options.items())),
                                (agents[players[0]], agents[players[1]]), bool(index % 2),
                                game_seed(seed, game, players, index))
                tasks.append(((game, pair_index, index), task))
    return tasks


@lru_cache(maxsize=None)
def _game(name: str, options: tuple):
    return make_game(name, **dict(options))  # games are immutable: one per process is enough


def play_task(task: GameTask) -> dict:
    """Play one task (in a worker or in-process); fresh agents each game, so nothing carries over
    from the games a worker happened to play before."""
    agents = tuple(make_agent(spec, task.seed * 2 + k) for k, spec in enumerate(task.players))
    result = play_game(_game(task.game, task.options), agents, swap_sides=task.swap, seed=task.seed)
    return {"winner": result.winner, "first": result.first, "moves": result.moves,
            "truncated": result.truncated,
            "scores": None if result.scores is None else [float(s) for s in result.scores],
            "record": result.record}


def _play_all(tasks: list, workers: int, progress: bool, threads: int = 1, done=None) -> list[dict]:
    """Outcomes in the order of ``tasks``, whatever order the workers finish in; each worker
    process runs torch and numba on ``threads`` threads (in-process play keeps the caller's).
    ``done(task, outcome)`` is called as each game finishes."""
    bar = _progress_bar(len(tasks), progress)
    outcomes = [None] * len(tasks)
    done = done or (lambda task, outcome: None)
    try:
        if workers <= 1:
            for k, (_, task) in enumerate(tasks):
                outcomes[k] = play_task(task)
                done(task, outcomes[k])
                bar.update()
        else:
            games = tuple(declared(name) for name in dict.fromkeys(task.game for _, task in tasks))
            with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn"), initializer=start_worker,
                                     initargs=(threads, games)) as pool:
                futures = {pool.submit(play_task, task): k for k, (_, task) in enumerate(tasks)}
                try:
                    for future in as_completed(futures):
                        k = futures[future]
                        outcomes[k] = future.result()
                        done(tasks[k][1], outcomes[k])
                        bar.update()
                except BaseException:
                    pool.shutdown(wait=True, cancel_futures=True)
                    raise
    finally:
        bar.close()
    return outcomes


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def _progress_bar(total: int, enabled: bool):
    if not enabled:
        return _NoBar()
    try:
        from tqdm import tqdm
    except ImportError:
        return _NoBar()
    return tqdm(total=total, unit="game", file=sys.stderr, dynamic_ncols=True)


# --- the round robin --------------------------------------------------------------------------

def run_arena(games, agents, games_per_pair: int = 20, seed: int = 0, workers: int | None = None,
              options: dict | None = None, out=None, plot: bool = True, progress: bool = False,
              prior_draws: float = 1.0, threads: int = 1, reuse=()) -> dict:
    """Play the round robin and return the results (the content of ``results.json``, plus
    ``"records"``: every game's record text, aligned with ``"games"``).

    ``games`` and ``agents`` are lists (or comma-separated strings); an agent is a
    :func:`~agents.registry.make_agent` spec or a picklable :class:`~agents.base.Agent` (named by
    its ``name``). ``options`` maps a game to its options. With ``out`` the files are written there.
    With ``workers`` above 1 the games are played in that many processes, each running torch and
    numba on ``threads`` threads; with one worker they are played in this process, on the threads
    its caller set. ``reuse`` lists earlier runs' ``results.json`` files whose games this run takes
    instead of playing them again (:func:`reusable_games`).
    Bad input (including a ``seed`` that is not an integer, ``workers`` below 1, or an ``out`` that
    cannot be made a folder) raises :class:`ArenaConfigError` before anything is played or written
    (``out`` is made, empty, before the games)."""
    game_options = _check_games(games, options)
    agent_specs = _check_agents(agents)
    games_per_pair = _check_count(games_per_pair)
    seed, workers = _check_run(seed, workers, out)
    if not _is_int(threads) or threads < 1:
        raise ArenaConfigError(f"threads={excerpt(threads)}: must be an integer >= 1")
    networks = shipped_networks(game_options, agent_specs)
    earlier = reusable_games(reuse, game_options, networks)
    journal = Path(out) / JOURNAL if out is not None else None
    finished = _read_journal(journal, game_options, networks) if journal is not None else {}
    if out is not None:
        _make_out(out)

    tasks = build_tasks(game_options, agent_specs, games_per_pair, seed)
    outcomes = [finished.get(_game_key(task, networks)) for _, task in tasks]
    for k, (_, task) in enumerate(tasks):
        outcomes[k] = outcomes[k] or _reused_outcome(task, earlier.get(_game_key(task, networks)))
    to_play = [k for k, outcome in enumerate(outcomes) if outcome is None]
    write = _JournalWriter(journal, networks) if journal is not None else None
    try:
        played = _play_all([tasks[k] for k in to_play], min(workers, max(1, len(to_play))), progress,
                           int(threads), done=write)
    finally:
        if write is not None:
            write.close()
    for k, outcome in zip(to_play, played):
        outcomes[k] = outcome
    results = summarise(game_options, list(agent_specs), games_per_pair, seed, tasks, outcomes,
                        prior_draws)
    results["networks"] = networks
    results["reused"] = {"files": [str(path) for path in _paths(reuse)],
                         "games": sum(1 for outcome in outcomes if outcome.get("reused")),
                         "resumed": sum(1 for outcome in outcomes if outcome.get("resumed"))}
    if out is not None:
        write_outputs(Path(out), results, plot)
        journal.unlink(missing_ok=True)  # results.json holds every game now
    return results


# --- the journal: games finished so far, so that an interrupted run goes on where it stopped --------

JOURNAL = "games.partial.jsonl"


class _JournalWriter:
    """Appends each finished game to the journal at once (one JSON line, flushed), so a run that is
    killed keeps every game it finished."""

    def __init__(self, path: Path, networks: dict):
        self.file = open(path, "a")
        self.networks = networks

    def __call__(self, task: GameTask, outcome: dict) -> None:
        players = [list(_identity(agent_name(spec), task.game, self.networks)) for spec in task.players]
        line = {"game": task.game, "options": dict(task.options), "players": players, "seed": task.seed,
                "outcome": outcome}
        self.file.write(json.dumps(line) + "\n")
        self.file.flush()

    def close(self) -> None:
        self.file.close()


def _read_journal(path: Path, game_options: dict, networks: dict) -> dict:
    """``{key: outcome}`` for the games an interrupted run into the same folder finished with these
    options (the same key as :func:`_game_key`). A line cut short by the interruption is skipped."""
    if not path.is_file():
        return {}
    wanted = json.loads(json.dumps(game_options))
    finished = {}
    for line in path.read_text().splitlines():
        try:
            entry = json.loads(line)
            key = (entry["game"], tuple(tuple(player) for player in entry["players"]), entry["seed"])
            options, outcome = entry["options"], entry["outcome"]
        except (ValueError, KeyError, TypeError):  # the last line, half written when the run was killed
            continue
        if wanted.get(entry["game"]) == json.loads(json.dumps(options)):
            finished[key] = {**outcome, "resumed": True}
    return finished


def shipped_networks(game_options, agent_specs: dict) -> dict:
    """``{game: {agent name: file}}``: the shipped network file that each ``az`` agent without a
    checkpoint of its own played on each game (a version: ``lin-v1.pt``)."""
    out = {}
    for name, spec in agent_specs.items():
        agent = make_agent(spec, 0) if isinstance(spec, str) else spec
        if getattr(agent, "source", "") is None and hasattr(agent, "version"):
            from .az.agent import pretrained_path
            for game in game_options:
                try:
                    out.setdefault(game, {})[name] = pretrained_path(game, agent.version).name
                except ValueError:  # none shipped for that game: the games said so already
                    pass
    return out


# --- games reused from earlier runs ---------------------------------------------------------------

def _identity(name: str, game: str, networks: dict) -> tuple:
    """What makes an agent the same agent in another run: its name and, for a shipped network
    played by name (``az``), the file it loaded, so a newer version is never taken for an older."""
    return name, networks.get(game, {}).get(name)


def _game_key(task: GameTask, networks: dict) -> tuple:
    players = tuple(_identity(agent_name(spec), task.game, networks) for spec in task.players)
    return task.game, players, task.seed


def _paths(paths) -> list:
    return [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)


def reusable_games(paths, game_options: dict, networks: dict) -> dict:
    """``{key: (row, record text or None)}`` for the games of earlier runs (their ``results.json``
    files) played under this run's options. A game's key holds its seed, which the arena seed, the
    game, the pair's names and the index decide (:func:`game_seed`), so a game is reused only where
    this run would play exactly it. A file that is not an arena's results raises
    :class:`ArenaConfigError` naming it."""
    found = {}
    for path in _paths(paths):
        path = Path(path)
        try:
            saved = json.loads(path.read_text())
            options, rows = saved["config"]["options"], saved["games"]
            earlier_networks = saved.get("networks", {})
        except KeyError as err:
            raise ArenaConfigError(f"--reuse {path}: not an arena's results.json (no {err} entry)") from None
        except (OSError, ValueError, TypeError) as err:
            raise ArenaConfigError(f"--reuse {path}: not an arena's results.json ({err})") from None
        wanted = json.loads(json.dumps(game_options))  # the form the options take in a results file
        for row in rows:
            game = row["game"]
            if game not in wanted or options.get(game) != wanted[game]:
                continue
            first, second = sorted((row["first"], row["second"]))
            players = tuple(_identity(name, game, earlier_networks) for name in (first, second))
            record = path.parent / row["record"] if row.get("record") else None
            found[(game, players, row["seed"])] = (row, record)
    return found


def _reused_outcome(task: GameTask, earlier) -> dict | None:
    """The outcome of an earlier run's game in :func:`play_task`'s form, or None to play it."""
    if earlier is None:
        return None
    row, record = earlier
    names = [agent_name(spec) for spec in task.players]
    text = record.read_text() if record is not None and record.is_file() else None
    return {"winner": -1 if row["winner"] is None else names.index(row["winner"]),
            "first": names.index(row["first"]), "moves": row["moves"], "truncated": row["truncated"],
            "scores": row.get("scores"), "record": text, "reused": True}


def summarise(game_options, names, games_per_pair, seed, tasks, outcomes, prior_draws=1.0) -> dict:
    """Game rows, pair tables, ratings and first-side figures from the outcomes (in task order)."""
    rows, records = [], []
    width = max(3, len(str(games_per_pair - 1)))
    for (key, task), outcome in zip(tasks, outcomes):
        game, pair_index, index = key
        player_names = [agent_name(spec) for spec in task.players]
        first_player = outcome["first"]
        winner = outcome["winner"]
        record_file = (f"{game}-p{pair_index:02d}-{_safe(player_names[0])}-vs-{_safe(player_names[1])}"
                       f"-{index:0{width}d}.txt")
        rows.append({
            "game": game, "pair": pair_index, "index": index,
            "first": player_names[first_player], "second": player_names[1 - first_player],
            "winner": None if winner < 0 else player_names[winner],
            "first_score": 0.5 if winner < 0 else float(winner == first_player),
            "moves": outcome["moves"], "truncated": outcome["truncated"], "scores": outcome["scores"],
            "seed": task.seed, "record": f"records/{record_file}",
        })
        if outcome.get("reused"):  # its record (if it was found) already names the players
            records.append(outcome["record"])
            if outcome["record"] is None:
                rows[-1]["record"] = None
            continue
        comments = [f"# player_0: {player_names[0]}", f"# player_1: {player_names[1]}",
                    f"# arena seed {seed}, game seed {task.seed}"]
        head, _, rest = outcome["record"].partition("\n")
        records.append("\n".join([head, *comments, rest]))

    per_game = {game: _game_summary(names, [r for r in rows if r["game"] == game], prior_draws)
                for game in game_options}
    pooled = bradley_terry(names, [(names.index(r["first"]), names.index(r["second"]), r["first_score"],
                                    r["game"]) for r in rows],
                           first_side_advantage=True, prior_draws=prior_draws)
    return {
        "config": {"games": list(game_options), "options": game_options, "agents": names,
                   "games_per_pair": games_per_pair, "seed": seed, "prior_draws": prior_draws},
        "pairs": {game: summary["pairs"] for game, summary in per_game.items()},
        "ratings": {**{game: summary["ratings"] for game, summary in per_game.items()},
                    OVERALL: _ratings_table(names, rows, pooled)},
        "first_side": {game: summary["first_side"] for game, summary in per_game.items()},
        "games": rows,
        "records": records,
    }


def _game_summary(names, rows, prior_draws) -> dict:
    pairs = []
    for a, b in itertools.combinations(names, 2):
        games = [r for r in rows if {r["first"], r["second"]} == {a, b}]
        by_side = {f"{a} first": _wdl(a, [r for r in games if r["first"] == a]),
                   f"{b} first": _wdl(a, [r for r in games if r["first"] == b])}
        total = _wdl(a, games)
        pairs.append({"agents": [a, b], **total,
                      "score_a": score_rate(total["wins"] + total["draws"] / 2, len(games)),
                      "by_side": by_side})
    ratings = bradley_terry(names, [(names.index(r["first"]), names.index(r["second"]), r["first_score"])
                                    for r in rows], first_side_advantage=True, prior_draws=prior_draws)
    first_score = sum(r["first_score"] for r in rows)
    return {"pairs": pairs, "ratings": _ratings_table(names, rows, ratings),
            "first_side": {**score_rate(first_score, len(rows)),
                           "advantage_elo": ratings.first_side[None].to_dict()}}


def _wdl(agent: str, rows) -> dict:
    """Wins, draws and losses of ``agent`` in ``rows``."""
    wins = sum(r["winner"] == agent for r in rows)
    draws = sum(r["winner"] is None for r in rows)
    return {"games": len(rows), "wins": wins, "draws": draws, "losses": len(rows) - wins - draws}


def _ratings_table(names, rows, ratings) -> dict:
    table = ratings.to_dict()
    for name in names:
        mine = [r for r in rows if name in (r["first"], r["second"])]
        score = sum(r["first_score"] if r["first"] == name else 1 - r["first_score"] for r in mine)
        table["agents"][name]["score"] = score_rate(score, len(mine))
    return table


def _safe(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._=-]+", "-", name).strip("-") or "agent"


# --- output ---------------------------------------------------------------------------------------

def write_outputs(out: Path, results: dict, plot: bool = True) -> None:
    """``results.json``, ``games.csv``, ``ratings.csv``, ``records/`` and (``plot``) ``ratings.png``."""
    records_dir = out / "records"
    records_dir.mkdir(parents=True, exist_ok=True)
    for stale in records_dir.glob("*.txt"):  # a previous run's records would mix with these
        stale.unlink()
    for row, text in zip(results["games"], results["records"]):
        if text is not None:  # a reused game whose record was not beside its results file has none
            (out / row["record"]).write_text(text)
    saved = {key: value for key, value in results.items() if key != "records"}
    (out / "results.json").write_text(json.dumps(saved, indent=1) + "\n")

    with open(out / "games.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["game", "first", "second", "winner", "moves", "truncated", "seed", "index",
                         "record"])
        for r in results["games"]:
            writer.writerow([r["game"], r["first"], r["second"], r["winner"] or "draw", r["moves"],
                             int(r["truncated"]), r["seed"], r["index"], r["record"]])

    with open(out / "ratings.csv", "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["game", "agent", "elo", "se", "low", "high", "games", "score", "score_low",
                         "score_high"])
        for game, table in results["ratings"].items():
            for agent, est in table["agents"].items():
                score = est["score"]
                writer.writerow([game, agent, *(f"{est[k]:.2f}" for k in ("value", "se", "low", "high")),
                                 score["games"], *(f"{score[k]:.4f}" for k in ("rate", "low", "high"))])
    if plot:
        plot_ratings(results, out / "ratings.png")


def plot_ratings(results: dict, path) -> None:
    """Ratings with 95% error bars: one group per game, then all games pooled."""
    from matplotlib.figure import Figure  # no pyplot: the caller's backend (a notebook's) stays as it is

    groups = list(results["ratings"])
    names = results["config"]["agents"]
    fig = Figure(figsize=(max(6.0, 1.6 * len(groups) * max(1, len(names)) / 3), 4.5))
    ax = fig.subplots()
    spread = 0.8 / len(names)
    for k, name in enumerate(names):
        xs = [g + (k - (len(names) - 1) / 2) * spread for g in range(len(groups))]
        est = [results["ratings"][group]["agents"][name] for group in groups]
        ax.errorbar(xs, [e["value"] for e in est], yerr=[[e["value"] - e["low"] for e in est],
                                                         [e["high"] - e["value"] for e in est]],
                    fmt="o", capsize=3, label=name)
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xticks(range(len(groups)), groups)
    ax.set_ylabel("Elo (mean 0), 95% interval")
    ax.set_title(f"Bradley-Terry ratings, {results['config']['games_per_pair']} games per pair per game")
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def format_tables(results: dict) -> str:
    """The readable summary printed by the CLI."""
    lines = []
    for game in results["config"]["games"]:
        opts = ", ".join(f"{k}={v}" for k, v in results["config"]["options"][game].items())
        lines += ["", f"== {game} ({opts}) =="]
        lines.append(f"{'pair (W-D-L of the first named)':<34} {'W-D-L':>8}  {'score [95%]':<21}  "
                     f"{'it first':>8}  {'it second':>9}")
        for pair in results["pairs"][game]:
            a, b = pair["agents"]
            s = pair["score_a"]
            lines.append(f"{a + ' vs ' + b:<34} {_wdl_text(pair):>8}  "
                         f"{s['rate']:.3f} [{s['low']:.3f}, {s['high']:.3f}]  "
                         f"{_wdl_text(pair['by_side'][f'{a} first']):>8}  "
                         f"{_wdl_text(pair['by_side'][f'{b} first']):>9}")
        lines += _ratings_lines(results["ratings"][game])
        networks = results.get("networks", {}).get(game)
        if networks:
            lines.append("shipped networks: " + ", ".join(f"{n} = {f}" for n, f in networks.items()))
        side = results["first_side"][game]
        adv = side["advantage_elo"]
        lines.append(f"first side: score {side['rate']:.3f} [{side['low']:.3f}, {side['high']:.3f}] "
                     f"over {side['games']} games; advantage {_elo(adv['value'])} Elo "
                     f"[{_elo(adv['low'])}, {_elo(adv['high'])}]")
    lines += ["", "== all games pooled (one first-side term per game) =="]
    lines += _ratings_lines(results["ratings"][OVERALL])
    return "\n".join(lines).lstrip("\n")


def _elo(value: float) -> str:
    """An Elo figure rounded to a whole number with its sign, ``+0`` for anything that rounds to 0
    (a format of ``-0.3`` would print ``-0``)."""
    return f"{round(value):+d}"


def _wdl_text(counts: dict) -> str:
    return f"{counts['wins']}-{counts['draws']}-{counts['losses']}"


def _ratings_lines(table: dict) -> list[str]:
    lines = [f"{'agent':<20} {'Elo':>7} {'95% interval':>18}  {'score':>6}  games"]
    ordered = sorted(table["agents"].items(), key=lambda item: -item[1]["value"])
    for name, est in ordered:
        lines.append(f"{name:<20} {_elo(est['value']):>7} [{_elo(est['low']):>6}, {_elo(est['high']):>6}]  "
                     f"{est['score']['rate']:>6.3f}  {est['score']['games']}")
    return lines


# --- command line ---------------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="territory-arena", description="Round robin between agents, with win rates and Elo ratings.")
    parser.add_argument("--games", default=",".join(game_names()), metavar="GAMES",
                        help="comma-separated games (default: all)")
    parser.add_argument("--agents", default=None, metavar="SPECS",
                        help=f"comma-separated agent specs: {EXPECTED} (default: random,greedy; with --ladder, "
                             f"agents rated beside the ladder)")
    parser.add_argument("--ladder", action="store_true",
                        help=f"the baseline ladder: {', '.join(LADDER)} (az: each game's latest shipped network, "
                             f"named in the results), plus any --agents")
    parser.add_argument("--games-per-pair", type=integer(low=2, even=True, meaning=EVEN_WHY), default=20, metavar="GAMES",
                        help="games per pair of agents per game, even (default 20)")
    parser.add_argument("--seed", type=integer(), default=0, help="arena seed (default 0)")
    parser.add_argument("--workers", type=integer(low=1), default=os.cpu_count() or 1, metavar="PROCESSES",
                        help="processes; 1 plays in this process (default: the number of CPUs)")
    parser.add_argument("--threads", type=integer(low=1), default=1, metavar="THREADS",
                        help="torch's and numba's threads in each process (default: 1)")
    parser.add_argument("--out", type=nonempty, default="arena_results", metavar="FOLDER",
                        help="output folder (default arena_results)")
    parser.add_argument("--option", action="append", default=[], metavar="GAME.KEY=VALUE",
                        help="a game option, e.g. lin.board_size=7 (repeatable)")
    parser.add_argument("--reuse", action="append", default=[], metavar="RESULTS_JSON",
                        help="an earlier run's results.json: its games that this run would play again (same game, "
                             "options, agents, seed and index) are taken from it, not played (repeatable)")
    parser.add_argument("--no-plot", action="store_true", help="skip ratings.png")
    parser.add_argument("--quiet", action="store_true", help="no progress bar and no tables")
    return parser


def main(argv=None) -> int:
    """Run the round robin; 0 when done, 2 for a usage error (on stderr, before anything is played
    or written), 1 when the results cannot be written."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse's own errors (exit 2) and --help (exit 0)
        return int(exit_.code or 0)
    try:
        options: dict = {}
        for text in args.option:
            game, key, value = parse_option(text)
            options.setdefault(game, {})[key] = value
        started = time.perf_counter()
        if args.workers == 1:  # the games are played in this process: it is the caller that sets them
            set_threads(args.threads)
        agents = _split(args.agents or ("" if args.ladder else "random,greedy"))
        if args.ladder:
            agents = list(LADDER) + [a for a in agents if a not in LADDER]
        results = run_arena(args.games, agents, games_per_pair=args.games_per_pair,
                            seed=args.seed, workers=args.workers, options=options, out=args.out,
                            plot=not args.no_plot, progress=not args.quiet, threads=args.threads,
                            reuse=args.reuse)
    except ArenaConfigError as err:
        parser.print_usage(sys.stderr)
        print(f"{parser.prog}: error: {err}", file=sys.stderr)
        return 2
    except OSError as err:  # the output folder could not be written after all
        print(f"{parser.prog}: cannot write the results to {excerpt(args.out)}: {err}", file=sys.stderr)
        return 1
    if not args.quiet:
        print(format_tables(results))
        reused, resumed = results["reused"]["games"], results["reused"]["resumed"]
        print(f"\n{len(results['games']) - reused - resumed} games played"
              + (f", {resumed} finished before an interruption" if resumed else "")
              + (f", {reused} taken from {', '.join(args.reuse)}" if reused else "")
              + f" in {time.perf_counter() - started:.1f} s; results in {args.out}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
