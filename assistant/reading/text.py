"""The message as the readers see it: cut to a bounded length, normalised, numbers as digits."""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache, partial
from pathlib import Path
from typing import Any

from gpu_advisor.knowledge.pattern_cache import compiled
from gpu_advisor.knowledge.yaml_files import load_yaml_file

MAX_MESSAGE_CHARS = 4000  # longer pastes are read up to here (about 700 English words)


# A Chinese character says about as much as a short English word and costs the readers (which scan
# every character) several times more: it counts this many characters towards the limit, so a
# message of any script is read in about the same time.
CJK_WEIGHT = 3


def readable(raw: str) -> str:
    """The part of a message the readers take: MAX_MESSAGE_CHARS characters, Chinese ones counted
    CJK_WEIGHT times. Cut first, so that no input costs more than a full-length message."""
    cut = _NUMBER_RUN.sub(lambda x: x.group()[:MAX_DIGITS], (raw or "")[:MAX_MESSAGE_CHARS])
    cjk = len(_CJK_CHAR.findall(cut))
    if cjk == 0 or len(cut) + (CJK_WEIGHT - 1) * cjk <= MAX_MESSAGE_CHARS:
        return cut
    budget = MAX_MESSAGE_CHARS
    for i, ch in enumerate(cut):
        budget -= CJK_WEIGHT if _CJK_CHAR.match(ch) else 1
        if budget < 0:
            return cut[:i]
    return cut


_CJK_CHAR = re.compile(r"[\u3000-\u9fff\uf900-\ufaff\uff00-\uffef]")
# Digits with separators longer than any figure ('1,1,1,…' pasted 2,000 times): cut to MAX_DIGITS characters
# before any reader sees them, since a number pattern tried at every digit of such a run costs quadratic time.
_NUMBER_RUN = re.compile(r"\d[\d,.]{31,}")
WORDS_DIR = Path(__file__).with_name("words")  # one YAML file per dimension of the vocabulary
MAX_QUANTITIES = 100  # numbers read per message; a message with more is a paste
MAX_NAMES = 16  # cards read per message; more is a paste, and each name costs every reader a search
MASK = "\u2592"  # stands in for a name already read, keeping positions
EXAMPLE_TOKENS = 1000  # tokens in one fine-tuning example when only the count is given
SHORT_OUTPUT_TOKENS = 16  # "the output is short" in a batch job: a label or a few words
INSTRUCTION_TOKENS = 100  # a batch item's text said in characters or words: the task's instructions read with it
CHOICE_SLOTS_WITH_NUMBERS = ("users", "context")  # a bare number there is a count, never a choice


@cache
def vocab() -> dict[str, Any]:
    """The reader's words: every file in assistant/reading/words merged, loaded once. A key defined in
    two files is a mistake, refused at load."""
    merged: dict[str, Any] = {}
    for path in sorted(WORDS_DIR.glob("*.yaml")):
        part = load_yaml_file(path) or {}
        clash = set(part) & set(merged)
        if clash:
            raise ValueError(f"{path.name} defines {', '.join(sorted(clash))} again")
        merged.update(part)
    fragments = merged.pop("fragments", {})
    return {key: _filled(value, fragments) for key, value in merged.items()}


_FRAGMENT = re.compile(r"<<(\w+)>>")


def _filled(value: Any, fragments: dict[str, str]) -> Any:
    """A vocabulary value with each `<<name>>` replaced by the shared pattern of that name (words/fragments.yaml):
    one list of, say, the words that ask a count ('几张', '多少台'), used by every pattern that needs it."""
    if isinstance(value, str):
        return _FRAGMENT.sub(lambda x: "(?:" + fragments[x.group(1)] + ")", value)
    if isinstance(value, list):
        return [_filled(v, fragments) for v in value]
    if isinstance(value, dict):
        return {k: _filled(v, fragments) for k, v in value.items()}
    return value


@cache
def word_pattern(key: str) -> re.Pattern[str]:
    """A vocabulary pattern by key ('a.b' for nested keys), compiled once."""
    value: Any = vocab()
    for part in key.split("."):
        value = value[int(part)] if isinstance(value, list) else value[part]
    return compiled(value)


@cache
def pattern_rows(key: str) -> list[tuple[re.Pattern[str], Any]]:
    """A vocabulary list of [pattern, value, ...] rows, compiled once."""
    return [(compiled(row[0]), row[1] if len(row) == 2 else tuple(row[1:])) for row in vocab()[key]]


