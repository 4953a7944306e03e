"""The main job, for now a short demo: two agents play a full game of Lin through the PettingZoo
env, the board is printed, and the result and the speed are reported.

    python -m territory_envs.demo [--board-size 9] [--line-length N] [--komi 0] [--seed 0]
"""
from __future__ import annotations

import argparse
import textwrap
import time

import numpy as np


from . import lin_v0


def greedy_living_margin(env, rng):
    """A one-ply agent: the placement that maximises (own living points - opponent living points)
    after the move (the score margin: komi shifts every move's alike), ties broken at random. Uses
    the game state API (clone + apply)."""
    state = env.unwrapped.game_state
    side = state.to_move
    best, best_value = [], None
    for action in state.legal_actions():
        child = state.clone().apply(action)
        scores = child.scores()
        value = scores[side] - scores[1 - side]
        if best_value is None or value > best_value:
            best, best_value = [action], value
        elif value == best_value:
            best.append(action)
    return int(rng.choice(best))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board-size", type=int, default=9, metavar="SIZE", help="odd, 5..25 (default: 9)")
    parser.add_argument("--line-length", type=int, metavar="POINTS",
                        help="the line a living domain holds (default: 6, or the board size if smaller)")
    parser.add_argument("--komi", type=int, default=0, metavar="POINTS", help="added to White's score (default: 0)")
    parser.add_argument("--seed", type=int, default=0, help="seeds both agents (default: 0)")
    parser.add_argument("--speed-games", type=int, default=200, metavar="GAMES",
                        help="random games timed for the speed figure (default: 200)")
    args = parser.parse_args(argv)
    options = dict(board_size=args.board_size, komi=args.komi)
    if args.line_length is not None:
        options["line_length"] = args.line_length

    t0 = time.perf_counter()
    env = lin_v0.env(render_mode="ansi", **options)
    env.reset(seed=args.seed)
    line_length = env.unwrapped.game.options["line_length"]
    print(f"Lin {args.board_size}x{args.board_size}, line {line_length}, komi {args.komi}: "
          f"player_0 (greedy, Black) vs player_1 (random, White); ready in {time.perf_counter() - t0:.2f} s")
    print(textwrap.fill(env.unwrapped.game.explain(), 100) + "\n")
    rng = np.random.default_rng(args.seed)
    from agents import RandomAgent  # (here, not at import: the env package never depends on agents)
    random_agent = RandomAgent(seed=args.seed)
    moves = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        action = greedy_living_margin(env, rng) if agent == "player_0" else random_agent(obs)
        env.step(action)
        moves += 1
        if moves in (10, 30):
            print(f"after move {moves}:\n{env.render()}\n")
    state = env.unwrapped.game_state
    print(f"final position after {moves} moves:\n{env.render()}\n")
    print(f"result: {state.game.sides[0]} {state.scores()[0]} - {state.scores()[1]} {state.game.sides[1]}; "
          f"returns {dict(zip(env.possible_agents, state.returns().tolist()))}; winner "
          f"{'draw' if state.winner < 0 else 'player_%d (%s)' % (state.winner ^ state.flip, state.side_name(state.winner))}")

    # speed: random self-play through env() with observation and mask at every step
    env = lin_v0.env(**options)
    steps, t0 = 0, time.perf_counter()
    for game in range(args.speed_games):
        env.reset(seed=game)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(random_agent(obs))
            steps += 1
    elapsed = time.perf_counter() - t0
    print(f"speed: {args.speed_games} random games, {steps} steps through env() with observation and mask "
          f"in {elapsed:.2f} s = {steps / elapsed:,.0f} steps/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
