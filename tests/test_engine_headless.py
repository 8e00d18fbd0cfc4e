"""engine/ never imports textual or rich (STYLE: the Harlequin habit), checked in a fresh interpreter."""

import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "engine"


def test_engine_modules_import_without_textual_or_rich():
    modules = sorted(
        ".".join(p.relative_to(ENGINE).with_suffix("").parts) for p in ENGINE.rglob("*.py") if p.stem != "__init__"
    )
    assert len(modules) > 20  # the whole tree, every concept folder
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module('cardrogue.engine.' + m)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_the_hub_imports_without_textual():
    """The hub server runs on machines without a terminal UI: hub/ never pulls Textual in."""
    code = (
        "import importlib, sys\n"
        "for m in ('app', 'db', 'service', 'pages', 'ratelimit'): importlib.import_module('cardrogue.hub.' + m)\n"
        "print(','.join(sorted(m for m in sys.modules if m.split('.')[0] == 'textual')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
