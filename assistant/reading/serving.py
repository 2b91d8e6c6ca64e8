"""Readers of serving: users, context, utilisation and latency targets."""

from __future__ import annotations

import itertools
import re
from typing import Any

from gpu_advisor.assistant.reading.buy_box import peak_time
from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.latency import bare_latency, latency_note, target_percentile
from gpu_advisor.assistant.reading.load import LONG_PERIODS, SECONDS_PER, context_values, volume_peak
from gpu_advisor.assistant.reading.message import Message, Quantity
from gpu_advisor.assistant.reading.public_product import for_public
from gpu_advisor.assistant.reading.quote_units import money_k
from gpu_advisor.assistant.reading.short_chat import short_chat
from gpu_advisor.assistant.reading.stated_lengths import one_label
from gpu_advisor.assistant.reading.text import MAX_DIGITS, pattern_rows, vocab, word_pattern
from gpu_advisor.tools.queueing import per_token_tail, percentile_name


def read_users_range(m: Message) -> list[int | None] | None:
    """People at once said as a range: '20-100', '5 to 20 users', '20到100人' -> [20, 100]; with no top:
    '100+', '100 or more users', '100人以上' -> [100, None] (a list: a tuple from a reader names its
    slot). A bare range counts at the users question only. The point sized is the slot table's, said as
    an assumption the user can change."""
    def people(q: Any) -> bool:
        return not q.negated and (q.role == "users" or (m.pending == "users" and not q.role and not _clocked(m, q)))

    found: tuple[int, int | None] | None = None
    for low, high in zip(m.qty, m.qty[1:], strict=False):
        if people(high) and low.role in ("", "users") and not low.negated and 1 <= low.value < high.value \
                and _range_joined(m, low, high):
            found = (int(low.value), int(high.value))
            m.ranged |= {low.start, high.start}
    if found is None:
        for q in m.qty:
            if people(q) and q.value >= 1 and word_pattern("users_range_open").match(m.masked[q.end:q.end + 24]):
                found = (int(q.value), None)
                m.ranged.add(q.start)
    if found is None or (found[1] or found[0]) > 1_000_000:
        return None
    return list(found)


def _range_joined(m: Message, low: Quantity, high: Quantity) -> bool:
    """'20-100', '20 to 100', '20到100'; 'between 20 and 100'."""
    gap = m.masked[low.end:high.start]
    return bool(word_pattern("users_range_join").match(gap) or (word_pattern("users_range_and").match(gap)
                and word_pattern("users_range_between").search(m.masked[max(0, low.start - 12):low.start])))


def read_users(m: Message) -> int | None:
    """Concurrent users: '20 users', 'a team of 10', 'just me' (1), '一百个用户' (100); at the users
    question a bare number ('15'). A range ('5-20', '100+') is read_users_range's."""
    value = None
    counted = [q for q in m.role("users") if q.start not in m.ranged]
    at_once = [q for q in counted if q.extra == "concurrent"]  # "200 users, ~50 concurrent": 50 size the cards
    for q in at_once or counted:
        value = q.value
    plus_me = m.live("people_plus_me")
    if plus_me and not at_once:
        value = float(plus_me[0].group("n") or plus_me[0].group("n2")) + 1  # "me + 2 friends": three people
    if value is None and m.live("just_me"):
        value = 1.0
    if value is None and m.live("two_people"):
        value = 2.0
    if value is None and m.pending == "users":
        nums = [q for q in m.qty if not q.role and not q.negated and q.start not in m.ranged
                and not word_pattern("time_unit_after").match(m.masked[q.end:q.end + 12])  # "只用一年呢" is no count
                and not word_pattern("money_hourly").match(m.masked[q.end:q.end + 16])  # "rental was 1.50/hr"
                and not word_pattern("machines_after").match(m.masked[q.end:q.end + 12])  # "only one server"
                and not word_pattern("cards_after").match(m.masked[q.end:q.end + 12])  # "这俩卡差在哪": two cards
                and not _card_price(m, q)  # "what if we buy h20, 一张八万"
                and not _clocked(m, q)  # "9-6 weekdays": hours of the day, no count
                and not word_pattern("price_before").search(m.masked[max(0, q.start - 24):q.start])]  # "box for 280k"
        if nums:
            value = nums[-1].value
    headcount = m.role("headcount")
    if headcount and value is None:
        m.notes.append(("note.headcount", {"n": f"{headcount[0].value:,.0f}"}))
    daily = m.role("daily_users")
    if daily:  # people a day or a month use it: the peak at once comes from them (a month's at a day's share) unless said
        said = "monthly" if daily[0].extra == "month" else "daily"
        m.notes.append((f"note.{said}_population_said" if value else f"note.{said}_population", {"n": f"{daily[0].value:,.0f}"}))
    if value is None:
        return None
    if value < 1:
        m.problems.append(("users_min", {}))
        return None
    if value >= 10 ** (MAX_DIGITS - 1):  # 15 digits or more (a longer run is cut to MAX_DIGITS): no figure shown
        m.problems.append(("users_too_many", {}))
        return None
    if value > 1_000_000:
        m.problems.append(("users_max", {"value": f"{value:,.0f}"}))
        return None
    return int(value)


