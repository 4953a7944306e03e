"""The layout of a Lifeline game's scalar row ``s`` (its head is every game's,
:mod:`territory_envs.core.fields`) and the declaration of the state's fields (:data:`FIELDS`). The
rules that read or write the row are in :mod:`.rules`."""
from __future__ import annotations

import numpy as np

from ...core.fields import HEAD, Array, Fields, RowField
from .structure import MEMO_DTYPE, memo_size

# A game's scalars live in one int32 row (its head is every game's, core/fields.py), so one
# function serves a single state and a batch.
PENDING, FIRST_BLACK, FIRST_WHITE, SWAP_USED, REMOVAL_ON, KOMI_LEFT, ALL_ALIVE = range(HEAD, HEAD + 7)
NUM_SCALARS = HEAD + 7

FIELDS = Fields(
    NUM_SCALARS,
    row=(RowField("pending", PENDING, low=-1, high=lambda g: g.num_cells - 1),
         RowField("first_turn_done", FIRST_BLACK, bool, length=2),
         RowField("swap_used", SWAP_USED, bool),
         RowField("removal_on", REMOVAL_ON, bool),
         RowField("komi_left", KOMI_LEFT, high=lambda g: g.options["komi"] if g.options["pie"] == "komi" else 0)),
    arrays=(Array("alive_cell", np.bool_, lambda g: (g.num_cells,)),  # stones in living groups
            Array("links", np.int8, lambda g: (g.num_cells,)),  # bit k: the cell joins two groups of side k
            Array("memo", MEMO_DTYPE, lambda g: (memo_size(g.num_cells),))))  # the structure kept (structure.py)
