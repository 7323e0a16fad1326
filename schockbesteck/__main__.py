"""``python -m schockbesteck ARGS`` is ``schocken ARGS``."""

import sys

from schockbesteck.cli import main

sys.exit(main())
