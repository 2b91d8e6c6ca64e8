"""`gpu-advisor chat` and the terminal app it opens: `--plain` is the line mode for pipes, scripts
and screen readers; with no terminal to draw on, the app says what to use instead."""

from __future__ import annotations

import argparse
import json
import sys

from gpu_advisor.tui.cli.ask import reply_json
from gpu_advisor.tui.cli.base import DB, EXIT_USAGE, Commands, UsageError, arg, open_store
from gpu_advisor.tui.format import plain

commands = Commands()

NO_TERMINAL = ("gpu-advisor: the terminal app needs a terminal, and this is not one (a pipe, CI or an IDE task).\n"
               "  For a conversation on standard input and output:  gpu-advisor chat --plain\n"
               "  For one question:                                 gpu-advisor ask \"serve llama 3 8b to 20 users\"\n"
               "  Every command:                                    gpu-advisor --help\n")


def check_db(db: str | None) -> None:
    """Before the app opens --db: a file that is not a history database is refused, left untouched."""
    if db:
        from pathlib import Path

        from gpu_advisor.assistant.history import HistoryError, looks_like_sqlite

        if not looks_like_sqlite(Path(db).expanduser()):
            raise HistoryError(f"{db} is not a GPU Advisor history database (it does not start with the SQLite "
                               "header); it was left untouched. Give --db a new file name or an existing history database")


def open_app(db: str | None, resume: str | None = None, first_message: str | None = None) -> int:
    """The terminal app, when there is a terminal to draw on; else say what to use instead (exit 2)."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        sys.stderr.write(NO_TERMINAL)
        return EXIT_USAGE
    check_db(db)
    try:
        from gpu_advisor.tui.app import run_app
    except ImportError:
        from gpu_advisor.tui.cli.program import build_parser

        build_parser().print_help()
        return 0
    run_app(db=db, resume=resume, first_message=first_message)
    return 0


@commands.command(
    "chat", "a conversation; --plain for line mode on stdin/stdout",
    arg("message", nargs="?", default=None, help="a first message to send as the conversation opens"),
    arg("--plain", action="store_true", help="line mode (pipes, screen readers)"),
    arg("--json", action="store_true", help="one JSON reply per line"),
    arg("--resume", metavar="ID", default=None, help="continue a saved session"),
    arg("--no-save", action="store_true", help="do not save this conversation"),
    DB,
    examples=("gpu-advisor chat", 'gpu-advisor chat "serve qwen2.5 14b to 30 people"', "printf 'serve llama 3 8b\\nabout 15\\n' | gpu-advisor chat --plain --no-save"))
def cmd_chat(args: argparse.Namespace) -> int | None:
    """A line-mode conversation on stdin/stdout: for pipes, scripts and screen readers."""
    from gpu_advisor.assistant.session import Conversation, MessageTooLong

    if args.resume is not None and not args.resume.strip():
        raise UsageError("--resume needs a session id (or the start of one), not an empty string; "
                         "gpu-advisor sessions list shows them")
    if args.resume and args.no_save:
        raise UsageError("--no-save starts afresh; --resume continues a saved session: give one of them")
    if not args.plain:
        return open_app(args.db, args.resume, args.message)
    store = None if args.no_save else open_store(args)
    from gpu_advisor.tui import settings

    conv = (Conversation.resume(store, args.resume) if args.resume and store
            else Conversation(store, settings=settings.load().defaults()))
    told: list[str] = []
    if store is not None and store.read_only:  # (said when it opened, as `ask` does): answered, not saved
        conv.store = None
        told.append("read-only")
    from gpu_advisor.tools.detect import this_machine

    conv.machine = this_machine  # "what can I run on this machine?": this one
    interactive = sys.stdin.isatty()
    if hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")  # bytes that are not UTF-8 arrive as U+FFFD
    if interactive and not args.json:
        print("GPU Advisor. Type your question; an empty line or Ctrl-D ends the chat.\n")
    first = (args.message or "").strip()
    while True:
        if first:  # `chat --plain "…"`: the first message, as if typed
            line, first = first, ""
        else:
            if interactive and not args.json:
                print("You: ", end="", flush=True)
            line = sys.stdin.readline()
            if not line or (interactive and not line.strip()):
                break
        try:
            reply = _turn(conv, line.rstrip("\n"), told)
        except MessageTooLong as e:  # one line, and the conversation goes on with the next one
            print(f"gpu-advisor: {e}; send it shorter", file=sys.stderr, flush=True)
            continue
        if args.json:
            print(json.dumps(reply_json(reply)), flush=True)
        else:
            print(("Advisor: " if interactive else "") + plain(str(reply.content)) + "\n", flush=True)
    if interactive and conv.session_id and conv.store is not None and not args.json:
        print(f"Saved as session {conv.session_id}.")
    return None


def _turn(conv, text: str, told: list[str]):
    """One turn of the line mode. A history the disk refuses to write (read-only, full, a file-size limit) is
    said once on stderr, and the conversation goes on unsaved: every message still gets its reply."""
    from gpu_advisor.assistant.history import NotSaved

    try:
        conv.record_user(text)
    except NotSaved as e:
        _unsaved(conv, e, told)
    try:
        return conv.respond(text)
    except NotSaved as e:  # the reply was made and kept in the conversation; only its saving failed
        _unsaved(conv, e, told)
        return conv.messages[-1]


def _unsaved(conv, error: Exception, told: list[str]) -> None:
    conv.store = None
    if not told:
        print(f"gpu-advisor: {error}; the conversation goes on without being saved", file=sys.stderr, flush=True)
        told.append(str(error))
