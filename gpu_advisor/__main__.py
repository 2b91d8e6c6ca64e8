"""`python -m gpu_advisor`: the command line, the same as the gpu-advisor script."""

import sys

from gpu_advisor.tui.cli import main

if __name__ == "__main__":
    sys.exit(main())
