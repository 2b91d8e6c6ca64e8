"""The command line assembled: every module's commands under one parser, and main(), the last line
of defence that turns every failure into one line and an exit status."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator, Sequence

from gpu_advisor.assistant.terminal import escaped
from gpu_advisor.tui.cli import (
    ask,
    chat,
    completion,
    config,
    detect,
    gpus,
    launch,
    models,
    serving_jobs,
    sessions,
    shape,
    sizing,
    web,
)
from gpu_advisor.tui.cli.base import JSON_ERRORS, Parser, RawHelp, ReplayMismatch, UsageError, epilog, version
from gpu_advisor.tui.cli.chat import open_app
from gpu_advisor.tui.format import plain

MODULES = (sizing, serving_jobs, shape, launch, ask, chat, web, sessions, config, gpus, models, detect, completion)  # the order --help lists them
EXAMPLES = ("gpu-advisor", "gpu-advisor ask \"serve llama 3 8b to 20 users\"", "gpu-advisor chat --plain",
            "gpu-advisor size inference -m llama-3.1-70b -p int4 --gpu h100 --batch 8")
# The sizing commands may resolve a model on the Hugging Face Hub; the conversation stays offline
# (replayed sessions must give the same answers).
HUB_COMMANDS = ("size", "speed", "fit", "train-time", "recommend", "models")


def subcommands(parser: argparse.ArgumentParser, path: str = "") -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """Every command of the parser, as ("sessions list", its parser), the root as ("", parser)."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from subcommands(sub, f"{path} {name}".strip())


def _settings_defaults() -> dict[str, object]:
    """The defaults the settings file gives flags (gpu-advisor config set region china, currency CNY)."""
    from gpu_advisor.tui import settings

    current = settings.load()
    return {"region": current.region, "currency": current.currency}


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="gpu-advisor",
        description="Choose GPUs to fine-tune and serve large language models. "
                    "With no command, opens the terminal app.",
        epilog=epilog(EXAMPLES), formatter_class=RawHelp)
    parser.add_argument("--version", action="version", version=f"gpu-advisor {version()}")
    parser.add_argument("--debug", action="store_true",
                        help="print the traceback of an internal error (also GPU_ADVISOR_DEBUG=1); "
                             "it is always kept in the error log")
    defaults = _settings_defaults()
    sub = parser.add_subparsers(dest="command", metavar="command")
    for module in MODULES:
        for command in module.commands:
            command.add_to(sub, defaults)
    from gpu_advisor.tui import (  # the servers' modules load their libraries only when run
        mcp_server,
        openai_api,
    )

    mcp_server.add_command(sub)  # gpu-advisor mcp
    openai_api.add_command(sub)  # gpu-advisor serve
    return parser


def _handler(args: argparse.Namespace):
    """The function that runs the parsed command. For a command whose function tui.cli exports, the
    one found there is run: one place to replace a command (the error-log tests replace
    tui.cli.cmd_gpus with one that fails)."""
    import gpu_advisor.tui.cli  # noqa: F401 - loads tui.cli, read through tui below
    from gpu_advisor import tui

    name = args.func.__name__
    return getattr(tui.cli, name) if name in tui.cli.__all__ else args.func


def _check_utf8(argv: Sequence[str]) -> None:
    """Arguments are UTF-8 text: one holding other bytes (Python keeps them as lone surrogates, which the
    history and the terminal cannot store) is refused with one line, before anything is read or written."""
    for arg in argv:
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            shown = os.fsencode(arg).decode("utf-8", "backslashreplace")
            raise UsageError(f"the argument '{shown}' holds bytes that are not UTF-8 text; "
                             "write it in UTF-8 (a file name too)") from None


def main(argv: Sequence[str] | None = None) -> int:
    from gpu_advisor.tui.cli.errors import log_internal_error, reason

    argv = list(sys.argv[1:] if argv is None else argv)
    JSON_ERRORS[0] = "--json" in argv
    # --debug goes anywhere before a `--`: taken out here, so every command accepts it
    end = argv.index("--") if "--" in argv else len(argv)
    debug = "--debug" in argv[:end] or bool(os.environ.get("GPU_ADVISOR_DEBUG"))
    argv = [a for a in argv[:end] if a != "--debug"] + argv[end:]
    parser = build_parser()
    opening_app = not argv or (argv[0] == "--db" and len(argv) == 2)
    if opening_app and argv and not argv[1].strip():
        parser.error("argument --db: needs the path of a database file, not an empty string")
    args = None if opening_app else parser.parse_args(argv)
    if args is not None and not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        _check_utf8(argv)
        if args is None:
            return open_app(argv[1] if argv else None)
        if args.command in HUB_COMMANDS:
            from gpu_advisor.tui.cli.base import allow_network, fold_revision, warn_name_only

            fold_revision(args)
            allow_network()
            warn_name_only(args)
        status = _handler(args)(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except ReplayMismatch:
        return 1
    except Exception as exc:  # noqa: BLE001 - the last line of defence: never a traceback
        known = reason(exc)
        if known is None:
            if debug:
                import traceback

                traceback.print_exception(exc)
            log = log_internal_error(exc, getattr(args, "command", None) or "app")
            where = f"the traceback is in {log}" if log else "--debug shows the traceback"
            message = f"internal error ({type(exc).__name__}: {plain(str(exc))[:300]}); please report it ({where})"
            if JSON_ERRORS[0]:
                print(json.dumps({"error": {"message": message, "exit_status": 1}}))
            print(f"gpu-advisor: {message}", file=sys.stderr)
            return 1
        why, status = known
        why = escaped(" ".join(why.split()))  # a path with a control character shown as it is named, escaped
        if JSON_ERRORS[0]:
            print(json.dumps({"error": {"message": why, "exit_status": status}}))
        print(f"gpu-advisor: {why}", file=sys.stderr)
        return status
    return status if isinstance(status, int) else 0
