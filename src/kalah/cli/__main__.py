import sys

from kalah.cli import main

sys.exit(main())
