"""What every command shares: the parser with one-line errors, the way a command is declared beside
the function that runs it, the arguments several commands take, and how a sizing result is printed."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

from gpu_advisor.tui.cli.values import db_path, model_spec, revision_name

if TYPE_CHECKING:
    from gpu_advisor.assistant.history import HistoryStore

EXIT_USAGE = 2
EXIT_ENVIRONMENT = 1
JSON_ERRORS = [False]  # set by main() when --json is on the command line


class UsageError(Exception):
    """Input the tools cannot size; printed as one line, exit status 2."""


class ReplayMismatch(Exception):
    """`sessions replay --check` found differences: exit status 1."""


class HelpFormatter(argparse.HelpFormatter):
    """--help shows every option's default, also for options without a help text."""

    def _get_help_string(self, action: argparse.Action) -> str:
        help_text = action.help or ""
        if "%(default)" not in help_text and action.default not in (None, False, argparse.SUPPRESS) \
                and action.option_strings:
            help_text += " (default: %(default)s)"
        return help_text.strip()


class RawHelp(HelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Defaults shown, and the examples in the epilog kept as written."""


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors: `gpu-advisor: <command>: <reason>; usage: `<usage>` (see --help)`, exit 2;
    with --json on the command line the error is a JSON object on stdout as well."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def add_argument(self, *args, **kwargs):
        if not kwargs.get("help") and kwargs.get("default") not in (None, False) and args and args[0].startswith("-"):
            kwargs["help"] = "(default: %(default)s)"
        return super().add_argument(*args, **kwargs)

    def error(self, message: str):
        from gpu_advisor.assistant.terminal import printable

        message = printable(message)  # argparse quotes the value given: never a terminal control sequence
        where = self.prog.removeprefix('gpu-advisor').strip() or 'usage'
        if JSON_ERRORS[0]:
            print(json.dumps({"error": {"message": f"{where}: {message}", "exit_status": EXIT_USAGE}}))
        self.exit(EXIT_USAGE, f"gpu-advisor: {where}: {message}; usage: `{self.expected()}` (see `{self.prog} --help`)\n")

    def expected(self) -> str:
        """What the command takes, on one line: its positionals and required options as the help names them,
        `[options]` for the rest ('gpu-advisor sessions export ID [options]')."""
        parts, optional = [self.prog], False
        for action in self._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            if isinstance(action, argparse._SubParsersAction):
                parts.append("COMMAND")
            elif not action.option_strings:
                parts.append(str(action.metavar or action.dest.upper()))
            elif action.required:
                parts.append(f"{action.option_strings[0]} {action.metavar or action.dest.upper()}")
            else:
                optional = True
        return " ".join(parts + (["[options]"] if optional else []))


# ---------------------------------------------------------------- declaring a command

Arg = tuple[tuple[str, ...], dict[str, Any]]
Handler = Callable[[argparse.Namespace], Any]
H = TypeVar("H", bound=Handler)


def arg(*flags: str, **options: Any) -> Arg:
    """One argument, written as argparse's add_argument takes it, plus `complete=`: what the shell
    completes as its value (a kind in tui/completion.py: "gpu", "model", "precision", "framework",
    "setting", "session")."""
    return flags, options


@dataclass(frozen=True)
class Setting:
    """A default read from the settings file when the parser is built (`gpu-advisor config set`)."""

    name: str


def epilog(examples: tuple[str, ...] | list[str]) -> str:
    return "examples:\n" + "\n".join(f"  {e}" for e in examples)


@dataclass
class Command:
    """A command as --help shows it: name, one line of help, its arguments in order, examples, and the
    function that runs it; a group (`sessions`, `size`, `config`) has subcommands instead."""

    name: str
    help: str
    arguments: tuple[Arg, ...] = ()
    examples: tuple[str, ...] = ()
    run: Handler | None = None
    subcommands: Commands = field(default_factory=lambda: Commands())
    metavar: str | None = None  # how a group's --help names its subcommand
    dest: str = "action"

    def command(self, name: str, help: str, *arguments: Arg, examples: tuple[str, ...] = ()) -> Callable[[H], H]:
        """Declares a subcommand of this group, run by the function below the decorator."""
        return self.subcommands.command(name, help, *arguments, examples=examples)

    def add_to(self, sub: argparse._SubParsersAction, settings: Mapping[str, Any]) -> argparse.ArgumentParser:
        p = sub.add_parser(self.name, help=self.help)
        for flags, options in self.arguments:
            default = options.get("default")
            if isinstance(default, Setting):
                options = {**options, "default": settings[default.name]}
            complete = options.get("complete")
            action = p.add_argument(*flags, **{k: v for k, v in options.items() if k != "complete"})
            if complete:
                action.complete = complete  # (read by tui/completion.py)
        if self.subcommands:
            inner = p.add_subparsers(dest=self.dest, metavar=self.metavar, required=True)
            for c in self.subcommands:
                c.add_to(inner, settings)
        if self.run is not None:
            p.set_defaults(func=self.run)
        if self.examples:
            p.epilog = epilog(self.examples)
            p.formatter_class = RawHelp
        return p


class Commands:
    """A module's commands in the order --help lists them. `@commands.command(...)` declares one with
    the function below it; `commands.group(...)` one with subcommands, declared the same way."""

    def __init__(self) -> None:
        self.declared: list[Command] = []

    def __iter__(self) -> Iterator[Command]:
        return iter(self.declared)

    def __bool__(self) -> bool:
        return bool(self.declared)

    def command(self, name: str, help: str, *arguments: Arg, examples: tuple[str, ...] = ()) -> Callable[[H], H]:
        def declare(run: H) -> H:
            self.declared.append(Command(name, help, arguments, examples, run))
            return run

        return declare

    def group(self, name: str, help: str, *, metavar: str, dest: str = "action",
              examples: tuple[str, ...] = ()) -> Command:
        group = Command(name, help, examples=examples, metavar=metavar, dest=dest)
        self.declared.append(group)
        return group


# ---------------------------------------------------------------- arguments several commands take

JSON = arg("--json", action="store_true")
SIZING_OUTPUT = (arg("--json", action="store_true", help="machine-readable output (memory in bytes)"),
                 arg("--explain", action="store_true", help="show every formula with its inputs"))
DB = arg("--db", type=db_path, default=None, metavar="PATH",
         help="history database (default: $GPU_ADVISOR_DB or the user data folder)")
MODEL = arg("--model", "-m", type=model_spec, required=True, metavar="M", complete="model",
            help="catalog name, HF repo id, path to config.json, or a size like 27B or 26B-A3.8B")
REVISION = arg("--revision", type=revision_name, default=None, metavar="REV",
               help="with a Hugging Face repo id: the branch, tag or commit to size (default: main); the same as "
               "--model ORG/NAME@REV")
REGION = arg("--region", choices=("global", "us", "eu", "china"), default=Setting("region"))
ENGINES = ("transformers", "vllm", "sglang", "llama.cpp")


# ---------------------------------------------------------------- output


def emit(args: argparse.Namespace, result: BaseModel, human: Callable[[], str]) -> None:
    if args.json:
        data = result.model_dump(mode="json")
        for key in ("assumptions", "warnings", "terms"):  # figures first, the breakdown last
            if key in data:
                data[key] = data.pop(key)
        try:
            text = json.dumps(data, indent=2, allow_nan=False)  # always valid JSON: never Infinity or NaN
        except ValueError:
            raise UsageError("these inputs give a figure too large to compute (infinite); check the values "
                             "given") from None
        print(text)
        return
    print(human())
    from gpu_advisor.tui.format import explain, notes

    extra = notes(result)  # type: ignore[arg-type]
    if extra:
        print()
        print(extra)
    if getattr(args, "explain", False):
        print()
        print(explain(result))  # type: ignore[arg-type]
    elif not args.json:
        print("\n(--explain shows every formula and input)")


def open_store(args: argparse.Namespace, say_unwritable: bool = True) -> HistoryStore:
    """The history store of --db (else $GPU_ADVISOR_DB or the user data folder), saying on stderr
    when a damaged database was moved aside, and at every start while a damaged copy is kept.
    `say_unwritable` False: a database that opened for reading only is left for the caller to name."""
    from gpu_advisor.assistant.history import HistoryStore

    store = HistoryStore(args.db)
    told = store.notice or store.reminder  # a kept damaged copy is named at every start until deleted
    if store.read_only and not say_unwritable:
        told = store.reminder
    if told:
        print(f"gpu-advisor: {told}", file=sys.stderr)
    return store


def allow_network() -> None:
    """A sizing command may look a model up on the Hugging Face Hub (HF_HUB_OFFLINE still wins)."""
    from gpu_advisor.knowledge import hub

    hub.allow_network(True)


def fold_revision(args: argparse.Namespace) -> None:
    """--revision into the model spec ('ORG/NAME@REV'), which every tool reads; refused in one line for a model
    that is no Hugging Face repo id or that names a revision of its own already."""
    revision = getattr(args, "revision", None)
    field = "model" if hasattr(args, "model") else "id"
    model = getattr(args, field, None)
    if revision is None or not isinstance(model, str):
        return
    from gpu_advisor.assistant.terminal import quoted
    from gpu_advisor.knowledge import hub

    repo, said = hub.split_revision(model.strip())
    if said is not None:
        raise UsageError(f"--revision {quoted(revision)} and {quoted(model)} both name a revision; give one")
    if not hub.REPO_ID.match(repo):
        raise UsageError(f"--revision is for a Hugging Face repo id (ORG/NAME), not {quoted(model)}")
    setattr(args, field, hub.with_revision(repo, revision))


def warn_name_only(args: argparse.Namespace) -> None:
    """One line on stderr when the command's --model is sized from its name alone (a Hugging Face repo id the Hub
    did not answer for): besides the headline and the result's warnings, so a script's log shows it too."""
    model = getattr(args, "model", None)
    if not isinstance(model, str) or "/" not in model:
        return
    from gpu_advisor.assistant.terminal import printable
    from gpu_advisor.tools.models import name_only, resolve_model

    try:
        warning = name_only(resolve_model(model))
    except Exception:  # noqa: BLE001 - the command itself says what is wrong with the model
        return
    if warning:
        print(f"gpu-advisor: warning: {printable(warning)}", file=sys.stderr)


def version() -> str:
    """The version (gpu_advisor.__version__, which the package metadata is built from)."""
    from gpu_advisor import __version__

    return __version__
