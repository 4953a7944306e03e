"""Checkpoints: the network of one game and options, saved with ``torch.save`` and read back with
``torch.load(weights_only=True)``, so that loading a file cannot run code.

A checkpoint is a dict: ``format`` (:data:`FORMAT`), ``game`` and ``options`` (the game it was
trained on), ``net`` (the :class:`~agents.az.network.NetConfig` fields), ``model`` (the weights),
``step`` and ``positions`` (how far training got), and, in a run's checkpoints, what ``--resume``
needs (``optimizer``, ``rng``, ``config``, ``metrics_offset``).
"""
from __future__ import annotations

import os
import pickle
import zipfile
from pathlib import Path

import torch

from territory_envs import make_game

from .network import NetConfig, PolicyValueNet

FORMAT = "territory-envs-az/1"


class CheckpointError(ValueError):
    """A file that is not a readable checkpoint of this library, or one of another game."""


def save(path, data: dict) -> None:
    """Write atomically: a run stopped while saving keeps its previous checkpoint."""
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    torch.save({"format": FORMAT, **data}, tmp)
    os.replace(tmp, path)


def load(path) -> dict:
    path = Path(path)
    if not path.is_file():
        raise CheckpointError(f"checkpoint {str(path)!r}: no such file")
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except (pickle.UnpicklingError, zipfile.BadZipFile, RuntimeError, EOFError, OSError, ValueError,
            TypeError, AttributeError) as err:
        raise CheckpointError(f"checkpoint {str(path)!r}: not a readable checkpoint ({type(err).__name__}: "
                              f"{str(err)[:200]})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CheckpointError(f"checkpoint {str(path)!r}: not a territory-envs network (format "
                              f"{data.get('format') if isinstance(data, dict) else type(data).__name__!r}, "
                              f"expected {FORMAT!r})")
    for key in ("game", "options", "net", "model"):
        if key not in data:
            raise CheckpointError(f"checkpoint {str(path)!r}: missing {key!r}")
    return data


def build_net(data: dict, game=None, source: str = "checkpoint") -> tuple[PolicyValueNet, object]:
    """The network of checkpoint ``data``, for ``game`` (checked to be the one it was trained on)
    or for the game it names. Returns ``(net, game)``."""
    trained = make_game(data["game"], **data["options"])
    if game is not None and (game.name != trained.name or game.options != trained.options):
        raise ValueError(f"{source} was trained for {trained.describe()}, not for {game.describe()}")
    try:
        net = PolicyValueNet(trained, NetConfig(**data["net"]))
        net.load_state_dict(data["model"])
    except (TypeError, RuntimeError) as err:
        raise CheckpointError(f"{source}: its weights do not fit its network ({str(err)[:200]})") from None
    net.eval()
    return net, trained


NETWORK_KEYS = ("game", "options", "net", "model", "step", "iteration", "positions")


def export_network(source, destination) -> dict:
    """Write the network of a run (its folder or any checkpoint) alone, without the optimiser and
    random states: what ``agents/pretrained/<game>-v<N>.pt`` holds, and the same weights as
    safetensors beside it (:func:`save_safetensors`). Returns what was written."""
    source = Path(source)
    data = load(source / "latest.pt" if source.is_dir() else source)
    build_net(data, source=f"checkpoint {str(source)!r}")  # the weights fit
    network = {k: data[k] for k in NETWORK_KEYS if k in data}
    network["trained_minutes"] = round(float(data.get("elapsed", 0.0)) / 60, 1)
    save(destination, network)
    save_safetensors(network, Path(destination).with_suffix(".safetensors"))
    return network


def save_safetensors(network: dict, path) -> None:
    """The weights of ``network`` (an exported network's dict) as safetensors, for users without
    torch (``safetensors.numpy.load_file``); the file's metadata holds, as JSON strings, what the
    .pt holds besides the weights: ``format``, ``game``, ``options``, ``net`` (the network's
    shape, :class:`~agents.az.network.NetConfig`), ``iteration``, ``positions``, ``trained_minutes``."""
    import json

    from safetensors.torch import save_file
    metadata = {key: json.dumps(network[key]) for key in NETWORK_KEYS + ("trained_minutes",)
                if key != "model" and key in network}
    metadata["format"] = json.dumps(FORMAT)
    tensors = {name: tensor.detach().cpu().contiguous() for name, tensor in network["model"].items()}
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    save_file(tensors, str(tmp), metadata=metadata)
    os.chmod(tmp, 0o644)  # the library writes it owner-only; a shipped file is read by everyone
    os.replace(tmp, path)


def main(argv=None) -> int:
    import argparse
    parser = argparse.ArgumentParser(prog="python -m agents.az.checkpoint",
                                     description="Export a run's network alone (for agents/pretrained/).")
    parser.add_argument("source", help="a run folder or a checkpoint")
    parser.add_argument("destination", help="the .pt file to write (and its .safetensors beside it)")
    args = parser.parse_args(argv)
    try:
        network = export_network(args.source, args.destination)
    except ValueError as err:
        parser.error(str(err))
    print(f"{args.destination}: {network['game']} {network['options']}, iteration {network.get('iteration')}, "
          f"{network.get('positions')} positions, {network['trained_minutes']} min")
    return 0


if __name__ == "__main__":
    import sys
    sys.exit(main())