def read_population(m: Message) -> int | None:
    """The people who use a service, not the people at once: 'about 3000 internal users', 'our 800
    employees', '全院一千多人'. The number at once is sized from it (tools.traffic) unless said."""
    counted = m.role("population") or m.role("daily_users")  # "DAU 2000", "5k monthly users"
    if not counted:  # "200人用，同时30个", "500 users, 50 at once": the larger count is everyone who uses it
        users = [q for q in m.role("users") if q.start not in m.ranged and not q.negated]
        at_once = [q.value for q in users if q.extra == "concurrent"]
        counted = [q for q in users if q.extra != "concurrent" and at_once and q.value > max(at_once)]
    if not counted:
        return None
    value = counted[-1].value
    if len(counted) > 1 and all(word_pattern("population_joined").fullmatch(m.masked[a.end:b.start].strip(" ,，"))
                                for a, b in itertools.pairwise(counted)):
        value = sum(q.value for q in counted)  # "30k students and 2k faculty": everyone who uses it
    if value < 1 or value > 100_000_000:
        return None
    return int(value)


def read_population_daily(m: Message) -> bool | None:
    """Whether the people who use it were counted a day ("2k daily users", "日活几百人", "每天300人用"): their
    share at once is smaller than a staff's (tools.traffic.peak_share). False for a staff or head-count said
    now, None when no one who uses it is said."""
    return None if read_population(m) is None else not m.role("population") and bool(m.role("daily_users"))


def read_population_monthly(m: Message) -> bool | None:
    """Whether the people who use it were counted a month ("5k monthly users", "月活五千"): sized at a day's share of
    them (tools.traffic.peak_share), on the safe side and said. False for a day's or a staff's count, None for none."""
    return None if read_population(m) is None else not m.role("population") and any(
        q.extra == "month" for q in m.role("daily_users"))


def read_uptime(m: Message) -> float | None:
    """An availability target: '99.9% uptime', '可用性要99.95%' (percent). Never how busy the cards are, but
    a service with one is up around the clock (the utilisation slot's default then)."""
    said = m.role("uptime")
    return said[0].value if said and 50 <= said[0].value <= 100 else None


def read_context(m: Message) -> int | None:
    """Context length in tokens: '32k context' (32,768), 'context of 128 thousand tokens' (128,000);
    at the context question a bare '32k'."""
    if m.phase == "batch":
        return None  # a batch job's lengths are tokens per item, read by the batch readers
    values = context_values(m)  # an explicit length beats one worked out from characters (reading.load)
    if not values and m.pending == "context":
        values = [q.context_tokens for q in m.qty if not q.role and not q.negated and q.start not in m.named
                  and not word_pattern("time_unit_after").match(m.masked[q.end:q.end + 12])]
    if not values and m.phase in ("serve", "production", "train-and-serve", "experiment"):
        # "…20人 64k吧": a bare length in k beside a serving request, no other role, is its context
        values = [q.context_tokens for q in m.qty if not q.role and not q.negated and q.scale == "k"
                  and 1_000 <= q.value <= 2_000_000 and not word_pattern("bare_k_not_context").match(m.masked[q.end:q.end + 24])
                  and not word_pattern("price_before").search(m.masked[max(0, q.start - 24):q.start])  # "quote of 285k"
                  and not money_k(m, q)]  # "210k for an 8x h100 server": money
    if not values:
        return None
    value = values[-1]
    if value < 128:
        m.problems.append(("context_short", {"value": f"{value:,.0f}"}))
        return None
    if value > 10_000_000:
        m.problems.append(("context_long", {"value": f"{value:,.0f}"}))
        return None
    return int(value)


