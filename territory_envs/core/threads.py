"""How many threads a batch's compiled kernels run on: a number the user fixes, or one the batch
finds by watching its own steps.

numba runs ``prange`` loops on OpenMP's threads, which spin at the barrier that ends every loop.
On idle cores that is what makes a batch fast (two threads step Lin's 1,024 games about 1.8 times
as fast as one). When another busy process shares the cores, a thread that loses its core holds up
the barrier while the others spin, and every step waits on the scheduler: measured on two cores
beside one busy process, Lin's batch stepped 2-3 times slower on two threads than on one
(``benchmarks/contention.py``). No setting fixed ahead wins both cases (a passive wait policy or a
short spin costs 15-25% of the idle speed; chunked scheduling keeps the barrier), and short timing
probes do not see the stalls (they come a few scheduler slices apart), so by default a batch
watches the CPU time its threads get:

* first, a *probe* times each candidate count (1, the powers of two below the maximum, the
  maximum) for ``PROBE_CALLS`` calls and ``PROBE_SECONDS``, after one call to settle, and keeps the
  fastest (one thread for a small batch, every core for a large one);
* then, over every window of ``WINDOW`` seconds of steps, the process's CPU time is compared with
  ``count`` times the wall time. Threads that lose their cores lose CPU time; when the loss reaches
  ``LOST`` of a thread, the batch steps down to the next lower count at once;
* below the maximum, the batch tries the next higher count for one window after
  ``FIRST_INTERVAL`` seconds of stepping, and keeps it when it loses no CPU time and steps faster;
  a failed try doubles the wait, up to ``LAST_INTERVAL`` (so a small batch, best on one thread,
  spends about one window in 80 on two, and a probe misled by the first steps is put right).

A large batch on idle cores runs on every core with nothing probed after the start. The watch reads the whole process's CPU time: a
process whose other threads compute while the batch steps hides the loss, and its batch then
behaves as a fixed count would. The count only decides how the games are spread over threads,
never what they do: every game draws from its own random stream, so a batch gives the same games
on any number of threads.
"""
from __future__ import annotations

import time

import numba

PROBE_CALLS = 2        # timed calls per candidate in the first probe, at least
PROBE_SECONDS = 0.02   # and seconds per candidate
WINDOW = 0.1           # seconds of steps per look at the CPU time (the stalls come a few ms apart)
LOST = 0.4             # threads' worth of CPU time lost in a window that steps the count down
FIRST_INTERVAL = 0.5   # seconds of stepping before trying a higher count again
LAST_INTERVAL = 8.0    # and at most, after failed tries
SWITCH = 0.95          # a higher count is kept when it steps in under this share of the lower one's time


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
    ``end`` gives the caller's count back. ``clock`` and ``cpu_clock`` are for the tests."""

    def __init__(self, fixed: int | None = None, max_threads: int | None = None, clock=time.perf_counter,
                 cpu_clock=time.process_time):
        self.fixed = fixed
        self.candidates = candidate_counts(max_threads or numba.config.NUMBA_NUM_THREADS)
        self.clock, self.cpu_clock = clock, cpu_clock
        self.tuned = fixed is None and len(self.candidates) > 1
        self.count = fixed if fixed is not None else self.candidates[-1]  # the count of the next call
        self._phase = "warm-up" if self.tuned else "fixed"  # warm-up, probe, steady, trying
        self._probe: list[float] = []    # the first probe's time per call of each candidate so far
        self._settled = False            # a probe block's first call (untimed) is done
        self._window = [0.0, 0.0, 0]     # wall seconds, CPU seconds, calls of the current window or block
        self._lower_cost = 0.0           # while trying a higher count: the time per call below it
        self._interval = FIRST_INTERVAL
        self._until_try = 0.0            # seconds of stepping before the next try of a higher count
        self._start = self._cpu_start = 0.0
        self._threads = 1                # the threads of the current call
        self._outer = 1                  # the caller's count, given back by end()

    def begin(self) -> None:
        self._outer = numba.get_num_threads()
        self._threads = min(self.count, self._outer)
        numba.set_num_threads(self._threads)
        self._cpu_start = self.cpu_clock()
        self._start = self.clock()

    def end(self, timed: bool = True) -> None:
        wall = self.clock() - self._start
        cpu = self.cpu_clock() - self._cpu_start
        numba.set_num_threads(self._outer)
        if not (timed and self.tuned):
            return
        if self._phase == "warm-up":  # the first call may compile or load the kernels: never timed
            self._phase = "probe"
            self.count = self.candidates[0]
            return
        if self._phase == "probe":
            self._probe_call(wall)
            return
        window = self._window
        window[0] += wall
        window[1] += cpu / self._threads
        window[2] += 1
        if window[0] >= WINDOW:
            self._window = [0.0, 0.0, 0]
            self._look(*window)

    def _probe_call(self, wall: float) -> None:
        if not self._settled:  # the first call on a new count pays for the change
            self._settled = True
            return
        window = self._window
        window[0] += wall
        window[2] += 1
        if window[2] < PROBE_CALLS or window[0] < PROBE_SECONDS:
            return
        self._probe.append(window[0] / window[2])
        self._window = [0.0, 0.0, 0]
        self._settled = False
        if len(self._probe) < len(self.candidates):
            self.count = self.candidates[len(self._probe)]
            return
        self.count = self.candidates[self._probe.index(min(self._probe))]
        self._phase = "steady"
        self._until_try = self._interval

    def _look(self, wall: float, cpu_per_thread: float, calls: int) -> None:
        """At the end of a window: step down when the threads lost CPU time, keep or drop a tried
        higher count, try one when it is time."""
        lost = (1 - cpu_per_thread / wall) * self._threads  # threads' worth of CPU time not given
        cost = wall / calls
        lower = self.candidates.index(self.count) - 1
        if self._phase == "trying":
            self._phase = "steady"
            if lost < LOST and cost < SWITCH * self._lower_cost:
                self._interval = FIRST_INTERVAL
            else:  # back down, and wait longer before the next try
                self.count = self.candidates[lower]
                self._interval = min(2 * self._interval, LAST_INTERVAL)
            self._until_try = self._interval
        elif lost >= LOST and lower >= 0:
            self.count = self.candidates[lower]
            self._interval = FIRST_INTERVAL
            self._until_try = self._interval
        elif self.count < self.candidates[-1]:
            self._until_try -= wall
            if self._until_try <= 0:
                self._phase = "trying"
                self._lower_cost = cost
                self.count = self.candidates[lower + 2]


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
