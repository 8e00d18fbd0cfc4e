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
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    with os.fdopen(fd, "rb") as handle:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = _kind(mode)
            raise OSError(errno.EINVAL, f"is {kind}, not a regular file" if kind.startswith("a ") else kind)
        return handle.read(limit + 1)
