"""`gpu-advisor sessions`: the saved conversations, as simonw/llm's `logs` keeps them: list, search,
show, export, import, replay, delete, backup and where the database is. Every action takes --json and
--db; stored and imported text is printed with terminal control sequences removed."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from gpu_advisor.assistant.terminal import escaped
from gpu_advisor.tui.cli.base import DB, JSON, Commands, ReplayMismatch, UsageError, arg, open_store
from gpu_advisor.tui.cli.values import positive_int
from gpu_advisor.tui.format import plain, rerun_note

if TYPE_CHECKING:
    from gpu_advisor.assistant.history import HistoryStore

commands = Commands()
sessions = commands.group("sessions", "saved conversations: list, search, show, export, import, replay ...",
                          metavar="action",
                          examples=("gpu-advisor sessions list", "gpu-advisor sessions search 微调"))
LIMIT = arg("-n", "--limit", type=positive_int, default=50)


EMPTY = ("No saved sessions yet: ask a question with `gpu-advisor ask \"...\"` "
         "or open the app with `gpu-advisor chat`.")


def _print_sessions(store: HistoryStore, args: argparse.Namespace) -> None:
    """`sessions list` and `sessions search`: a table (local times, the zone in the header; ids as
    short as they can be and still name one session), or JSON with --json (full ids, UTC times)."""
    from gpu_advisor.tui.format import clip, local_times, table

    search = args.action == "search"
    rows = store.search(" ".join(args.query), limit=args.limit) if search else store.list_sessions(limit=args.limit)
    if getattr(args, "ids", False):
        print("\n".join(r.id for r in rows))
    elif args.json:
        print(json.dumps([r.__dict__ for r in rows], indent=2))
    elif not rows:
        print("No session matches." if search else EMPTY)
    else:
        ids = store.short_ids([r.id for r in rows])
        times, zone = local_times(r.updated for r in rows)
        print(table([(ids[r.id], when, clip(plain(" ".join(r.title.split())), 50),
                      clip(plain(" ".join(r.snippet.split())), 40) if search else r.messages)
                     for r, when in zip(rows, times, strict=True)],
                    ["id", f"updated ({zone})", "title", "match" if search else "messages"]))


@sessions.command("list", "newest first", JSON, DB, LIMIT,
                  arg("--ids", action="store_true", help="only the ids, one per line (for scripts and completion)"),
                  examples=("gpu-advisor sessions list -n 10 --json", "gpu-advisor sessions list --ids"))
def sessions_list(args: argparse.Namespace) -> None:
    _print_sessions(open_store(args), args)


@sessions.command("path", "where the database is", JSON, DB, examples=("gpu-advisor sessions path",))
def sessions_path(args: argparse.Namespace) -> None:
    from pathlib import Path

    from gpu_advisor.assistant.history.common import default_path

    path = Path(args.db).expanduser() if args.db is not None else default_path()
    if (args.db is None or args.db.strip()) and not path.exists() and not path.is_symlink():
        print(json.dumps({"path": str(path)}) if args.json else escaped(str(path)))  # a question: nothing is made
        return
    store = open_store(args)
    print(json.dumps({"path": str(store.path)}) if args.json else escaped(str(store.path)))


@sessions.command("search", "full-text search of messages and titles", arg("query", nargs="+"), JSON, DB, LIMIT,
                  examples=("gpu-advisor sessions search llama 70b", "gpu-advisor sessions search 微调 --json"))
def sessions_search(args: argparse.Namespace) -> None:
    _print_sessions(open_store(args), args)


@sessions.command("show", "a session's transcript", arg("id", complete="session"), JSON, DB, examples=("gpu-advisor sessions show 01J8",))
def sessions_show(args: argparse.Namespace) -> None:
    store = open_store(args)
    print(plain(store.export_text(args.id, "json" if args.json else "markdown")), end="")


@sessions.command(
    "export", "a Markdown report or JSON",
    arg("id", complete="session"), JSON, DB,
    arg("--format", choices=("markdown", "json"), default=None, help="default: JSON for a .json file, else Markdown"),
    arg("-o", "--output", default=None, help="file to write (never overwritten without --force)"),
    arg("--force", action="store_true"),
    examples=("gpu-advisor sessions export 01J8 -o report.md", "gpu-advisor sessions export 01J8 --format json"))
def sessions_export(args: argparse.Namespace) -> None:
    store = open_store(args)
    if args.output:
        from pathlib import Path

        out = Path(args.output)
        if out.is_file() and not out.is_symlink() and not args.force:  # (not a regular file: export_to says so)
            raise UsageError(f"{out} exists; pass --force to overwrite it")
        store.export_to(args.id, out, overwrite=args.force, fmt=args.format)
        print(json.dumps({"path": str(out)}) if args.json else escaped(f"Wrote {out}"))
    else:
        print(plain(store.export_text(args.id, args.format or "markdown")), end="")


def _read_session_export(file: str, max_bytes: int) -> Any:
    """The JSON of a `sessions export` file; every way it can be unreadable is a UsageError."""
    from pathlib import Path

    source = Path(file)
    try:
        if not source.is_file():
            raise UsageError(f"cannot read {file}: {'no such file' if not source.exists() else 'not a regular file'}")
        if source.stat().st_size > max_bytes:
            raise UsageError(f"{file} is over {max_bytes >> 20} MB: not a session export")
        # (a BOM, as some editors save, is read past; NaN and Infinity are no JSON: an export never holds them)
        return json.loads(source.read_text(encoding="utf-8-sig"), parse_constant=_not_json)
    except (OSError, ValueError, RecursionError) as e:
        reason = "nested too deeply" if isinstance(e, RecursionError) else getattr(e, "strerror", None) or e
        if isinstance(e, ValueError) and "integer string conversion" in str(e):  # (Python's digit limit)
            reason = "it holds a number too long to read"
        raise UsageError(f"cannot read {file}: {reason}") from None


def _not_json(constant: str) -> Any:
    raise ValueError(f"it holds {constant}, which is not a JSON number")


@sessions.command("import", "add a session from a JSON export", arg("file"), JSON, DB,
                  examples=("gpu-advisor sessions import session.json",))
def sessions_import(args: argparse.Namespace) -> None:
    from gpu_advisor.assistant.history import MAX_IMPORT_BYTES

    store = open_store(args)
    data = _read_session_export(args.file, MAX_IMPORT_BYTES)
    before = store.imported_before(data)  # the same file again: imported, and said
    session_id = store.import_json(data)
    if args.json:
        print(json.dumps({"id": session_id, **({"imported_before": before} if before else {})}))
        return
    print(f"Imported as session {session_id}" + (
        f" (this file was imported before, as session {before}: the two are the same conversation; "
        f"`gpu-advisor sessions delete {before}` removes the older)" if before else ""))


@sessions.command("replay", "re-run a session through today's engine and show what changed", arg("id", complete="session"), JSON, DB,
                  arg("--check", action="store_true", help="exit 1 when any reply differs"),
                  examples=("gpu-advisor sessions replay 01J8 --check",))
def sessions_replay(args: argparse.Namespace) -> None:
    """Today's engine against the saved replies; --check makes a difference an exit code."""
    from gpu_advisor.assistant.session import rerun

    found = rerun(open_store(args), args.id)
    differences = [d for d in found if not d.unanswered]
    unanswered = [d for d in found if d.unanswered]  # a turn cut off before its reply: no regression
    if found.skipped:  # (on stderr with --json: the list stays the same shape)
        print(rerun_note(found), file=sys.stderr if args.json else sys.stdout)
    if args.json:
        print(json.dumps([d.__dict__ for d in found], indent=2))
    else:
        for d in differences:
            print(plain(d.unified()))
            print()
        for d in unanswered:
            print(f"Turn {d.turn} was never answered (GPU Advisor was closed or stopped before the reply was "
                  f"saved): \"{plain(' '.join(d.user.split()))[:80]}\". It was left out of what followed, as when the conversation went on; nothing to compare.")
        if differences:
            print(f"{len(differences)} repl{'y differs' if len(differences) == 1 else 'ies differ'} from the saved session.")
        else:
            print("Today's engine gives the same replies, word for word"
                  + (" (to every message that was answered)." if unanswered else "."))
    if differences and args.check:
        raise ReplayMismatch()


