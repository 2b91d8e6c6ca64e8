"""The command that starts the plan on screen (tools.launch), in words: the "Start it:" block that ends every
serving answer, and the reply to "how do I start it?", "give me the vllm command", "怎么启动", "启动命令是什么"
(the reader is assistant/reading/launch.py). The command is one fenced block; at most one line of notes under
it says where to run it and what to fetch first, from the tool's note codes and the catalogs' words."""

from __future__ import annotations

import shlex
import time
from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.tools.launch import LaunchCommand, LaunchError, kubernetes_manifest, launch_for
from gpu_advisor.tools.recommend import Recommendation

NOTES_SHOWN = 2  # notes joined into the one line under the command


def command_lines(cmd: LaunchCommand, wrapped: bool = False) -> list[str]:
    """The shell lines that start the plan: the setup commands (first server, then each other), then the server;
    `wrapped` puts each argument of the server's command on its own line, continued with a backslash, as engine
    docs print a long command (the chat's block)."""
    return [shlex.join(c) for c in cmd.setup] + (_wrapped(cmd) if wrapped else [cmd.shell])


def _wrapped(cmd: LaunchCommand) -> list[str]:
    from gpu_advisor.knowledge.engine_flags import engine_flags

    return wrapped_argv(cmd.argv, len(engine_flags()[cmd.engine].program))


def wrapped_argv(argv: list[str], start: int) -> list[str]:
    """A command's arguments after its first `start` words one to a line (a flag beside its value), continued
    with a backslash."""
    parts: list[list[str]] = [argv[:start]]
    for a in argv[start:]:
        if a.startswith("-") or not parts[-1] or not parts[-1][-1].startswith("-") or len(parts) == 1:
            parts.append([a])  # a flag, or a positional argument: a line of its own
        else:
            parts[-1].append(a)  # a flag's value, beside it
    lines = [shlex.join(p) for p in parts]
    return [lines[0] + " \\"] + [f"  {x} \\" for x in lines[1:-1]] + [f"  {lines[-1]}"]


def note_line(cmd: LaunchCommand, lang: str) -> str | None:
    """The notes, at most NOTES_SHOWN of them, as one line (None: nothing to add to the command)."""
    sep = say(lang, "launch.note_sep")
    parts = [say(lang, f"launch.note.{n.code}", engine=cmd.engine_name, **{k: _shown(v) for k, v in n.values.items()})
             for n in cmd.notes[:NOTES_SHOWN]]
    return sep.join(parts) if parts else None


def _shown(v: str | int) -> str:
    return f"{v:,}" if isinstance(v, int) else v


def block(cmd: LaunchCommand, lang: str, heading: str) -> list[str]:
    """The heading, the fenced command, and the notes line."""
    lines = [heading, "```bash", *command_lines(cmd, wrapped=True), "```"]
    note = note_line(cmd, lang)
    return lines + ([note] if note else [])


def start_ending(rec: Recommendation | None, lang: str) -> list[str]:
    """The "Start it:" block that ends a serving answer, after a blank line; nothing for a plan no command
    starts (a training plan, no option that holds the model)."""
    if rec is None or rec.best is None or not (rec.workload.spec.serves or rec.workload.spec.batch):
        return []
    if not rec.best.ok and not rec.offload_leads:
        return []
    try:
        cmd = launch_for(rec)
    except LaunchError:
        return []
    if rec.workload.owned and not rec.best.owned and not rec.offload_leads:  # your own cards do not run it: the
        from gpu_advisor.assistant.writers import gpu_words  # command names the cards it is for (review s27)

        return ["", *block(cmd, lang, say(lang, "launch.start_on", option=gpu_words(rec.best, lang),
                                          engine=cmd.engine_name, version=cmd.version))]
    return ["", *block(cmd, lang, say(lang, "launch.start", engine=cmd.engine_name, version=cmd.version))]


def launch_reply(ctx: Any) -> str:
    """'how do I start it?', 'give me the sglang command': the command of the plan on screen, in the engine asked
    for when one is named; with no serving plan yet, a line saying to size one first."""
    rec = ctx.rec
    engine = ctx.turn.ask.get("launch_engine")
    if rec is None or rec.best is None or not (rec.workload.spec.serves or rec.workload.spec.batch):
        ctx.data["launch"] = {"plan": False}
        return ctx.say("launch.no_plan")
    start = time.perf_counter()
    try:
        cmd = launch_for(rec, engine)
    except LaunchError:
        ctx.data["launch"] = {"plan": False}
        return ctx.say("launch.no_command")
    if ctx.recorder is not None:
        ctx.recorder("launch", {"option": rec.best.gpu, "engine": engine}, cmd.model_dump(mode="json"),
                     (time.perf_counter() - start) * 1000)
    ctx.data["launch"] = cmd.model_dump(mode="json")
    option = f"{rec.best.gpus:,} × {rec.best.gpu_name}"
    if ctx.turn.ask.get("launch_k8s"):
        return _manifest_reply(ctx, rec, cmd, option)
    heading = ctx.say("launch.for_plan", option=option, model=cmd.model_name, engine=cmd.engine_name,
                      version=cmd.version)
    return "\n".join(block(cmd, ctx.lang, heading))


def _manifest_reply(ctx: Any, rec: Recommendation, cmd: LaunchCommand, option: str) -> str:
    """'k8s yaml', 'kubernetes部署文件': the plan as Kubernetes objects (tools.launch.kubernetes_manifest); where
    no container image is on record (a Mac, a card no engine image serves), the command instead."""
    try:
        if rec.best is None:
            raise LaunchError("no plan")
        manifest = kubernetes_manifest(cmd, rec.best)
    except LaunchError:
        heading = ctx.say("launch.k8s.none", option=option, engine=cmd.engine_name)
        return "\n".join(block(cmd, ctx.lang, heading))
    ctx.data["launch"]["manifest"] = manifest
    lines = [ctx.say("launch.k8s.for_plan", option=option, model=cmd.model_name, engine=cmd.engine_name,
                     version=cmd.version), "```yaml", manifest, "```"]
    key = "launch.k8s.lws" if cmd.pp > 1 else "launch.k8s.deploy"
    lines.append(ctx.say(key, servers=f"{cmd.pp if cmd.pp > 1 else cmd.servers:,}", copies=f"{cmd.replicas:,}"))
    return "\n".join(lines)
