"""numba when it is installed, plain Python when it is not.

Every kernel in ``strategy`` is written once, decorated with :func:`njit`, and
keeps its plain-Python original as ``kernel.py_func`` so tests can compare the
two.  Compiled kernels are cached on disk (``cache=True``) so a restart does
not pay compile time again; set ``MJBOT_NO_NUMBA=1`` to force plain Python
(what a Botzone upload without numba runs).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

HAVE_NUMBA = False
if not os.environ.get("MJBOT_NO_NUMBA"):
    try:
        import numba

        HAVE_NUMBA = True
    except ImportError:  # pragma: no cover - exercised by the Botzone package test
        HAVE_NUMBA = False


def njit(cache: bool = True, inline: bool = False) -> Callable[[F], F]:
    """``numba.njit(cache=cache, nogil=True)``, or the function itself with ``py_func``.

    ``inline=True`` inlines a small helper into its jitted callers (numba's
    ``inline="always"``): a call that passes arrays costs reference counting,
    which dominates a helper that does little."""

    def wrap(func: F) -> F:
        if HAVE_NUMBA:
            return numba.njit(cache=cache, nogil=True,  # type: ignore[return-value]
                              inline="always" if inline else "never")(func)
        func.py_func = func  # type: ignore[attr-defined]
        return func

    return wrap