def read_utilisation(m: Message) -> float | None:
    """How busy the GPUs are, 0-1: '24/7' (1.0), 'working hours' (0.24), '8 hours a day' (0.33),
    '50%'; at the utilisation question a bare percentage; a service for customers or the public (1.0, said). A batch job has none ('over the weekend'
    is its deadline)."""
    if m.phase == "batch":  # 'over the weekend' is its deadline; only a daily window of clock hours is a share
        window = _clock_span(m)
        return round(window, 4) if window is not None and window < 1 else None
    said = _said_share(m)
    if said is not None:
        if not 0 < said <= 1:
            m.problems.append(("utilisation_range", {}))
            return None
        return round(said, 4)
    if any(q.extra in LONG_PERIODS for q in m.role("request_rate")):
        return 1.0  # "300k requests a day": spread over the 24 hours (reading.load), so busy all day
    if ((m.live("public_facing") and not m.live("internal_use")) or for_public(m)) \
            and m.phase not in ("fine-tune", "pretrain", "continued-pretrain"):
        m.notes.append(("note.public_facing", {}))  # "a chatbot for our customers": up around the clock
        return 1.0
    typed = m.raw.lower()  # the Chinese words as typed too ("公司内部" reads "company-wide", "上线" reads "deploy")
    internal = m.live("internal_use") or word_pattern("internal_use").search(typed)
    if m.phase in ("serve", "train-and-serve") and not internal and (m.role("request_rate") or m.live("live_service")
                                                or word_pattern("live_service").search(typed)):
        m.notes.append(("note.live_service", {}))  # "20 req/s, p95 ttft 500ms", "launching in 3 weeks": up all day
        return 1.0
    return None


def _said_share(m: Message) -> float | None:
    """The share of the time the cards are busy, as the message says it (a word, a percentage, a clock
    range, hours per day; at the utilisation question a bare number); None when it says none."""
    hits: list[tuple[int, float]] = []
    for pattern, (value, _label) in pattern_rows("utilisation"):
        for x in pattern.finditer(m.masked):
            if not negated(m.masked, x.start()) and not peak_time(m.masked, x.start(), x.end()):
                hits.append((x.start(), float(value)))
    for q in m.role("utilisation_percent"):
        hits.append((q.start, q.value / 100))
    busy = _clock_span(m)
    if busy is not None:  # "7am to 7pm": 12 hours a day, fewer on weekdays only
        refined = vocab()["utilisation_refined_by_clock"]  # "9-6 weekdays": the hours said, not the usual working day
        hits = [h for h in hits if h[1] not in refined]
        span = word_pattern("clock_range").search(m.masked)
        hits.append((span.start() if span else 0,
                     busy * (5 / 7 if word_pattern("weekdays_only").search(m.masked) else 1)))
    if m.role("hours_per"):  # '10 hours a week, at weekends': the hours said, not the word's usual share
        hits = [h for h in hits if h[1] not in vocab()["utilisation_refined_by_hours"]]
    for q in m.role("hours_per"):
        per = vocab()["period_hours"].get(q.extra, 24)
        share = q.value / per
        days = word_pattern("days_a_week").search(m.masked[q.end:q.end + 40])
        if days and q.extra in ("day", "weekday", "working day", "workday"):
            share *= int(days.group(1)) / 7
        hits.append((q.start, share))
    if not hits and m.pending == "utilisation":
        nums = [q for q in m.qty if not q.role and not q.negated and not _card_price(m, q) and q.start not in m.named
                and q.extra not in vocab()["duration_hours"]  # "到3月用户会到500": a date, not a share of the week
                and not word_pattern("time_unit_after").match(m.masked[q.end:])]  # "3 year horizon", "用3年": a span
        if nums:
            said = nums[-1].value
            hits.append((0, said / 100 if said > 1 else said))
    night = vocab()["utilisation_off_at_night"]  # 'working hours and shut down at night': the working hours
    hits = [h for h in hits if h[1] not in night] or hits
    aside = [x.span() for x in word_pattern("corr3.rare_besides").finditer(m.masked)]  # 'rarely at night': an aside
    hits = [h for h in hits if not any(s <= h[0] < e for s, e in aside)] or hits
    return max(hits)[1] if hits else None


def _hours_a_day(m: Message) -> float | None:
    """The hours of a day the cards are busy when the message says them per day ('9:00 to 18:00',
    '12 hours a day'); None otherwise (a share of the week, 'working hours', says no day's hours)."""
    span = _clock_span(m)
    if span is not None:
        return span * 24
    daily = [q.value for q in m.role("hours_per") if q.extra == "day" and 0 < q.value <= 24]
    return daily[-1] if daily else None


def _clocked(m: Message, q: Any) -> bool:
    """Whether the number is an hour of a clock range the message says ('9-6 weekdays', '9:00 to 18:00')."""
    span = word_pattern("clock_range").search(m.masked)
    return bool(span and span.start() <= q.start < span.end() and _clock_span(m) is not None)


