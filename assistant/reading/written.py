"""Numbers as written: scientific notation ('1e3', '3x10^5', '10的6次方') read as the digits it stands for, and a
number no figure can be (past 15 digits, '1e-320', '1e308') left out of the reading and said back as not used.

A number in scientific notation is written out in digits only when those digits say the same number (so '1e3'
is '1000' and '2.5e-3' is '0.0025'); otherwise, like a run of 16 or more digits, it is replaced by a mark no
reader counts, and the message gets one problem 'number_unused' with the number as the user typed it. Never a
different number: '1e-320 tok/s' is not 320 tokens/s, and '12345678901234567B' is not rounded to 15 digits.
The words (the notation) are in words/written.yaml; this is the grammar."""

from __future__ import annotations

import math
import re

from gpu_advisor.assistant.reading.text import plain_digits, word_pattern

UNUSED = "\u2591"  # stands in for a number left out: not a digit, not a word, not a name's mask
LARGEST = 1e15  # 16 digits and more are no figure the tools size (users, tokens, money all stay far below)


def _value(x: re.Match[str]) -> float:
    """The number a match of exponent_e or exponent_ten says (inf past what a float holds, nan below it)."""
    mantissa = float(x.group("mantissa") or 1)
    value = float(f"{x.group('mantissa') or '1'}e{x.group('power')}")
    return math.nan if value == 0 and mantissa != 0 else value  # '5x10^-330' is no 0


def _digits(value: float) -> str | None:
    """The value as plain digits when they say exactly the same number, else None."""
    if not math.isfinite(value) or abs(value) >= LARGEST:
        return None
    text = plain_digits(value)
    return text if float(text) == value else None


def _forms(text: str) -> list[tuple[int, int, str | None]]:
    """Each number written in an exponent form or too long: (start, end, its digits or None when not used)."""
    found: list[tuple[int, int, str | None]] = []
    for key in ("exponent_e", "exponent_ten"):
        found += [(x.start(), x.end(), _digits(_value(x))) for x in word_pattern(key).finditer(text)]
    found += [(x.start(), x.end(), None) for x in word_pattern("digits_too_long").finditer(text)]
    kept: list[tuple[int, int, str | None]] = []
    for form in sorted(found):
        if not kept or form[0] >= kept[-1][1]:
            kept.append(form)
    return kept


def written_out(text: str) -> str:
    """The (normalised, lower-case) text with each exponent form as its digits and each number that cannot be
    used as UNUSED, spaced so that no unit or word is glued to it."""
    for start, end, digits in reversed(_forms(text)):
        text = f"{text[:start]} {digits or UNUSED} {text[end:]}"
    return text


def unused_numbers(text: str) -> list[tuple[str, dict[str, str]]]:
    """One problem 'number_unused' per number written_out leaves out, quoted as typed."""
    out = []
    for start, end, digits in _forms(text):
        if digits is None:
            out.append(("number_unused", {"typed": text[start:end]}))  # at most 40 characters (the patterns' bounds)
    return out
