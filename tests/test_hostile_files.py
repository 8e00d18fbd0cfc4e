"""Files (issue 18.7): a save killed half-way leaves a temporary file the next save removes, a
save through a symbolic link writes the link's target, and an output that cannot be written is
refused before the work, with a clear message."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardrogue.cli.main import main
from cardrogue.engine.format.loader import load_campaign
from cardrogue.engine.records import atomic
from cardrogue.engine.records.atomic import atomic_write, remove_stale_temporaries


def corridor(folder: Path) -> Path:
    """Par 2 (the same corridor as test_solve_cli)."""
    cells = [{"at": [0, 0], "card": "starting-tile", "paths": "E", "face": "up"},
             {"at": [1, 0], "card": "pathing-tile", "paths": "EW", "face": "up"},
             {"at": [2, 0], "card": "pathing-tile", "paths": "EW", "face": "up"},
             {"at": [3, 0], "card": "pathing-tile", "paths": "W", "face": "up", "exit": True}]
    doc = {"format": 1, "id": "corridor", "title": "Corridor", "rules": "1.1.2", "seed": 3,
           "hero": {"character": "warrior"}, "levels": [{"id": "only", "width": 4, "height": 1, "cells": cells}]}
    path = folder / "corridor.json"
    path.write_text(json.dumps(doc, indent=2))
    return path


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def temporaries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# --------------------------------------------------------------------------- stale temporary files


def test_a_save_killed_half_way_leaves_a_temporary_file_the_next_save_removes(tmp_path):
    """The editor killed during a save left a full-size `.NAME.json.XXXX.tmp` no later save
    removed. The killed writer is gone, so the next save of the same file removes it."""
    target = tmp_path / "map.json"
    target.write_bytes(b"old")
    script = ("import os, sys, time\n"
              "from pathlib import Path\n"
              "from cardrogue.engine.records.atomic import atomic_write\n"
              "def hang(*args):\n"
              "    print('ready', flush=True)\n"
              "    time.sleep(600)\n"
              "os.replace = hang\n"
              f"atomic_write(Path({str(target)!r}), b'x' * 100000)\n")
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "ready"
    finally:
        child.kill()
        child.wait()
    [left] = temporaries(tmp_path)
    assert (tmp_path / left).stat().st_size == 100000 and target.read_bytes() == b"old"
    atomic_write(target, b"new")
    assert temporaries(tmp_path) == [] and target.read_bytes() == b"new"


def test_only_leftovers_of_the_same_file_from_gone_writers_are_removed(tmp_path):
    target = tmp_path / "map.json"
    gone = dead_pid()
    old = time.time() - 3600
    files = {
        f".map.json.{gone}.abcd1234.tmp": True,  # its writer is gone
        ".map.json.abcd_123.tmp": False,  # no process id, and fresh: perhaps being written
        ".map.json.zzzz9999.tmp": True,  # no process id, an hour old
        f".map.json.{os.getpid()}.live1234.tmp": False,  # a live writer (this process)
        f".other.json.{gone}.abcd1234.tmp": False,  # another file's
        f".map.json.b.json.{gone}.abcd1234.tmp": False,  # not this file's pattern
        "map.json.bak": False,
    }
    for name in files:
        (tmp_path / name).write_text("x")
    os.utime(tmp_path / ".map.json.zzzz9999.tmp", (old, old))
    removed = {p.name for p in remove_stale_temporaries(target)}
    assert removed == {name for name, stale in files.items() if stale}
    assert all((tmp_path / name).exists() != stale for name, stale in files.items())


def test_a_temporary_file_names_its_writer(tmp_path, monkeypatch):
    seen = []
    real = os.replace
    monkeypatch.setattr(atomic.os, "replace", lambda tmp, path: (seen.append(Path(tmp).name), real(tmp, path)))
    atomic_write(tmp_path / "map.json", b"{}")
    assert seen[0].startswith(f".map.json.{os.getpid()}.") and seen[0].endswith(".tmp")


# --------------------------------------------------------------------------- devices and pipes


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_a_named_pipe_is_written_as_a_stream_never_renamed_over(tmp_path):
    """The rename of a save replaced what stood at the path: a device node (``hub pull -o /dev/full
    --force`` as root left /dev/full a plain file; ``solve -o /dev/null`` would have done the same to
    /dev/null) or a named pipe. A device or a pipe takes the bytes as a stream; a pipe no process reads
    is refused at once, not waited on. (A FIFO stands for a device here: making one needs root.)"""
    import stat

    pipe = tmp_path / "out.fifo"
    os.mkfifo(pipe)
    with pytest.raises(OSError, match="a named pipe no process reads"):
        atomic_write(pipe, b"nobody reads")
    reader = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)  # a reader now: the bytes wait in the pipe
    try:
        atomic_write(pipe, b'{"a": 1}')
        got = [os.read(reader, 100)]
    finally:
        os.close(reader)
    assert got == [b'{"a": 1}'] and stat.S_ISFIFO(os.stat(pipe).st_mode)
    assert temporaries(tmp_path) == []


# --------------------------------------------------------------------------- symbolic links


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")
def test_a_save_through_a_symbolic_link_writes_its_target(tmp_path):
    real = tmp_path / "maps" / "real.json"
    real.parent.mkdir()
    real.write_bytes(b"old")
    link = tmp_path / "link.json"
    link.symlink_to(Path("maps") / "real.json")
    atomic_write(link, b"new")
    assert link.is_symlink() and real.read_bytes() == b"new"
    assert temporaries(tmp_path) == [] and temporaries(real.parent) == []


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links")
def test_solve_write_par_through_a_symbolic_link_keeps_the_link(tmp_path, capsys):
    real = corridor(tmp_path)
    link = tmp_path / "linked.json"
    link.symlink_to(real.name)
    assert main(["solve", str(link), "--write-par"]) == 0
    assert link.is_symlink() and load_campaign(real).campaign.par.turns == 2
    assert "par recorded" in capsys.readouterr().out


# --------------------------------------------------------------------------- outputs that cannot be written


def test_write_par_into_a_folder_that_is_not_writable_is_refused_before_the_solve(tmp_path, capsys, monkeypatch):
    """`solve --write-par` in a read-only folder ended, after the whole solve, in an internal
    error. The folder is now looked at first (the system is asked, so this holds for root too)."""
    path = corridor(tmp_path)
    before = path.read_bytes()
    monkeypatch.setattr(os, "access", lambda p, mode: Path(p) != tmp_path)
    assert main(["solve", str(path), "--write-par"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and f"{path}: the folder {tmp_path} is not writable" in err
    assert path.read_bytes() == before


def test_write_par_on_a_read_only_file_is_refused_before_the_solve(tmp_path, capsys, monkeypatch):
    path = corridor(tmp_path)
    monkeypatch.setattr(os, "access", lambda p, mode: Path(p) != path)
    assert main(["solve", str(path), "--write-par"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and f"{path}: the file is read-only" in err


def test_write_par_on_a_full_disk_says_so_and_leaves_the_file(tmp_path, capsys, monkeypatch):
    path = corridor(tmp_path)
    before = path.read_bytes()

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic, "atomic_write", full)
    assert main(["solve", str(path), "--write-par"]) == 2
    out, err = capsys.readouterr()
    assert f"{path}: cannot record the par (No space left on device); the file is unchanged" in err
    assert "internal error" not in err and path.read_bytes() == before


# --------------------------------------------------------------------------- read-only files


def _as_unprivileged(folder: Path, work) -> str:
    """``work()`` run as this user, or as root in a forked child that has become ``nobody`` (root
    writes any file, so a read-only file bites only an unprivileged user); its answer comes back
    as text ("replaced", or the error's strerror)."""
    if os.geteuid() != 0:
        return work()
    import pwd

    user = pwd.getpwnam("nobody")
    for path in (folder, *folder.iterdir()):
        os.chown(path, user.pw_uid, user.pw_gid)
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        try:
            os.close(reader)
            os.setgroups([])
            os.setgid(user.pw_gid)
            os.setuid(user.pw_uid)
            os.write(writer, work().encode())
        finally:
            os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as pipe:
        answer = pipe.read().decode()
    os.waitpid(pid, 0)
    return answer


def test_a_save_over_a_read_only_file_is_refused_and_leaves_it(request):
    """The save renames a new file over the old one, which needs only the folder's permission: a
    read-only file was replaced without a word. It is refused now, as a plain write would be."""
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="cardrogue-read-only-"))  # pytest's own folders are closed to nobody
    request.addfinalizer(lambda: shutil.rmtree(folder, ignore_errors=True))
    folder.chmod(0o755)
    target = folder / "map.json"
    target.write_bytes(b"old")
    target.chmod(0o444)

    def work() -> str:
        try:
            atomic_write(target, b"new")
        except PermissionError as exc:
            return f"refused: {exc.strerror}: {exc.filename}"
        return "replaced"

    assert _as_unprivileged(folder, work) == f"refused: the file is read-only: {target}"
    assert target.read_bytes() == b"old" and temporaries(folder) == []


