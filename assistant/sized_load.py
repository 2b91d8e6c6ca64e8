"""The load a reply sized without a model plan ('which model on my 4090?', the biggest model a card or a budget
runs) is sized at: the users at once and the context each holds, read from the profile as a plan reads them
(assistant/slots.py), so a follow-up's '十来个人', '10-20 users at once' or 'it's a support bot' sizes them."""

from __future__ import annotations

from typing import Any

from gpu_advisor.tools.recommend import Workload

DEFAULT_CONTEXT = Workload.model_fields["context"].default  # the tools' context when none is said


def users_at_once(p: dict[str, Any]) -> int:
    """The users at once said, else the table's point of a range ('10-20 users') or of a population ('our 800
    staff'), else one."""
    from gpu_advisor.assistant.slots import SLOTS

    if p.get("users") or not (p.get("users_range") or p.get("population")):
        return int(p.get("users") or 1)
    return int(SLOTS["users"].default_for(p) or 1)


def context_each(p: dict[str, Any]) -> int:
    """The context each user holds: the one said, else the use's (a support bot's 4k, a coding assistant's 16k),
    else the tools' default."""
    from gpu_advisor.assistant.slots import use_context

    return int(p.get("context") or use_context(p) or DEFAULT_CONTEXT)