_CJK = re.compile(r"[\u3400-\u9fff]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_CJK_EDGE = re.compile(r"(?<=[\u3040-\u30ff\u3400-\u9fff])(?=[A-Za-z0-9$¥])"
                       r"|(?<=[A-Za-z0-9%])(?=[\u3040-\u30ff\u3400-\u9fff])")


_CJK_MINUS = re.compile(r"(?<=[\u3400-\u9fff])-\s+(?=\d)")  # a minus sign after Chinese text
_CJK_SPACE = re.compile(r"(?<=[\u3400-\u9fff])[ \t]+(?=[\u3400-\u9fff])")
# Digits, then spaces, then a Chinese unit of ten thousand, a thousand or a hundred million ('500 万').
# (not digits that end a name: 'a800 万一不够' is the A800, then 'in case')
_ZH_SPACED_UNIT = re.compile(r"(?<=\d)(?<![a-z_]\d)(?<![a-z_]\d\d)(?<![a-z_]\d{3})(?<![a-z_]\d{4})"
                             r"[ \t]+(?=[百千万亿](?![\u3400-\u9fff]?[ \t]*\d))")
MAX_DIGITS = 15
_PUNCT = str.maketrans({"’": "'", "‘": "'", "“": '"', "”": '"', "–": "-", "—": "-", "×": "x", "～": "~",
                        "\u00a0": " ", "。": ". ", "，": ", ", "、": ", ", "；": "; ", "！": "! ", "？": "? ",
                        "：": ": ", "（": "(", "）": ")"})


def language(text: str) -> str:
    """'zh' when the message has Chinese characters (and no Japanese kana), else 'en'."""
    return "zh" if _CJK.search(text) and not _KANA.search(text) else "en"


def _zh_number(run: str) -> float:
    """'一百万' -> 1e6, '1.5万' -> 15000, '两千' -> 2000, '十五' -> 15, '500亿' -> 5e10; a lone digit
    after a unit counts in the next unit down ('两万五' -> 25000, '一千五' -> 1500, '一百零五' -> 105)."""
    digits, units = vocab()["zh_digits"], vocab()["zh_units"]
    for big in ("亿", "万"):
        if big in run:
            left, right = run.split(big, 1)
            tail = _zh_number(right) if right else 0.0
            if len(right) == 1 and right in digits:
                tail *= units[big] / 10
            return (_zh_number(left) if left else 1.0) * units[big] + tail
    total, current, last_unit = 0.0, None, None
    for m in re.finditer(r"\d+(?:\.\d+)?|.", run):
        t = m.group()
        if t[0].isdigit():
            current = float(t)
        elif t in digits:
            current = float(digits[t])
            if digits[t] == 0:
                last_unit = None  # '一百零五': the digit after 零 is ones
        elif t in units and last_unit and units[t] > last_unit:  # '六十四千': 64 thousand, not 60 + 4,000
            total, current, last_unit = (total + (current or 0.0)) * units[t], None, units[t]
        elif t in units:
            total += (1.0 if current is None else current) * units[t]
            current, last_unit = None, units[t]
    if current is not None and last_unit and last_unit >= 100 and not re.search(r"\d", run):
        current *= last_unit / 10
    return total + (current or 0.0)


@cache
def _zh_numeral_run() -> re.Pattern[str]:
    """A run of Chinese numerals, optionally after digits ('1.5万') and with digits between its units ('2万1千'); not
    the digits of a name ('H20十七万' is the H20 and 170,000, not 2,070,000)."""
    chars = "".join(vocab()["zh_digits"]) + "".join(vocab()["zh_units"])
    # digits may go on after a unit ('2万1千' is 21,000, not 20,000 then 1,000)
    return re.compile(rf"(?:(?<![a-z\d.])\d{{1,12}}(?:\.\d{{1,6}})?)?[{chars}]+(?:(?<=[万亿千百])\d{{1,4}}[{chars}]+)*")