# A bare clock range said with working days ('9-6 weekdays', '8-5 mon-fri'): a morning start and an afternoon end.
OFFICE_STARTS, OFFICE_ENDS = range(6, 12), range(1, 9)


def _clock_span(m: Message) -> float | None:
    """The share of a day in a clock range ('7am to 7pm' 0.5, '8pm to 8am' 0.5, '9:00 to 18:00' 0.375)."""
    span = word_pattern("clock_range").search(m.masked)
    if not span:
        return None
    said = span.group(0)
    start, end = int(span.group(1)), int(span.group(3))
    workday = start in OFFICE_STARTS and end in OFFICE_ENDS and bool(
        word_pattern("weekdays_only").search(m.masked) or word_pattern("clock_range_office").search(m.masked)
        or m.pending == "utilisation")  # '9-6 weekdays', '9-to-6', '9 to 6' answering how busy the cards are
    if not (span.group(2) or span.group(4) or (":" in said and max(start, end) <= 24) or workday):
        return None  # "7am to 7pm", "9:00 to 18:00", "9-6 weekdays"; not "24/7 - 25 people"
    if " and " in said and not re.search(r"\bbetween\s*$", m.masked[:span.start()]):
        return None  # "9am and 5pm" is a range only after "between"

    def hour(h: str, half: str | None) -> int:  # "8pm" is 20, "12am" 0, "18:00" 18
        return int(h) % 12 + (12 if half == "pm" else 0) if half else int(h)

    start, end = hour(span.group(1), span.group(2)), hour(span.group(3), span.group(4) or ("pm" if workday else None))
    return ((end - start) % 24 or 24) / 24


def read_ttft(m: Message) -> float | None:
    """Target time to first token in ms: 'first token under 500 ms', 'under 2 seconds to first token'. A time said
    as measured ('ttft p99 is like 4 seconds on vllm') is no target: said back as what was seen."""
    for q in m.role("ttft_observed", "token_observed"):
        ms = q.value * (1000 if q.extra == "s" else 1)
        m.notes.append((f"note.{q.role}", {"ms": f"{ms:,.0f}"}))
    found = m.role("ttft_ms", "ttft_s")
    if not found:
        return None
    values = [q.value * (1000 if q.role == "ttft_s" else 1) for q in found]
    if min(values) <= 0:
        m.problems.append(("latency_not_positive", {}))
        return None
    strictest = found[values.index(min(values))]
    if bare_latency(m.masked, strictest.start):  # "p95 latency under 2s": the first token's, the whole answer said too
        out = m.role("output_tokens")
        m.notes.append(latency_note(min(values), out[-1].value if out else None))
    if word_pattern("latency_percentile").search(m.masked):  # "p95 under 800 ms, p99 under 1.5 s": the strictest
        key = "note.tail_latency_rate" if m.role("request_rate") else "note.tail_latency"  # a rate: the queue is modelled
        at = read_ttft_percentile(m) or 0.99
        m.notes.append((key, {"ms": f"{min(values):,.0f}", "pct": f"p{at * 100:.10g}"}))
        return float(min(values))
    return float(values[-1])


def read_ttft_percentile(m: Message) -> float | None:
    """The percentile the first-token target is held at ('p90 TTFT under 1 s' 0.9, 'P95首字延迟小于500ms' 0.95):
    the one said with the strictest target; None when no target or no percentile by its number is said."""
    found = m.role("ttft_ms", "ttft_s")
    if not found or not word_pattern("latency_percentile").search(m.masked):
        return None
    values = [q.value * (1000 if q.role == "ttft_s" else 1) for q in found]
    return target_percentile(m.masked, found[values.index(min(values))].start)


def read_min_tokens_per_s(m: Message) -> float | None:
    """Per-user decode speed target: 'at least 30 tokens/s per user', '50 ms per token' (20/s)."""
    found = m.role("tokens_per_s", "ms_per_token", "s_per_token")
    if not found:
        return None
    q = found[-1]
    if q.value <= 0:
        m.problems.append(("speed_not_positive", {}))
        return None
    if q.role in ("ms_per_token", "s_per_token"):  # "p99 inter-token latency under 50ms": a decode speed, said so
        ms = q.value * (1000 if q.role == "s_per_token" else 1)
        pct = target_percentile(m.masked, q.start)
        if pct is not None and pct > 0.5:  # a tail target: the mean is sized below it (tools.queueing.per_token_tail)
            step = bool(word_pattern("per_step_context").search(m.masked[max(0, q.start - 40):q.end + 24]))
            factor = per_token_tail(pct, step)
            m.notes.append(("note.per_step_target_tail" if step else "note.per_token_target_tail", {
                "ms": f"{ms:,.4g}", "pct": percentile_name(pct), "factor": f"{factor:.1f}",
                "mean": f"{ms / factor:,.3g}", "tps": f"{factor * 1000 / ms:,.3g}",
                "untuned": f"{per_token_tail(pct, step, untuned=True):.1f}"}))
            return round(factor * 1000 / ms, 4)
        m.notes.append(("note.per_token_target", {"ms": f"{ms:,.4g}", "tps": f"{1000 / ms:,.4g}"}))
        return round(1000 / ms, 4)
    return float(q.value)



