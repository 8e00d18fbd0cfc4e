"""``python -m cardrogue``: the same as the ``cardrogue`` command."""

from cardrogue.cli.main import run

run()
