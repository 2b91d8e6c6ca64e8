"""`gpu-advisor launch`: the command that starts the plan `recommend` gives for the same arguments, and nothing
else (tools/launch.py); `--engine` asks for another engine's command, `--json` for the typed result."""

from __future__ import annotations

import argparse
import json

from gpu_advisor.tui.cli import sizing
from gpu_advisor.tui.cli.base import Commands, UsageError, arg

commands = Commands()
ENGINES = ("vllm", "sglang", "llama.cpp", "mlx-lm")
# recommend's arguments that change only how its table is shown: not the plan, so not the command
SHOWN_ONLY = {"--top", "--launch", "--explain", "--json"}
RECOMMEND = next(c for c in sizing.commands if c.name == "recommend")


def command_text(r, engine: str | None, notes: bool = True) -> str:
    """The plan's command as shell lines: the setup commands first (multi-server), then the server; with
    `notes`, the heading and the notes line in English (`recommend --launch`)."""
    from gpu_advisor.assistant.catalog import say
    from gpu_advisor.assistant.launch_reply import command_lines, note_line
    from gpu_advisor.tools.launch import LaunchError, launch_for

    try:
        cmd = launch_for(r, engine)
    except LaunchError as e:
        raise UsageError(str(e)) from None
    lines = command_lines(cmd)
    if not notes:
        return "\n".join(lines)
    note = note_line(cmd, "en")
    head = say("en", "launch.cli_head", engine=cmd.engine_name, version=cmd.version, source=cmd.flags_source)
    return "\n".join([head, *[f"  {x}" for x in lines], *([f"  # {note}"] if note else [])])


@commands.command(
    "launch", "print the command that starts the plan `recommend` gives for the same arguments",
    *[a for a in RECOMMEND.arguments if not set(a[0]) & SHOWN_ONLY],
    arg("--engine", choices=ENGINES, default=None,
        help="the engine whose command to print (default: the plan's own)"),
    arg("--json", action="store_true", help="the typed result: argv, setup commands, engine version, notes"),
    examples=("gpu-advisor launch -m llama-3.1-70b --phase serve --users 50",
              "gpu-advisor launch -m llama-3.1-405b --phase serve -p bf16 --users 20 --owned '16x h100-sxm' "
              "--server-gpus 8 --engine sglang"))
def cmd_launch(args: argparse.Namespace) -> None:
    from gpu_advisor.tools.launch import LaunchError, launch_for

    r = sizing.recommendation(args)
    if args.json:
        try:
            cmd = launch_for(r, args.engine)
        except LaunchError as e:
            raise UsageError(str(e)) from None
        print(json.dumps(cmd.model_dump(mode="json"), indent=2))
        return
    print(command_text(r, args.engine, notes=False))
