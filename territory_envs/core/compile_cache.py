"""Keep numba's on-disk cache of this package in step with its sources.

Numba invalidates a cached function when the file that defines it changes, but not when a kernel
it calls from another file does (numba's documentation, "Cache invalidation"). After an edit or an
upgrade of ``core/kernels.py``, Lifeline's cached batch step would go on running the old kernel,
compiled into it. So the cache is stamped with a hash of all the package's sources; at import, a
different hash clears it and the kernels compile afresh on first use.
"""
from __future__ import annotations

import hashlib
import os
import sys

STAMP = "numba_sources.sha256"


def sources_digest(package_dir: str) -> str:
    digest = hashlib.sha256()
    for root, dirs, files in sorted(os.walk(package_dir)):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(root, name)
                digest.update(os.path.relpath(path, package_dir).encode())
                with open(path, "rb") as f:
                    digest.update(f.read())
    return digest.hexdigest()


def clear_stale_cache(package_dir: str) -> bool:
    """Remove the package's numba cache files if its sources changed since they were stamped.
    Returns whether files were removed. Only the default cache (``__pycache__`` beside the sources)
    is looked after: with ``NUMBA_CACHE_DIR`` set, clearing it is the user's call."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return False
    digest = sources_digest(package_dir)
    stamp = os.path.join(package_dir, "__pycache__", STAMP)
    try:
        with open(stamp) as f:
            if f.read() == digest:
                return False
    except OSError:
        pass
    removed = False
    for root, _, files in os.walk(package_dir):
        if os.path.basename(root) != "__pycache__":
            continue
        for name in files:
            if name.endswith((".nbi", ".nbc")):
                try:
                    os.remove(os.path.join(root, name))
                    removed = True
                except OSError:
                    pass  # another process removed it, or a read-only install: numba copes
    try:
        os.makedirs(os.path.dirname(stamp), exist_ok=True)
        with open(stamp, "w") as f:
            f.write(digest)
    except OSError:
        pass
    return removed


# --- the first-use notice ---------------------------------------------------------------------
# Numba compiles a game's kernels the first time they run (seconds to half a minute each game)
# and then loads them from the cache above. ``announce_compile`` tells the user, in one line, when
# that is about to happen. It only reads the cache's index files: no compilation, well under a
# millisecond when the kernels are cached.

LOGGER_NAME = "territory_envs"
QUIET_ENV = "TERRITORY_ENVS_QUIET"

_announced: set = set()  # (game, "env" or "vector") told in this process


def _dispatchers(game: str, batch: bool) -> list:
    """``(dispatcher, game type or None)`` for the cached numba kernels ``game``'s first use runs:
    the generic batch step (compiled per game, so the entry of ``game``'s type) or the kernels of
    the game's package (its turn, mask and planes: every module of it imported with its Game class)."""
    import importlib

    from numba.core.dispatcher import Dispatcher
    from .declaration import declared
    compiled = declared(game).game_class.compiled
    if batch:
        from .batch import batch_step
        return [(batch_step, compiled.numba_type)]
    package = compiled.functions["act"].py_func.__module__.rsplit(".", 1)[0]
    importlib.import_module(package)
    modules = [m for name, m in list(sys.modules.items()) if name.startswith(package + ".") and m is not None]
    return [(obj, None) for module in modules for obj in vars(module).values()
            if isinstance(obj, Dispatcher) and obj.py_func.__module__ == module.__name__
            and hasattr(obj._cache, "_cache_file")]


def _cached(dispatcher, game_type=None) -> bool:
    """Does numba's index of ``dispatcher`` (wherever numba keeps it: ``__pycache__``, the user-wide
    cache or ``NUMBA_CACHE_DIR``) hold a fresh entry for this function's code on this CPU (and for
    ``game_type`` among its arguments, if given)? The test is numba's own: source stamp, numba
    version, CPU and bytecode hash of the index key."""
    cache = dispatcher._cache
    overloads = cache._cache_file._load_index()  # {} when missing, stale or of another numba
    if not overloads:
        return False
    magic = dispatcher.targetctx.codegen().magic_tuple()
    code = hashlib.sha256(dispatcher.py_func.__code__.co_code).hexdigest()
    return any(key[1] == magic and key[2][0] == code and (game_type is None or game_type in key[0])
               for key in overloads)


def kernels_cached(game: str, vector: bool = False) -> bool | None:
    """Will ``game``'s kernels load from the cache (True) or compile (False) on this run? ``vector``:
    the batched kernels of ``make_vec``, else those of the AEC env and state API. ``None`` when it
    cannot tell (numba's JIT disabled, or numba's internals moved). Any fresh kernel of the set
    counts as cached: a cache is filled or cleared as a whole (a first run, an upgrade, another
    CPU), and the kernels of one set compile together on the first step."""
    try:
        kernels = _dispatchers(game, batch=vector)
        if not kernels:
            return None
        return any(_cached(d, game_type) for d, game_type in kernels)
    except Exception:  # a notice must never break a game
        return None


def _quiet() -> bool:
    return os.environ.get(QUIET_ENV, "").strip().lower() not in ("", "0", "false", "no")


def _emit(text: str) -> None:
    """One INFO record on the ``territory_envs`` logger. Its threshold is INFO unless the user set
    the logger's level (``logging.getLogger("territory_envs").setLevel(logging.WARNING)`` hides
    it); with logging configured anywhere the record goes to those handlers, else to stderr."""
    import logging
    import sys
    logger = logging.getLogger(LOGGER_NAME)
    if logger.disabled or logger.level > logging.INFO:
        return
    if logger.hasHandlers():
        logger.handle(logger.makeRecord(LOGGER_NAME, logging.INFO, __file__, 0, text, None, None))
    else:
        print(text, file=sys.stderr, flush=True)


def announce_compile(game: str, vector: bool = False) -> bool:
    """Say on stderr (once per process and game) that ``game``'s kernels are about to compile, with
    the usual time, when the cache does not hold them; ``vector`` for ``make_vec``'s batched env,
    which compiles the env's kernels too. Returns whether a line was written. Silenced by
    ``TERRITORY_ENVS_QUIET=1`` or by the logger's level (see :func:`_emit`)."""
    from .declaration import declared
    declaration = declared(game)
    if declaration.cold_seconds is None or _quiet():
        return False
    kinds = [("env", False)] + ([("vector", True)] if vector else [])
    todo = [kind for kind, batch in kinds if (game, kind) not in _announced and kernels_cached(game, batch) is False]
    _announced.update((game, kind) for kind, _ in kinds)
    if not todo:
        return False
    env_s, vec_s = declaration.cold_seconds  # typical seconds to the end of the first step, cache empty
    seconds = env_s if todo == ["env"] else vec_s if "env" in todo else max(1, vec_s - env_s)
    what = "batched kernels" if todo == ["vector"] else "kernels"
    _emit(f"territory_envs: compiling {declaration.title}'s {what} once, about {seconds} s on a 2-core machine; "
          f"later runs load them from numba's cache. `python -m territory_envs.warmup` compiles all four "
          f"games ahead ({QUIET_ENV}=1 hides this line).")
    return True
