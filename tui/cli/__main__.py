"""`python -m tui.cli`: the same as the gpu-advisor script."""

import sys

from tui.cli import main

sys.exit(main())