def read_images(m: Message) -> int | None:
    """Images sent with each request ('one scanned page per request', '每个请求一张图'), 1-64."""
    found = m.role("images")
    if not found:
        return None
    value = found[-1].value
    if not 1 <= value <= 64:
        m.problems.append(("images_range", {}))
        return None
    return int(value)


def read_request_rate(m: Message) -> float | None:
    """Requests per second at the busiest time: '20 requests per second', '20 rps', '1200 requests a minute'
    (20), '每秒20个请求', '峰值QPS 50'. A rate per hour or day is spread evenly, and said so."""
    found = m.role("request_rate")
    if not found or m.phase == "batch":
        return None
    per = SECONDS_PER
    q = max(reversed(found), key=lambda x: x.value / per[x.extra or "second"])  # the busiest rate said
    seconds: float = per[q.extra or "second"]
    base = min(x.value / per[x.extra or "second"] for x in found)
    if base < q.value / seconds and base > 0:  # "平时10 QPS，峰值50": sized for the peak; the base scales down
        m.notes.append(("note.rate_peak_base", {"base": f"{base:.3g}", "peak": f"{q.value / seconds:.3g}",
                                                "share": f"{base / (q.value / seconds):.0%}"}))
    if q.value <= 0:
        m.problems.append(("rate_not_positive", {}))
        return None
    if q.value / seconds > 1_000_000:
        m.problems.append(("rate_max", {"value": f"{q.value / seconds:,.0f}"}))
        return None
    hours = _hours_a_day(m) if q.extra == "day" else None
    if hours is not None and hours < 24:  # "300k requests a day, 9:00 to 18:00": over those hours only
        seconds = hours * 3600
        m.notes.append(("note.rate_spread_window", {"n": f"{q.value:,.0f}", "hours": f"{hours:.3g}",
                                                    "rps": f"{q.value / seconds:.3g}"}))
    elif q.extra == "hour":
        m.notes.append((f"note.rate_spread_{q.extra}", {"n": f"{q.value:,.0f}", "rps": f"{q.value / seconds:.3g}"}))
    rate = q.value / seconds
    peak = word_pattern("rate_peak_factor").search(m.masked)  # a peak factor said beats the one assumed
    if q.extra in LONG_PERIODS and (hours is None or hours >= 24) and not peak:  # '10万次/天': the busiest hours
        rate = volume_peak(m, q.value, q.extra, rate)
    if peak and 1 < float(peak.group("n")) <= 100:  # "peak is 3x the average": sized at the peak, said so
        factor = float(peak.group("n"))
        m.notes.append(("note.rate_peak_factor", {"rps": f"{rate:.3g}", "factor": f"{factor:g}",
                                                  "peak": f"{rate * factor:.3g}"}))
        rate *= factor
    return round(rate, 6)


def read_output_tokens(m: Message) -> int | None:
    """Tokens generated per request when serving: '200 output tokens', '输出300'. A batch job's output per
    item is read by read_batch_output_tokens."""
    if m.phase not in ("serve", "production", "train-and-serve", "experiment"):
        return None
    found = m.role("output_tokens")
    if not found and (label := one_label(m)):
        return label  # "answers are just yes or no": a few tokens
    if not found:
        return short_chat(m, "output_tokens")  # "mostly short chats": a short answer, said in the reply
    return int(found[-1].value) if found[-1].value >= 1 else None


def _card_price(m: Message, q: Quantity) -> bool:
    """An amount said after a card to buy or rent ('buy 2 rtx pro 6000 at 8500 each', '要是买h20呢 一张八万'): its
    price, never the answer to a question about people or how busy the cards are."""
    buying = word_pattern("preference.buy").search(m.masked) or word_pattern("preference.rent").search(m.masked)
    if not buying or not any(e <= q.start for _s, e, _g, _n in m.gpus):
        return False
    if q.value >= 100:
        return True
    nxt = next((x for x in m.qty if x.start > q.end), None)  # '一张八万': one card, then its price
    return nxt is not None and nxt.start - q.end <= 3 and nxt.value >= 100
