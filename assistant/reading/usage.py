"""Usage said over a period (words/usage.yaml): tokens used a month, a day or a week ('about 15M tokens a month',
'每个月大概用2000万token', '500k tokens per day') are the load the cards carry on average, never a training set, a
context or a count of requests. The tokens a second they make are sized as requests of the usual prompt and answer
(tools.recommend's defaults, read and written both counted), said in a note; a head-count said beside them ('a discord bot for 200
people') is the people who use it, not people at once. Paying an API now and asking whether self-hosting is cheaper
('currently paying openrouter … would self hosting be cheaper?', '调的是deepseek的api，自己租卡部署会不会更便宜')
weighs the two at that usage: `u.ask["break_even"]` carries the usage in millions of tokens a month
(assistant/api_compare.py)."""

from __future__ import annotations

from gpu_advisor.assistant.reading.day_window import busy_hours_a_day
from gpu_advisor.assistant.reading.io_split import PROMPT_TOKENS, apply_split
from gpu_advisor.assistant.reading.load import volume_split
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.assistant.reading.usage_volume import Volume, volume_said
from gpu_advisor.tools.cost import HOURS_PER_MONTH

SECONDS = {"month": HOURS_PER_MONTH * 3600, "day": 86400.0, "week": 7 * 86400.0}


def _people_who_use_it(m: Message, u: Understanding) -> None:
    """'a bot for 200 ppl … 3000 requests a day': the people count who use it, not people at once (said at once,
    '200 concurrent users', it stays)."""
    if "users" in u.updates and "population" not in u.updates and not any(q.extra for q in m.role("users")):
        u.updates["population"] = u.updates.pop("users")


def _split_output(m: Message, u: Understanding, said: Volume) -> tuple[int, tuple[str, dict[str, str]]] | None:
    """'80/20 in/out' with no lengths said, or the volumes read and written said ('300M output and 1.2B input tokens a
    month'): each request reads the usual prompt, or the length said, and writes its share (reading.io_split)."""
    return apply_split(m, u, (said.read, said.written) if said.read and said.written else None)


def _ways(m: Message, said: Volume) -> tuple[float, float] | None:
    """The tokens of the period read and written: the volumes said each way, else the volume shared at the split
    said ('50M tokens a day, 4:1 in/out': 40M read, 10M written), else None."""
    if said.read and said.written:
        return said.read, said.written
    split = volume_split(m)
    if split is None:
        return None
    share = split[0] / (split[0] + split[1])
    return said.tokens * share, said.tokens * (1 - share)


def read_usage(m: Message, u: Understanding) -> None:
    if any(q.extra in ("hour", "day", "month") for q in m.role("request_rate")) and "requests_per_s" in u.updates:
        _people_who_use_it(m, u)  # requests over a period: a usage that sets the load
    said = volume_said(m)
    if said is None or u.updates.get("phase") not in (None, "serve", "production", "experiment"):
        return
    from gpu_advisor.tools.recommend import RATE_OUTPUT_TOKENS

    tokens, period, role = said.tokens, said.period, said.role
    values = {q.value for q in said.parts}
    for slot in ("train_tokens", "context", "prompt_tokens", "output_tokens", "batch_input_tokens", "batch_output_tokens",
                 "rl_prompt_tokens", "rl_completion_tokens"):  # ('输入20亿token' a month: no RL prompt of 2e9 tokens)
        if u.updates.get(slot) in values:  # a volume over a period is never one request's length
            u.updates.pop(slot)
    if any(q.role == "model" for q in said.parts) and u.updates.get("model") in {f"{v / 1e9:g}B" for v in values}:
        u.updates.pop("model")  # '1.2b input … tokens a month': tokens, no 1.2B model
    if role == "request_rate":  # '每天调用100万个token': tokens a day, not a million requests
        u.updates.pop("requests_per_s", None)
        u.notes = [n for n in u.notes if not n[0].startswith("note.rate_spread")]
    hours = busy_hours_a_day(m) if period == "day" else None  # '每天一百万token，工作时间用': within those hours
    per_s = tokens / (hours * 3600 if hours else SECONDS[period])
    if period == "day":
        u.updates["rate_day_hours"] = hours or 24.0  # a later 'working hours' packs the day into them (assistant.day_volume)
    u.updates["phase"] = u.updates.get("phase") or "serve"
    split = _split_output(m, u, said)
    output = split[0] if split else RATE_OUTPUT_TOKENS
    prompt = int(u.updates.get("prompt_tokens") or PROMPT_TOKENS)  # ('outputs ~500, 3:1 in/out': 1,500 read, said)
    u.updates["requests_per_s"] = round(per_s / (prompt + output), 6)  # ... and writes its answer
    _people_who_use_it(m, u)
    month = tokens * SECONDS["month"] / SECONDS[period] / 1e6
    u.notes.append(("usage.note_day_window" if hours else f"usage.note_{period}", {
        "tokens": f"{tokens:,.0f}", "period": period, "tps": f"{per_s:.3g}", "hours": f"{hours or 24:g}",
        "month": f"{month:,.3g}", "prompt": f"{prompt:,}", "output": f"{output:,}"}))
    u.notes += [split[1]] if split else []  # the split said, after the usage it splits
    text = m.raw.lower()
    weighed = u.ask.get("break_even") is True  # 'self host vs just paying moonshot api' (reading.api_worth)
    paid = word_pattern("usage.api_paid").search(text) or u.ask.get("api_price")  # '输入两毛一百万token': an API's
    if weighed or (paid and word_pattern("usage.cheaper_asked").search(text)):
        u.ask["break_even"] = {"usage_million_per_month": round(month, 4)}
        ways = _ways(m, said)
        if ways:  # '输入20亿、输出5亿', '每天五千万token，输入输出四比一': the API bills each way at its own price
            scale = SECONDS["month"] / SECONDS[period] / 1e6
            u.ask["break_even"] |= {"read_million_per_month": round(ways[0] * scale, 4),
                                    "written_million_per_month": round(ways[1] * scale, 4)}
        if hours is None and "utilisation" not in u.updates:  # the API's traffic, spread over the day: up all day
            u.updates["utilisation"] = 1.0
            u.notes.append(("note.live_service", {}))
        per_million = word_pattern("api_price.per_million").search(text) and not u.ask.get("api_price")
        if not word_pattern("compare_verdict.per_token").search(text) and not per_million:
            u.ask.pop("per_token", None)  # '$0.88 per million', '每百万token输入2元' is the API's price: both at the usage
