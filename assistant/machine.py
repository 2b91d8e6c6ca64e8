"""The reply to "what can I run on this machine?" (intent `this_machine`): the cards a local front-end read
from the machine (tools.detect, through the `local_machine` entry of the run's configurable), offered as the
user's hardware; the user says yes with a quick reply that names them, so nothing is used unasked. A front-end
that serves other machines (MCP, the OpenAI endpoint, LangGraph Server) gives no reader: the reply says it
cannot see the user's machine and how to find out."""

from __future__ import annotations

from typing import Any


def _owned_words(cards: list[Any], lang: str) -> str:
    if lang == "zh":
        return "我有 " + "和 ".join(f"{c.count} × {c.gpu_name}" for c in cards)
    return "I have " + " and ".join(f"{c.count} × {c.gpu_name}" for c in cards)


def this_machine(ctx: Any) -> str:
    """What the machine holds, and the quick replies that use it (ctx.data["choices"])."""
    if ctx.local is None:
        return ctx.say("machine.remote")
    try:
        machine = ctx.local()
    except Exception:  # noqa: BLE001 - a vendor tool's odd output is no reason to fail the turn
        machine = None
    if machine is None:
        return ctx.say("machine.unreadable")
    ctx.data["machine"] = machine.model_dump(mode="json")
    lines = [ctx.say("machine.title")]
    for c in machine.cards:
        if c.gpu_id:
            lines.append(ctx.say("machine.card", count=c.count, name=c.gpu_name))
        else:
            lines.append(ctx.say("machine.unknown_card", count=c.count, name=c.name, memory=f"{c.memory_gb:g}"))
    if not machine.cards:
        lines.append(ctx.say("machine.no_card"))
    if machine.ram_gb:
        lines.append(ctx.say("machine.ram", ram=f"{machine.ram_gb:g}"))
    known = machine.known
    if known:
        owned = _owned_words(known, ctx.lang)
        ctx.data["choices"] = [
            {"label": ctx.say("machine.choice_models"), "value": owned + ctx.say("machine.which_models")},
            {"label": ctx.say("machine.choice_plan"), "value": owned},
        ]
        lines += ["", ctx.say("machine.offer")]
    elif machine.cards:
        lines += ["", ctx.say("machine.describe")]
    else:
        lines += ["", ctx.say("machine.tell")]
    return "\n".join(lines)
