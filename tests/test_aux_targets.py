"""The auxiliary targets of self-play (KataGo's ownership and score margin) and the heads that learn
them: each game's ownership agrees with its own score, self-play turns both to each mover, the
replay's symmetries move the ownership with the board, and the heads learn."""
from dataclasses import replace

import numpy as np
import pytest
import torch

from agents.az.config import TrainConfig
from agents.az.network import NetConfig, PolicyValueNet
from agents.az.replay import ReplayBuffer
from agents.az.selfplay import SelfPlayConfig, SelfPlayWorker
from agents.az.train import Trainer, build_parser, config_from_args
from territory_envs import make_game
from territory_envs.core.evaluation import positions_of
from territory_envs.core.kernels import BLACK, WHITE

TINY = {"lin": {"board_size": 5, "line_length": 3}, "linage": {"board_size": 4},
        "lifeline": {"board_size": 3}, "asli": {"board_size": 4}}
AUX_NET = NetConfig(channels=8, blocks=1, value_hidden=16, aux_heads=True)
SELFPLAY = SelfPlayConfig(games_in_flight=4, full_simulations=8, fast_simulations=4, full_fraction=0.5)


def finished_games(name, count, **options):
    game = make_game(name, **{**TINY[name], **options})
    rng = np.random.default_rng(7)
    for _ in range(count):
        state = game.new_state()
        while not state.over:
            state.apply(int(rng.choice(state.legal_actions())))
        yield game, state


@pytest.mark.parametrize("name, komi", [("lin", 2), ("linage", 2.5)])
def test_ownership_counts_the_final_score(name, komi):
    """Cells held by the first side minus cells held by the second is the score margin, komi
    aside: the ownership target says what the score counts."""
    for game, state in finished_games(name, 12, komi=komi):
        owners = game.declaration.cell_owners(positions_of(state), game)[0]
        first, second = state.scores()
        assert (owners == 1).sum() - (owners == -1).sum() == first - (second - komi)


def test_asli_ownership_is_stones_and_owned_territories():
    for game, state in finished_games("asli", 8):
        owners = game.declaration.cell_owners(positions_of(state), game)[0]
        board = state.board
        assert (owners[board == BLACK] == 1).all() and (owners[board == WHITE] == -1).all()
        empty = board == 0
        assert ((owners[empty] == 1) == (state.owner[empty] == 1)).all()
        assert ((owners[empty] == -1) == (state.owner[empty] == 2)).all()


def test_a_game_without_declared_ownership_counts_its_stones():
    for game, state in finished_games("lifeline", 6):
        assert game.declaration.ownership is None
        owners = game.declaration.cell_owners(positions_of(state), game)[0]
        expected = (state.board == BLACK).astype(int) - (state.board == WHITE).astype(int)
        assert (owners == expected).all()


@pytest.mark.parametrize("search", ["gumbel", "python"])
def test_self_play_turns_the_targets_to_each_mover(search):
    """On Lin, each position's score margin is its mover's held cells minus the opponent's, less
    komi for Black and plus it for White, and it has the sign of the value target (the result)."""
    komi = 2
    game = make_game("lin", **TINY["lin"], komi=komi)
    worker = SelfPlayWorker(game, AUX_NET, replace(SELFPLAY, search=search))
    samples, stats = worker.play_games([[3, i] for i in range(4)])
    assert stats["truncated"] == 0 and len(samples) > 4
    held = samples.owners.sum(1).astype(float)
    margin_points = samples.margins * game.geometry.num_points
    assert np.allclose(np.abs(margin_points - held), komi)
    assert set(np.sign(margin_points - held)) == {-1.0, 1.0}  # both sides' movers recorded
    decided = samples.values != 0
    assert (np.sign(samples.margins[decided]) == samples.values[decided]).all()


def test_the_replay_symmetries_move_ownership_with_the_board():
    game = make_game("lin", **TINY["lin"])
    samples, _ = SelfPlayWorker(game, AUX_NET, SELFPLAY).play_games([[1, i] for i in range(4)])
    legal = [p.name for p in game.planes].index("legal")
    n = game.num_cells
    # as ownership, a picture of the board that the planes show: the legal plane
    samples.owners = samples.planes[..., legal].reshape(len(samples), n).copy()
    buffer = ReplayBuffer(game, 1000)
    buffer.add(samples)
    batch = buffer.sample(256, np.random.default_rng(0))
    assert (batch.planes[..., legal].reshape(256, n) == batch.owners).all()
    assert len({tuple(o) for o in batch.owners}) > len({tuple(o) for o in samples.owners})  # moved, not only copied


