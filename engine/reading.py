"""Reading a file someone gave us: never blocking on a FIFO or a device, never reading it whole
when it is too large."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_limited(path: str | Path, limit: int) -> bytes:
    """At most ``limit + 1`` bytes of the regular file at ``path`` (one more than ``limit`` says it
    is too large). A FIFO, a device, a socket or a folder raises :class:`OSError` at once: the
    file is opened without blocking, and only a regular file is read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise OSError(errno.ENOENT, "no such file or folder") from None
    try:
        mode = os.fstat(fd).st_mode  # before fdopen, which refuses a folder in the OS's words
    except OSError:
        os.close(fd)
        raise
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = _kind(mode)
        raise OSError(errno.EINVAL, f"is {kind}, not a regular file" if kind.startswith("a ") else kind)
    with os.fdopen(fd, "rb") as handle:
        return handle.read(limit + 1)
