"""RLlib: multi-agent PPO with action masking on any game, both agents sharing one module.

    python3 -m venv .venv-rllib && .venv-rllib/bin/pip install torch==2.13.0
    .venv-rllib/bin/pip install -e ".[rllib,ray]"      # RLlib pins gymnasium: an env of its own
    .venv-rllib/bin/python examples/rllib_ppo.py lifeline --iterations 3

Each iteration prints the mean episode length and the shared module's policy loss; the last
algorithm is saved and restored to show the checkpoint round trip.
"""
import argparse
import tempfile

import ray
from ray.rllib.algorithms.algorithm import Algorithm

from territory_envs.rllib import ppo_config

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="lin")
    parser.add_argument("--iterations", type=int, default=2)
    parser.add_argument("--env-runners", type=int, default=2)
    args = parser.parse_args()
    ray.init(address="local", include_dashboard=False, _node_ip_address="127.0.0.1", log_to_driver=False)
    options = {"board_size": 5, "line_length": 3} if args.game in ("lin", "linage") else {"board_size": 5}
    algo = ppo_config(args.game, num_env_runners=args.env_runners, **options).build_algo()
    for i in range(args.iterations):
        result = algo.train()
        runners, learner = result["env_runners"], result["learners"]["shared"]
        print(f"iteration {i + 1}: {runners['num_episodes']} episodes, mean length "
              f"{runners['episode_len_mean']:.1f}, policy loss {learner['policy_loss']:.4f}")
    with tempfile.TemporaryDirectory() as folder:
        algo.save_to_path(folder)
        algo.stop()
        restored = Algorithm.from_checkpoint(folder)
        print("restored from", folder, "and trained on:", restored.train()["env_runners"]["num_episodes"], "episodes")
        restored.stop()
    ray.shutdown()
