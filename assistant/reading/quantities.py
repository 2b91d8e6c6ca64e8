"""Quantities and their roles: every number with its unit, read from the words around it."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.latency import observed, per_token
from gpu_advisor.assistant.reading.length_ranges import length_ranges, range_high
from gpu_advisor.assistant.reading.length_tried import length_tried
from gpu_advisor.assistant.reading.money_roles import money_said
from gpu_advisor.assistant.reading.peak_rate import peak_rates, request_rate_said
from gpu_advisor.assistant.reading.people import (
    POPULATION_FROM,
    at_once_after,
    at_once_of,
    is_people,
    is_staff,
    people_ahead,
    staff_noun_after,
    strip_fillers,
)
from gpu_advisor.assistant.reading.text import MAX_QUANTITIES, alternation, vocab, word_pattern
from gpu_advisor.assistant.reading.text_units import as_tokens, text_role


@dataclass(frozen=True)
class Quantity:
    """A number in the message with its scale, place and role ('users', 'train_tokens' ...)."""

    number: float  # as written, before the scale ("2" in "2k")
    scale: str  # "", "k", "m", "b", "t", "thousand", "million", ...
    start: int
    end: int
    role: str = ""
    negated: bool = False
    extra: str = ""  # currency for money, unit for durations
    said: str = ""  # a length said in characters or words ("3000|字|1.4": number, unit, per token), now tokens

    @property
    def value(self) -> float:
        """The number with its scale, k = 1,000."""
        return self.number * vocab()["suffix_scale"].get(self.scale, 1)

    @property
    def context_tokens(self) -> float:  # for a context length 'k' is 1,024 ('32k' -> 32768); 'thousand' stays 1,000
        scaled = self.scale in ("", "k", "m")
        return self.number * {"k": 1024, "m": 1024 * 1024}.get(self.scale, 1) if scaled else self.value


_QTY = re.compile(
    r"(?<![\w.])(?<!\d/)(-(?=\d))?(\d{1,15}(?:,\d{3}){0,4}(?:\.\d{1,6})?)"
    r"(?:(k|mm|m|bn|b|t)(?![a-z0-9])|\s?(thousand|million|billion|trillion)\b)?"
    r"(?=$|[^\w]|(?:ms|s|sec|secs|h|hr|hrs|hours?|d|days?|min|mins|tok|toks|tokens?|tps|qps|rps)\b|req\b|req/)(?:(?<=[a-z])|(?![.,]\d))"
)


def _bare_number_ahead(rest: str) -> bool:
    """Whether the words after a unit go on to a number of their own with no unit ('context length
    128k'): then the unit word is that number's label, not the unit of the number before it."""
    ahead = word_pattern("number_ahead").match(rest) or _filler_then_number().match(rest)
    if ahead is None or word_pattern("not_quantities").match(rest[ahead.end() - 1:]):
        return False
    tail = rest[ahead.end():]
    tail = tail[re.match(r"[\d,.]*(?:k|m)?", tail).end():]  # type: ignore[union-attr]  # always matches
    own_unit = ("tokens_after", "tps_after", "ms_after", "seconds_after", "duration_after", "ctx_after",
                "concurrency_after")
    return not (is_people(tail, "") or any(word_pattern(key).match(tail) for key in own_unit))


@cache
def _filler_then_number() -> re.Pattern[str]:
    """Filler words, then a digit ('开到 4k', '得 have 8k', 'needs to be 32k')."""
    return re.compile(rf"^\s*(?:(?:{alternation(vocab()['label_fillers'])})\s*){{1,3}}\d")


def _role(masked: str, q: Quantity, lang: str = "en", previous: str = "") -> tuple[str, str]:  # noqa: C901 - ordered role rules, first match wins
    """The role of one quantity from the words after and before it, and an extra tag (the
    currency of money, the unit of a duration, the period of hours per period)."""
    after = masked[q.end:q.end + 60]
    before = masked[max(0, q.start - 60):q.start]
    percent = word_pattern("percent_after").match(after)
    if percent or word_pattern("percent_before").search(before):
        rest = after[percent.end():] if percent else after
        if word_pattern("uptime_after").match(rest) or word_pattern("uptime_before").search(before) \
                or (99 <= q.value < 100 and q.value != int(q.value)):
            return "uptime", ""  # "99.9% uptime", a bare "99.95%": an availability target, not how busy the cards are
        return ("" if word_pattern("percent_not_utilisation").match(rest) else "utilisation_percent"), ""
    if 90 <= q.value < 100 and q.scale != "k" and (word_pattern("uptime_before").search(before)
                                                   or (q.value >= 99 and word_pattern("uptime_after").match(after))):
        return "uptime", ""  # "uptime 99.95", "SLA 99.9", "99.99 uptime": an availability target without its % sign
    if word_pattern("bits_after").match(after):
        return "bits", ""  # '4-bit on h100s' at the users question: a format, no count of people
    rate = request_rate_said(after, before)
    if rate is not None:
        return rate  # "20 requests per second", "每秒20个请求", "peak qps 50": requests arriving, not items or users
    if 1 <= q.value <= 1024 and word_pattern("rl_samples_before").search(before) \
            and not word_pattern("rl_group_not_after").match(after):
        return "rl_group", ""  # "每个prompt采样8条", "group size 16": completions per prompt, not examples or items
    cur_before = word_pattern("money_before").search(before.rstrip())
    cur_after = word_pattern("money_after").match(after)
    if word_pattern("hosting_before").search(before) or word_pattern("hosting_after").match(after):
        sign = (cur_before.group() if cur_before else "") + (cur_after.group() if cur_after else "")
        cny = word_pattern("currency_cny").search(sign) or (not sign and lang == "zh")
        return "hosting", "CNY" if cny else "USD"  # "colo is 2k a month", "托管费每月2000": a running cost of owning
    if cur_before or cur_after:
        sign = (cur_before.group() if cur_before else "") + (cur_after.group() if cur_after else "")
        currency = "CNY" if word_pattern("currency_cny").search(sign) else \
            "EUR" if word_pattern("currency_eur").search(sign) else \
            "GBP" if word_pattern("currency_gbp").search(sign) else "USD"
        rest = after[cur_after.end():] if cur_after else after
        if word_pattern("power_after").match(rest) or word_pattern("power_before").search(before):
            return "power_price", currency  # "$0.15/kWh", "电费每度0.8元": a running cost, not a budget
        return "money", currency
    if word_pattern("power_after").match(after) and (word_pattern("power_before").search(before) or q.value < 5):
        return "power_price", "CNY" if lang == "zh" else "USD"  # "0.30/kWh": no price per kWh reaches 5 in any currency
    if length_tried(q, before, after):
        return "context", ""  # "and how much is it at 4k?", "那4k呢", "换成16k要多少显存": a context length to try
    at_once = at_once_after(after)  # "500 daily users, maybe 30 concurrent": 30 at once; "30 ppl hitting it at once"
    daily = word_pattern("daily_users_after").match(after) or (not at_once and (  # "日活涨到五千"; "each day about
        word_pattern("daily_users_before").search(before) or word_pattern("daily_users_before").search(strip_fillers(
            before)) or (word_pattern("active_users_after").match(after)  # 2,000 active users": the day said first
                         and word_pattern("daily_users_day_before").search(before))))
    if daily:  # "3000 daily users", "日活2000": not people at the same time; a month's users ("MAU 50k") tagged
        return "daily_users", "month" if word_pattern("monthly_users").search(daily.group()) else ""
    if word_pattern("team_after").match(after):
        return "users", ""  # "our 6-person team"
    if word_pattern("headcount_after").match(after):
        return "headcount", ""  # "a 6 person startup": the company's size, not its users
    unit = _unit_after(q, after, before)
    if not at_once and (unit is None or unit[0] == "users") and (word_pattern("population_after").match(after)
                                                                 or word_pattern("population_before").search(before)):
        # ('internally for 20 concurrent users': 'concurrent' beside the count says at once, whatever came before)
        # "3000 internal users", "our 800 employees", "全院一千多人": who uses it, not who is at once
        bare = strip_fillers(before)
        context = (word_pattern("ctx_before").search(before) or word_pattern("ctx_label").search(bare)) and not (
            previous == "context" and word_pattern("ctx_claimed").search(bare.rstrip()))  # "32k ctx 40 employees"
        if context:
            return "context", ""  # "上下文窗口8k 注册用户40": the label before claims it, the noun after is the next count's
        if (unit or _label_before(masked, q, after, before, lang, previous))[0] in ("", "users"):
            return "population", ""
    if not at_once and unit is not None and unit == ("users", "") and q.value >= POPULATION_FROM and is_staff(after):
        return "population", ""  # "for about 300 doctors": the staff who use it, some of them at once
    if unit is not None:
        return unit
    if q.scale == "k" and word_pattern("people_then_at").search(before):
        return "context", ""  # "50 concurrent users at 32k": the people were counted; the k-count is their context
    role = _label_before(masked, q, after, before, lang, previous)
    if role == ("", "") and q.value >= 100 and word_pattern("money_monthly_bare").match(after):
        return "money", "CNY" if lang == "zh" else "USD"  # "about 8k a month for gpus": no label claims it
    return role


def _unit_after(q: Quantity, after: str, before: str) -> tuple[str, str] | None:  # noqa: C901 - ordered unit rules, first match wins
    """The role a unit right after the number gives it ('50 users', '32k context', '200 ms', '3
    epochs'): the strongest evidence, so it wins over any label before the number."""
    if word_pattern("images_after").match(after) or (word_pattern("images_before").search(before)
                                                      and word_pattern("images_noun").match(after)):
        return "images", ""  # "one scanned page per request": a vision model reads each as its image tokens
    if word_pattern("out_after").match(after) and word_pattern("tokens_in_nearby").search(before[-40:] + after[:1]):
        return "output_tokens", ""  # "250 tokens in and 5 out each"
    label = word_pattern("output_label_direct").match(after)
    if label and q.value >= 32 and not word_pattern("output_label_then").match(after[label.end():]) \
            and not word_pattern("tok_after_output_short").match(after) \
            and not word_pattern("tok_before_prompt").search(before):  # '每条输入大概100个token输出…': the input's
        return "output_tokens", ""  # "~5 rps, 4k outputs" (not "1000 tokens output 200", "8 outputs per prompt")
    if word_pattern("in_before_out_after").match(after) or (word_pattern("in_after_out_before").match(after)
                                                          and word_pattern("out_before_in_after").search(before[-40:])):
        return "prompt_tokens", ""  # "300 in 10 out", "500 in/5 out", "200 tokens out and 1500 in each"
    if word_pattern("tps_after").match(after) or (word_pattern("tps_before").search(before)
                                                  and word_pattern("tokens_after").match(after)):
        return "tokens_per_s", ""
    if word_pattern("ms_after").match(after):
        if per_token(after, before):
            return ("token_observed", "ms") if observed(after, before) else ("ms_per_token", "")
        return ("ttft_observed", "ms") if observed(after, before) else ("ttft_ms", "")
    if word_pattern("seconds_after").match(after):
        clause = before[-40:] + after[:40]
        if per_token(after, before):
            return ("token_observed", "s") if observed(after, before) else ("s_per_token", "")
        if not word_pattern("ttft_context").search(clause):
            return "", ""
        return ("ttft_observed", "s") if observed(after, before) else ("ttft_s", "")
    period = word_pattern("per_period_after").match(after)
    if period:
        return "hours_per", period.group(1)
    if re.match(r"\s*(?:hours?|hrs?|h)\b", after) and word_pattern("per_period_before").search(before):
        return "hours_per", "day"  # "daily run 10 hours" ("每天跑十个小时")
    unit = word_pattern("duration_after").match(after)
    if unit:
        word = unit.group().strip().split()[0] if unit.group().strip() else ""
        if word_pattern("deadline_before").search(before) or word_pattern("deadline_after").match(after) \
                or word_pattern("deadline_window_after").match(after) or word_pattern("deadline_window_before").search(before) \
                or _deadline_changed().search(before):  # "what if the deadline gets pulled in to 12 hours"
            return "deadline", word
        return "", word
    if word_pattern("tokens_after").match(after):
        return _token_role(q, after, before), ""
    ctx = word_pattern("ctx_after").match(after)
    if ctx and not _bare_number_ahead(after[ctx.end():]):
        if q.value < SHORTEST_CONTEXT_SAID and word_pattern("concurrency_before").search(strip_fillers(before)):
            return "users", "concurrent"  # "并发大概50 上下文…": the label before says people; no context is 50 tokens
        return "context", ""
    if q.scale in ("b", "bn", "billion") or (q.scale in ("m", "million", "t", "trillion") and
                                             word_pattern("model_param_after").match(after)):
        if word_pattern("moe_active_after").match(after):
            return "model_active", ""
        if word_pattern("moe_total_after").match(after):
            return "model_total", ""
        return "model", ""
    if word_pattern("epochs_after").match(after):
        return "epochs", ""
    concurrency = word_pattern("concurrency_after").match(after)
    if concurrency and not _bare_number_ahead(after[concurrency.end():]) \
            and not people_ahead(after[concurrency.end():]):
        return "users", "concurrent"  # "~50 concurrent", "50 at once" (not "32k concurrent 50")
    if re.match(rf"\s*{OF_MINE}(?:[a-z-]+\s+)?{vocab()['example_nouns']}\b", after):
        return "examples", ""
    if word_pattern("tps_label_before").search(before) and not is_people(after, ""):  # ('… 40 seats': people)
        return "tokens_per_s", ""  # "tokens per sec at least 40 each", "速度不低于40": the unit said first, none after
    return None


@cache
def _deadline_changed() -> re.Pattern[str]:
    """The words that change a deadline, ending right before its new value ('the deadline gets pulled in to')."""
    return re.compile(rf"(?:{vocab()['deadline_change']})\s*(?:about|around|~|only|just)?\s*$")


# More tokens than any model reads at once (the longest contexts are 10M): a count of this many tokens is
# a dataset, never the length of one item or prompt.
LONGEST_ITEM_TOKENS = 1e8
# '2k prompts' at a latency target is their length; '100k prompts' is a count of them.
LONGEST_PROMPT_SAID_BARE = 32_768
SHORTEST_CONTEXT_SAID = 512  # no context window is shorter: a smaller count before 'context' with a people label is people
# "2000 of my own notes": the count's noun after whose they are (grammar, not vocabulary)
OF_MINE = r"(?:of\s+(?:my|our|the|their|his|her|your)\s+(?:own\s+)?)?"


def _label_before(masked: str, q: Quantity, after: str, before: str, lang: str, previous: str) -> tuple[str, str]:
    """The role of a number with no unit of its own, from the label before it ('context of 32k',
    'prompts are about 8k', 'a team of 12'), filler words between them skipped; `previous` is the role
    of the number before, which may have taken the label as its unit already."""
    bare = strip_fillers(before)
    labelled = word_pattern("ctx_before").search(before) or word_pattern("ctx_label").search(bare)
    claimed = previous == "context" and word_pattern("ctx_claimed").search(bare.rstrip())  # "32k of context - 200"
    if labelled and not claimed and not is_people(after, before):
        return "context", ""
    if q.scale == "k" and word_pattern("tok_before_prompt").search(before):
        return "prompt_tokens", ""  # "prompts are about 8k"
    if q.scale == "k" and q.value <= LONGEST_PROMPT_SAID_BARE and word_pattern("prompt_length_nouns").match(after) \
            and word_pattern("prompt_length_context").search(masked):
        return "prompt_tokens", ""  # "ttft under 300 ms at 2k prompts": the prompts' length
    if (re.match(rf"\s*{OF_MINE}{vocab()['item_modifiers']}{vocab()['item_nouns']}\b", after)
            and not staff_noun_after(after)) \
            or word_pattern("items_label_before").search(bare):  # "prompt count doubles to 4M"; '40 nurses to ask
        return "items", ""  # questions about our notes' counts the nurses, not the notes
    if word_pattern("input_label_of_previous").search(before) and word_pattern("output_label_after").match(after):
        return "output_tokens", ""  # "500 token输入 50 输出": the input label was the 500's
    if previous in ("items", "examples") and word_pattern("output_label_after").match(after) \
            and re.search(r"\bx\s*$", before):
        return "output_tokens", ""  # "3000题×8k输出": each item's output
    if word_pattern("input_label_before").search(before) and word_pattern("output_label_after").match(after):
        return "prompt_tokens", ""  # "输入800输出20": the input's length, the output's said next
    if word_pattern("output_label_bare_before").search(before):
        return "output_tokens", ""  # "每条输入1000 token 输出300", "输出 300 以内", "output under 300": no unit of its own
    if previous == "output_tokens" and word_pattern("input_label_before").search(before):
        return "prompt_tokens", ""  # "output under 300, input around 1500": the input said after the output
    if previous in ("items", "examples") and 16 <= q.value < LONGEST_ITEM_TOKENS \
            and word_pattern("tok_before_per_strong").search(before) \
            and not word_pattern("rl_samples_after").match(after) and not re.search(r"采样|samples?\s*$", before) \
            and not word_pattern("rl_steps_after").match(after):  # '256 prompts a step, how long per 1000 steps'
        return "per_item_tokens", ""  # "50万条 平均长度2k", "20k samples, each about 800": the count's length
    if is_people(after, before):
        at_once = at_once_of(after, before)
        if not at_once and q.value >= POPULATION_FROM and is_staff(after):
            return "population", ""  # "for about 300 doctors": the staff who use it, some of them at once
        return "users", at_once
    if word_pattern("concurrency_before").search(bare) and not word_pattern("time_unit_after").match(after):
        return "users", "concurrent"  # "200人用，同时30个", "peak concurrency: 40": people at once, no noun needed
    if word_pattern("budget_before").search(before) or word_pattern("budget_after").match(after) \
            or money_said(q, before, after, lang):  # '40k in credits', '五十万够不够'
        return "money", "CNY" if lang == "zh" else "USD"
    return "", ""


def _token_role(q: Quantity, after: str, before: str) -> str:  # noqa: C901 - ordered word rules, first match wins
    """The role of 'N tokens': context, training data, per item, output, prompt."""
    adjective = re.match(r"\s*-?\s*([a-z ]+?)\s+tokens?\b", after)
    if adjective:  # "500M training tokens", "200 output tokens"
        for role, words in vocab()["token_adjectives"].items():
            if re.search(rf"\b(?:{alternation(words)})\b", adjective.group(1)):
                return str(role)
    rest = re.sub(r"^\s*-?\s*(?:[a-z ]+?\s+)?(?:tokens?|toks?)\b", "", after, count=1)
    if word_pattern("shared_prompt_before").search(before) and word_pattern("shared_prompt_after").match(after):
        return "shared_prompt_tokens"  # "~300 tokens each plus a ~400 token prompt": the same prompt read with every item
    if word_pattern("ctx_before").search(before) or word_pattern("tok_after_context").match(rest):
        return "context"
    if word_pattern("tok_after_train").match(rest):
        return "train_tokens"
    if word_pattern("input_label_of_previous").search(before) and word_pattern("tok_after_output").match(rest):
        return "output_tokens"  # "500 token输入 50 token输出": the input label was the 500's
    if word_pattern("tok_before_prompt").search(before):
        return "prompt_tokens"  # "每条输入1000 token 输出300": the input's, though "output" follows
    if word_pattern("tok_after_output").match(rest) and not word_pattern("tok_after_output_short").match(rest):
        return "output_tokens"  # ('300 tokens each, output is just a few words': the 300 are read, see below)
    if word_pattern("tok_after_prompt").match(rest):
        return "prompt_tokens"
    if word_pattern("output_label_before").search(before) or word_pattern("outputs_are_before").search(before):
        return "output_tokens"  # "outputs are more like 3k tokens each": each item's output ("each reply ~1k" is its length)
    if word_pattern("tok_output_then_comma").search(before):
        return "output_tokens"  # "the output is just a category name, about 15 tokens"
    if word_pattern("tok_after_per").match(rest) or word_pattern("tok_after_doc").match(rest):
        return "per_item_tokens"
    if word_pattern("tok_before_per_strong").search(before) or word_pattern("tok_before_each_clause").search(before):
        return "per_item_tokens"  # "each about 800", "每条比较长，3000 token左右": each item's length
    if word_pattern("tok_before_prompt").search(before):
        return "prompt_tokens"
    if word_pattern("tok_before_output").search(before):
        return "output_tokens"
    if word_pattern("tok_before_per").search(before) and q.value < LONGEST_ITEM_TOKENS:
        return "per_item_tokens"  # "with 20B tokens" is a dataset: no item or prompt is that long
    if word_pattern("tok_before_train").search(before) or q.value >= 1e6:
        return "train_tokens"
    if word_pattern("tok_near_output").search(before):
        return "output_tokens"  # "output is 1 label ~3 tokens"
    return "context" if q.value >= 256 else ""  # no conversation holds fewer tokens than that


def quantities(masked: str, lang: str = "en") -> list[Quantity]:
    """Every number in the (name-masked) message with its role and whether it is negated."""
    out: list[Quantity] = []
    words = [x.span() for x in word_pattern("not_quantities").finditer(masked)]
    for m in _QTY.finditer(masked):
        if len(out) >= MAX_QUANTITIES:
            break
        if any(s <= m.start() < e for s, e in words):
            continue
        try:
            number = float(m.group(2).replace(",", ""))
        except ValueError:
            continue
        if m.group(1):
            number = -number
        q = Quantity(number, m.group(3) or m.group(4) or "", m.start(), m.end())
        # the high end of a range ('each 200-300 words', '4-8k tokens') reads the words before its low end
        low = out[-1] if out and range_high(masked, out[-1], q) else None
        base = masked if low is None else masked[:low.start] + masked[q.start:]
        shift = 0 if low is None else q.start - low.start
        previous = (out[-2].role if len(out) > 1 else "") if low is not None else (out[-1].role if out else "")
        said = ""
        read = as_tokens(q, masked, lang, base, shift)
        if read:  # "3000 字", "500 words", "40 MB of text": read as tokens, the ratio said
            q, said, view = read
            at = replace(q, start=q.start - shift, end=q.end - shift)
            role, extra = _role(view, at, lang, previous)
            role = text_role(role, said, base, at)
        else:
            role, extra = _role(base, replace(q, start=q.start - shift, end=q.end - shift), lang, previous)
        out.append(Quantity(q.number, q.scale, q.start, q.end, role, negated(masked, q.start), extra, said))
    return peak_rates(masked, length_ranges(masked, _changes(masked, out, lang)))


def _changes(masked: str, out: list[Quantity], lang: str) -> list[Quantity]:
    """A change said as 'from X to Y' ('context from 8k to 32k', '上下文从8k加到32k', 'go from 20 users to 64'):
    Y takes the role either number has, or the label said before 'from' read as its unit ('users from 20
    to 64' as '64 users'); X, the value it was, takes the role 'previous' that no reader reads."""
    for i in range(len(out) - 1):
        old, new = out[i], out[i + 1]
        before = masked[max(0, old.start - 24):old.start]
        said_from = word_pattern("range_from").search(before)
        between = masked[old.end:new.start]
        if not word_pattern("range_to").match(between):  # "from 20 users to 64": the old value's unit between them
            between = re.sub(r"^\s*(?:[a-z]+|[\u3400-\u9fff]{1,3})\s", " ", between, count=1)
        if not said_from or not word_pattern("range_to").match(between):
            continue
        role, extra = "", ""
        label = re.search(r"([a-z_]+|[\u3400-\u9fff]{1,4})\s*$", strip_fillers(before[:said_from.start()]).rstrip())
        if label:  # the label before 'from' read as the new value's unit: 'context from 8k to 32k' -> '32k context'
            cut = old.start - len(before) + label.start()
            view = masked[:cut] + masked[new.start:new.end] + " " + label.group(1) + masked[new.end:]
            shift = new.start - cut
            role, extra = _role(view, Quantity(new.number, new.scale, new.start - shift, new.end - shift), lang,
                                out[i - 1].role if i else "")
        if not role:
            role, extra = (new.role, new.extra) if new.role else (old.role, old.extra)
        out[i] = replace(old, role="previous", extra="")  # the value it was: read as nothing
        out[i + 1] = replace(new, role=role, extra=extra)
    return out