def _confirm_delete(store: HistoryStore, session_id: str, as_json: bool) -> bool:
    """Asks before `sessions delete` without --yes; refuses when nobody can answer."""
    if not sys.stdin.isatty() or as_json:
        raise UsageError("deleting needs --yes when not run interactively")
    title = store.session(session_id)["title"]
    answer = input(f"Delete session {session_id} ({plain(title)})? [y/N] ")
    return answer.strip().lower() in ("y", "yes")


@sessions.command("delete", "delete a session", arg("id", complete="session"), JSON, DB,
                  arg("-y", "--yes", action="store_true", help="do not ask for confirmation"),
                  examples=("gpu-advisor sessions delete 01J8 --yes",))
def sessions_delete(args: argparse.Namespace) -> None:
    store = open_store(args)
    session_id = store.resolve_id(args.id)
    if not args.yes and not _confirm_delete(store, session_id, args.json):
        print("Kept.")
        return
    store.delete(session_id)
    print(json.dumps({"deleted": session_id}) if args.json else f"Deleted {session_id}")


@sessions.command("backup", "copy the database (VACUUM INTO a new file)", arg("target"), JSON, DB,
                  examples=("gpu-advisor sessions backup ~/history-backup.db --json",))
def sessions_backup(args: argparse.Namespace) -> None:
    target = open_store(args).backup(args.target)
    print(json.dumps({"path": str(target)}) if args.json else escaped(f"Backed up to {target}"))
