"""numba when it is installed, plain Python when it is not.

Every kernel in ``strategy`` is written once, decorated with :func:`njit`, and
keeps its plain-Python original as ``kernel.py_func`` so tests can compare the
two.  Compiled kernels are cached on disk (``cache=True``) so a restart does
not pay compile time again; set ``MJBOT_NO_NUMBA=1`` to force plain Python
(what a Botzone upload without numba runs).

Numba checks a cached kernel only against its own source file, not against the kernels it
calls or inlines from other files: after an edit of ``kernel.py`` the cached
``changes.py`` kernels would still run the old inlined code (numba's known limitation;
found here when a stale cache changed the bot's decisions).  So the cache lives in a
directory named by a fingerprint of every source file of this package
(:func:`sources_fingerprint`: paths, sizes and modification times): any edit anywhere in
``strategy`` starts a new cache.  It is under ``NUMBA_CACHE_DIR`` when that is set (the
Docker image), else in ``strategy/__pycache__``.  Looking at the files' metadata is the
only file-system access in ``strategy``'s kernels, and only to place numba's cache (the
warm-up command, :mod:`strategy.warmup`, also writes the stamp below).

A platform's turn must never wait for a compile (minutes on a loaded machine, while the
turn's clock runs).  :mod:`strategy.warmup` writes a stamp (:data:`STAMP`) into the cache
once every kernel is in it; a process started with ``MJBOT_JIT=cached`` (what the
platform players set, :mod:`bot.start`) uses numba only when that stamp is there, and
else runs every kernel as plain Python (:data:`COLD` says so) while the kernels are
compiled elsewhere.
"""

import hashlib
import importlib.util
import os
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound="Callable[..., Any]")

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
JIT_ENV = "MJBOT_JIT"
"""``cached``: use numba only when every kernel is in the cache (else plain Python)."""
STAMP = "warm"
"""The file :mod:`strategy.warmup` writes into :func:`cache_dir` once every kernel is there."""


def sources_fingerprint(root: str = PACKAGE_DIR) -> str:
    """A short hash of the path, size and modification time of every ``.py`` under ``root``."""
    h = hashlib.sha256()
    for folder, dirs, files in sorted(os.walk(root)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                st = os.stat(os.path.join(folder, name))
                rel = os.path.relpath(os.path.join(folder, name), root)
                h.update(f"{rel}:{st.st_size}:{st.st_mtime_ns};".encode())
    return h.hexdigest()[:16]


def cache_dir(base: "str | None" = None) -> str:
    """Where the compiled kernels of this version of the sources are cached."""
    if base is None:
        base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(PACKAGE_DIR, "__pycache__")
    return os.path.join(base, f"mjbot-kernels-{sources_fingerprint()}")


def kernels_cached(base: "str | None" = None) -> bool:
    """Whether the warm-up has put every kernel of these sources into the cache."""
    return os.path.exists(os.path.join(cache_dir(base), STAMP))


def numba_installed() -> bool:
    """Whether numba can be imported (without importing it)."""
    try:
        return importlib.util.find_spec("numba") is not None
    except (ImportError, ValueError):
        return False


COLD = False
"""numba is there but its kernels are not compiled, and this process (``MJBOT_JIT=cached``)
runs them as plain Python instead of compiling."""
HAVE_NUMBA = False
if not os.environ.get("MJBOT_NO_NUMBA"):
    if os.environ.get(JIT_ENV) == "cached" and numba_installed() and not kernels_cached():
        COLD = True
    else:
        try:
            import numba

            HAVE_NUMBA = True
        except ImportError:  # pragma: no cover - exercised by the Botzone package test
            HAVE_NUMBA = False

if HAVE_NUMBA:
    numba.config.CACHE_DIR = cache_dir()  # type: ignore[attr-defined]


def njit(cache: bool = True, inline: bool = False,
         signature: "str | None" = None) -> "Callable[[F], F]":
    """``numba.njit(cache=cache, nogil=True)``, or the function itself with ``py_func``.

    ``inline=True`` inlines a small helper into its jitted callers (numba's
    ``inline="always"``): a call that passes arrays costs reference counting,
    which dominates a helper that does little.  ``signature`` compiles that one
    signature only: a call with other argument types raises ``TypeError`` at once
    (no compilation), which lets a public function skip checking types itself."""

    def wrap(func: "F") -> "F":
        if HAVE_NUMBA:
            args = () if signature is None else (signature,)
            jit = numba.njit(*args, cache=cache, nogil=True,  # type: ignore[call-overload]
                             inline="always" if inline else "never")
            return jit(func)  # type: ignore[no-any-return]
        func.py_func = func  # type: ignore[attr-defined]
        return func

    return wrap
