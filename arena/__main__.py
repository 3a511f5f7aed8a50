"""``python -m arena``: the ``mjbot`` command."""

import sys

from arena.cli import main

sys.exit(main())
