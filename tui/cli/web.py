"""`gpu-advisor web`: the terminal app in a browser (textual-serve, imported only when this runs;
the server itself is tui/web.py)."""

from __future__ import annotations

import argparse
import sys

from gpu_advisor.tui.cli.base import DB, Commands, UsageError, arg
from gpu_advisor.tui.cli.values import port_number

commands = Commands()


@commands.command(
    "web", "the app in a browser (textual-serve), at http://127.0.0.1:8000/ by default",
    arg("--host", default="127.0.0.1",
        help="address to listen on; the app shows your saved history, so keep it on this computer unless "
             "you mean to share it"),
    arg("--port", type=port_number, default=8000, help="port to listen on; one in use is an error, never "
                                                       "silently another"),
    DB,
    examples=("gpu-advisor web", "gpu-advisor web --port 8080", "gpu-advisor web --db ~/advisor-history.db"))
def cmd_web(args: argparse.Namespace) -> int:
    from pathlib import Path

    from gpu_advisor.tui.cli.chat import check_db
    from gpu_advisor.tui.openai_api import LOOPBACK
    from gpu_advisor.tui.web import PortInUse, serve

    if not args.host.strip():
        raise UsageError("--host needs an address to listen on, such as 127.0.0.1")
    check_db(args.db)
    if args.host not in LOOPBACK:
        print(f"gpu-advisor: warning: listening on {args.host}: anyone who can reach this address can use "
              "the app and read your saved sessions", file=sys.stderr)
    db = str(Path(args.db).resolve()) if args.db else None
    try:
        return serve(args.host, args.port, db)
    except PortInUse as exc:
        raise UsageError(str(exc)) from None
