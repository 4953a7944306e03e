"""Statistics for comparing agents, in numpy only: Wilson score intervals for win rates and
Bradley-Terry ratings on the Elo scale, with a first-side advantage term.

Scores: a win counts 1, a draw 1/2 and a loss 0, for rates and ratings alike. A draw is thus half
a win for each player, which keeps the point estimates right; the intervals, which treat every game
as a coin flip, are then slightly conservative (a draw varies less than a coin flip).

The rating model: ``P(first beats second) = logistic(t_first - t_second + h)`` with strengths ``t``
in natural-log odds and ``h`` the first-side advantage (0 unless asked for). Ratings are reported on
the Elo scale (``400 * log10`` odds: 190.85 Elo is 3:1 odds) and anchored so that they have mean 0.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

ELO_PER_NAT = 400.0 / math.log(10.0)  # Elo points per unit of natural-log odds
Z95 = 1.959963984540054  # two-sided 95% normal quantile
DIVERGED = 30.0  # game log-odds beyond this (5 200 Elo) mean the likelihood has no finite maximum


def wilson_interval(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a success rate ``wins / n``; ``(0, 1)`` when ``n == 0``.

    ``wins`` may be fractional: pass ``wins + draws / 2`` to count draws as half a win (the
    interval is then slightly conservative, see the module docstring)."""
    if n <= 0:
        return (0.0, 1.0)
    rate = wins / n
    if not -1e-12 <= rate <= 1 + 1e-12:
        raise ValueError(f"wilson_interval: wins={wins} out of 0..n={n}")
    rate = min(max(rate, 0.0), 1.0)
    z2 = z * z
    denominator = 1.0 + z2 / n
    centre = (rate + z2 / (2 * n)) / denominator
    half = z / denominator * math.sqrt(rate * (1 - rate) / n + z2 / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def score_rate(score: float, n: int, z: float = 1.96) -> dict:
    """``{"games", "score", "rate", "low", "high"}``: a score (wins + draws / 2) over ``n`` games
    with its Wilson interval, ready for JSON."""
    low, high = wilson_interval(score, n, z)
    return {"games": int(n), "score": float(score), "rate": float(score / n) if n else float("nan"),
            "low": low, "high": high}


@dataclass(frozen=True)
class Estimate:
    """A value on the Elo scale with its standard error and normal 95% interval."""

    value: float
    se: float

    @property
    def low(self) -> float:
        return self.value - Z95 * self.se

    @property
    def high(self) -> float:
        return self.value + Z95 * self.se

    def to_dict(self) -> dict:
        return {"value": self.value, "se": self.se, "low": self.low, "high": self.high}


@dataclass
class Ratings:
    """Fitted Bradley-Terry ratings (Elo, mean 0) and first-side advantages.

    ``covariance`` is that of the mean-centred ratings (Elo squared): use it, or
    :meth:`difference`, for the uncertainty of a difference between two agents, which is not the
    sum of their own intervals. ``first_side`` maps each side group (``None`` when the results
    carry no group) to its advantage; it is empty when no side term was fitted."""

    names: tuple[str, ...]
    elo: np.ndarray
    covariance: np.ndarray
    first_side: dict = field(default_factory=dict)
    games: int = 0
    prior_draws: float = 0.0
    log_likelihood: float = 0.0
    iterations: int = 0

    @property
    def se(self) -> np.ndarray:
        return np.sqrt(np.maximum(np.diag(self.covariance), 0.0))

    @property
    def low(self) -> np.ndarray:
        return self.elo - Z95 * self.se

    @property
    def high(self) -> np.ndarray:
        return self.elo + Z95 * self.se

    def __getitem__(self, name: str) -> Estimate:
        k = self.names.index(name)
        return Estimate(float(self.elo[k]), float(self.se[k]))

    def difference(self, a: str, b: str) -> Estimate:
        """Rating of ``a`` minus that of ``b``, with the standard error from the covariance."""
        i, j = self.names.index(a), self.names.index(b)
        c = self.covariance
        return Estimate(float(self.elo[i] - self.elo[j]),
                        math.sqrt(max(c[i, i] + c[j, j] - 2 * c[i, j], 0.0)))

    def to_dict(self) -> dict:
        return {
            "agents": {name: self[name].to_dict() for name in self.names},
            "first_side": {("all" if key is None else str(key)): est.to_dict()
                           for key, est in self.first_side.items()},
            "games": self.games,
            "prior_draws": self.prior_draws,
            "log_likelihood": self.log_likelihood,
            "anchor": "mean 0",
        }


def bradley_terry(names, results, first_side_advantage: bool = False, prior_draws: float = 1.0,
                  max_iterations: int = 200, tolerance: float = 1e-10) -> Ratings:
    """Maximum-likelihood Bradley-Terry ratings (Elo scale, mean 0) by Newton's method.

    ``results`` holds one ``(i, j, score_i)`` per game: indices into ``names``, ``score_i`` 1, 1/2
    or 0 (any value in between is taken as a fractional score). With ``first_side_advantage``,
    ``i`` must be the agent on the first side, and a side term ``h`` is fitted: one per distinct
    ``group`` when the results are ``(i, j, score_i, group)`` (e.g. one per game), else one.

    Prior: each agent (and each side term) plays ``prior_draws`` virtual draws against a virtual
    opponent of strength 0. This weak pull towards 0 keeps the ratings finite and unique when an
    agent won or lost everything, or when agents never met; its weight is that of ``prior_draws``
    games. ``prior_draws=0`` gives the plain MLE and raises ``ValueError`` when it does not exist.

    Intervals: the covariance is the inverse of the observed Fisher information (minus the Hessian
    of the log-posterior). Without the prior the information is singular along one direction,
    shifting every rating together, which the likelihood cannot see; its pseudo-inverse (computed
    exactly, see :func:`_inverse`) is the covariance of ratings held to mean 0. With the prior the
    mean-centred ratings' covariance follows by the delta method, ``P C P`` with ``P`` the centring
    map. 95% intervals are normal: estimate +- 1.96 standard errors.
    """
    names = tuple(str(n) for n in names)
    n_agents = len(names)
    if n_agents < 1 or len(set(names)) != n_agents:
        raise ValueError("bradley_terry: names must be distinct and not empty")
    if prior_draws < 0:
        raise ValueError("bradley_terry: prior_draws must be >= 0")
    first, second, scores, groups = _read_results(results, n_agents)
    group_keys = sorted(set(groups), key=str) if first_side_advantage else []
    n_params = n_agents + len(group_keys)

    # design matrix of a weighted logistic regression without intercept: one row per game
    # (+1 for the first agent, -1 for the second, +1 for its side term), then the prior's rows
    rows = np.arange(len(scores))
    design = np.zeros((len(scores), n_params))
    design[rows, first] += 1.0
    design[rows, second] -= 1.0
    if group_keys:
        column = {key: n_agents + k for k, key in enumerate(group_keys)}
        design[rows, [column[g] for g in groups]] = 1.0
    weights = np.ones(len(scores))
    if prior_draws > 0:
        design = np.vstack([design, np.eye(n_params)])
        scores = np.concatenate([scores, np.full(n_params, 0.5)])
        weights = np.concatenate([weights, np.full(n_params, float(prior_draws))])

    if prior_draws == 0:
        rank = np.linalg.matrix_rank(design.T @ design)
        if rank < n_params - 1:
            raise ValueError("bradley_terry: the ratings are not identified (agents that never met, "
                             "or a side term confounded with the agents); use prior_draws > 0")

    null = None  # the direction the likelihood cannot see, when nothing anchors the ratings
    if prior_draws == 0:
        null = np.concatenate([np.full(n_agents, n_agents ** -0.5), np.zeros(len(group_keys))])
    params, log_lik, iterations = _newton(design, scores, weights, null, max_iterations, tolerance)
    covariance = _inverse(_information(design, weights, params), null)

    centring = np.eye(n_params)
    centring[:n_agents, :n_agents] -= 1.0 / n_agents
    covariance = ELO_PER_NAT ** 2 * (centring @ covariance @ centring.T)
    elo = ELO_PER_NAT * (centring @ params)

    side_se = np.sqrt(np.maximum(np.diag(covariance)[n_agents:], 0.0))
    side = {key: Estimate(float(elo[n_agents + k]), float(side_se[k])) for k, key in enumerate(group_keys)}
    return Ratings(names=names, elo=elo[:n_agents], covariance=covariance[:n_agents, :n_agents],
                   first_side=side, games=len(rows), prior_draws=float(prior_draws),
                   log_likelihood=float(log_lik), iterations=iterations)


def _read_results(results, n_agents: int):
    first, second, scores, groups = [], [], [], []
    for row in results:
        if len(row) not in (3, 4):
            raise ValueError(f"bradley_terry: result {row!r}: expected (i, j, score_i[, group])")
        i, j, s = int(row[0]), int(row[1]), float(row[2])
        if not (0 <= i < n_agents and 0 <= j < n_agents) or i == j:
            raise ValueError(f"bradley_terry: result {row!r}: needs two different agent indices "
                             f"in 0..{n_agents - 1}")
        if not 0.0 <= s <= 1.0:
            raise ValueError(f"bradley_terry: result {row!r}: score must lie in [0, 1]")
        first.append(i)
        second.append(j)
        scores.append(s)
        groups.append(row[3] if len(row) == 4 else None)
    return np.array(first, dtype=int), np.array(second, dtype=int), np.array(scores, float), groups


def _log_likelihood(design, scores, weights, params) -> float:
    eta = design @ params
    # log sigma(eta) = -logaddexp(0, -eta): stable for any eta
    return float(-np.sum(weights * (scores * np.logaddexp(0.0, -eta)
                                    + (1.0 - scores) * np.logaddexp(0.0, eta))))


def _information(design, weights, params) -> np.ndarray:
    p = np.exp(-np.logaddexp(0.0, -(design @ params)))
    return design.T @ ((weights * p * (1.0 - p))[:, None] * design)


def _inverse(information: np.ndarray, null) -> np.ndarray:
    """The inverse, or with a unit ``null`` vector spanning the kernel, the exact pseudo-inverse:
    ``inv(I + n n^T) - n n^T`` (a cut-off on small eigenvalues could keep the kernel's round-off)."""
    if null is None:
        return np.linalg.inv(information)
    outer = np.outer(null, null)
    return np.linalg.inv(information + outer) - outer


def _newton(design, scores, weights, null, max_iterations: int, tolerance: float):
    """Newton ascent with step halving on the concave log-likelihood; the steps stay out of the
    ``null`` direction of an unanchored fit."""
    params = np.zeros(design.shape[1])
    log_lik = _log_likelihood(design, scores, weights, params)
    for iteration in range(1, max_iterations + 1):
        p = np.exp(-np.logaddexp(0.0, -(design @ params)))
        gradient = design.T @ (weights * (scores - p))
        step = _inverse(_information(design, weights, params), null) @ gradient
        scale = 1.0
        while True:
            candidate = params + scale * step
            candidate_lik = _log_likelihood(design, scores, weights, candidate)
            if candidate_lik >= log_lik - 1e-12 * max(1.0, abs(log_lik)) or scale < 1e-6:
                break
            scale /= 2
        params, log_lik = candidate, candidate_lik
        if np.max(np.abs(design @ params), initial=0.0) > DIVERGED:
            break
        if np.max(np.abs(scale * step), initial=0.0) < tolerance:
            return params, log_lik, iteration
    raise ValueError("bradley_terry: no finite maximum-likelihood ratings (an agent or a side won "
                     "or lost every game); use prior_draws > 0")
