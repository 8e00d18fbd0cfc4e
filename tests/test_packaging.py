"""The wheel: one distribution that installs `cardrogue`, with schema/ and campaigns/ inside it,
working from any directory (issue: Layout). Built and installed into a temporary venv."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--disable-pip-version-check", "-w", str(out), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (built,) = out.glob("cardrogue_studio-*.whl")
    return built


def test_every_package_folder_is_mapped_in_pyproject() -> None:
    """A new folder with an __init__.py must be listed, or the installed command cannot import it."""
    import tomllib

    tool = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    mapped = {Path(folder) for folder in tool["package-dir"].values()}
    listed = set(tool["packages"])
    found = {init.parent.relative_to(ROOT) for top in {m.parts[0] for m in mapped}
             for init in (ROOT / top).rglob("__init__.py") if "__pycache__" not in init.parts}
    assert found - mapped == set(), "folders missing from [tool.setuptools.package-dir]"
    assert set(tool["package-dir"]) == listed, "package-dir and packages disagree"


def test_wheel_ships_schemas_catalog_and_campaigns(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "cardrogue/schema/campaign.schema.json" in names
    assert "cardrogue/schema/cards.schema.json" in names
    assert "cardrogue/engine/data/cards.json" in names
    assert "cardrogue/campaigns/a-sons-descent.json" in names
    assert {"cardrogue/hub/app.py", "cardrogue/hub/db.py", "cardrogue/hub/service.py"} <= names
    assert not any(n.startswith(("tests/", "benchmarks/")) for n in names)


def _declared_dependencies(wheel: Path, into: Path) -> None:
    """Links into ``into`` the installed files of the wheel's declared dependencies, and of theirs, read from its
    METADATA (never the extras: test and bench tools stay out), as this environment installed them."""
    import importlib.metadata
    import re
    from email.parser import Parser

    from packaging.requirements import Requirement

    with zipfile.ZipFile(wheel) as zipped:
        (meta,) = [n for n in zipped.namelist() if n.endswith(".dist-info/METADATA")]
        wanted = [(Requirement(r), "") for r in Parser().parsestr(zipped.read(meta).decode()).get_all("Requires-Dist")]
    seen: set[str] = set()
    while wanted:
        req, extra = wanted.pop()
        if req.marker is not None and not req.marker.evaluate({"extra": extra}):
            continue
        key = re.sub(r"[-_.]+", "-", req.name).lower() + "[" + ",".join(sorted(req.extras)) + "]"
        if key in seen:
            continue
        seen.add(key)
        dist = importlib.metadata.distribution(req.name)
        for top in {f.parts[0] for f in dist.files or () if f.parts[0] not in ("..", "__pycache__")}:
            source, link = Path(dist.locate_file(top)), into / top
            if source.exists() and not link.exists():
                link.symlink_to(source)
        wanted += [(Requirement(r), e) for r in dist.requires or () for e in ("", *req.extras)]


def test_installed_command_works_from_any_directory(wheel: Path, tmp_path: Path) -> None:
    """The wheel installed by pip into a new venv that holds nothing but its declared dependencies (of this
    environment's versions, linked in: downloading and unpacking them took two minutes of the suite's time, and
    pip still checks each requirement against them), run from another directory."""
    venv, deps = tmp_path / "venv", tmp_path / "deps"
    deps.mkdir()
    _declared_dependencies(wheel, deps)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    (site,) = venv.glob("lib/python*/site-packages")
    (site / "declared-dependencies.pth").write_text(f"{deps}\n", encoding="utf-8")
    pip = [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "--quiet",
           "--disable-pip-version-check"]
    subprocess.run([*pip, str(wheel)], check=True, capture_output=True)
    installed = subprocess.run([str(venv / "bin" / "python"), "-c", "import cardrogue.cli.main as m; print(m.__file__)"],
                               check=True, capture_output=True, text=True).stdout
    assert installed.startswith(str(site)), installed  # the wheel's own copy, not a dependency's folder
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "from cardrogue.engine.format.resources import default_campaign; print(default_campaign())"],
        cwd=elsewhere, check=True, capture_output=True, text=True,
    ).stdout.strip()
    assert str(venv) in where and ROOT.as_posix() not in where
    done = subprocess.run([str(venv / "bin" / "cardrogue"), "check", "--strict", where], cwd=elsewhere, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    # `python -m cardrogue` is the same command; --version names the installed distribution's version
    version = subprocess.run([str(venv / "bin" / "python"), "-m", "cardrogue", "--version"], cwd=elsewhere,
                             capture_output=True, text=True)
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert version.returncode == 0 and version.stdout.strip() == f"cardrogue {declared}", version.stdout + version.stderr
