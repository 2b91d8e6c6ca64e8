"""An API's two prices per million tokens, one a clause ('deepseek api 输入两块钱一百万token，输出八块', '输入2元/百万token，
输出8元/百万token', '输入每M token 2块钱，输出每M token 8块钱', 'input ¥2 per 1M tokens, output ¥8', '$0.27/M in, $1.10/M
out'), read from the cleaned message, where Chinese numerals are digits and 块/元/两毛 are yuan: each clause that
names one way (read or written) and an amount of money (or a bare number priced per million) gives that way's
price; the currency is the one said, else yuan when the message says yuan anywhere. Heard only with a million
tokens as a price's unit in the message. Grammar only: the words are in words/api_price_said.yaml; the prices are
set by reading/api_price.py."""

from __future__ import annotations

from gpu_advisor.assistant.reading.text import word_pattern

MAX_PER_MILLION = 10_000.0  # no API bills more a million tokens: a larger number is a volume


def _price(clause: str) -> tuple[float, str | None] | None:
    """The first amount of money in the clause, with its currency ('usd', 'cny', or None when unmarked), else None."""
    for x in word_pattern("api_price_said.amount").finditer(clause):
        value = float(x.group("v"))
        marked = x.group("sign") or x.group("word")
        if value > MAX_PER_MILLION or value <= 0:
            continue
        if marked:
            return value, "usd" if word_pattern("api_price_said.usd").search(marked) else "cny"
        if word_pattern("api_price_said.per_million_after").match(clause, x.end("v")):
            return value, None  # 'input 0.27/M'
    return None


def clause_prices(text: str, yuan_said: bool) -> tuple[float, float, str] | None:
    """(price read, price written, 'usd' or 'cny') said a clause each in the cleaned text, or None when not both."""
    if not word_pattern("api_price_said.unit").search(text):
        return None
    found: dict[str, tuple[float, str | None]] = {}
    for clause in word_pattern("api_price_said.cut").split(text):
        read = bool(word_pattern("api_price_said.read").search(clause))
        written = bool(word_pattern("api_price_said.written").search(clause))
        if read == written:  # neither way, or both ('4:1 in-out split'): no one way's price
            continue
        price = _price(clause)
        way = "read" if read else "written"
        if price is not None and way not in found:
            found[way] = price
    if len(found) < 2:
        return None
    (read_price, read_unit), (written_price, written_unit) = found["read"], found["written"]
    units = {read_unit, written_unit} - {None}
    unit = "usd" if "usd" in units else "cny" if units or yuan_said else "usd"
    return read_price, written_price, unit


def one_price(text: str, yuan_said: bool) -> tuple[float, str] | None:
    """(price, 'usd' or 'cny') of every token, said in a clause with a million tokens as its unit and no way
    ('deepseek api 两块钱一百万token'), when one clause says one; else None."""
    found = []
    for clause in word_pattern("api_price_said.cut").split(text):
        if word_pattern("api_price_said.read").search(clause) or word_pattern("api_price_said.written").search(clause) \
                or not word_pattern("api_price_said.clause_unit").search(clause):
            continue
        price = _price(clause)
        if price is not None:
            found.append((price[0], price[1] or ("cny" if yuan_said else "usd")))
    return found[0] if len(found) == 1 else None
