"""How a failure reaches the user: bad input exits 2 and the environment 1, each with one line;
anything else is a bug, logged with its traceback to a file the one line names."""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import ValidationError

from gpu_advisor.tui.cli.base import EXIT_ENVIRONMENT, EXIT_USAGE, UsageError, version


def reason(exc: BaseException) -> tuple[str, int] | None:
    """The one-line message and exit status for an expected failure: bad input (2) or the
    environment (1). None for bugs."""
    from gpu_advisor.assistant.history import StorageError

    if isinstance(exc, StorageError):
        return str(exc), EXIT_ENVIRONMENT
    if isinstance(exc, OSError) and not isinstance(exc, BrokenPipeError):
        return f"{exc.filename + ': ' if exc.filename else ''}{exc.strerror or exc}", EXIT_ENVIRONMENT
    why = input_reason(exc)
    from gpu_advisor.knowledge.resolve import HubNotReached

    if why is not None and isinstance(exc, HubNotReached):  # a valid repo id, the Hub out of reach: the environment
        return why, EXIT_ENVIRONMENT
    return (why, EXIT_USAGE) if why is not None else None


def input_reason(exc: BaseException) -> str | None:
    """The one-line message for errors caused by input; None for anything else."""
    from gpu_advisor.assistant.terminal import quoted
    from gpu_advisor.knowledge import BadValue, ConfigError, KnowledgeError, NotFound
    from gpu_advisor.tools.common import ToolError, validation_message

    if isinstance(exc, ValidationError):
        return validation_message(exc)
    if isinstance(exc, NotFound):
        hint = f" (did you mean: {', '.join(exc.suggestions)}?)" if exc.suggestions else ""
        why = f": {exc.reason}" if exc.reason else ""
        more = {"model": "gpu-advisor models", "GPU": "gpu-advisor gpus"}.get(exc.kind)
        return f"unknown {exc.kind} {quoted(exc.query)}{why}{hint}" + (f"; see `{more}`" if more else "")
    from gpu_advisor.assistant.history import HistoryError
    from gpu_advisor.assistant.session import MessageTooLong

    if isinstance(exc, (BadValue, ConfigError, ToolError, KnowledgeError, UsageError, HistoryError, MessageTooLong)):
        return str(exc)
    return None


def error_log_path() -> Path:
    """The file internal errors are appended to, with their tracebacks: GPU_ADVISOR_LOG_DIR, else the
    platform's user log folder (~/.local/state/gpu-advisor/log on Linux)."""
    override = os.environ.get("GPU_ADVISOR_LOG_DIR")
    if override:
        return Path(override).expanduser() / "errors.log"
    from platformdirs import user_log_dir

    return Path(user_log_dir("gpu-advisor", appauthor=False)) / "errors.log"


def log_internal_error(exc: BaseException, command: str) -> Path | None:
    """Appends the traceback to the error log; None when the log cannot be written. Only the command's
    name is kept, not its arguments or a message's text."""
    import traceback
    from datetime import UTC, datetime

    path = error_log_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as log:
            log.write(f"--- {datetime.now(UTC).isoformat(timespec='seconds')} gpu-advisor {version()} {command}\n")
            log.write("".join(traceback.format_exception(exc)))
    except OSError:
        return None
    return path
