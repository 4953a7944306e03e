"""The threads of torch and numba in a process that plays or trains, and what a worker process
starts with (:func:`start_worker`).

PyTorch starts as many threads as the machine has cores, in every process. Processes that each
hold a network (the arena's workers, the trainer's self-play processes and Ray actors) then fight
over the cores: two Lifeline games of ``az`` against random took 11-89 s each on two shared cores
with torch's default threads, and 1.5 s with one thread. So every process this package starts sets
its threads (:func:`set_threads`, one each by default); an agent used in a caller's own process
runs on whatever the caller set (on shared cores, ``torch.set_num_threads(1)``).
"""
from __future__ import annotations


def set_threads(threads: int) -> None:
    """Run torch (where it is installed) and numba in this process on ``threads`` threads.

    torch is imported here if it is not yet: numba's OpenMP layer, once started, sets the thread
    count that a later torch import would take as its default (the cores), whatever
    ``OMP_NUM_THREADS`` says."""
    threads = int(threads)
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None:
        torch.set_num_threads(threads)
    import numba
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))


def start_worker(threads: int, games: tuple = ()) -> None:
    """The start of a worker process the arena or the trainer spawns: torch and numba on ``threads``
    threads, and the games ``games`` (their ``GameDeclaration``) registered, so that a game the
    parent registered (one of the user's) is known there too; the four games of the package always
    are."""
    set_threads(threads)
    if games:
        from territory_envs import register_game
        for declaration in games:
            register_game(declaration)


def current_threads() -> dict:
    """``{"torch": ..., "numba": ...}``: the threads this process runs on now (torch imported if
    it is not yet)."""
    import numba
    import torch
    return {"torch": torch.get_num_threads(), "numba": numba.get_num_threads()}