def _zh_numerals(text: str) -> str:
    """Chinese numerals to digits, leaving lone characters that are not numbers ('一' before a noun
    that takes no count is handled by zh_before_numerals)."""
    def repl(m: re.Match[str]) -> str:
        run = m.group()
        if len(run) > 24:
            return run  # no number is written that long
        if not re.search(r"[\d一二两俩三四五六七八九十百千万亿]", run) or re.fullmatch(r"[零〇]+", run):
            return run
        follows = m.string[m.end():m.end() + 1]
        digits = vocab()["zh_digits"]
        split = re.fullmatch(r"(\d+(?:\.\d+)?)([^\d.])", run)
        if split and split.group(2) in digits:  # '1.88一小时', '8块一小时': a price, then one hour
            return f" {split.group(1)} {plain_digits(digits[split.group(2)])} "
        count = follows and follows in vocab()["zh_measure_words"] and digits.get(run[-1], 0) > 0
        colloquial = len(run) > 3 and run[-2] in digits and run[-3] in vocab()["zh_units"]  # '一万八一张'
        spoken = len(run) > 1 and run[-2] in vocab()["zh_units"] and digits.get(run[-1], 0) > 1  # '一千二名', '两百五个': 1200, 250
        if count and len(run) > 1 and not spoken and (colloquial or (run[-2] not in digits and run[-2] != "十")):
            # '2800一张', '1.5万一张': a price, then a count of one ('1.5万' alone, '一万五' are one number)
            return f"{repl(re.match(r'.+', run[:-1]))} {plain_digits(_zh_number(run[-1]))} "  # type: ignore[arg-type]
        value = _zh_number(run)
        return f" {plain_digits(value)} " if value < 1e15 else run

    return _zh_numeral_run().sub(repl, text)


@cache
def _zh_approximate_pattern() -> re.Pattern[str]:
    digits = "".join(k for k, v in vocab()["zh_digits"].items() if v)
    units = "".join(k for k, v in vocab()["zh_units"].items() if v > 1)
    return re.compile(rf"(?<![{digits}{units}\d])([{digits}])([{digits}])([{units}])")


def _zh_approximate(text: str) -> str:
    """Two neighbouring digits before a unit say about that many ('一两百' 100 or 200, '五六十' 50 or 60): the middle
    of the two ('一两百' -> 150), written as digits."""
    digits, units = vocab()["zh_digits"], vocab()["zh_units"]

    def repl(x: re.Match[str]) -> str:
        low, high = digits[x.group(1)], digits[x.group(2)]
        if high != low + 1:
            return x.group()
        return f" {plain_digits((low + high) / 2 * units[x.group(3)])} "

    return _zh_approximate_pattern().sub(repl, text)


def plain_digits(value: float) -> str:
    """A number as plain digits: 1000000 -> '1000000', 1.5 -> '1.5' (never '1e+06')."""
    return str(int(value)) if float(value).is_integer() else f"{value:.6f}".rstrip("0").rstrip(".")


def _rewrite(text: str, key: str) -> str:
    """Apply a vocabulary list of [pattern, replacement] rows in order. A row read from a digit never
    starts inside a name: the digits glued to letters ('bf16', 'int4', 'w8a8', 'q4_k_m') are a
    precision or a product, not a count ('bf16 对吧' is 'bf16, right?', not 16 preference pairs)."""
    for pattern, replacement in pattern_rows(key):
        text = pattern.sub(partial(_glued, replacement=replacement), text)
    return text


def _glued(m: re.Match[str], replacement: str) -> str:
    """The row's replacement, or the match unchanged where its digits continue a name."""
    s, text = m.start(), m.string
    if s and m.group()[:1].isdigit() and (text[s - 1].isascii() and (text[s - 1].isalpha() or text[s - 1] == "_")):
        return m.group()
    return m.expand(replacement)


def alternation(words) -> str:
    """A regex alternation of literal words, longest first (so 'support agents' wins over 'agents'); words of one
    length in their own order, so the pattern's text is the same in every process (knowledge.pattern_cache)."""
    return "|".join(re.escape(w) for w in sorted(set(map(str, words)), key=lambda w: (-len(w), w)))


@cache
def _number_word_pattern() -> re.Pattern[str]:
    """A run of English number words ('two hundred and fifty', 'a dozen', 'half a million')."""
    v = vocab()
    words = sorted({*v["number_words"], *v["number_scales"]}, key=lambda w: (-len(w), w))
    alt = "|".join(words)
    return re.compile(rf"\b(?:(?:a|an|half a|half an)\s+)?(?:{alt})(?:(?:\s+|-)(?:and\s+)?(?:{alt}))*\b")


