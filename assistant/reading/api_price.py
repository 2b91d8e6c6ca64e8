"""Self-hosting weighed against a paid API (words/api_price.yaml; the answer: assistant/api_compare.py):

- `u.ask["per_token"]`: the cost per million tokens asked ('cost per 1M output tokens', '每百万token成本'); the
  million is the price's unit, never a 1M-token request (quote_units.per_token_unit drops it);
- `u.ask["api_price"]`: an API's price per million tokens given, in USD ('$0.88/M', '每百万token 6元');
- `u.ask["break_even"]`: when self-hosting wins asked ('at what volume does self hosting win', '用量多大才划算')."""

from __future__ import annotations

from gpu_advisor.assistant.reading.api_price_said import MAX_PER_MILLION, clause_prices, one_price
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.quote_units import PER_TOKEN_UNITS, per_token_unit
from gpu_advisor.assistant.reading.text import word_pattern


def read_per_token(m: Message, u: Understanding) -> None:
    text = m.raw.lower()
    if word_pattern("compare_verdict.per_token").search(text) or word_pattern("api_price.per_million").search(text):
        u.ask["per_token"] = True  # "which is more cost effective per token": each option's $ per million tokens, ranked
        per_token_unit(u)
        if u.updates.get("batch_output_tokens") in PER_TOKEN_UNITS:  # '每百万输出token': never one answer's length
            u.updates.pop("batch_output_tokens")
    price = _one_price(m, text)
    if price:
        u.ask["api_price"] = price
        u.ask["per_token"] = True
        unit, amount = next(iter(price.items()))
        _not_lengths(u, (amount,))
        _no_budget(u, amount, unit)  # '$0.9/M', '每百万token 6元', '2元/百万token' is the API's price, never a budget
    _split_prices(m, text, u)
    if word_pattern("api_price.break_even").search(text):
        u.ask["break_even"] = True
        u.ask["per_token"] = True


def _one_price(m: Message, text: str) -> dict[str, float] | None:
    """One price for every token: {'usd'|'cny': amount} ('$0.88/M', '每百万token 6元', '两块钱一百万token'), or None."""
    given = word_pattern("api_price.given").search(text)
    if given is None:
        said = one_price(m.text, bool(word_pattern("api_price.split_yuan").search(text)))
        return {said[1]: said[0]} if said else None
    usd = next((given.group(k) for k in ("usd", "usd2", "usd3", "usd4") if given.group(k)), None)
    return {"usd": float(usd)} if usd else {"cny": float(given.group("cny"))}


def _split_prices(m: Message, text: str, u: Understanding) -> None:
    """'api is roughly 0.27 in / 1.1 out per million': the API's price for tokens read and for tokens written
    (u.ask["api_price"] {'usd_in', 'usd_out'} or the yuan pair), blended at the plan's mix by the answer; neither
    number is a length, a budget or a count. Said a clause each in words the raw text does not hold ('输入两块钱一百万
    token，输出八块'): read from the cleaned text (reading.api_price_said)."""
    yuan = bool(word_pattern("api_price.split_yuan").search(text))
    said = _split_said(text) if word_pattern("api_price.split_unit").search(text) else None
    said = said or clause_prices(m.text, yuan)
    if said is None:
        return
    read, written, unit = said
    u.ask["api_price"] = {f"{unit}_in": read, f"{unit}_out": written}
    u.ask["per_token"] = True
    _not_lengths(u, (read, written, int(read), int(written)))  # '1.1 out per million' is no answer of 1 token
    _no_budget(u, max(read, written), unit)  # '$1.1', '输出每百万8块' is a price per million, no budget


def _split_said(text: str) -> tuple[float, float, str] | None:
    """The two prices said with their labels ('input 0.27 output 1.1 per 1m', '输入每百万2块'), or None."""
    for order in ("label_first", "number_first"):  # 'input 0.27 output 1.1': not '0.27 output'
        found = [_price_said(text, order, kind) for kind in ("in", "out")]
        if found[0] is not None and found[1] is not None:
            break
    else:
        return None
    read, written = (x for x in found if x is not None)
    return read, written, "cny" if word_pattern("api_price.split_yuan").search(text) else "usd"


def _not_lengths(u: Understanding, prices: tuple[float, ...]) -> None:
    """Drop a length read from a price or from the million it is priced per ('输入一百万token两块钱': no prompt of a
    million tokens, no RL prompt)."""
    for slot in ("output_tokens", "batch_output_tokens", "prompt_tokens", "batch_input_tokens", "rl_prompt_tokens",
                 "rl_completion_tokens"):
        if u.updates.get(slot) in (*prices, *PER_TOKEN_UNITS):
            u.updates.pop(slot)


def _no_budget(u: Understanding, price: float, unit: str) -> None:
    """Drop a budget read from the price itself (a budget in yuan is kept in USD: '8块' is $1.12 a month)."""
    from gpu_advisor.knowledge import rules

    usd = price * (rules().usd_per_cny if unit == "cny" else 1.0)
    for slot in ("budget_usd", "budget_cny", "budget_usd_per_month"):
        if isinstance(u.updates.get(slot), (int, float)) and u.updates[slot] <= max(price, usd * 1.01):
            u.updates.pop(slot)
    u.notes = [n for n in u.notes if n[0] != "note.budget_once"]



def _price_said(text: str, order: str, kind: str) -> float | None:
    """The first number said as the price of tokens read (kind 'in') or written ('out'), skipping a volume beside the
    same word ('每个月输入20亿token、输出5亿token，价格是输入每百万2块': 20亿 is tokens a month, 2块 the price)."""
    for x in word_pattern(f"api_price.split_{order}.{kind}").finditer(text):
        key = next(k for k in ("v", "v2") if x.group(k))
        value = float(x.group(key))
        if value <= MAX_PER_MILLION and not word_pattern("api_price.split_volume_after").match(text, x.end(key)):
            return value
    return None
