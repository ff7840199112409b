"""``python -m studpoker`` runs the ``stud`` command line."""

import sys

from .cli import main

sys.exit(main())
