"""`gpu-advisor config`: the settings file (tui/settings.py): where it is, what it says, read, change or
reset one setting, or edit the file in $VISUAL/$EDITOR."""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys

from gpu_advisor.assistant.terminal import escaped, printable
from gpu_advisor.tui.cli.base import JSON, Commands, UsageError, arg

commands = Commands()
config = commands.group("config", "settings: where the file is, what it says, change one", metavar="path|show|get|set|unset|edit",
                        examples=("gpu-advisor config path", "gpu-advisor config show --json",
                                  "gpu-advisor config get region", "gpu-advisor config edit"))


@config.command("path", "where the settings file is", JSON, examples=("gpu-advisor config path",))
def config_path(args: argparse.Namespace) -> None:
    from gpu_advisor.tui import settings

    path = settings.settings_path()
    print(json.dumps({"path": str(path)}) if args.json else escaped(str(path)))


@config.command("show", "the settings in effect", JSON, examples=("gpu-advisor config show",))
def config_show(args: argparse.Namespace) -> None:
    from gpu_advisor.tui import settings

    path = settings.settings_path()
    current = settings.load(path)
    if current.problem:
        print(f"gpu-advisor: {current.problem}", file=sys.stderr)
    if args.json:
        print(json.dumps({"path": str(path), **current.as_dict()}, indent=2))
    else:
        print(escaped(f"# {path}{'' if path.exists() else ' (not written yet: these are the defaults)'}"))
        print(settings.to_toml(current), end="")


KEY = arg("key", complete="setting", help="theme, region, currency, language or keys.<binding id> (F1 in the app lists the ids)")


@config.command("get", "the value of one setting in effect (a key not remapped prints its default)", KEY, JSON,
                examples=("gpu-advisor config get region", "gpu-advisor config get keys.chat.math"))
def config_get(args: argparse.Namespace) -> None:
    from gpu_advisor.tui import settings

    current = settings.load()
    if current.problem:
        print(f"gpu-advisor: {current.problem}", file=sys.stderr)
    try:
        value = settings.get_value(args.key, current)
    except settings.SettingsError as e:
        raise UsageError(str(e)) from None
    if args.json:
        print(json.dumps({"key": args.key, "value": value}))
    else:
        print(value)


@config.command(
    "set", "change one setting: theme, region, currency, language, keys.<binding id>",
    KEY,
    arg("value"),
    JSON,
    examples=("gpu-advisor config set theme nord", "gpu-advisor config set region china",
              "gpu-advisor config set currency CNY",
              "gpu-advisor config set keys.chat.math f5"))
def config_set(args: argparse.Namespace) -> None:
    from gpu_advisor.tui import settings

    path = settings.settings_path()
    try:
        changed = settings.set_value(args.key, args.value, path)
    except settings.SettingsError as e:
        raise UsageError(str(e)) from None
    print(json.dumps({"path": str(path), **changed.as_dict()}) if args.json else escaped(f"Set {args.key} in {path}"))


@config.command("unset", "put one setting back to its default", KEY, JSON,
                examples=("gpu-advisor config unset region", "gpu-advisor config unset keys.chat.math"))
def config_unset(args: argparse.Namespace) -> None:
    from gpu_advisor.tui import settings

    path = settings.settings_path()
    try:
        changed = settings.unset_value(args.key, path)
    except settings.SettingsError as e:
        raise UsageError(str(e)) from None
    print(json.dumps({"path": str(path), **changed.as_dict()}) if args.json
          else escaped(f"{args.key} is back to its default in {path}"))


def editor_command() -> list[str]:
    """$VISUAL, then $EDITOR, then vi or nano where installed (as git and simonw/llm choose)."""
    for name in ("VISUAL", "EDITOR"):
        value = os.environ.get(name, "").strip()
        if value:
            try:
                return shlex.split(value)
            except ValueError as e:  # '"unclosed'
                raise UsageError(printable(f"${name} cannot be read as a command ({e}): fix it, for example {name}=nano")) from None
    for fallback in ("vi", "nano"):
        if shutil.which(fallback):
            return [fallback]
    raise UsageError("no editor found: set $EDITOR (for example EDITOR=nano) or use 'gpu-advisor config set'")


@config.command("edit", "open the settings file in $VISUAL or $EDITOR (written with the defaults if missing); "
                "checked when the editor closes", examples=("gpu-advisor config edit", "EDITOR=nano gpu-advisor config edit"))
def config_edit(args: argparse.Namespace) -> None:
    from gpu_advisor.tui import settings

    path = settings.settings_path()
    command = editor_command()
    if not path.exists():
        settings.save(settings.Settings(), path)
    try:
        status = subprocess.call([*command, str(path)])
    except OSError as e:
        raise UsageError(f"could not start the editor '{command[0]}': {e.strerror or e}") from None
    if status != 0:
        raise UsageError(f"the editor '{command[0]}' exited with status {status}; {path} is as it left it")
    checked = settings.load(path)
    if checked.problem:
        raise UsageError(checked.problem)
    print(escaped(f"{path} is valid"))
