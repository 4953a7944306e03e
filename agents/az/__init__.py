"""AlphaZero for the four games, in PyTorch: self-play training and the agent that plays with it.

* :mod:`agents.az.network`: the policy-value network over the env's observation planes;
* :mod:`agents.az.search`: batched PUCT over state-API trees;
* :mod:`agents.az.tree_search`: the compiled batched search (Gumbel or PUCT), every tree in arrays;
* :mod:`agents.az.selfplay`: :class:`SelfPlayWorker`, many games in flight, training targets;
* :mod:`agents.az.replay`: the replay buffer, batches under random board symmetries;
* :mod:`agents.az.config`, :mod:`agents.az.train`: the trainer and its command, ``territory-train``;
* :mod:`agents.az.checkpoint`: saving and checking checkpoints (``weights_only`` loading);
* :mod:`agents.az.agent`: :class:`AZAgent` (``make_agent("az")``) and :func:`pretrained`.
"""

# the searches self-play and the az agent can run: the Python tree (search.py) or the compiled one
# (tree_search.py) with either rule
SEARCHES = ("python", "gumbel", "puct")
