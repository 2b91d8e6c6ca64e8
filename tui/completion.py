"""Shell completion scripts (bash, zsh, fish) generated from the argument parser, so that a new
command or flag completes without anyone editing a script.

Completed: subcommands, flags, and values: an option's choices (`--region`, `--engine`), and what an
argument declares with `complete=` (tui/cli/base.py `arg`): GPU and model ids, precisions, framework
presets and setting keys, written into the script when it is generated, and the ids of saved sessions,
asked of `gpu-advisor sessions list --ids` when the Tab key is pressed (they change every day)."""

from __future__ import annotations

import argparse
from collections.abc import Callable

SESSIONS = "@sessions"  # a word the script replaces with the saved sessions' ids at Tab time


def _gpus() -> list[str]:
    from gpu_advisor.knowledge import gpus

    return [g.id for g in gpus()]


def _models() -> list[str]:
    from gpu_advisor.knowledge import models

    return [m.id for m in models()]


def _precisions() -> list[str]:
    from gpu_advisor.knowledge.loader import precisions

    return [p.id for p in precisions()]


def _frameworks() -> list[str]:
    from gpu_advisor.knowledge import frameworks

    return [f.id for f in frameworks()]


def _settings() -> list[str]:
    from gpu_advisor.tui import settings

    return ["theme", "region", "currency", "language", *sorted(f"keys.{b}" for b in settings.binding_ids())]


KINDS: dict[str, Callable[[], list[str]]] = {
    "gpu": _gpus, "model": _models, "precision": _precisions, "framework": _frameworks, "setting": _settings,
    "session": lambda: [SESSIONS],
}


def _values(action: argparse.Action) -> list[str]:
    if action.choices and not isinstance(action, argparse._SubParsersAction):
        return [str(c) for c in action.choices]
    kind = getattr(action, "complete", None)
    return KINDS[kind]() if kind else []


def _words(parser: argparse.ArgumentParser) -> tuple[list[str], list[str], dict[str, list[str]]]:
    """(subcommand names, words offered after the command, the values of each option that takes one).
    The words are its options and the values of its positional arguments."""
    subs: list[str] = []
    words: list[str] = []
    values: dict[str, list[str]] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            subs += list(action.choices)
        elif action.option_strings:
            words += [o for o in action.option_strings if o.startswith("--")]
            if action.nargs != 0 and (found := _values(action)):
                values.update({o: found for o in action.option_strings})
        else:
            words += _values(action)
    return subs, words, values


Table = dict[str, tuple[list[str], list[str], dict[str, list[str]]]]


def _table(commands: dict[str, argparse.ArgumentParser]) -> Table:
    return {path: _words(p) for path, p in commands.items()}


def bash(commands: dict[str, argparse.ArgumentParser]) -> str:
    table = _table(commands)
    subs = "\n".join(f'    "{path}") echo "{" ".join(s)}";;' for path, (s, _w, _v) in table.items())
    words = "\n".join(f'    "{path}") echo "{" ".join(s + w)}";;' for path, (s, w, _v) in table.items())
    values = "\n".join(f'    "{path}|{option}") echo "{" ".join(found)}";;'
                       for path, (_s, _w, v) in table.items() for option, found in v.items())
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
_gpu_advisor_values() {{
  case "$1|$2" in
{values}
  esac
}}
# Runs in zsh too (through bashcompinit, with ksharrays): no variable named path (zsh ties it to
# PATH), and the slice length in $((...)), which zsh would otherwise read as a history modifier.
_gpu_advisor() {{
  local cur="${{COMP_WORDS[COMP_CWORD]}}" prev="${{COMP_WORDS[COMP_CWORD-1]}}" cmdpath="" w offer
  for w in "${{COMP_WORDS[@]:1:$((COMP_CWORD-1))}}"; do
    case " $(_gpu_advisor_subs "$cmdpath") " in
      *" $w "*) cmdpath="${{cmdpath:+$cmdpath }}$w";;
    esac
  done
  offer="$(_gpu_advisor_values "$cmdpath" "$prev")"
  [ -n "$offer" ] || offer="$(_gpu_advisor_words "$cmdpath")"
  case " $offer " in
    *" {SESSIONS} "*) offer="${{offer/{SESSIONS}/$(gpu-advisor sessions list --ids 2>/dev/null)}}";;
  esac
  COMPREPLY=($(compgen -W "$offer" -- "$cur"))
}}
complete -o default -F _gpu_advisor gpu-advisor
"""


def zsh(commands: dict[str, argparse.ArgumentParser]) -> str:
    return "#compdef gpu-advisor\nautoload -U +X bashcompinit && bashcompinit\n" + bash(commands)


def fish(commands: dict[str, argparse.ArgumentParser]) -> str:
    table = _table(commands)

    def switch(name: str, pick) -> str:
        cases = "\n".join(f"        case '{path}'\n            printf '%s\\n' {' '.join(pick(s, w)) or ''}"
                          for path, (s, w, _v) in table.items())
        return f"function {name}\n    switch \"$argv\"\n{cases}\n    end\nend\n"

    value_cases = "\n".join(f"        case '{path}|{option}'\n            printf '%s\\n' {' '.join(found)}"
                            for path, (_s, _w, v) in table.items() for option, found in v.items())
    return ("# gpu-advisor completion for fish\n"
            + switch("__gpu_advisor_subs", lambda s, w: s)
            + switch("__gpu_advisor_words", lambda s, w: s + w)
            + f"function __gpu_advisor_values\n    switch \"$argv[1]|$argv[2]\"\n{value_cases}\n    end\nend\n"
            + f"""function __gpu_advisor_complete
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l path ''
    for w in $tokens
        if contains -- $w (__gpu_advisor_subs $path)
            set path (string trim -- "$path $w")
        end
    end
    set -l offer
    if set -q tokens[1]
        set offer (__gpu_advisor_values $path $tokens[-1])
    end
    if test (count $offer) -eq 0
        set offer (__gpu_advisor_words $path)
    end
    for w in $offer
        if test "$w" = '{SESSIONS}'
            gpu-advisor sessions list --ids 2>/dev/null
        else
            echo $w
        end
    end
end
complete -c gpu-advisor -f -a '(__gpu_advisor_complete)'
""")


def script(shell: str, commands: dict[str, argparse.ArgumentParser]) -> str:
    return {"bash": bash, "zsh": zsh, "fish": fish}[shell](commands)
