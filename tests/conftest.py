"""What every test leaves as it found it: the process's numba and torch thread counts. The CLIs
(the arena, the trainer) set their own process's threads when they run in it, as a user's process
would; a test that runs one in-process must not leave the tests after it on one thread."""
import sys

import numba
import pytest


@pytest.fixture(autouse=True)
def _threads_kept():
    numba_threads = numba.get_num_threads()
    torch = sys.modules.get("torch")
    torch_threads = torch.get_num_threads() if torch is not None else None
    yield
    numba.set_num_threads(numba_threads)
    torch = sys.modules.get("torch")
    if torch is not None and torch_threads is not None and torch.get_num_threads() != torch_threads:
        torch.set_num_threads(torch_threads)
