"""Loaded first by a Python that has this folder on its path: starting a process is an
error, said on stderr ("started a process") and raised.  The upload gate plays the zip
under it, because the upload starts no process.  CPython 3.6 code, like the upload."""

import os
import subprocess
import sys


def _refuse(*args, **kwargs):
    sys.stderr.write(f"mjbot upload gate: the upload started a process ({args[:2]!r})\n")
    sys.stderr.flush()
    raise RuntimeError("the upload started a process")


subprocess.Popen._execute_child = _refuse  # type: ignore[method-assign]
for _name in ("fork", "forkpty", "system", "spawnv", "spawnve", "execv", "execve",
              "posix_spawn", "posix_spawnp"):
    if hasattr(os, _name):
        setattr(os, _name, _refuse)
