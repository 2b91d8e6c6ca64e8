"""Quantities and their roles: every number with its unit, read from the words around it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.reading.text import MAX_QUANTITIES, vocab, word_pattern


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

    @property
    def value(self) -> float:
        """The number with its scale, k = 1,000."""
        return self.number * vocab()["suffix_scale"].get(self.scale, 1)

    @property
    def context_tokens(self) -> float:
        """For a context length 'k' is 1,024 ('32k' -> 32768); 'thousand' stays 1,000."""
        if self.scale in ("", "k", "m"):
            return self.number * {"k": 1024, "m": 1024 * 1024}.get(self.scale, 1)
        return self.value


_QTY = re.compile(
    r"(?<![\w.])(?<!\d/)(-(?=\d))?(\d{1,15}(?:,\d{3}){0,4}(?:\.\d{1,6})?)"
    r"(?:(k|mm|m|bn|b|t)(?![a-z0-9])|\s?(thousand|million|billion|trillion)\b)?"
    r"(?=$|[^\w]|(?:ms|s|sec|secs|h|hr|hrs|hours?|d|days?|min|mins|tok|toks|tokens?|tps)\b)(?![.,]\d)"
)


def clause_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """Where the sentence or clause around a span begins and ends (split at . ; ! ? and line ends,
    a dot between digits excepted)."""
    lo, hi = max(0, start - 300), min(len(text), end + 300)
    left = max(text.rfind(c, lo, start) for c in ";!?\n")
    dots = [x.start() for x in re.finditer(r"\.(?!\d)", text[lo:start])]
    left = max(left, lo + dots[-1] if dots else -1, lo - 1)
    rights = [i for i in (text.find(c, end, hi) for c in ";!?\n") if i >= 0]
    dot = re.search(r"\.(?!\d)", text[end:hi])
    if dot:
        rights.append(end + dot.start())
    return left + 1, min(rights) if rights else hi


def clause_of(text: str, start: int, end: int) -> str:
    """The sentence or clause around a span."""
    left, right = clause_bounds(text, start, end)
    return text[left:right]


def negated(text: str, start: int) -> bool:
    """Whether the value at `start` follows a negation: 'not rent', 'no users', 'rather than QLoRA'."""
    before = text[max(0, start - 48):start]
    before = re.split(r"[,.;:!?()]", before)[-1] if re.search(r"[,.;:!?()]\s*$", before) is None else ""
    if word_pattern("negation_exceptions").search(before):
        return False
    return bool(word_pattern("negation").search(before) or word_pattern("rather_than").search(before))


def _role(masked: str, q: Quantity, lang: str = "en") -> tuple[str, str]:  # noqa: C901 - ordered word rules, first match wins
    """The role of one quantity from the words after and before it, and an extra tag (the
    currency of money, the unit of a duration, the period of hours per period)."""
    after = masked[q.end:q.end + 60]
    before = masked[max(0, q.start - 60):q.start]
    scale = q.scale
    percent = re.match(r"\s*(?:%|percent\b)", after)
    if percent or re.search(r"percent\s*$", before):
        rest = after[percent.end():] if percent else after
        return ("" if word_pattern("percent_not_utilisation").match(rest) else "utilisation_percent"), ""
    cur_before = word_pattern("money_before").search(before.rstrip())
    cur_after = word_pattern("money_after").match(after)
    if cur_before or cur_after:
        sign = (cur_before.group() if cur_before else "") + (cur_after.group() if cur_after else "")
        currency = "CNY" if word_pattern("currency_cny").search(sign) else \
            "EUR" if word_pattern("currency_eur").search(sign) else "USD"
        return "money", currency
    if word_pattern("out_after").match(after) and word_pattern("tokens_in_nearby").search(before[-40:] + after[:1]):
        return "output_tokens", ""  # "250 tokens in and 5 out each"
    if word_pattern("tps_after").match(after) or (word_pattern("tps_before").search(before)
                                         and word_pattern("tokens_after").match(after)):
        return "tokens_per_s", ""
    if word_pattern("ms_after").match(after):
        return ("ms_per_token" if word_pattern("per_token_context").search(after[:30]) else "ttft_ms"), ""
    if word_pattern("seconds_after").match(after):
        clause = before[-40:] + after[:40]
        if word_pattern("per_token_context").search(after[:30]):
            return "s_per_token", ""
        return ("ttft_s" if word_pattern("ttft_context").search(clause) else ""), ""
    period = word_pattern("per_period_after").match(after)
    if period:
        return "hours_per", period.group(1)
    unit = word_pattern("duration_after").match(after)
    if unit:
        word = unit.group().strip().split()[0] if unit.group().strip() else ""
        if word_pattern("deadline_before").search(before) or word_pattern("deadline_after").match(after):
            return "deadline", word
        return "", word
    if word_pattern("tokens_after").match(after):
        return _token_role(q, after, before), ""
    if word_pattern("ctx_after").match(after) or word_pattern("ctx_before").search(before):
        return "context", ""
    if scale in ("b", "bn", "billion") or (scale in ("m", "million", "t", "trillion") and
                                           word_pattern("model_param_after").match(after)):
        if word_pattern("moe_active_after").match(after):
            return "model_active", ""
        if word_pattern("moe_total_after").match(after):
            return "model_total", ""
        return "model", ""
    if word_pattern("epochs_after").match(after):
        return "epochs", ""
    if re.match(rf"\s*(?:[a-z-]+\s+)?{vocab()['example_nouns']}\b", after):
        return "examples", ""
    if scale == "k" and word_pattern("tok_before_prompt").search(before):
        return "prompt_tokens", ""  # "prompts are about 8k"
    if scale == "k" and word_pattern("prompt_length_nouns").match(after) and word_pattern("ttft_context").search(masked):
        return "prompt_tokens", ""  # "ttft under 300 ms at 2k prompts": the prompts' length
    if re.match(rf"\s*(?:[a-z-]+\s+)?{vocab()['item_nouns']}\b", after):
        return "items", ""
    if re.search(r"\boutputs?\s*(?:is|are|of|:|=|~)?\s*$", before) and re.search(r"\btokens?\b", before[-40:]):
        return "output_tokens", ""  # "每条输入1000 token 输出300": the unit said once, for the input
    if word_pattern("users_after").match(after) or word_pattern("users_before").search(before):
        return "users", ""
    if word_pattern("budget_before").search(before) or word_pattern("budget_after").match(after):
        return "money", "CNY" if lang == "zh" else "USD"
    return "", ""


def _token_role(q: Quantity, after: str, before: str) -> str:  # noqa: C901 - ordered word rules, first match wins
    """The role of 'N tokens': context, training data, per item, output, prompt."""
    adjective = re.match(r"\s*-?\s*([a-z ]+?)\s+tokens?\b", after)
    if adjective:
        word = adjective.group(1)
        if re.search(r"\b(training|train)\b", word):
            return "train_tokens"
        if re.search(r"\b(output|generated|completion)\b", word):
            return "output_tokens"
        if re.search(r"\b(input|prompt)\b", word):
            return "prompt_tokens"
        if "context" in word:
            return "context"
    rest = re.sub(r"^\s*-?\s*(?:[a-z ]+?\s+)?(?:tokens?|toks?)\b", "", after, count=1)
    if word_pattern("ctx_before").search(before) or word_pattern("tok_after_context").match(rest):
        return "context"
    if word_pattern("tok_after_train").match(rest):
        return "train_tokens"
    if word_pattern("tok_before_prompt").search(before):
        return "prompt_tokens"  # "每条输入1000 token 输出300": the input's, though "output" follows
    if word_pattern("tok_after_output").match(rest):
        return "output_tokens"
    if word_pattern("tok_after_prompt").match(rest):
        return "prompt_tokens"
    if word_pattern("tok_after_per").match(rest) or word_pattern("tok_after_doc").match(rest):
        return "per_item_tokens"
    if word_pattern("tok_before_per_strong").search(before):
        return "per_item_tokens"
    if word_pattern("tok_before_prompt").search(before):
        return "prompt_tokens"
    if word_pattern("tok_before_output").search(before):
        return "output_tokens"
    if word_pattern("tok_before_per").search(before):
        return "per_item_tokens"
    if word_pattern("tok_before_train").search(before) or q.value >= 1e6:
        return "train_tokens"
    if word_pattern("tok_near_output").search(before):
        return "output_tokens"  # "output is 1 label ~3 tokens"
    return "context" if q.value >= 256 else ""  # no conversation holds fewer tokens than that


def quantities(masked: str, lang: str = "en") -> list[Quantity]:
    """Every number in the (name-masked) message with its role and whether it is negated."""
    out: list[Quantity] = []
    for m in _QTY.finditer(masked):
        if len(out) >= MAX_QUANTITIES:
            break
        try:
            number = float(m.group(2).replace(",", ""))
        except ValueError:
            continue
        if m.group(1):
            number = -number
        q = Quantity(number, m.group(3) or m.group(4) or "", m.start(), m.end())
        role, extra = _role(masked, q, lang)
        out.append(Quantity(q.number, q.scale, q.start, q.end, role, negated(masked, q.start), extra))
    return out

