"""Atomic file writes: a crash, a kill or a full disk leaves either the old file or the new one.

The new content goes to a temporary file beside the target, named ``.NAME.PID.XXXXXXXX.tmp``
(the writer's process id, then mkstemp's random part), flushed and fsynced, then renamed over
the target. A writer killed on the way leaves its temporary file behind: the next write of the
same file removes every such leftover whose writer is gone (and, from before the process id was
in the name, ``.NAME.XXXXXXXX.tmp`` files older than a minute), never another live writer's.

A symbolic link is written through: the link's target gets the new content and the link stays.

A device or a named pipe (``-o /dev/null``, a FIFO) is written to as a stream, never renamed over: the
rename replaced the device node itself with a regular file (``hub pull -o /dev/full --force``, as root,
left /dev/full a plain file). A FIFO no process reads is refused at once rather than waited on.

An existing file the system says this process may not write (``os.access``) is refused with a
:class:`PermissionError`, as a plain ``open(path, "w")`` would refuse it: the rename needs only the
folder's permission, so without the check a read-only file would be replaced without a word.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
import time
from pathlib import Path

# A temporary file without a process id is taken as a leftover only when at least this old:
# no save takes that long between creating it and renaming it.
UNNAMED_STALE_SECONDS = 60.0


def _target(path: Path) -> Path:
    """Where the bytes go: a symbolic link's final target (even a dangling one), else ``path``."""
    path = path.absolute()
    if path.is_symlink():
        return Path(os.path.realpath(path))
    return path


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True  # this process's own writers (another thread) are live
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # someone else's process: alive, or at least not ours to judge
    return True


def remove_stale_temporaries(path: Path) -> list[Path]:
    """Remove the temporary files earlier writes of ``path`` left behind (see the module text);
    return what was removed. Files of any other name are never touched."""
    path = _target(path)
    pattern = re.compile(r"\." + re.escape(path.name) + r"\.(?:(?P<pid>[0-9]+)\.)?[a-z0-9_]{8}\.tmp")
    removed = []
    try:
        entries = list(os.scandir(path.parent))
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        match = pattern.fullmatch(entry.name)
        if match is None:
            continue
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            pid = match.group("pid")
            if pid is not None:
                stale = not _alive(int(pid))
            else:
                stale = now - entry.stat(follow_symlinks=False).st_mtime > UNNAMED_STALE_SECONDS
            if stale:
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue  # gone already, or not ours to remove
    return removed


def refuse_read_only(path: Path) -> None:
    """Raise :class:`PermissionError` (``strerror`` "the file is read-only", ``filename`` the file)
    when ``path`` exists and the system says this process may not write it. Root may write any
    file, so for root nothing is refused, as for a plain write."""
    path = _target(Path(path))
    if path.exists() and not path.is_dir() and not os.access(path, os.W_OK):
        raise PermissionError(errno.EACCES, "the file is read-only", str(path))


def atomic_write(path: Path, data: bytes, mode: int | None = None) -> None:
    """Write ``data`` to ``path`` so a crash leaves either the old file or the new one.

    A temporary file in the same directory, flushed and fsynced, then ``os.replace``.
    ``mode`` sets the permissions (``0o600`` for a secret; the file is never readable
    by others on the way); without it an existing file keeps its mode, a new one gets 0644.
    Through a symbolic link, the link's target is written and the link kept. A read-only file is
    refused (:func:`refuse_read_only`) and left as it is.
    """
    path = _target(Path(path))
    refuse_read_only(path)
    try:
        special = not stat.S_ISREG(kind := os.stat(path).st_mode) and not stat.S_ISDIR(kind)
    except OSError:  # not there yet (or not to be looked at): the rename below says what is wrong
        special = False
    if special:
        _write_through(path, data)
        return
    remove_stale_temporaries(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        elif path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o7777)
        else:
            os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:
        dir_fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def _write_through(path: Path, data: bytes) -> None:
    """``data`` written into the device or pipe at ``path`` as a stream (no temporary file, no rename).
    Opened without blocking, so a FIFO with no reader fails at once (ENXIO), then written blocking."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise OSError(errno.ENXIO, "a named pipe no process reads", str(path)) from None
        raise
    os.set_blocking(fd, True)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
