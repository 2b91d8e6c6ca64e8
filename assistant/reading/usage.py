"""Usage said over a period (words/usage.yaml): tokens used a month, a day or a week ('about 15M tokens a month',
'每个月大概用2000万token', '500k tokens per day') are the load the cards carry on average, never a training set, a
context or a count of requests. The tokens a second they make are sized as requests of the usual prompt and answer
(tools.recommend's defaults, read and written both counted), said in a note; a head-count said beside them ('a discord bot for 200
people') is the people who use it, not people at once. Paying an API now and asking whether self-hosting is cheaper
('currently paying openrouter … would self hosting be cheaper?', '调的是deepseek的api，自己租卡部署会不会更便宜')
weighs the two at that usage: `u.ask["break_even"]` carries the usage in millions of tokens a month
(assistant/api_compare.py)."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.load import split_output, volume_split
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.tools.cost import HOURS_PER_MONTH

SECONDS = {"month": HOURS_PER_MONTH * 3600, "day": 86400.0, "week": 7 * 86400.0}
PERIODS = {"mo": "month", "d": "day", "wk": "week", "monthly": "month", "daily": "day", "weekly": "week"}
TOKEN_ROLES = ("train_tokens", "context", "prompt_tokens", "output_tokens", "request_rate", "")
MIN_TOKENS = 10_000  # below this a count of tokens over a period is no usage anyone bills
NEAR_BEFORE = 40
PROMPT_TOKENS = 4096  # a rate's request reads tools.recommend's default prompt (the context up to 4,096) ...


def _period(match: re.Match[str]) -> str:
    said = next(g for g in match.groups() if g)
    return PERIODS.get(re.sub(r"\s+", " ", said), said)


def usage_said(m: Message) -> tuple[float, str, str] | None:
    """(tokens, period, the role the number was read in) of the first usage said, else None."""
    for q in m.qty:
        if q.role not in TOKEN_ROLES or q.negated or q.value < MIN_TOKENS:
            continue
        after, before = m.masked[q.end:q.end + 60], m.masked[max(0, q.start - NEAR_BEFORE):q.start]
        hit = word_pattern("usage.after").match(after)
        if hit:
            return q.value, _period(hit), q.role
        hit = word_pattern("usage.before").search(before)
        if hit and (word_pattern("usage.tokens_after").match(after) or word_pattern("usage.tokens_before").search(before)):
            return q.value, _period(hit), q.role
    return None


def _people_who_use_it(m: Message, u: Understanding) -> None:
    """'a bot for 200 ppl … 3000 requests a day': the people count who use it, not people at once (said at once,
    '200 concurrent users', it stays)."""
    if "users" in u.updates and "population" not in u.updates and not any(q.extra for q in m.role("users")):
        u.updates["population"] = u.updates.pop("users")


def _split_output(m: Message, u: Understanding) -> int | None:
    """'80/20 in/out' with no lengths said: each request reads the usual prompt and writes its share (reading.load)."""
    split = volume_split(m)
    if split is None or "prompt_tokens" in u.updates or "output_tokens" in u.updates:
        return None
    output = split_output(*split, PROMPT_TOKENS)
    u.updates["output_tokens"] = output
    u.notes.append(("load.note_split", {"read": f"{split[0]:g}", "written": f"{split[1]:g}",
                                        "prompt": f"{PROMPT_TOKENS:,}", "output": f"{output:,}"}))
    return output


def read_usage(m: Message, u: Understanding) -> None:
    if any(q.extra in ("hour", "day", "month") for q in m.role("request_rate")) and "requests_per_s" in u.updates:
        _people_who_use_it(m, u)  # requests over a period: a usage that sets the load
    found = usage_said(m)
    if found is None or u.updates.get("phase") not in (None, "serve", "production", "experiment"):
        return
    from gpu_advisor.tools.recommend import RATE_OUTPUT_TOKENS

    tokens, period, role = found
    for slot in ("train_tokens", "context", "prompt_tokens", "output_tokens"):
        if u.updates.get(slot) == tokens:
            u.updates.pop(slot)
    if role == "request_rate":  # '每天调用100万个token': tokens a day, not a million requests
        u.updates.pop("requests_per_s", None)
        u.notes = [n for n in u.notes if not n[0].startswith("note.rate_spread")]
    per_s = tokens / SECONDS[period]
    u.updates["phase"] = u.updates.get("phase") or "serve"
    output = _split_output(m, u) or RATE_OUTPUT_TOKENS
    u.updates["requests_per_s"] = round(per_s / (PROMPT_TOKENS + output), 6)  # ... and writes its answer
    _people_who_use_it(m, u)
    month = tokens * SECONDS["month"] / SECONDS[period] / 1e6
    u.notes.append((f"usage.note_{period}", {"tokens": f"{tokens:,.0f}", "period": period, "tps": f"{per_s:.3g}",
                                        "month": f"{month:,.3g}", "prompt": f"{PROMPT_TOKENS:,}", "output": f"{output:,}"}))
    text = m.raw.lower()
    weighed = u.ask.get("break_even") is True  # 'self host vs just paying moonshot api' (reading.api_worth)
    if weighed or (word_pattern("usage.api_paid").search(text) and word_pattern("usage.cheaper_asked").search(text)):
        u.ask["break_even"] = {"usage_million_per_month": round(month, 4)}
        if not word_pattern("compare_verdict.per_token").search(text) and not word_pattern("api_price.per_million").search(text):
            u.ask.pop("per_token", None)  # '$0.88 per million' is the API's price: both at the usage, no ranking