def _number_words(text: str) -> str:
    """English number words to digits: 'two hundred users' -> '200 users', 'a dozen' -> '12',
    'half a million documents' -> '500000 documents'. A scale after digits ('10 million') is left
    for the quantity reader; 'one-off', 'which one', 'no one' are not numbers."""
    v = vocab()
    for phrase, value in sorted(v["number_phrases"].items(), key=lambda kv: -len(kv[0])):
        text = re.sub(rf"\b{re.escape(phrase)}\b", f"{value}", text)
    small, scales = v["number_words"], v["number_scales"]

    def repl(m: re.Match[str]) -> str:
        run = m.group()
        tokens = re.findall(r"[a-z]+", run)
        half = tokens[:2] in (["half", "a"], ["half", "an"])
        article = tokens[0] in ("a", "an") or half
        body = tokens[2 if half else 1 if article else 0:]
        if not body or (body[0] in scales and not article):
            if half and not body:
                return run
            if not article:
                return run  # '10 million' stays for the quantity reader
        if article and body and body[0] not in scales:
            if body[0] in small and len(body) == 1 and re.match(r"[\s-]+(?:years?|months?|weeks?|days?|hours?)\b", text[m.end():]):
                return f"{run[:len(run) - len(body[0])]}{plain_digits(small[body[0]])}"  # 'a two year horizon': a 2 year
            return run  # 'a seven' is no number; 'a 7B model' never gets here
        if len(body) == 1 and body[0] == "one":
            before, after = text[max(0, m.start() - 8):m.start()], text[m.end():m.end() + 6]
            if re.search(r"\b(which|this|that|the|no|any|each|every|some)\s*$", before) \
                    or re.search(r"\b(?:the|that|this)\s+[\w.\-]+\s*$", text[max(0, m.start() - 24):m.start()]) \
                    or re.match(r"(-|\s)(off|time|of)\b", after):
                return run
        total, current = 0.0, 0.0
        for t in body:
            if t == "and":
                continue
            if t in small:
                current += small[t]
            elif t == "hundred":
                current = (current or 1) * 100
            elif t == "dozen":
                current = (current or 1) * 12
            else:
                total += (current or 1) * scales[t]
                current = 0.0
        value = (total + current) * (0.5 if half else 1)
        return plain_digits(value) if value < 1e15 else run

    text = _number_word_pattern().sub(repl, text)
    return re.sub(r"\bhalf an? (second|minute|hour|day)\b", r"0.5 \1", text)


@cache
def _typos() -> dict[str, str]:
    """Mistyped spellings of the words that carry roles ('usres', 'contxt', 'tokesn') -> the word:
    every variant with one letter dropped, doubled or swapped with its neighbour, except real words."""
    v = vocab()
    real = set(v["typo_real_words"]) | set(v["typo_targets"]) | vocabulary_words(v)
    table: dict[str, str] = {}
    for word in v["typo_targets"]:
        if len(word) < 5:
            continue
        for i in range(len(word)):
            for typo in (word[:i] + word[i + 1:], word[:i] + word[i] + word[i:],
                         word[:i] + word[i + 1:i + 2] + word[i] + word[i + 2:]):
                if len(typo) >= 4 and typo not in real:
                    table.setdefault(typo, word)
    return table


_WORD = re.compile(r"[a-z][a-z\-]{3,}")


def vocabulary_words(value: Any) -> set[str]:
    """Every word the vocabulary itself uses (in patterns, keys and values): real words, never typos."""
    if isinstance(value, str):
        return set(_WORD.findall(value))
    if isinstance(value, dict):
        return set().union(*(vocabulary_words(k) | vocabulary_words(x) for k, x in value.items()))
    if isinstance(value, list):
        return set().union(*(vocabulary_words(x) for x in value))
    return set()


def _fix_typos(text: str) -> str:
    table = _typos()
    return _WORD.sub(lambda x: table.get(x.group(), x.group()), text)


def normalised(text: str) -> str:
    """The message cut (readable), NFKC-normalised, its punctuation made ASCII, lower case: what clean() starts from."""
    return unicodedata.normalize("NFKC", readable(text).translate(_PUNCT)).translate(_PUNCT).lower()


