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


def link_loops(path: Path) -> bool:
    """Whether ``path`` is a symbolic link whose links never end (a link to itself, two links to each other):
    such a path does not exist, and a command that would take it for a new or empty file must refuse it."""
    if not path.is_symlink():
        return False
    try:
        path.stat()
    except OSError as exc:
        return exc.errno == errno.ELOOP
    return False


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


# Byte order marks of the encodings a text editor may save in instead of UTF-8 (UTF-32's first: its little-endian
# mark begins with UTF-16's).
_MARKS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"), (b"\xff\xfe", "UTF-16"),
          (b"\xfe\xff", "UTF-16"))


def other_encoding(raw: bytes) -> str | None:
    """The encoding a file's byte order mark names when it is not UTF-8 ("UTF-16", "UTF-32"), else None: such a
    file is not UTF-8 from its first byte, and saying so tells the author what to change."""
    return next((name for mark, name in _MARKS if raw.startswith(mark)), None)
