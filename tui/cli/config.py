"""`gpu-advisor config`: the settings file (tui/settings.py): where it is, what it says, change one."""

from __future__ import annotations

import argparse
import json
import sys

from tui.cli.base import JSON, Commands, UsageError, arg

commands = Commands()
config = commands.group("config", "settings: where the file is, what it says, change one", metavar="path|show|set",
                        examples=("gpu-advisor config path", "gpu-advisor config show --json"))


@config.command("path", "where the settings file is", JSON, examples=("gpu-advisor config path",))
def config_path(args: argparse.Namespace) -> None:
    from tui import settings

    path = settings.settings_path()
    print(json.dumps({"path": str(path)}) if args.json else path)


@config.command("show", "the settings in effect", JSON, examples=("gpu-advisor config show",))
def config_show(args: argparse.Namespace) -> None:
    from tui import settings

    path = settings.settings_path()
    current = settings.load(path)
    if current.problem:
        print(f"gpu-advisor: {current.problem}", file=sys.stderr)
    if args.json:
        print(json.dumps({"path": str(path), **current.as_dict()}, indent=2))
    else:
        print(f"# {path}{'' if path.exists() else ' (not written yet: these are the defaults)'}")
        print(settings.to_toml(current), end="")


@config.command(
    "set", "change one setting: theme, region, currency, keys.<binding id>",
    arg("key", help="theme, region, currency or keys.<binding id> (F1 in the app lists the ids)"),
    arg("value"),
    JSON,
    examples=("gpu-advisor config set theme nord", "gpu-advisor config set region china",
              "gpu-advisor config set currency CNY",
              "gpu-advisor config set keys.chat.math f5"))
def config_set(args: argparse.Namespace) -> None:
    from tui import settings

    path = settings.settings_path()
    try:
        changed = settings.set_value(args.key, args.value, path)
    except settings.SettingsError as e:
        raise UsageError(str(e)) from None
    print(json.dumps({"path": str(path), **changed.as_dict()}) if args.json else f"Set {args.key} in {path}")
