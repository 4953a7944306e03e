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
