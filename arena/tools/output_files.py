"""Files mjbot writes, written so that a planted link or a wrong path does no harm.

- :func:`create_new`: a file that must not exist yet (the seats' secrets): created
  exclusively, never through a symbolic link (``O_CREAT | O_EXCL | O_NOFOLLOW``).
- :func:`replace_file`: a file mjbot may write again (a game record, a page, a broker
  configuration with ``--overwrite``): written to a new file beside it, then renamed over
  it, so a symbolic link there is replaced, never followed, and nobody reads half a file.
- :func:`output_directory`: a directory for many files (``--records DIR``), checked and
  made before the first game, not found wrong at the end of one.

Every refusal is an :class:`OutputError` naming the path and what is wrong with it.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path


class OutputError(ValueError):
    """An output path mjbot will not write."""


def create_new(path: Path, text: str, mode: int = 0o644) -> None:
    """Write ``text`` to ``path``, which must not exist (not even as a link); ``mode``
    is set whatever the umask."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    except FileExistsError:
        what = "a symbolic link" if path.is_symlink() else "exists"
        raise OutputError(f"{path}: {what}; not overwritten (remove it, or choose another "
                          "path)") from None
    try:
        os.fchmod(fd, mode)
        _write_all(fd, text.encode())
    finally:
        os.close(fd)


def replace_file(path: Path, text: str, mode: int = 0o644) -> None:
    """Write ``text`` as ``path``: to a new file in the same directory, then renamed over
    ``path`` (a link at ``path`` is replaced, not followed; a directory is refused)."""
    if path.is_dir() and not path.is_symlink():
        raise OutputError(f"{path}: is a directory, not a file")
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    try:
        try:
            os.fchmod(fd, mode)
            _write_all(fd, text.encode())
        finally:
            os.close(fd)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise


def output_directory(path: Path, option: str = "--records") -> Path:
    """``path`` as a directory to write into, made if missing; :class:`OutputError` if it
    is something else (a file, say) or cannot be made."""
    if path.exists() and not path.is_dir():
        raise OutputError(f"{option} {path}: not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{option} {path}: cannot make the directory: "
                          f"{exc.strerror or exc}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise OutputError(f"{option} {path}: not writable")
    return path


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


__all__ = ["OutputError", "create_new", "output_directory", "replace_file"]
