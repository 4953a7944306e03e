"""``python -m agents.train``: the self-play trainer's command (see :mod:`agents.az.train`)."""
import sys

from agents.az.train import main

if __name__ == "__main__":
    sys.exit(main())