def test_the_auxiliary_heads_learn_and_the_search_never_reads_them(tmp_path):
    config = TrainConfig(game="lin", options=TINY["lin"], iterations=1, games_per_iteration=4, batch_size=32,
                         eval_every=0, net=AUX_NET, selfplay=SELFPLAY, workers=0)
    trainer = Trainer(config, tmp_path / "run")
    samples, _ = trainer.self_play()
    trainer.buffer.add(samples)
    fixed = trainer.buffer.sample(32, np.random.default_rng(0), augment=False)
    trainer.buffer.sample = lambda *a, **k: fixed
    steps = [trainer.learn_step() for _ in range(60)]
    for key in ("ownership_loss", "score_loss"):
        assert np.mean([s[key] for s in steps[-5:]]) < 0.7 * np.mean([s[key] for s in steps[:5]]), key
    planes = torch.from_numpy(fixed.planes)
    two = trainer.net(planes)
    four = trainer.net(planes, aux=True)
    assert len(two) == 2 and len(four) == 4 and torch.equal(two[1], four[1])
    assert four[2].shape == (32, trainer.game.num_cells) and four[2].abs().max() <= 1


def test_a_game_without_points_trains_ownership_only(tmp_path):
    config = TrainConfig(game="lifeline", options=TINY["lifeline"], iterations=1, games_per_iteration=4,
                         batch_size=16, eval_every=0, net=AUX_NET, selfplay=SELFPLAY, workers=0)
    trainer = Trainer(config, tmp_path / "run")
    trainer.run(progress=False)
    losses = trainer.learn_step()
    assert "ownership_loss" in losses and "score_loss" not in losses
    # its checkpoint plays as any other (the search reads the policy and value only)
    from agents import make_agent, play_game
    result = play_game(trainer.game, (make_agent(f"az:{tmp_path / 'run'}:sims=4"), make_agent("random")), seed=0)
    assert result.winner in (-1, 0, 1)


def test_the_heads_are_the_trainers_default_and_an_older_run_resumes_without_them(tmp_path):
    def net_of(*argv):
        return config_from_args(build_parser().parse_args(list(argv))).net
    assert net_of("--game", "lin").aux_heads is True and net_of("--game", "lin", "--no-aux-heads").aux_heads is False
    # by default only on the games with points
    assert [net_of("--game", name).aux_heads for name in ("linage", "asli", "lifeline")] == [True, False, False]
    assert net_of("--game", "lifeline", "--aux-heads").aux_heads is True
    config = tmp_path / "mine.toml"
    config.write_text("[net]\nchannels = 8\n")  # a table that names some settings keeps the others' defaults
    assert net_of("--config", str(config)) == NetConfig(channels=8, aux_heads=True)
    # a run folder whose config.toml was written before the heads existed (no aux_heads): resumed as it was
    old = TrainConfig(game="lin", options=TINY["lin"], iterations=1, games_per_iteration=2, batch_size=16,
                      eval_every=0, net=NetConfig(channels=8, blocks=1), selfplay=SELFPLAY, workers=0)
    Trainer(old, tmp_path / "old").run(progress=False)
    written = (tmp_path / "old" / "config.toml").read_text()
    (tmp_path / "old" / "config.toml").write_text(written.replace("aux_heads = false\n", ""))
    assert "aux_heads" not in (tmp_path / "old" / "config.toml").read_text()
    resumed = config_from_args(build_parser().parse_args(["--resume", str(tmp_path / "old"), "--iterations", "2"]))
    assert resumed.net.aux_heads is False
    Trainer(resumed, tmp_path / "old", resume=True).run(progress=False)


def test_the_flag_and_the_setting_are_checked():
    with pytest.raises(ValueError, match="net.aux_heads"):
        TrainConfig.from_dict({"net": {"aux_heads": "yes"}})
    with pytest.raises(ValueError, match="ownership_weight"):
        TrainConfig(ownership_weight=-1.0).checked()
    game = make_game("lin", **TINY["lin"])
    net = PolicyValueNet(game, NetConfig(channels=8, blocks=1))
    with pytest.raises(ValueError, match="aux_heads"):
        net(torch.zeros((1, *game.obs_shape), dtype=torch.int8), aux=True)
