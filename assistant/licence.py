"""Whether a model may be used commercially, at the user's scale (reading/licence.py reads it as u.ask["licence"]):
per model named, or per licence of a family named without a size, the licence with its link and the date it was
checked, what it means at the monthly active users said (tools/licence.py's verdict), its obligations (the notice
to show, the use policy, the name a distributed fine-tune must start with), 'not legal advice', and for China that
a public generative-AI service needs the CAC filing whatever the model (this tool does not advise on it).
Answered alone (intent 'licence') or, with a load said, under the plan's headline (assistant/asked_more.py)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.knowledge.licences import licences
from gpu_advisor.tools.licence import LicenceTerms, as_data, licence_terms

# A scale this many times below the licence's limit is 'far below' it.
FAR_BELOW = 10


def _count(n: int, lang: str) -> str:
    """A count of users in the reader's units ('2 million', '200 万', '7 亿')."""
    if lang == "zh":
        for size, key in ((100_000_000, "licence.n_yi"), (10_000, "licence.n_wan")):
            if n >= size:
                return say(lang, key, n=f"{n / size:g}")
        return f"{n:,}"
    return say(lang, "licence.n_million", n=f"{n / 1_000_000:g}") if n >= 1_000_000 else f"{n:,}"


def _subject(t: LicenceTerms) -> str:
    from gpu_advisor.knowledge import models

    names = {m.id: m.name for m in models()}
    if t.subject in names:
        return names[t.subject]
    own = [mid for mid in t.models if mid.startswith(t.subject + "-")] or t.models  # a family: its models under it
    return ", ".join(names.get(mid, mid) for mid in own)


def _scale(t: LicenceTerms, lang: str) -> list[str]:
    if t.mau is None or t.mau_limit is None:
        return []
    values = {"mau": _count(t.mau, lang), "limit": _count(t.mau_limit, lang)}
    if t.verdict == "over_limit":
        return [say(lang, "licence.scale_over", **values)]
    key = "licence.scale_far_below" if t.mau * FAR_BELOW <= t.mau_limit else "licence.scale_below"
    return [say(lang, key, **values)]


def _line(t: LicenceTerms, lang: str) -> str:
    if t.licence_id is None:
        return say(lang, "licence.unknown", model=_subject(t))
    parts: list[str] = []
    if t.verdict == "not_allowed":
        parts.append(say(lang, "licence.not_allowed"))
    elif t.mau_limit is not None:
        parts.append(say(lang, "licence.allowed_under", limit=_count(t.mau_limit, lang)))
    else:
        parts.append(say(lang, "licence.allowed"))
    parts += _scale(t, lang)
    if t.verdict != "not_allowed":
        parts += [say(lang, "licence.attribution", text=t.attribution)] if t.attribution else []
        parts += [say(lang, "licence.use_policy")] if t.use_policy else []
        parts += [say(lang, "licence.name_prefix", prefix=t.name_prefix)] if t.name_prefix else []
    return say(lang, "licence.line", model=_subject(t), licence=say(lang, f"licence.name.{t.licence_id}"), url=t.url,
               date=t.as_of,
               terms=say(lang, "licence.sep").join(parts))


def licence_answer(ask: dict[str, Any] | None, lang: str) -> tuple[str, dict[str, Any]] | None:
    """The licence answer (text, data) for what was asked; None when nothing was."""
    if not ask:
        return None
    terms = licence_terms(list(ask.get("models") or []), list(ask.get("families") or []), ask.get("mau"))
    if not terms:
        return None
    lines = [say(lang, "licence.head"), *[_line(t, lang) for t in terms]]
    if ask.get("china"):
        excluded = any("china" in lic.excluded_regions for lic in licences() if lic.id in {t.licence_id for t in terms})
        lines += [] if excluded else [say(lang, "licence.no_region")]
        lines.append(say(lang, "licence.filing"))
    return "\n".join(lines), {"code": "licence", "licences": as_data(terms), "china": bool(ask.get("china"))}


def licence_reply(ctx: Any) -> str:
    """The licence asked alone ('is qwen2.5 72b ok for commercial use?'): the answer, its facts in ctx.data."""
    found = licence_answer((getattr(ctx.turn, "ask", None) or {}).get("licence"), ctx.lang)
    if found is None:
        return ctx.say("licence.none")
    ctx.data["licence"] = found[1]
    return found[0]