@lru_cache(maxsize=4096)
def clean(text: str) -> str:
    """The message as the readers see it: cut to MAX_MESSAGE_CHARS, NFKC, lower case, Chinese
    numerals and phrases rewritten, English number words as digits, single spaces. Kept for the last few
    thousand messages: several readers clean the same message again (prepare, the clause readers, the engine)."""
    text = _fix_typos(normalised(text))
    # (these two read their words through this module)
    from gpu_advisor.assistant.reading.written import written_out
    from gpu_advisor.assistant.reading.zh_people import zh_people

    text = written_out(text)  # '1e3' is 1000; '1e-320', a 17-digit run: left out and said (reading.written)
    text = _rewrite(text, "vague_count_phrases")  # 'a couple of 5090s': the card, no count (words/vague_counts.yaml)
    if _CJK.search(text):
        text = _CJK_SPACE.sub("，", text)  # Chinese typed without punctuation: a space between clauses is a comma
        text = _ZH_SPACED_UNIT.sub("", text)  # '500 万条', '2 万', '5 千块': the digits and their unit are one number
        text = _rewrite(text, "zh_before_numerals")
        text = _zh_approximate(text)
        weekdays = vocab()["zh_weekdays"]
        text = re.sub(r"weekday([一二三四五六日天])", lambda m: weekdays[m.group(1)], text)
        # '2万3' is 23,000 and '1万5' 15,000: a digit after 万 counts thousands
        text = re.sub(r"(?<![\d.])(\d{1,4})万([1-9])(?![\d.万千百])", lambda x: f" {int(x[1]) * 10000 + int(x[2]) * 1000} ", text)
        text = _zh_numerals(text)
        text = _CJK_MINUS.sub("-", text)  # '负五个' became '- 5 ': the sign stays with its digits
        # '1.5w', '20w', '3w条': w (wan) is how people type 万
        text = re.sub(r"(?<![a-z0-9.])(\d{1,6}(?:\.\d{1,4})?)\s?w(?![a-z])", lambda x: f" {plain_digits(float(x[1]) * 1e4)} ", text)
        text = _CJK_EDGE.sub(" ", text)
        text = zh_people(text)
        text = _rewrite(text, "zh_price_phrases")  # '4090一块1.98元': an amount per card (reading/quotes.py)
        text = _rewrite(text, "zh_owned_phrases")  # '机房已经有一台8卡H20', '一台都还没买' (words/owned.yaml)
        text = _rewrite(text, "zh_box_phrases")  # 'A800八卡机': one server of eight (words/counted_boxes.yaml)
        text = _rewrite(text, "zh_local_use_phrases")  # '离线翻译': offline as in local use (words/offline_use.yaml)
        text = _rewrite(text, "zh_phrases")
    elif _KANA.search(text):
        text = _CJK_EDGE.sub(" ", text)
    text = _rewrite(text, "shorthand")  # "w/" is "with"
    text = _rewrite(text, "local_use_phrases")  # 'for offline translation': local use, no batch job
    text = _rewrite(text, "premises_phrases")  # "data can't leave our building": on-prem (words/premises.yaml)
    text = _rewrite(text, "no_plan_phrases")  # 'not buying anything' is 'just curious' (words/no_plan.yaml)
    text = _rewrite(text, "hosted_notebook_phrases")  # 'colab free' is the T4 it gives (words/owned.yaml)
    text = _rewrite(text, "server_box_phrases")  # "an hgx box with h100s" is the 8-card hgx h100 (words/owned.yaml)
    text = _number_words(text)
    text = _rewrite(text, "letter_unit_phrases")  # '六十四k', 'sixty-four k', '64 K': 64k (words/numbers.yaml)
    text = _rewrite(_rewrite(text, "data_size_phrases"), "one_conversation_phrases")  # '2GB of text', 'a 128k convo'
    text = _rewrite(text, "money_phrases")  # "8 grand" is $8,000 (words/money_said.yaml)
    text = _rewrite(text, "asked_count_phrases")  # 'two questions:' counts what is asked (words/asked_count.yaml)
    text = _rewrite(text, "box_phrases")  # 'an eight-gpu h100 box': one server of eight (words/counted_boxes.yaml)
    text = word_pattern("followups.cents").sub(lambda x: f"${float(x[1]) / 100:g}", text)  # "30 cents": $0.3
    text = re.sub(r"\b(\d{1,4}) ?x(?=(?:rtx|gh|gb|mi|[abhltv])\d)", r"\1x ", text)  # 8xh100 -> 8x h100
    return re.sub(r"\s+", " ", text).strip()



def mask(text: str, spans) -> str:
    """The text with each (start, end, ...) span replaced by MASK characters, positions kept."""
    chars = list(text)
    for s, e, *_ in spans:
        chars[s:e] = MASK * (e - s)
    return "".join(chars)
