"""`gpu-advisor`: the command line. A stable contract: scripts call it, so flags and JSON keys stay.

Bad input exits with status 2 and a one-line reason (with the closest names for unknown models and
GPUs); a problem of the environment (read-only database, full disk, missing folder) exits with 1 and
a one-line reason saying what was not saved; "internal error" is kept for bugs. Nothing here prints
a traceback. Stored and imported text is printed with terminal control sequences removed. Sizing
commands import neither langgraph nor textual.

Each command is declared beside the function that runs it, one module per group: sizing (size,
speed, fit, cost, train-time, recommend), ask, chat, sessions, config, gpus, models and completion;
`mcp` and `serve` live with their servers (tui/mcp_server.py, tui/openai_api.py). program.py assembles
them. The names below are the package's public ones.
"""

from gpu_advisor.tui.cli.ask import cmd_ask, question_text
from gpu_advisor.tui.cli.base import EXIT_ENVIRONMENT, EXIT_USAGE, ReplayMismatch, UsageError
from gpu_advisor.tui.cli.chat import cmd_chat, open_app
from gpu_advisor.tui.cli.completion import cmd_completion
from gpu_advisor.tui.cli.errors import error_log_path
from gpu_advisor.tui.cli.gpus import cmd_gpus
from gpu_advisor.tui.cli.models import cmd_models
from gpu_advisor.tui.cli.program import build_parser, main, subcommands
from gpu_advisor.tui.cli.sizing import (
    cmd_cost,
    cmd_fit,
    cmd_recommend,
    cmd_size_inference,
    cmd_size_training,
    cmd_speed,
    cmd_train_time,
)

__all__ = [
    "EXIT_ENVIRONMENT",
    "EXIT_USAGE",
    "ReplayMismatch",
    "UsageError",
    "build_parser",
    "cmd_ask",
    "cmd_chat",
    "cmd_completion",
    "cmd_cost",
    "cmd_fit",
    "cmd_gpus",
    "cmd_models",
    "cmd_recommend",
    "cmd_size_inference",
    "cmd_size_training",
    "cmd_speed",
    "cmd_train_time",
    "error_log_path",
    "main",
    "open_app",
    "question_text",
    "subcommands",
]
