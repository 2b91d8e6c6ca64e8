"""Shell completion scripts (bash, zsh, fish) generated from the argument parser, so that a new
command or flag completes without anyone editing a script."""

from __future__ import annotations

import argparse


def _words(parser: argparse.ArgumentParser) -> tuple[list[str], list[str]]:
    """(subcommand names, options and choices) offered after a command."""
    subs: list[str] = []
    words: list[str] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            subs += list(action.choices)
        elif action.option_strings:
            words += [o for o in action.option_strings if o.startswith("--")]
        elif action.choices:
            words += [str(c) for c in action.choices]
    return subs, words


def _table(commands: dict[str, argparse.ArgumentParser]) -> dict[str, tuple[list[str], list[str]]]:
    return {path: _words(p) for path, p in commands.items()}


def bash(commands: dict[str, argparse.ArgumentParser]) -> str:
    table = _table(commands)
    subs = "\n".join(f'    "{path}") echo "{" ".join(s)}";;' for path, (s, _w) in table.items())
    words = "\n".join(f'    "{path}") echo "{" ".join(s + w)}";;' for path, (s, w) in table.items())
    return f"""# gpu-advisor completion for bash (and zsh through bashcompinit)
_gpu_advisor_subs() {{
  case "$1" in
{subs}
  esac
}}
_gpu_advisor_words() {{
  case "$1" in
{words}
  esac
}}
# Runs in zsh too (through bashcompinit, with ksharrays): no variable named path (zsh ties it to
# PATH), and the slice length in $((...)), which zsh would otherwise read as a history modifier.
_gpu_advisor() {{
  local cur="${{COMP_WORDS[COMP_CWORD]}}" cmdpath="" w
  for w in "${{COMP_WORDS[@]:1:$((COMP_CWORD-1))}}"; do
    case " $(_gpu_advisor_subs "$cmdpath") " in
      *" $w "*) cmdpath="${{cmdpath:+$cmdpath }}$w";;
    esac
  done
  COMPREPLY=($(compgen -W "$(_gpu_advisor_words "$cmdpath")" -- "$cur"))
}}
complete -o default -F _gpu_advisor gpu-advisor
"""


def zsh(commands: dict[str, argparse.ArgumentParser]) -> str:
    return "#compdef gpu-advisor\nautoload -U +X bashcompinit && bashcompinit\n" + bash(commands)


def fish(commands: dict[str, argparse.ArgumentParser]) -> str:
    table = _table(commands)

    def switch(name: str, pick) -> str:
        cases = "\n".join(f"        case '{path}'\n            printf '%s\\n' {' '.join(pick(s, w)) or ''}"
                          for path, (s, w) in table.items())
        return f"function {name}\n    switch \"$argv\"\n{cases}\n    end\nend\n"

    return ("# gpu-advisor completion for fish\n"
            + switch("__gpu_advisor_subs", lambda s, w: s)
            + switch("__gpu_advisor_words", lambda s, w: s + w)
            + """function __gpu_advisor_complete
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l path ''
    for w in $tokens
        if contains -- $w (__gpu_advisor_subs $path)
            set path (string trim -- "$path $w")
        end
    end
    __gpu_advisor_words $path
end
complete -c gpu-advisor -f -a '(__gpu_advisor_complete)'
""")


def script(shell: str, commands: dict[str, argparse.ArgumentParser]) -> str:
    return {"bash": bash, "zsh": zsh, "fish": fish}[shell](commands)
