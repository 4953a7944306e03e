"""The policy-value network: a small residual tower over the env's own observation planes.

Input: the int8 planes ``(B, H, W, C)`` that the env hands an agent, each scaled by its documented
range to about ``[-1, 1]``. Output: one logit per grid cell from a 1x1 convolution (fully
convolutional, so a cell's logit sees the board around it), logits for the game's special actions
(pass, swap, ...) from features pooled over the board, and a value in ``[-1, 1]`` for the player to
move, also from pooled features. Illegal actions get ``-inf`` before the softmax. Lifeline's hexhex
board lives in its square grid; pooling averages over on-board cells only, and the on-board plane
tells the convolutions where the edge is.

With ``aux_heads`` the network also predicts, as KataGo does, who holds each cell at the game's end
(a tanh per cell, from a 1x1 convolution) and the final score margin over the number of points
(from the pooled features): auxiliary training targets (``agents.az.train``) that the search never
reads.
"""
from __future__ import annotations

import copy
from dataclasses import asdict, dataclass

import numpy as np
import torch
from torch import nn


@dataclass(frozen=True)
class NetConfig:
    channels: int = 32
    blocks: int = 4
    value_hidden: int = 64
    aux_heads: bool = False  # ownership and score-margin heads, trained as auxiliary targets


class ResidualBlock(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x):
        y = torch.relu(self.bn1(self.conv1(x)))
        return torch.relu(x + self.bn2(self.conv2(y)))


class PolicyValueNet(nn.Module):
    """``forward(planes, mask) -> (logits (B, A), value (B,))`` for one game and its options; with
    ``aux=True`` (a network built with ``aux_heads``) also ``ownership (B, H*W)`` in ``[-1, 1]`` and
    ``score (B,)``, both for the player to move."""

    def __init__(self, game, config: NetConfig = NetConfig()):
        super().__init__()
        self.config = config
        h, w, c = game.obs_shape
        self.num_cells = h * w
        self.num_special = len(game.special_actions)
        scale = np.array([max(abs(p.low), abs(p.high), 1) for p in game.planes], dtype=np.float32)
        self.register_buffer("plane_scale", torch.from_numpy(1.0 / scale))
        on_board = torch.from_numpy(game.geometry.on_board.astype(np.float32)).reshape(1, 1, h, w)
        self.register_buffer("on_board", on_board)
        ch = config.channels
        self.stem = nn.Sequential(nn.Conv2d(c, ch, 3, padding=1, bias=False), nn.BatchNorm2d(ch), nn.ReLU())
        self.tower = nn.Sequential(*[ResidualBlock(ch) for _ in range(config.blocks)])
        self.cell_logits = nn.Conv2d(ch, 1, 1)
        self.special_logits = nn.Linear(2 * ch, self.num_special) if self.num_special else None
        self.value_head = nn.Sequential(nn.Linear(2 * ch, config.value_hidden), nn.ReLU(),
                                        nn.Linear(config.value_hidden, 1), nn.Tanh())
        if config.aux_heads:
            self.ownership_head = nn.Sequential(nn.Conv2d(ch, 1, 1), nn.Tanh())
            self.score_head = nn.Sequential(nn.Linear(2 * ch, config.value_hidden), nn.ReLU(),
                                            nn.Linear(config.value_hidden, 1))

    def encode(self, planes: torch.Tensor) -> torch.Tensor:
        """int8 ``(B, H, W, C)`` -> float ``(B, C, H, W)`` scaled by each plane's range."""
        return (planes.float() * self.plane_scale).permute(0, 3, 1, 2).contiguous()

    def forward(self, planes: torch.Tensor, mask: torch.Tensor | None = None, aux: bool = False):
        x = self.tower(self.stem(self.encode(planes)))
        cells = self.cell_logits(x).flatten(1)  # (B, H*W)
        on = self.on_board
        mean = (x * on).sum((2, 3)) / on.sum()
        peak = (x * on - (1 - on) * 1e4).amax((2, 3))
        pooled = torch.cat([mean, peak], 1)
        logits = torch.cat([cells, self.special_logits(pooled)], 1) if self.special_logits is not None else cells
        if mask is not None:
            logits = logits.masked_fill(mask == 0, float("-inf"))
        value = self.value_head(pooled).squeeze(1)
        if aux:
            if not self.config.aux_heads:
                raise ValueError("aux=True: this network has no auxiliary heads (NetConfig.aux_heads)")
            return logits, value, self.ownership_head(x).flatten(1), self.score_head(pooled).squeeze(1)
        return logits, value

    def describe(self) -> dict:
        return asdict(self.config)


def fused_for_inference(net: PolicyValueNet) -> PolicyValueNet:
    """A copy of ``net`` in eval mode with each batch norm folded into the convolution before it:
    the same outputs (to rounding) for a tenth less time per forward pass in search."""
    from torch.nn.utils.fusion import fuse_conv_bn_eval
    fused = copy.deepcopy(net).eval()
    fused.stem[0] = fuse_conv_bn_eval(fused.stem[0], fused.stem[1])
    fused.stem[1] = nn.Identity()
    for block in fused.tower:
        block.conv1, block.bn1 = fuse_conv_bn_eval(block.conv1, block.bn1), nn.Identity()
        block.conv2, block.bn2 = fuse_conv_bn_eval(block.conv2, block.bn2), nn.Identity()
    return fused


DEVICES = ("auto", "cpu", "cuda", "mps")


def pick_device(name: str) -> torch.device:
    """The torch device a ``--device`` names: ``auto`` a CUDA GPU where torch sees one, else Apple's
    MPS where present, else the CPU; ``cpu``, ``cuda`` (or ``cuda:N``) and ``mps`` as named, with a
    ``ValueError`` where this torch has none."""
    if not isinstance(name, str) or name.split(":")[0] not in DEVICES or (name.count(":") and not (
            name.startswith("cuda:") and name[5:].isdigit())):
        raise ValueError(f"device={name!r}: must be one of {', '.join(DEVICES)} (or cuda:N)")
    mps = getattr(torch.backends, "mps", None) is not None and torch.backends.mps.is_available()
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "mps" if mps else "cpu")
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise ValueError(f"device={name!r}: this torch ({torch.__version__}) sees no CUDA GPU; use auto or cpu")
    if name.startswith("cuda:") and int(name[5:]) >= torch.cuda.device_count():
        raise ValueError(f"device={name!r}: torch sees {torch.cuda.device_count()} CUDA GPU(s)")
    if name == "mps" and not mps:
        raise ValueError(f"device={name!r}: this torch has no MPS device (Apple silicon); use auto or cpu")
    return torch.device(name)


@torch.no_grad()
def evaluate(net: PolicyValueNet, planes: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Priors ``(B, A)`` (zero on illegal actions) and values ``(B,)`` as numpy, in eval mode, with
    the network on whichever device it lives (the arrays go there and back)."""
    device = next(net.parameters()).device
    if device.type == "cpu":
        logits, value = net(as_tensor(planes), as_tensor(masks))
        return torch.softmax(logits, 1).numpy(), value.numpy()
    logits, value = net(as_tensor(planes).to(device, non_blocking=True), as_tensor(masks).to(device, non_blocking=True))
    return torch.softmax(logits, 1).cpu().numpy(), value.float().cpu().numpy()


def as_tensor(array: np.ndarray) -> torch.Tensor:
    """A tensor over ``array``'s own memory where torch may share it, else a copy (a state's arrays
    are read-only)."""
    return torch.from_numpy(array) if array.flags.writeable else torch.tensor(array)
