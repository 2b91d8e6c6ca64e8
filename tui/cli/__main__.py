"""`python -m gpu_advisor.tui.cli`: the same as the gpu-advisor script."""

import sys

from gpu_advisor.tui.cli import main

sys.exit(main())