def test_a_read_only_file_is_refused_for_any_user_the_system_refuses(tmp_path, monkeypatch):
    """As above, for any user, root included: the system is asked (``os.access``)."""
    target = tmp_path / "map.json"
    target.write_bytes(b"old")
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: Path(p) != target and real(p, mode, **kw))
    with pytest.raises(PermissionError, match="read-only"):
        atomic_write(target, b"new")
    assert target.read_bytes() == b"old" and temporaries(tmp_path) == []
    atomic_write(tmp_path / "other.json", b"new")  # other files are written as before
    assert (tmp_path / "other.json").read_bytes() == b"new"


def test_write_par_on_a_file_made_read_only_during_the_solve_leaves_it(tmp_path, capsys, monkeypatch):
    """The file is looked at before the solve; one made read-only while it ran was replaced anyway."""
    import cardrogue.cli.solve as solve

    path = corridor(tmp_path)
    before = path.read_bytes()
    monkeypatch.setattr(solve, "check_writable", lambda *args, **kwargs: None)  # writable before the solve
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode, **kw: Path(p) != path and real(p, mode, **kw))
    assert main(["solve", str(path), "--write-par"]) == 2
    out, err = capsys.readouterr()
    assert f"{path}: cannot record the par (the file is read-only); the file is unchanged" in err
    assert path.read_bytes() == before


def test_write_par_with_a_level_is_refused_before_the_solve(tmp_path, capsys):
    assert main(["solve", str(corridor(tmp_path)), "--write-par", "--level", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "--write-par records the par of the whole campaign" in err
