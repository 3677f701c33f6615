"""``python -m kalah``: the ``kalah`` command, for an environment whose scripts are not on the PATH."""

import sys

from kalah.cli import main

sys.exit(main())
