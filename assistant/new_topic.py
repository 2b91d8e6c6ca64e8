"""Follow-ups that start another job, and loose model names in follow-ups.

A message that starts a different job in the same conversation ("another question: ...", "换个问题", a model to
run at home after a data-centre plan, a new model for a new kind of job) is sized on its own: the earlier plan's
owned cards, users and place do not come along; the region of the prices is kept, and both are said.

A follow-up that names a distilled model's parent loosely ("what about R1 in fp8?" after
DeepSeek-R1-Distill-Qwen-32B) keeps the distill and changes only the setting; when the full model is meant
("the full R1", "用满血版") the switch is said first, with the full model's size.
"""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.policy import SLOTS, Profile
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.knowledge import find_model

# What a fresh job keeps from the conversation: where it is priced (the same person, the same market).
KEPT_SLOTS = ("region", "currency")
# Kinds of job: a new model for a job of another kind is a new topic ("fine-tune llama 8b" after a service).
_KIND = {"fine-tune": "train", "pretrain": "train", "continued-pretrain": "train", "train-and-serve": "both",
         "serve": "serve", "production": "serve", "experiment": "serve", "batch": "batch"}
# The earlier plan's values a fresh job names when they are left out (the rest go too, unnamed).
DROPPED_SAID = ("owned", "users", "population", "personal", "utilisation", "only", "budget_usd", "budget_usd_per_month",
                "deadline_hours", "method", "train_tokens", "context")
# State the fresh job starts without: the plan before, its questions and the cards asked about beside it.
CLEARED: dict[str, Any] = {"results": {}, "asked": [], "pending": None, "also": None, "cards": None,
                           "deferred": None, "owned_untyped": None, "family": None, "unknown_card": None,
                           "parts": None}


def fresh_reason(text: str, said: dict[str, Any], profile: Profile, intents: set[str],
                 also: dict[str, Any] | None = None) -> str | None:
    """Why this message starts another job ('said', 'place', 'job'), or None for a follow-up of the plan.
    `said` is what the message itself reads as (Understanding.updates); `also` the second job planned beside it,
    which a message about it follows up ('… and also fine-tune llama 3 8b', then 'fine-tune llama 3 8b with qlora')."""
    if not (profile.model or profile.phase) or not (said.get("model") or said.get("phase")):
        return None  # nothing planned yet, or a setting changed ("what about int4?", "and for 100 users?")
    if also and said.get("model") in (None, also.get("model")):
        return None
    low = text.lower()
    if word_pattern("new_topic_said").search(low):
        return "said"
    new_model = said.get("model") and said["model"] != profile.model
    if not new_model or word_pattern("topic_kept").search(low) or word_pattern("job_added").search(low):
        return None
    home = said.get("personal") or word_pattern("at_home").search(low)
    organisation = bool(profile.owned) or (profile.users or 0) > 1 or bool(profile.population)
    if home and organisation and not profile.personal:
        return "place"
    old, new = _KIND.get(profile.phase or ""), _KIND.get(said.get("phase") or "")
    if old and new and old != new and "both" not in (old, new) and not intents & {"whatif", "compare_cards"}:
        return "job"
    return None


def fresh_profile(profile: Profile, assumed: dict[str, Any]) -> Profile:
    """The profile another job starts from: only where it is priced, when the user said it."""
    return Profile.model_validate({k: getattr(profile, k, None) for k in KEPT_SLOTS if k not in assumed})


def fresh_note(reason: str, profile: Profile, said: dict[str, Any], lang: str, assumed: dict[str, Any]) -> str:
    """The reply's first words for a fresh job: what of the earlier plan was left out, and what was kept."""
    data = profile.model_dump()
    dropped = [SLOTS[k].label(lang) for k in DROPPED_SAID if data.get(k) not in (None, [], False)
               and k not in said and k not in assumed and k in SLOTS]  # what the user said, not defaults
    kept = [SLOTS[k].label(lang) for k in KEPT_SLOTS if data.get(k) is not None and k not in assumed and k in SLOTS]
    sep = say(lang, "list_sep")
    return say(lang, f"reply.fresh_{reason}", dropped=sep.join(dict.fromkeys(dropped)) or say(lang, "fresh.nothing"),
               kept=sep.join(kept) or say(lang, "fresh.nothing"))


def parent_of(model_id: str | None) -> str | None:
    """The model a distill was distilled from ('deepseek-r1-distill-qwen-32b' -> 'deepseek-r1'), else None."""
    if not model_id or "-distill-" not in model_id:
        return None
    parent = model_id.partition("-distill-")[0]
    try:
        return str(find_model(parent).id)
    except (LookupError, ValueError):
        return None


def loose_model(current: str | None, said: str | None, text: str, lang: str) -> tuple[str | None, str | None]:
    """A follow-up naming a distill's parent: (the model to size, the note saying which and why).
    'what about R1 in fp8?' after the 32B distill keeps the distill; 'the full R1', '671b', '用满血版' switch to
    the full model, said first. (None, None) when the message names no such model."""
    parent = parent_of(current)
    if parent is None:
        return None, None
    low = text.lower()
    full = word_pattern("full_model_alone" if said is None else "full_model").search(low)
    if said != parent and not (said is None and full):
        return None, None
    big, small = find_model(parent), find_model(str(current))
    if full:
        moe = big.active_params_b < big.total_params_b
        return parent, say(lang, "reply.full_not_distill" if moe else "reply.full_not_distill_dense", full=big.name,
                           total=f"{big.total_params_b:g}", active=f"{big.active_params_b:g}", distill=small.name)
    return str(current), say(lang, "reply.kept_distill", distill=small.name, full=big.name,
                             total=f"{big.total_params_b:g}")
