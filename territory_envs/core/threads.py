"""How many threads a batch's compiled kernels run on: a number the user fixes, or one the batch
finds by timing its own steps.

numba runs ``prange`` loops on OpenMP's threads, which spin at the barrier that ends every loop.
On idle cores that is what makes a batch fast (two threads step Lin's 1,024 games about 1.8 times
as fast as one). When another busy process shares the cores, the thread that loses its core holds
up the barrier while the others spin, and every step waits on the scheduler: measured on two cores
beside one busy process, Lin's batch stepped 2-4 times slower on two threads than on one
(``benchmarks/contention.py``). No setting fixed ahead wins both cases (a passive wait policy or a
short spin costs 15-25% of the idle speed; chunked scheduling keeps the barrier), so by default a
batch times its steps and runs on the count that is fastest now:

* a *probe* steps the next calls on the candidate counts in turn (1, the powers of two below the
  maximum, the maximum; one call each, round after round, so that all see the same positions of
  the games) until each has ``PROBE_CALLS`` calls and the probe ``PROBE_SECONDS`` per candidate,
  and keeps the fastest per call; a count replaces the one in use only when it is clearly faster
  (``SWITCH``);
* between probes the batch runs on that count; the next probe comes after ``FIRST_INTERVAL``
  seconds of stepping, doubled each time the choice holds up to ``LAST_INTERVAL``, so on a steady
  machine probing costs well under 1% of the time;
* a window of ``WINDOW`` seconds of steps that is ``JUMP`` times slower than the window before (a
  busy process has started) probes again at once. Steps that grow slower bit by bit as the games
  move on (a batch reset at once plays its openings together) are no jump.

The count only decides how the games are spread over threads, never what they do: every game
draws from its own random stream, so a batch gives the same games on any number of threads.
"""
from __future__ import annotations

import time

import numba

PROBE_CALLS = 2        # calls per candidate in a probe, at least
PROBE_SECONDS = 0.02   # and seconds per candidate: a few of the scheduler's time slices
FIRST_INTERVAL = 1.0   # seconds of stepping between the first probes
LAST_INTERVAL = 4.0    # and at most, once the choice has held
WINDOW = 0.05          # seconds of stepping per load check
JUMP = 1.5             # a window this many times slower than the one before: probe again
SWITCH = 0.95          # a new count must step in under this share of the current count's time


def candidate_counts(max_threads: int) -> tuple[int, ...]:
    """1, the powers of two below ``max_threads``, and ``max_threads``."""
    counts, n = [], 1
    while n < max_threads:
        counts.append(n)
        n *= 2
    return tuple(counts + [max_threads])


class ThreadTuner:
    """The thread count of one batch: fixed (``fixed``), or tuned as the module docstring says
    among the counts up to ``max_threads`` (default: numba's ``NUMBA_NUM_THREADS``).

    Wrap every kernel call in :meth:`begin` and :meth:`end` (``timed=False`` for the cheap kernels
    that should not count). The count is set for the call only and never above the caller's own
    (``numba.get_num_threads()``: a process that set one thread keeps its batches on one thread);
    ``end`` gives the caller's count back. ``clock`` is for the tests."""

    def __init__(self, fixed: int | None = None, max_threads: int | None = None, clock=time.perf_counter):
        self.fixed = fixed
        self.candidates = candidate_counts(max_threads or numba.config.NUMBA_NUM_THREADS)
        self.clock = clock
        self.tuned = fixed is None and len(self.candidates) > 1
        self.count = fixed if fixed is not None else self.candidates[-1]  # the count of the next call
        self._chosen: int | None = None  # the count the last probe chose
        self._interval = FIRST_INTERVAL
        self._until_probe = 0.0          # seconds of stepping left before the next probe
        self._window = [0.0, 0]          # seconds and calls of the current load-check window
        self._last_window = 0.0          # the mean call of the window before
        self._start = 0.0
        self._outer = 1                  # the caller's count, given back by end()
        self._probe: dict | None = None  # during a probe: count -> [seconds, calls]
        if self.tuned:
            self._start_probe()

    def begin(self) -> None:
        self._outer = numba.get_num_threads()
        numba.set_num_threads(min(self.count, self._outer))
        self._start = self.clock()

    def end(self, timed: bool = True) -> None:
        seconds = self.clock() - self._start
        numba.set_num_threads(self._outer)
        if not (timed and self.tuned):
            return
        if self._probe is not None:
            self._probe_call(seconds)
        else:
            self._steady_call(seconds)

    # --- probing --------------------------------------------------------------------------------
    def _start_probe(self) -> None:
        self._probe = {count: [0.0, 0] for count in self.candidates}
        self.count = self.candidates[0]

    def _probe_call(self, seconds: float) -> None:
        probe = self._probe
        probe[self.count][0] += seconds
        probe[self.count][1] += 1
        spent = sum(t for t, _ in probe.values())
        if min(n for _, n in probe.values()) >= PROBE_CALLS and spent >= PROBE_SECONDS * len(probe):
            self._choose({count: t / n for count, (t, n) in probe.items()})
        else:  # the next candidate in turn
            self.count = self.candidates[(self.candidates.index(self.count) + 1) % len(self.candidates)]

    def _choose(self, costs: dict) -> None:
        best = min(costs, key=costs.get)
        previous = self._chosen
        if previous is not None and costs[best] > SWITCH * costs[previous]:
            best = previous  # not clearly faster: keep the count in use
        self._interval = min(2 * self._interval, LAST_INTERVAL) if best == previous else FIRST_INTERVAL
        self._chosen = self.count = best
        self._until_probe = self._interval
        self._probe = None
        self._window = [0.0, 0]
        self._last_window = 0.0

    # --- between probes -----------------------------------------------------------------------------
    def _steady_call(self, seconds: float) -> None:
        window = self._window
        window[0] += seconds
        window[1] += 1
        if window[0] < WINDOW:
            return
        spent, mean = window[0], window[0] / window[1]
        self._window = [0.0, 0]
        self._until_probe -= spent
        jumped = self._last_window and mean > JUMP * self._last_window
        self._last_window = mean
        if jumped:
            self._interval = FIRST_INTERVAL / 2  # doubled back to FIRST_INTERVAL if the choice holds
            self._start_probe()
        elif self._until_probe <= 0:
            self._start_probe()


class FollowTuner:
    """The thread count of a helper batch (a scratch batch of lookahead): whatever ``leader``, the
    batch it serves, runs on now; its own calls are not timed."""

    def __init__(self, leader: ThreadTuner):
        self.leader = leader
        self._outer = 1

    @property
    def count(self) -> int:
        return self.leader.count

    def begin(self) -> None:
        self._outer = numba.get_num_threads()
        numba.set_num_threads(min(self.leader.count, self._outer))

    def end(self, timed: bool = True) -> None:
        numba.set_num_threads(self._outer)
