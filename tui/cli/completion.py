"""`gpu-advisor completion bash|zsh|fish`: a completion script generated from the parser itself
(tui/completion.py), so a new command or flag completes without anyone editing a script."""

from __future__ import annotations

import argparse

from gpu_advisor.tui.cli.base import Commands, arg

commands = Commands()


@commands.command(
    "completion", "a shell completion script: bash, zsh or fish",
    arg("shell", choices=("bash", "zsh", "fish")),
    examples=("gpu-advisor completion bash > ~/.local/share/bash-completion/completions/gpu-advisor",
              "gpu-advisor completion zsh > ~/.zfunc/_gpu-advisor",
              "gpu-advisor completion fish > ~/.config/fish/completions/gpu-advisor.fish"))
def cmd_completion(args: argparse.Namespace) -> None:
    from gpu_advisor.tui.cli.program import build_parser, subcommands
    from gpu_advisor.tui.completion import script

    print(script(args.shell, dict(subcommands(build_parser()))), end="")
