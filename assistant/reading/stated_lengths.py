"""Output lengths said with a bare 'out' or '出' ('prompts ~1500 tokens out ~300', 'avg prompt 1.5k tokens and
~300 out', '每个请求输入1500，出300个token', '1500进300出'): the output's tokens, so the number is never left to
the price readers ('out ~300' was read as $300 to buy a card) and the output is not the default. Read only in a
message that speaks of tokens or prompts. 'in/out 1500/300' is written out before reading (words/numbers.yaml
shorthand). The words: words/stated_lengths.yaml."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.quantities import Quantity
from gpu_advisor.assistant.reading.text import word_pattern

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.message import Message

# A one-word label, a category or a yes/no written per item: the word (one or two tokens) and the end token.
LABEL_TOKENS = 3
NEAR = 40  # characters read on either side of a number
OPEN = ("", "context")  # roles a bare 'out' overrides ('出300个token' was read as a context)


def relabel_lengths(masked: str, qty: list[Quantity]) -> list[Quantity]:
    """The quantities with each output length said with a bare 'out' or '出' given the output's role, and the
    number said with '进' before it the prompt's."""
    if not word_pattern("length_said").search(masked) and not any(q.role == "prompt_tokens" for q in qty):
        return qty
    out = list(qty)
    for i, q in enumerate(out):
        after, before = masked[q.end:q.end + NEAR], masked[max(0, q.start - NEAR):q.start]
        if q.negated or q.extra or q.value < 1:
            continue
        if q.value <= 3 and word_pattern("label_count_after").match(after):
            out[i] = replace(q, role="")  # 'a single category', 'one label per item': no tokens, no items
            continue
        loose = q.role == "items" and word_pattern("length_out_loose_after").match(after)  # 'out ~300 with prompts'
        if q.role not in OPEN and not loose:
            continue
        if word_pattern("length_out_after").match(after) or word_pattern("length_out_before").search(before) \
                or (q.role == "" and word_pattern("length_tokens_after").match(after)
                    and word_pattern("length_output_clause_before").search(before)):
            out[i] = replace(q, role="output_tokens")
            if i and out[i - 1].role in OPEN and not out[i - 1].extra and _said_in(masked, out[i - 1]):
                out[i - 1] = replace(out[i - 1], role="prompt_tokens")  # '1500进300出', '输入1500，出300': the prompt's
    return out


def _said_in(masked: str, q: Quantity) -> bool:
    """The number is said as what goes in: '1500进', 'input 1500' ('输入1500' reads 'prompts 1500')."""
    return bool(word_pattern("length_in_after").match(masked[q.end:q.end + NEAR])
                or word_pattern("input_label_before").search(masked[max(0, q.start - NEAR):q.start]))


def one_label(m: Message) -> int | None:
    """The tokens written when the output is said to be one word, one label or a yes/no ('output is just a one
    word label', 'a single category', '只输出是或否'), with a note that says so; None when it is not said."""
    for text in (m.masked, m.raw.lower()):
        if any(not negated(text, x.start()) for x in word_pattern("output_one_label").finditer(text)):
            note = ("note.one_label_output", {"tokens": f"{LABEL_TOKENS:,}"})
            if note not in m.notes:
                m.notes.append(note)
            return LABEL_TOKENS
    return None


def kv_batch(m: Message) -> dict[str, int]:
    """The sequences a KV-cache question holds at once ('batch size 8', 'bs=8', '8 requests in parallel',
    '批大小为8') as {'users': n}, else {}."""
    for text in (m.masked, m.raw.lower()):
        found = word_pattern("kv_batch").search(text)
        if found and not negated(text, found.start()):
            n = int(next(g for g in found.groups() if g))
            return {"users": n} if n >= 1 else {}
    return {}


def stated_preference(m: Message, hits: list[tuple[int, str]]) -> str | None:
    """Rent or buy from the places each is said ((start, 'rent'|'buy')): none when buying is said under a
    condition or as a count asked ('how many would we need to buy'), nor when both are said as the sides of a question ('想买…
    还是租…划算', 'buy a box, or is renting cheaper?'); else the last one said."""
    kept = [(s, name) for s, name in hits if name != "buy" or not _buy_asked(m, s)]
    names = {name for _s, name in kept}
    if len(names) == 2:
        first, last = min(kept)[0], max(kept)[0]
        if word_pattern("preference_alternative").search(m.masked[first:last]):
            return None
    return max(kept)[1] if kept else None


def buys_what_falls_short(m: Message) -> bool:
    """Buying said for what the user's cards fall short of ('不够的话买啥', 'if not enough, what should we buy'), with
    no renting named and no rent-or-buy question ('不够的话是买还是租'): a wish to buy, though said as a question."""
    if m.live("preference.rent") or word_pattern("intents.rent_buy").search(m.masked):
        return False
    return any(word_pattern("buy_if_short_before").search(m.masked[max(0, x.start() - NEAR):x.start()])
               for x in m.live("preference.buy"))


def _buy_asked(m: Message, start: int) -> bool:
    """Buying said under a condition or with a count asked: 'if the price drops we'd buy', 'how many would we need to
    buy'. Buying what falls short ('不够的话买啥', '不够的话还要买几台', 'if not enough, what should we buy') is a wish to buy
    beyond the cards the user has."""
    if word_pattern("buy_if_short_before").search(m.masked[max(0, start - NEAR):start]):
        return False
    said = word_pattern("preference.buy").match(m.masked, start)
    end = said.end() if said else start
    return bool(word_pattern("buy_conditional_before").search(m.masked[max(0, start - NEAR):start])
                or word_pattern("buy_count_after").match(m.masked[end:end + NEAR]))


def bought_for(m: Message, q: Quantity) -> bool:
    """An amount said right after the cards or machine the user wants to buy ('想买一台8卡H20服务器，大概一百万', 'buy
    an 8x h100 box, roughly 300k usd'): their purchase price."""
    for s, e, _gpu, _n in m.gpus:
        if e <= q.start and word_pattern("bought_for_between").match(m.masked[e:q.start]) \
                and word_pattern("preference.buy").search(m.masked[max(0, s - NEAR):s]):
            return True
    return False
