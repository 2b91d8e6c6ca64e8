"""`gpu-advisor ask`: one question, one answer, every default listed as an assumption."""

from __future__ import annotations

import argparse
import json
import sys

from tui.cli.base import Commands, UsageError, arg

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


@commands.command(
    "ask", "one question, one answer; every default listed as an assumption",
    arg("text", nargs="*", help='e.g. "fine-tune a 27B model and serve it to 20 users"; '
        '"-" or none with a pipe: read it from standard input'),
    arg("--json", action="store_true", help="the reply with its structured payload"),
    examples=("gpu-advisor ask \"fine-tune a 27B model and serve it to 20 users\"",
              "echo \"serve llama 3 8b to 3 users\" | gpu-advisor ask", "gpu-advisor ask - --json < question.txt"))
def cmd_ask(args: argparse.Namespace) -> None:
    from langchain_core.messages import HumanMessage

    from assistant import graph
    from assistant.session import check_message
    from tui import settings

    text = check_message(question_text(args.text))
    state = graph.invoke({"messages": [HumanMessage(text)], "oneshot": True,
                          "settings": settings.load().defaults()})
    reply = state["messages"][-1]
    if args.json:
        print(json.dumps(reply_json(reply), indent=2))
    else:
        print(reply.content)
