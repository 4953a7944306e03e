"""``@kernel``: numba's ``njit(cache=True)`` with one compiled variant per argument shape.

numba compiles a function once for every distinct tuple of argument types it is called with from
compiled code, and integers carry their width into that tuple: a label read from an ``int16`` array
in one caller and an ``int32`` array in another compiles the callee twice, each a whole compilation
of a kernel and what it calls.

A ``kernel`` called from compiled code takes its integer arguments as ``int64`` (signed integers
narrower than 64 bits are widened; unsigned integers such as hash keys keep their type), so each
call shape compiles once; the caller converts its values at the call, as numba does for a function
with declared signatures. Literal constants keep their value: a flag or a count passed as a constant
is folded into the callee, which is worth more at run time (Linage's step ran 5-8% slower without
it) than the compile time its copies cost. Arrays keep their types. Results are the same: numba's
integer arithmetic is in ``int64`` anyway.
"""
from __future__ import annotations

from numba import types
from numba.core.registry import CPUDispatcher


def widened(arg_type):
    """The type a ``kernel`` compiles for an argument of ``arg_type``."""
    if isinstance(arg_type, types.Integer) and arg_type.signed and arg_type.bitwidth < 64:
        return types.int64
    return arg_type


class KernelDispatcher(CPUDispatcher):
    """numba's dispatcher, compiling calls from compiled code for their :func:`widened` types."""

    def get_call_template(self, args, kws):
        _, args = self._compiler.fold_argument_types(args, kws)
        return super().get_call_template(tuple(widened(a) for a in args), {})


def kernel(function=None, **options):
    """``@kernel`` or ``@kernel(parallel=True)``, ``@kernel(inline="always")``: ``numba.njit``
    with ``cache=True`` and these options, through :class:`KernelDispatcher`."""
    def compile_later(py_function):
        dispatcher = KernelDispatcher(py_func=py_function, targetoptions={"nopython": True, **options})
        dispatcher.enable_caching()
        return dispatcher
    return compile_later if function is None else compile_later(function)
