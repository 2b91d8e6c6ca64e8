"""`gpu-advisor ask`: one question, one answer, every default listed as an assumption."""

from __future__ import annotations

import argparse
import json
import sys

from gpu_advisor.assistant.terminal import escaped, printable, quoted
from gpu_advisor.tui.cli.base import DB, EXIT_ENVIRONMENT, Commands, UsageError, arg, open_store

MAX_STDIN_CHARS = 100_000  # a question read from a pipe; the message cap applies after that

commands = Commands()


def reply_json(message) -> dict:
    return {"role": "assistant", "content": message.content, **message.additional_kwargs}


def question_text(words: list[str]) -> str:
    """The question: the words given, or standard input for `ask -` and for `ask` with a pipe."""
    if words in ([], ["-"]):
        if words == [] and sys.stdin.isatty():
            raise UsageError('ask needs a question: gpu-advisor ask "serve llama 3 8b to 20 users" '
                             '(or pipe one in: echo "..." | gpu-advisor ask)')
        if hasattr(sys.stdin, "reconfigure"):
            sys.stdin.reconfigure(errors="replace")
        text = sys.stdin.read(MAX_STDIN_CHARS + 1)
        if len(text) > MAX_STDIN_CHARS:
            raise UsageError(f"the question on standard input is over {MAX_STDIN_CHARS:,} characters")
        text = " ".join(text.split())
        if not text:
            raise UsageError("standard input held no question")
        return text
    return " ".join(words)


def _refuse_missing_history(args: argparse.Namespace) -> None:
    """-c or --cid with no history file yet: nothing to continue, said without creating the file."""
    from pathlib import Path

    from gpu_advisor.assistant.history.common import default_path

    path = Path(args.db).expanduser() if args.db is not None else default_path()
    if not path.exists() and not path.is_symlink():
        what = f"no session {quoted(args.cid.strip())}" if args.cid else "there is no saved session"
        raise UsageError(f"{what} to continue: the history database {path} does not exist (it was left "
                         f"uncreated); ask without {'--cid' if args.cid else '-c'} starts one")


@commands.command(
    "ask", "one question, one answer; every default listed as an assumption; saved like a conversation",
    arg("text", nargs="*", help='e.g. "fine-tune a 27B model and serve it to 20 users"; '
        '"-" or none with a pipe: read it from standard input'),
    arg("--json", action="store_true", help="the reply with its structured payload (and the session's id)"),
    arg("-c", "--continue", dest="continue_latest", action="store_true",
        help="continue the latest saved session (a follow-up: \"what about int4?\")"),
    arg("--cid", metavar="ID", default=None, complete="session", help="continue the saved session with this id (or the start of it)"),
    arg("--no-save", action="store_true", help="do not save the question and its answer"),
    DB,
    examples=("gpu-advisor ask \"fine-tune a 27B model and serve it to 20 users\"",
              "gpu-advisor ask -c \"what about int4?\"", "gpu-advisor ask --cid 01J8 \"make it 32k context\"",
              "echo \"serve llama 3 8b to 3 users\" | gpu-advisor ask", "gpu-advisor ask - --json < question.txt"))
def cmd_ask(args: argparse.Namespace) -> int:
    from gpu_advisor.assistant.session import Conversation, check_message
    from gpu_advisor.tui import settings

    if args.continue_latest and args.cid:
        raise UsageError("give either -c (the latest session) or --cid ID, not both; see gpu-advisor ask --help")
    if args.no_save and (args.continue_latest or args.cid):
        raise UsageError("--no-save starts afresh; -c and --cid continue a saved session; see gpu-advisor ask --help")
    if args.cid is not None and not args.cid.strip():
        raise UsageError("--cid needs a session id (or the start of one), not an empty string; "
                         "gpu-advisor sessions list shows them")
    text = check_message(question_text(args.text))
    if args.continue_latest or args.cid:
        _refuse_missing_history(args)
    store = None if args.no_save else open_store(args, say_unwritable=False)  # said once, after the answer
    if store is not None and (args.continue_latest or args.cid):
        latest = store.list_sessions(1)
        if args.continue_latest and not latest:
            raise UsageError('there is no saved session to continue; ask without -c starts one')
        conv = Conversation.resume(store, args.cid or latest[0].id)
    else:
        conv = Conversation(store if store is None or not store.read_only else None,
                            settings=settings.load().defaults())
    unsaved = None  # why the answer was not saved: a script must learn it from the exit status, not a notice
    if store is not None and store.read_only:  # the question is answered, not saved
        conv.store = None
        unsaved = (f"the answer was not saved: the history database {store.path} cannot be written "
                   f"({store.unwritable}); everything saved before it is kept")
    from gpu_advisor.tools.detect import this_machine

    conv.machine = this_machine  # "what can I run on this machine?": this one
    conv.oneshot = True
    reply, unsaved = _answered(conv, text, unsaved)
    if args.json:
        saved = {"session_id": conv.session_id} if conv.session_id and not unsaved else {}
        print(json.dumps({**reply_json(reply), **saved}, indent=2))
    else:
        print(printable(str(reply.content)))  # a stored profile is data: a crafted one never drives the terminal
    if unsaved:
        sys.stdout.flush()
        print(f"gpu-advisor: {escaped(unsaved)}", file=sys.stderr)
        return EXIT_ENVIRONMENT
    return 0


def _answered(conv, text: str, unsaved: str | None):
    """The reply to `text`, and why it was not saved (None when it was). A write the disk refuses (NotSaved: full,
    read-only, the file deleted meanwhile) never costs the answer: the question is answered unsaved."""
    from gpu_advisor.assistant.history import NotSaved

    try:
        conv.record_user(text)
    except NotSaved as exc:  # the question could not be written: nothing of this turn is saved
        conv.store, unsaved = None, str(exc)
        conv.record_user(text)
    try:
        return conv.respond(text), unsaved
    except NotSaved as exc:  # the reply could not be written; respond() keeps it as the last message before saving
        return conv.messages[-1], str(exc)
