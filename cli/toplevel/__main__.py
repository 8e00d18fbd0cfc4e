"""``python -m cardrogue``: the same as the ``cardrogue`` command."""

import sys

from cardrogue.cli.main import main

sys.exit(main())
