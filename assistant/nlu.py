"""Deterministic text understanding: what a message says about the workload.

No model download, no randomness: small readers, one per profile slot, over a cleaned copy of the
message, with their words kept as data in assistant/vocab.yaml. `understand(text, pending)` returns
the slot values the message gives (`updates`), the intents it carries ("show the math", "start
over", "not sure", a glossary question ...), the language it is written in, and short English notes
on what was understood. `pending` is the slot of the question just asked: a bare answer ("15",
"working hours") fills it, and a bare choice number ("2") is returned as `choice` for the engine to
map onto that question's quick replies.

How a message is read:
1. cut to MAX_MESSAGE_CHARS, NFKC-normalised and lower-cased; Chinese numerals become digits and
   Chinese phrases become the English the readers know; English number words become digits;
2. catalog model names and GPU names are found and masked, so that their digits ("llama 3.1 8b",
   "4090") are never read as quantities;
3. every remaining quantity gets a role from the words around it (model size, training tokens,
   context, tokens per item, users, money, deadline ...);
4. each slot's reader picks its value; a value right after "not", "no", "instead of", "rather than"
   ... is what the user does not want ("buy not rent", "not 7B, 70B").
"""

from __future__ import annotations

import difflib
import itertools
import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import yaml

import knowledge
from knowledge import find_model, find_precision, gpus, models, rules
from knowledge.resolve import BadValue, check_size, normalise

MAX_MESSAGE_CHARS = 4000  # longer pastes are read up to here (about 700 English words)
# A Chinese character says about as much as a short English word and costs the readers (which scan
# every character) several times more: it counts this many characters towards the limit, so a
# message of any script is read in about the same time.
CJK_WEIGHT = 3


def readable(raw: str) -> str:
    """The part of a message the readers take: MAX_MESSAGE_CHARS characters, Chinese ones counted
    CJK_WEIGHT times. Cut first, so that no input costs more than a full-length message."""
    cut = (raw or "")[:MAX_MESSAGE_CHARS]
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
VOCAB_FILE = Path(__file__).with_name("vocab.yaml")
MAX_QUANTITIES = 100  # numbers read per message; a message with more is a paste
MAX_NAMES = 16  # cards read per message; more is a paste, and each name costs every reader a search
MASK = "\u2592"  # stands in for a name already read, keeping positions
EXAMPLE_TOKENS = 1000  # tokens in one fine-tuning example when only the count is given
SHORT_OUTPUT_TOKENS = 16  # "the output is short" in a batch job: a label or a few words
CHOICE_SLOTS_WITH_NUMBERS = ("users", "context")  # a bare number there is a count, never a choice


@dataclass
class Understanding:
    """What one message says: slot updates, intents and notes, never a decision."""

    updates: dict[str, Any] = field(default_factory=dict)
    intents: set[str] = field(default_factory=set)
    understood: list[str] = field(default_factory=list)
    compare_gpus: list[str] = field(default_factory=list)
    whatif_gpus: tuple[int, str] | None = None
    problems: list[str] = field(default_factory=list)
    topic: str | None = None
    unknown_model: str | None = None
    lang: str = "en"
    choice: int | None = None
    notes: list[tuple[str, dict[str, str]]] = field(default_factory=list)  # (catalog key, values)
    scale: dict[str, float] = field(default_factory=dict)  # "double the users": slot -> factor on its value
    region_hint: str | None = None  # a budget in yuan or a Chinese accelerator: China, unless a region is known
    aside: str | None = None  # a concept asked about in a message that also sizes something

    @property
    def empty(self) -> bool:
        return not (self.updates or self.intents or self.compare_gpus or self.whatif_gpus or self.topic or self.scale
                    or self.choice is not None or self.unknown_model)


# ---------------------------------------------------------------- vocabulary


@cache
def vocab() -> dict[str, Any]:
    """assistant/vocab.yaml, loaded once."""
    return yaml.safe_load(VOCAB_FILE.read_text(encoding="utf-8"))


@cache
def _re(key: str) -> re.Pattern[str]:
    """A vocabulary pattern by key ('a.b' for nested keys), compiled once."""
    value: Any = vocab()
    for part in key.split("."):
        value = value[int(part)] if isinstance(value, list) else value[part]
    return re.compile(value)


@cache
def _rules(key: str) -> list[tuple[re.Pattern[str], Any]]:
    """A vocabulary list of [pattern, value, ...] rows, compiled once."""
    return [(re.compile(row[0]), row[1] if len(row) == 2 else tuple(row[1:])) for row in vocab()[key]]


# ---------------------------------------------------------------- cleaning

_CJK = re.compile(r"[\u3400-\u9fff]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_CJK_EDGE = re.compile(r"(?<=[\u3040-\u30ff\u3400-\u9fff])(?=[A-Za-z0-9$¥])"
                       r"|(?<=[A-Za-z0-9%])(?=[\u3040-\u30ff\u3400-\u9fff])")
MAX_DIGITS = 16
_LONG_DIGITS = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")
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
        elif t in units:
            total += (1.0 if current is None else current) * units[t]
            current, last_unit = None, units[t]
    if current is not None and last_unit and last_unit >= 100 and not re.search(r"\d", run):
        current *= last_unit / 10
    return total + (current or 0.0)


@cache
def _zh_numeral_run() -> re.Pattern[str]:
    """A run of Chinese numerals, optionally after digits ('1.5万')."""
    chars = "".join(vocab()["zh_digits"]) + "".join(vocab()["zh_units"])
    return re.compile(rf"(?:\d{{1,12}}(?:\.\d{{1,6}})?)?[{chars}]+")


def _zh_numerals(text: str) -> str:
    """Chinese numerals to digits, leaving lone characters that are not numbers ('一' before a noun
    that takes no count is handled by zh_before_numerals)."""
    def repl(m: re.Match[str]) -> str:
        run = m.group()
        if len(run) > 24:
            return run  # no number is written that long
        if not re.search(r"[\d一二两三四五六七八九十百千万亿]", run) or re.fullmatch(r"[零〇]+", run):
            return run
        value = _zh_number(run)
        return f" {_digits(value)} " if value < 1e15 else run

    return _zh_numeral_run().sub(repl, text)


def _digits(value: float) -> str:
    """A number as plain digits: 1000000 -> '1000000', 1.5 -> '1.5' (never '1e+06')."""
    return str(int(value)) if float(value).is_integer() else f"{value:.6f}".rstrip("0").rstrip(".")


def _rewrite(text: str, key: str) -> str:
    """Apply a vocabulary list of [pattern, replacement] rows in order."""
    for pattern, replacement in _rules(key):
        text = pattern.sub(replacement, text)
    return text


@cache
def _number_word_pattern() -> re.Pattern[str]:
    """A run of English number words ('two hundred and fifty', 'a dozen', 'half a million')."""
    v = vocab()
    words = sorted({*v["number_words"], *v["number_scales"]}, key=len, reverse=True)
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
            return run  # 'a seven' is no number; 'a 7B model' never gets here
        if len(body) == 1 and body[0] == "one":
            before, after = text[max(0, m.start() - 8):m.start()], text[m.end():m.end() + 6]
            if re.search(r"\b(which|this|that|the|no|any|each|every|some)\s*$", before) \
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
        return _digits(value) if value < 1e15 else run

    text = _number_word_pattern().sub(repl, text)
    return re.sub(r"\bhalf an? (second|minute|hour|day)\b", r"0.5 \1", text)


def clean(text: str) -> str:
    """The message as the readers see it: cut to MAX_MESSAGE_CHARS, NFKC, lower case, Chinese
    numerals and phrases rewritten, English number words as digits, single spaces."""
    text = unicodedata.normalize("NFKC", readable(text)).translate(_PUNCT).lower()
    text = _LONG_DIGITS.sub(lambda x: x.group()[:MAX_DIGITS], text)  # no quantity is written that long
    if _CJK.search(text):
        text = _rewrite(text, "zh_before_numerals")
        weekdays = vocab()["zh_weekdays"]
        text = re.sub(r"weekday([一二三四五六日天])", lambda m: weekdays[m.group(1)], text)
        text = _zh_numerals(text)
        # '1.5w', '20w', '3w条': w (wan) is how people type 万
        text = re.sub(r"(?<![a-z0-9.])(\d{1,6}(?:\.\d{1,4})?)\s?w(?![a-z])", lambda x: f" {_digits(float(x[1]) * 1e4)} ", text)
        text = _CJK_EDGE.sub(" ", text)
        text = _rewrite(text, "zh_phrases")
    elif _KANA.search(text):
        text = _CJK_EDGE.sub(" ", text)
    text = _number_words(text)
    text = re.sub(r"\b(\d{1,4}) ?x(?=(?:rtx|gh|gb|mi|[abhltv])\d)", r"\1x ", text)  # 8xh100 -> 8x h100
    return re.sub(r"\s+", " ", text).strip()


# ---------------------------------------------------------------- names: models and GPUs


@cache
def _model_index() -> dict[str, str]:
    """Normalised name -> model id; knowledge's shared index when it has one."""
    from knowledge import resolve

    shared = getattr(resolve, "model_index", None)
    if shared is not None:
        source = shared()
    else:
        source = {}
        for m in models():
            for key in (m.id, m.name, *m.aliases, *m.hf_ids, *(h.split("/")[-1] for h in m.hf_ids)):
                source.setdefault(normalise(key), m.id)
    return {k: v for k, v in source.items() if len(k) >= 2 and not re.fullmatch(r"[\d.]+[bmk]?", k)}


@cache
def _gpu_index() -> dict[str, str]:
    """Normalised GPU name or alias -> GPU id."""
    index: dict[str, str] = {}
    for g in gpus():
        for key in (g.id, g.name, *g.aliases):
            k = normalise(key)
            if len(k) >= 2:
                index.setdefault(k, g.id)
    return index


@cache
def _family_words() -> frozenset[str]:
    """Family words of catalog models ('llama', 'qwen', 'gemma', ...) as they are typed."""
    from knowledge import resolve

    words = {m.family for m in models()} | {"mixtral", "meta-llama"}
    for extra in getattr(resolve, "FAMILY_WORDS", {}).values():
        words |= {w for w in extra if re.fullmatch(r"[a-z][a-z\-]*", w)}
    return frozenset(words - {"generic"})


_TOKEN = re.compile(r"[a-z0-9][a-z0-9.\-_/]*")
_LETTER = re.compile(r"[a-z]")


def _tokens(text: str) -> list[tuple[int, int, str]]:
    """Name-like tokens ('llama', '3.1', 'qwen2.5-vl-7b', 'org/name') with their spans."""
    out = []
    for m in _TOKEN.finditer(text):
        word = m.group().rstrip(".-_/")
        out.append((m.start(), m.start() + len(word), word))
    return out


# Names are looked for among this many words of a message: far past them is a paste, and each word
# costs every n-gram length a lookup.
MAX_NAME_WORDS = 600


def _ngrams(text: str, max_n: int = 5):
    """Runs of up to max_n tokens, longest first: (start, end, 'words joined by spaces')."""
    tokens = _tokens(text)[:MAX_NAME_WORDS]
    for n in range(max_n, 0, -1):
        for i in range(len(tokens) - n + 1):
            span = tokens[i:i + n]
            yield span[0][0], span[-1][1], " ".join(t[2] for t in span)


@cache
def _STOP() -> frozenset[str]:
    """Words that are never part of a model name."""
    return frozenset(vocab()["name_stopwords"])


@cache
def _keys_by_digits() -> dict[str, list[str]]:
    """Catalog name keys grouped by their digits: typos are looked for among names with the same
    numbers only ("lama 3 70b" among the *370* names), which keeps fuzzy matching fast and sane."""
    groups: dict[str, list[str]] = {}
    for key in _model_index():
        groups.setdefault(re.sub(r"\D", "", key), []).append(key)
    return groups


@lru_cache(maxsize=512)
def _resolve_token(word: str) -> str | None:
    """A single typed token ('meta-llama/llama-3.1-8b-instruct', 'qwen-72b') through the catalog's
    own resolver, which strips variant suffixes; None when it names no catalog model."""
    if not (re.search(r"[a-z]", word) and re.search(r"\d", word) and re.search(r"[-/]", word)):
        return None
    try:
        model = find_model(word)
    except Exception:  # noqa: BLE001 - NotFound, ConfigError, BadValue: not a catalog name
        return None
    return None if model.family == "generic" else model.id


def find_models(text: str) -> list[tuple[int, int, str]]:
    """Catalog models named in the text: (start, end, id), longest names first, no overlaps."""
    index = _model_index()
    found: list[tuple[int, int, str]] = []
    taken = bytearray(len(text) + 1)
    grams = [g for g in _ngrams(text) if _LETTER.search(g[2])]
    # Exact names first, then near misses ("lama 3.1 8b"), so that a typo-tolerant match of
    # "on llama 3.3" never takes the words of the exact "llama 3.3 70b".
    for fuzzy in (False, True):
        for start, end, gram in grams:
            if any(taken[start:end]):
                continue
            key = normalise(gram)
            model_id = None if fuzzy else index.get(key) or (_resolve_token(gram) if " " not in gram else None)
            words = gram.split()
            if fuzzy and 6 <= len(key) <= 40 and len(words) <= 3 and re.search(r"\d", words[-1]) \
                    and re.match(r"[a-z]", words[0]) and words[0] not in _STOP():
                same_digits = _keys_by_digits().get(re.sub(r"\D", "", key), [])
                close = difflib.get_close_matches(key, same_digits, n=1, cutoff=0.88)
                model_id = index[close[0]] if close else None
            if model_id:
                found.append((start, end, model_id))
                taken[start:end] = b"\x01" * (end - start)
    return sorted(found)


def _with_stated_memory(text: str, found: tuple[int, int, str, int]) -> tuple[int, int, str, int]:
    """A Mac named with its own memory ('m3 max has 36gb', 'm4 pro 24gb', 'm3 max 30-core 36gb') is that
    Mac: the configuration from the Apple chip table (its own bandwidth), or, for one Apple never sold,
    the chip's figures with the memory as stated."""
    s, e, gpu_id, count = found
    if not gpu_id.startswith("apple-"):
        return found
    x = _re("mac_memory_after").match(text[e:e + 32])
    if not x:
        return found
    from knowledge import BadValue, find_gpu
    from knowledge.apple import parse_apple

    chip = find_gpu(gpu_id)
    memory = float(x["memory"])
    if (memory == chip.memory_gb and not x["cores"]) or not 8 <= memory <= 512:
        return found
    family = chip.name.split(",")[0].split("(")[0].strip()
    try:
        mac = parse_apple(f"{family} {x['cores'] + '-core ' if x['cores'] else ''}{memory:g}gb")
    except BadValue:
        mac = None
    if mac is not None:
        return s, e + x.end(), mac.id, count
    name = f"{family} {memory:g}GB"
    spec = (f"custom:memory={memory:g}GB,bandwidth={chip.memory_bandwidth_gbps:g}GB/s,bf16={chip.bf16_tflops:g},"
            f"vendor=apple,segment=apple,name={name}")
    return s, e + x.end(), spec, count


def _unsold_mac(spec: str) -> tuple[str, dict[str, str]] | None:
    """A Mac named with memory its chip was never sold with ('m4 max 32gb'): said, then sized as stated."""
    from knowledge.apple import memory_sold

    name = spec.split("name=", 1)[-1]
    memory = re.search(r"(\d+(?:\.\d+)?)GB$", name)
    sold = memory_sold(name)
    if not (sold and memory):
        return None
    return ("note.mac_not_sold", {"chip": sold[0], "sizes": ", ".join(map(str, sold[1])), "memory": memory[1]})


def _apple(words: str) -> str | None:
    from knowledge import BadValue
    from knowledge.apple import parse_apple

    try:
        mac = parse_apple(words)
    except BadValue:
        return None
    return mac.id if mac else None


_JOINED_COUNT = re.compile(r"(?<![\w.])(\d{1,3})[x×*](?=\d{3,4}\b|(?:rtx|gtx|[ahlbv])\s?\d{2,4}\b)", re.I)


def find_gpus(text: str) -> list[tuple[int, int, str, int]]:
    """GPUs named in the text with a count when one precedes or follows them ("two 4090s",
    "8x H100", "A100 x 8"): (start, end, id, count); the span covers the count."""
    index = _gpu_index()
    found: list[tuple[int, int, str, int]] = []
    # "2x3090", "8xA100": the count's x joined to the name is read as "2 3090" (same length, same spans)
    text = _JOINED_COUNT.sub(lambda x: x.group(1) + " ", text)
    taken = bytearray(len(text) + 16)
    for start, end, gram in _ngrams(text, 4):
        if any(taken[start:end]) or (" " in gram and not _LETTER.search(gram)):
            continue
        key = normalise(gram)
        gpu_id = index.get(key) or (index.get(key[:-1]) if key.endswith("s") else None)
        if not gpu_id or (key.isdigit() and len(key) < 4):
            continue
        count, s0, e0 = 1, start, end
        before = text[max(0, start - 40):start]
        after = text[end:end + 12]
        m = _re("gpu_count_before").search(before)
        a = _re("gpu_count_after").match(after)
        if m:
            count, s0 = int(m.group(1)), start - (len(before) - m.start(1))
        elif a:
            count, e0 = int(a.group(1)), end + a.end()
        if count < 1:
            count = 1
        machines = _re("gpu_machines_before").search(text[max(0, s0 - 48):s0]) if m else None
        if machines and int(machines.group(1)) > 0:
            count *= int(machines.group(1))
            s0 -= len(text[max(0, s0 - 48):s0]) - machines.start(1)
        found.append((s0, e0, gpu_id, count))
        taken[s0:e0] = b"\x01" * (e0 - s0)
        if len(found) >= MAX_NAMES:
            break
    found = [_with_stated_memory(text, f) for f in found]
    for x in _re("apple_chip").finditer(text):  # 'macbook air m3 16gb': the chip table's configuration
        inside = [f for f in found if f[0] < x.end() and x.start() < f[1]]
        if any(e - s >= x.end() - x.start() for s, e, _, _ in inside) or len(found) >= MAX_NAMES:
            continue  # a catalog name as long as the chip's words ('mac mini m4 pro 48g' is longer than its name)
        mac = _apple(x.group(0))
        if mac:
            found = [f for f in found if f not in inside] + [(x.start(), x.end(), mac, 1)]
    for x in _re("described_gpu").finditer(text):  # "a card with 96 GB and 1.8 TB/s": sized by its numbers
        if any(taken[x.start():x.end()]) or len(found) >= MAX_NAMES:
            continue
        spec = f"custom:memory={x['memory']}GB,bandwidth={x['bandwidth']}{x['unit'].upper()}B/s"
        found.append((x.start(), x.end(), spec, int(x["count"] or 1)))
    return sorted(found)


# ---------------------------------------------------------------- quantities and their roles


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


def _clause_bounds(text: str, start: int, end: int) -> tuple[int, int]:
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


def _clause(text: str, start: int, end: int) -> str:
    """The sentence or clause around a span."""
    left, right = _clause_bounds(text, start, end)
    return text[left:right]


def negated(text: str, start: int) -> bool:
    """Whether the value at `start` follows a negation: 'not rent', 'no users', 'rather than QLoRA'."""
    before = text[max(0, start - 48):start]
    before = re.split(r"[,.;:!?()]", before)[-1] if re.search(r"[,.;:!?()]\s*$", before) is None else ""
    if _re("negation_exceptions").search(before):
        return False
    return bool(_re("negation").search(before) or _re("rather_than").search(before))


def _role(masked: str, q: Quantity, lang: str = "en") -> tuple[str, str]:  # noqa: C901 - ordered word rules, first match wins
    """The role of one quantity from the words after and before it, and an extra tag (the
    currency of money, the unit of a duration, the period of hours per period)."""
    after = masked[q.end:q.end + 60]
    before = masked[max(0, q.start - 60):q.start]
    scale = q.scale
    percent = re.match(r"\s*(?:%|percent\b)", after)
    if percent or re.search(r"percent\s*$", before):
        rest = after[percent.end():] if percent else after
        return ("" if _re("percent_not_utilisation").match(rest) else "utilisation_percent"), ""
    cur_before = _re("money_before").search(before.rstrip())
    cur_after = _re("money_after").match(after)
    if cur_before or cur_after:
        sign = (cur_before.group() if cur_before else "") + (cur_after.group() if cur_after else "")
        currency = "CNY" if _re("currency_cny").search(sign) else \
            "EUR" if _re("currency_eur").search(sign) else "USD"
        return "money", currency
    if _re("out_after").match(after) and _re("tokens_in_nearby").search(before[-40:] + after[:1]):
        return "output_tokens", ""  # "250 tokens in and 5 out each"
    if _re("tps_after").match(after) or (_re("tps_before").search(before)
                                         and _re("tokens_after").match(after)):
        return "tokens_per_s", ""
    if _re("ms_after").match(after):
        return ("ms_per_token" if _re("per_token_context").search(after[:30]) else "ttft_ms"), ""
    if _re("seconds_after").match(after):
        clause = before[-40:] + after[:40]
        if _re("per_token_context").search(after[:30]):
            return "s_per_token", ""
        return ("ttft_s" if _re("ttft_context").search(clause) else ""), ""
    period = _re("per_period_after").match(after)
    if period:
        return "hours_per", period.group(1)
    unit = _re("duration_after").match(after)
    if unit:
        word = unit.group().strip().split()[0] if unit.group().strip() else ""
        if _re("deadline_before").search(before) or _re("deadline_after").match(after):
            return "deadline", word
        return "", word
    if _re("tokens_after").match(after):
        return _token_role(q, after, before), ""
    if _re("ctx_after").match(after) or _re("ctx_before").search(before):
        return "context", ""
    if scale in ("b", "bn", "billion") or (scale in ("m", "million", "t", "trillion") and
                                           _re("model_param_after").match(after)):
        if _re("moe_active_after").match(after):
            return "model_active", ""
        if _re("moe_total_after").match(after):
            return "model_total", ""
        return "model", ""
    if _re("epochs_after").match(after):
        return "epochs", ""
    if re.match(rf"\s*(?:[a-z-]+\s+)?{vocab()['example_nouns']}\b", after):
        return "examples", ""
    if scale == "k" and _re("tok_before_prompt").search(before):
        return "prompt_tokens", ""  # "prompts are about 8k"
    if scale == "k" and _re("prompt_length_nouns").match(after) and _re("ttft_context").search(masked):
        return "prompt_tokens", ""  # "ttft under 300 ms at 2k prompts": the prompts' length
    if re.match(rf"\s*(?:[a-z-]+\s+)?{vocab()['item_nouns']}\b", after):
        return "items", ""
    if re.search(r"\boutputs?\s*(?:is|are|of|:|=|~)?\s*$", before) and re.search(r"\btokens?\b", before[-40:]):
        return "output_tokens", ""  # "每条输入1000 token 输出300": the unit said once, for the input
    if _re("users_after").match(after) or _re("users_before").search(before):
        return "users", ""
    if _re("budget_before").search(before) or _re("budget_after").match(after):
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
    if _re("ctx_before").search(before) or _re("tok_after_context").match(rest):
        return "context"
    if _re("tok_after_train").match(rest):
        return "train_tokens"
    if _re("tok_before_prompt").search(before):
        return "prompt_tokens"  # "每条输入1000 token 输出300": the input's, though "output" follows
    if _re("tok_after_output").match(rest):
        return "output_tokens"
    if _re("tok_after_prompt").match(rest):
        return "prompt_tokens"
    if _re("tok_after_per").match(rest) or _re("tok_after_doc").match(rest):
        return "per_item_tokens"
    if _re("tok_before_per_strong").search(before):
        return "per_item_tokens"
    if _re("tok_before_prompt").search(before):
        return "prompt_tokens"
    if _re("tok_before_output").search(before):
        return "output_tokens"
    if _re("tok_before_per").search(before):
        return "per_item_tokens"
    if _re("tok_before_train").search(before) or q.value >= 1e6:
        return "train_tokens"
    if _re("tok_near_output").search(before):
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


# ---------------------------------------------------------------- the message being read


@dataclass
class Message:
    """One message prepared for the slot readers."""

    raw: str
    text: str
    masked: str
    pending: str | None
    lang: str
    names: list[tuple[int, int, str]]
    gpus: list[tuple[int, int, str, int]]
    qty: list[Quantity]
    problems: list[str] = field(default_factory=list)
    notes: list[tuple[str, dict[str, str]]] = field(default_factory=list)  # (catalog key, values)
    unknown: tuple[str, str | None] | None = None  # (name as typed, size spec or None)
    phase: str | None = None  # the phase this message states, once read

    def live(self, key: str) -> list[re.Match[str]]:
        """Matches of a vocabulary pattern that are not negated (the first MAX_QUANTITIES of them: a
        word repeated a thousand times says no more than a hundred times)."""
        found = itertools.islice(_re(key).finditer(self.masked), MAX_QUANTITIES)
        return [m for m in found if not negated(self.masked, m.start())]

    def role(self, *roles: str, live: bool = True) -> list[Quantity]:
        """Quantities with one of these roles (by default only those not negated)."""
        return [q for q in self.qty if q.role in roles and not (live and q.negated)]


def _mask(text: str, spans) -> str:
    """The text with each (start, end, ...) span replaced by MASK characters, positions kept."""
    chars = list(text)
    for s, e, *_ in spans:
        chars[s:e] = MASK * (e - s)
    return "".join(chars)


def _prepare(raw: str, pending: str | None) -> Message:  # raw: readable(message)
    """Clean the message, find and mask model and GPU names, and give every quantity its role."""
    text = clean(raw)
    names = find_models(text)
    masked = _mask(text, names)
    unknown, masked = _unknown_model(text, masked, raw)
    found_gpus = find_gpus(masked)
    masked = _mask(masked, found_gpus)
    unsold = [_unsold_mac(gpu_id) for _, _, gpu_id, _ in found_gpus if "vendor=apple" in gpu_id]
    lang = language(raw)  # raw is already the readable part (understand cuts it first)
    msg = Message(raw, text, masked, pending, lang, names, found_gpus,
                  quantities(masked, lang))
    msg.unknown = unknown
    msg.notes += [note for note in unsold if note]
    return msg


_SIZE_IN_NAME = re.compile(r"(?<![a-z0-9.])(\d+(?:\.\d+)?)b(?:\s?a(\d+(?:\.\d+)?)b)?(?![a-z0-9])")
_REPO_ID = re.compile(r"[a-z][\w.\-]{1,40}/[\w.\-]*[a-z][\w.\-]*")
_GLUED_NAME = re.compile(r"(?:[a-z][a-z0-9.]*-)+\d+(?:\.\d+)?b(?:-a\d+(?:\.\d+)?b)?(?:-[a-z0-9.]+)*")
# A hyphenated word shaped like a model's name though it carries no size: 'acme-llm', 'foo-chat'.
_NAME_SHAPED = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9.]+)*-(?:llm|lm|gpt|chat|instruct|coder|bot)(?:-[a-z0-9.]+)*"
                          r"|(?:llm|gpt)-[a-z0-9.\-]+")


def _unknown_model(text: str, masked: str, raw: str) -> tuple[tuple[str, str | None] | None, str]:
    """A model name the catalog does not hold, with the size it carries: an organisation/name repo id
    ('moonshotai/Kimi-Dev-72B'), a hyphenated name with a size ('kimi-dev-72b'), or a family the
    catalog lacks ('kimi dev', 'yi 34b'). Returns ((name as typed, size spec or None), the text with
    the name masked, so that its size is read only here)."""
    families, unknowns = _family_words(), frozenset(vocab()["unknown_families"])
    stop = _STOP()
    tokens = _tokens(masked)
    for i, (_s, _e, word) in enumerate(tokens):
        if MASK in word:
            continue
        repo = _REPO_ID.fullmatch(word) and re.search(r"[-\d]", word.split("/", 1)[1]) \
            and not re.fullmatch(r"(tokens?|toks?|t|and|w|i)/\w+", word)
        glued = (_GLUED_NAME.fullmatch(word) or _NAME_SHAPED.fullmatch(word)) and not re.match(r"(q|int|fp|bf|mx)\d", word)
        family = word in unknowns or re.sub(r"[\d.\-]+$", "", word) in unknowns
        if not (repo or glued or family):
            continue
        first, last = i, i + 1
        if family:  # widen to the words of the name: "llama 4 scout", "kimi dev 72b"
            while first > 0 and i - first < 2 and (tokens[first - 1][2] in families | unknowns
                                                   or re.fullmatch(r"\d+(\.\d+)?", tokens[first - 1][2])):
                first -= 1
            while last < len(tokens) and last - i <= 3 and tokens[last][2] not in stop \
                    and re.fullmatch(r"[a-z0-9.\-]*[a-z][a-z0-9.\-]*", tokens[last][2]):
                last += 1
                if _SIZE_IN_NAME.search(tokens[last - 1][2]):
                    break
        s0, e0 = tokens[first][0], tokens[last - 1][1]
        name = text[s0:e0]
        typed = re.search(re.escape(name).replace(r"\ ", r"[\s\-_]*"), raw, re.IGNORECASE)
        sizes = _SIZE_IN_NAME.findall(re.sub(r"[/_\-]", " ", name))
        size = None
        if sizes:
            total, active = sizes[-1]
            size = f"{float(total):g}B" + (f"-A{float(active):g}B" if active else "")
        return (typed.group() if typed else name, size), _mask(masked, [(s0, e0)])
    return None, masked


# ---------------------------------------------------------------- slot readers


def read_phase(m: Message) -> str | None:
    """The project phase from its verbs: pretraining ('from scratch'), an offline batch job
    ('summarise 1M documents'), production, trying things out, fine-tuning, serving, or both."""
    t = m.masked
    live = m.live
    pretrain = live("phase.pretrain")
    train = [x for x in live("phase.train")
             if not re.match(r"train(ing)? (tokens|data)", t[x.start():x.end() + 8])
             and not _descriptive(t, x)]
    strong = live("phase.serve_strong")
    weak = live("phase.serve_weak")
    experiment = live("phase.experiment") or re.search(rf"\btry(ing)?\s+(out\s+)?{MASK}", t)
    production = live("phase.production")
    users = m.role("users")
    items = m.role("items", "per_item_tokens", "output_tokens")
    no_users = [x for x in re.finditer(r"\b(no|without) (online |concurrent |live )?users\b", t)]
    counted = m.role("items")
    verbs = [x for x in live("phase.batch_verbs")
             if (re.search(rf"\b{vocab()['item_nouns']}\b", t[x.end():x.end() + 60])
                 and (counted or not strong)) or items]
    due = m.role("deadline") or any(p.search(t) for p, _hours in _rules("deadline_words"))
    counted_job = counted and (m.role("output_tokens") or due) and not users and not strong
    batch = live("phase.batch") or verbs or (no_users and items) or counted_job
    if pretrain:
        return "pretrain"
    if batch and not train:
        return "batch"
    if production:
        return "production"
    has_model = bool(m.names or m.role("model", "model_total") or m.unknown)
    targets = m.role("ttft_ms", "ttft_s", "tokens_per_s", "prompt_tokens")
    if experiment and not strong:
        return "experiment"
    if train and (strong or any(q.value > 1 for q in users)):
        return "train-and-serve"
    if train:
        return "fine-tune"
    if strong or (weak and (has_model or targets or m.gpus)) or (users and (has_model or targets)):
        return "serve"
    if weak and m.pending == "phase":
        return "serve"  # "just me, chatting and coding" at the phase question
    return None


def _descriptive(text: str, x: re.Match[str]) -> bool:
    """'a fine-tuned llama', 'we already fine-tuned it': a past participle that describes the model,
    not the job to size."""
    if not re.search(r"(ed)$", x.group()):
        return False
    return bool(re.search(r"\b(a|an|the|our|my|its|already|have|has|had|been|was|were|is|are|custom|own|"
                          r"previously|pre)\s*$", text[max(0, x.start() - 16):x.start()]))


def read_model(m: Message) -> str | None:
    """The model: a catalog name ('qwen 72b' -> qwen2.5-72b, the newest of that family), a size
    ('27B', '26B total with 3.8B active' -> '26B-A3.8B'), or the size an unknown name carries."""
    candidates: list[tuple[int, str]] = []
    for start, _end, model_id in m.names:
        if not negated(m.text, start):
            candidates.append((start, model_id))
    for x in re.finditer(r"(?<![\w.])(\d+(?:\.\d+)?)\s*b\s*-?\s*a\s*(\d+(?:\.\d+)?)\s*b\b", m.masked):
        if not negated(m.masked, x.start()):
            candidates.append((x.start(), f"{float(x.group(1)):g}B-A{float(x.group(2)):g}B"))
    sizes = m.role("model", "model_total", "model_active")
    for q in sizes:
        total = q.value / 1e9 if q.scale not in ("b", "bn", "billion") else q.number
        if q.role == "model_active":
            continue
        near = [a for a in sizes if a.role == "model_active" and abs(a.start - q.start) < 60]
        same_sentence = [a for a in near
                         if "." not in m.masked[min(a.start, q.start):max(a.start, q.start)].replace("b.", "")]
        active = same_sentence[0] if same_sentence else None
        spec = f"{total:g}B" + (f"-A{active.number:g}B" if active else "")
        if re.search(r"(?<![\w.])\d+(?:\.\d+)?\s*b\s*-?\s*a\s*\d", m.masked[q.start:q.end + 6]):
            continue  # "30b-a3b" was read above
        candidates.append((q.start, spec))
    if m.unknown and m.unknown[1] and not candidates:
        candidates.append((0, m.unknown[1]))
    if not candidates:
        return None
    _pos, spec = max(candidates)
    if spec[0].isdigit():
        total_b = float(spec.split("B")[0])
        active_b = float(spec.split("-A")[1].rstrip("B")) if "-A" in spec else total_b
        try:
            check_size(total_b, active_b)
        except BadValue as e:
            m.problems.append(str(e))
            return None
        return _family_and_size(m, spec) or spec
    return spec


def _family_and_size(m: Message, spec: str) -> str | None:
    """'a 70B model (llama)' -> llama-3.3-70b: one family word beside a bare size names the newest
    model of that family with that size; a family without that size is reported unknown."""
    if "-A" in spec or m.unknown:
        return None
    words = [w for _s, _e, w in _tokens(m.masked) if w in _family_words()]
    if len(set(words)) != 1:
        return None
    size = spec.lower()
    model_id = _model_index().get(normalise(f"{words[0]} {size}"))
    if model_id:
        return model_id
    m.unknown = (f"{words[0]} {size}", spec)
    return None


def read_precision(m: Message) -> str | None:
    """The weight precision: 'in int4', '4-bit', 'AWQ', 'Q4_K_M', 'unquantised (bf16)'. Not the
    KV cache's ('FP8 KV cache') nor QLoRA's 4-bit base."""
    hits = []
    t = m.masked
    for pattern, pid in _rules("precision"):
        for x in pattern.finditer(t):
            if negated(t, x.start()):
                continue
            if _re("precision_not_weights").match(t[x.end():x.end() + 20]):
                continue
            if _re("precision_not_weights_before").search(t[max(0, x.start() - 20):x.start()]):
                continue
            hits.append((x.start(), x.end(), x.group().lower() if pid == "=" else pid))
    inner = [h for h in hits if any(o is not h and o[0] <= h[0] and h[1] <= o[1] and o[1] - o[0] > h[1] - h[0]
                                    for o in hits)]
    hits = [h for h in hits if h not in inner]
    return max(hits)[2] if hits else None


def read_method(m: Message) -> str | None:
    """How to fine-tune: 'qlora', 'lora' or 'full' ('fully fine-tune', 'all weights', 'rather than
    QLoRA, full')."""
    hits = []
    qlora_spans = [x.span() for x in _re("method.qlora").finditer(m.masked)]
    for name in ("qlora", "lora", "full"):
        for x in _re(f"method.{name}").finditer(m.masked):
            if name == "lora" and any(s <= x.start() < e for s, e in qlora_spans):
                continue
            if name == "full" and re.fullmatch(r"full\s*(?:[,.;!]|please|instead)?", x.group().strip()) \
                    and not (re.search(r"\b(q?-?lora|method)\b", m.masked) or m.pending == "method"):
                continue
            if not negated(m.masked, x.start()):
                hits.append((x.start(), name))
            elif m.pending == "method":
                m.notes.append((f"note.not_{name}", {}))  # "not qlora" at the question: said back, asked again
    return max(hits)[1] if hits else None


def read_objective(m: Message) -> str | None:
    """The training objective: 'dpo' for DPO, ORPO, KTO, SimPO, preference pairs; 'sft' when said."""
    for name in ("dpo", "sft"):
        if m.live(f"objective.{name}"):
            return name
    return None


def read_users(m: Message) -> int | None:
    """Concurrent users: '20 users', 'a team of 10', 'just me' (1), '一百个用户' (100); at the users
    question a bare number or range ('15', '5-20' -> 20)."""
    value = None
    for q in m.role("users"):
        value = q.value
    if value is None and m.live("just_me"):
        value = 1.0
    if value is None and m.live("two_people"):
        value = 2.0
    if value is None and m.pending == "users":
        nums = [q for q in m.qty if not q.role and not q.negated]
        rng = re.search(r"(?<![\d,])(\d{1,7})\s*(?:-|to|~)\s*(\d{1,7})(?![\d,])", m.masked)
        if rng:
            value = float(rng.group(2).replace(",", ""))
        elif nums:
            value = nums[-1].value
    if value is None:
        return None
    if value < 1:
        m.problems.append("the number of users must be at least 1")
        return None
    if value > 1_000_000:
        m.problems.append(f"{value:,.0f} concurrent users is beyond what one deployment plan can size")
        return None
    return int(value)


def read_context(m: Message) -> int | None:
    """Context length in tokens: '32k context' (32,768), 'context of 128 thousand tokens' (128,000);
    at the context question a bare '32k'."""
    if m.phase == "batch":
        return None  # a batch job's lengths are tokens per item, read by the batch readers
    values = [q.context_tokens for q in m.role("context")]
    if not values and m.pending == "context":
        values = [q.context_tokens for q in m.qty if not q.role and not q.negated]
    if not values:
        return None
    value = values[-1]
    if value < 128:
        m.problems.append(f"a context of {value:,.0f} tokens is too short to size; try 2k-128k")
        return None
    if value > 10_000_000:
        m.problems.append(f"{value:,.0f} tokens of context is beyond any model")
        return None
    return int(value)


def read_utilisation(m: Message) -> float | None:
    """How busy the GPUs are, 0-1: '24/7' (1.0), 'working hours' (0.24), '8 hours a day' (0.33),
    '50%'; at the utilisation question a bare percentage. A batch job has none ('over the weekend'
    is its deadline)."""
    if m.phase == "batch":
        return None
    hits: list[tuple[int, float]] = []
    for pattern, (value, _label) in _rules("utilisation"):
        for x in pattern.finditer(m.masked):
            if not negated(m.masked, x.start()):
                hits.append((x.start(), float(value)))
    for q in m.role("utilisation_percent"):
        hits.append((q.start, q.value / 100))
    for q in m.role("hours_per"):
        per = vocab()["period_hours"].get(q.extra, 24)
        share = q.value / per
        days = re.search(r"(\d)\s*days? (a|per|/) ?week", m.masked[q.end:q.end + 40])
        if days and q.extra in ("day", "weekday", "working day", "workday"):
            share *= int(days.group(1)) / 7
        hits.append((q.start, share))
    if not hits and m.pending == "utilisation":
        nums = [q for q in m.qty if not q.role and not q.negated]
        if nums:
            said = nums[-1].value
            hits.append((0, said / 100 if said > 1 else said))
    if not hits:
        return None
    value = max(hits)[1]
    if not 0 < value <= 1:
        m.problems.append("utilisation must be between 0% and 100%")
        return None
    return round(value, 4)


def _first_said(text: str, rules: str) -> Any:
    """The value of the first row of a vocabulary rule list whose pattern the text says, not negated."""
    for pattern, value in _rules(rules):
        x = pattern.search(text)
        if x and not negated(text, x.start()):
            return value
    return None


def read_qlora_base(m: Message) -> int | None:
    """Bits of QLoRA's frozen base ('qlora with an 8-bit base', '2-bit base')."""
    bits = _first_said(m.masked, "qlora_base_bits")
    return int(bits) if bits else None


def read_seq_len(m: Message) -> int | None:
    """The training sequence length: 'examples of 1k tokens', 'seq len 8192', '序列长度4096'."""
    for i in range(len(vocab()["seq_len_patterns"])):
        x = _re(f"seq_len_patterns.{i}").search(m.text)
        if x and not negated(m.text, x.start()):
            value = float(x.group("n").replace(",", "")) * (1000 if x.group("k") else 1)
            if 16 <= value <= 1_048_576:
                return round(value)
            m.problems.append(f"a training sequence of {value:,.0f} tokens is outside 16 to 1,048,576")
            return None
    return None


def read_kv_cache(m: Message) -> int | None:
    """Bits of the KV cache asked for ('fp8 kv cache', 'kv cache in 8-bit', 'q4 kv'), not negated."""
    bits = _first_said(m.text, "kv_cache_bits")
    return int(bits) if bits else None


def read_framework(m: Message) -> str | None:
    """The fine-tuning framework named ('with unsloth', 'torchtune with FSDP', '用LLaMA-Factory'), not negated."""
    return _first_said(m.masked, "frameworks")


def read_engine(m: Message) -> str | None:
    """The serving engine named ('with sglang', 'on llama.cpp', '用ollama'), not negated."""
    return _first_said(m.masked, "engines")


def read_region(m: Message) -> str | None:
    """Where the GPUs run: 'us', 'eu', 'china' or 'global', from countries, cities, clouds and ', US'."""
    hits: list[tuple[int, str]] = []
    t = m.masked
    for pattern, region in _rules("regions"):
        for x in pattern.finditer(t):
            outside = _re("region_outside_before").search(t[max(0, x.start() - 16):x.start()])
            if negated(t, x.start()) or outside:
                continue
            if region == "us" and re.fullmatch(r"in the us", x.group()) is None and x.group() == "us":
                continue
            hits.append((x.start(), region))
    for x in _re("region_outside").finditer(t):
        hits.append((x.start(), "global"))
    raw = m.raw
    if not raw.isupper():
        for x in _re("region_us_cased").finditer(raw):
            if not negated(raw.lower(), x.start()):
                hits.append((_map_position(raw, m.text, x.start()), "us"))
    for x in _re("region_us_clause_end").finditer(t):
        if not negated(t, x.start()):
            hits.append((x.start(), "us"))
    return max(hits)[1] if hits else None


def _map_position(raw: str, text: str, pos: int) -> int:
    """Roughly where a raw-text position falls in the cleaned text (for ordering only)."""
    return int(pos * len(text) / max(1, len(raw)))


def read_budget(m: Message) -> tuple[str, float] | None:
    """A budget in USD: ('budget_usd_per_month', 2000.0) for 'at most $2000 a month',
    ('budget_usd', 5000.0) for 'I can spend $5k'; yuan converted at the rules' rate."""
    money = [q for q in m.role("money") if not _re("money_hourly").match(m.masked[q.end:q.end + 16])]
    money = [q for q in money if not re.match(r"\s*(?:%|x\b)", m.masked[q.end:q.end + 4])]
    if not money:
        return None
    q = money[-1]
    clause = _clause(m.masked, q.start, q.end)
    after = m.masked[q.end:q.end + 30]
    before = m.masked[max(0, q.start - 40):q.start]
    once_before = re.search(r"\b(?:one-?off|one-?time|once|upfront|total)\b[^,.;]{0,24}$", before)
    monthly = bool(_re("money_monthly").search(clause)) and not _re("money_once").match(after) and not once_before
    yearly = bool(_re("money_yearly").search(clause))
    amount = q.value
    if q.extra == "EUR":
        m.notes.append(("note.euro_budget", {}))
        return None
    usd = amount * (rules().usd_per_cny if q.extra == "CNY" else 1.0)
    if yearly and not monthly:
        usd, monthly = usd / 12, True
    if usd <= 0:
        m.problems.append("a budget must be positive")
        return None
    said_once = re.search(r"\b(?:once|one-?off|one-?time|upfront|up front|in total|total|outright)\b", clause)
    if not monthly and not said_once and read_preference(m) != "buy" and not _trains(m):
        shown = f"¥{amount:,.0f}" if q.extra == "CNY" else f"${amount:,.0f}"
        m.notes.append(("note.budget_once", {"amount": shown}))  # ambiguous: say how it was taken
    return ("budget_usd_per_month" if monthly else "budget_usd", round(usd, 2))


def read_owned(m: Message) -> list[str] | None:
    """Hardware the user already has: 'I have two 3090s' -> ['2x rtx-3090'], '我有两张4090',
    'our 8x A100 box', a MacBook Pro M3 Max (Apple machines are owned unless being bought)."""
    owned = []
    for s, e, gpu_id, count in m.gpus:
        left, right = _clause_bounds(m.masked, s, e)
        clause = m.masked[left:right]
        prefix = m.masked[max(left, s - 80):s]
        near = m.masked[max(0, s - 24):s]
        has = (_re("owned").search(prefix) and not _re("owned_not").search(prefix)) or \
            re.match(r"\s*(?:\(\s*)?(?:owned|that (?:we|i) (?:own|have)|we own|i own)\b", m.masked[e:e + 20])
        mine = _re("owned_mine_near").search(near) or _re("owned_machine").search(clause)
        home = _re("owned_place").search(clause)
        buying = _re("owned_buying").search(prefix) and not re.search(r"\balready\b", prefix)
        mac = gpu_id.startswith("apple-") or "vendor=apple" in gpu_id  # nobody rents a Mac by the hour
        default = (gpu_id in vocab()["owned_by_default"] or mac) and not buying
        if ((has or mine or home) and not (buying and not has)) or default:
            owned.append(f"{count}x {gpu_id}")
    return owned or None


def read_exclude(m: Message) -> list[str] | None:
    """Cards ruled out: 'no AMD', 'not Huawei', '不要AMD' -> vendor ids; 'avoid the H20' -> a GPU id.
    'I don't have an H100' rules nothing out."""
    words = vocab()["vendor_words"]
    names = sorted(words, key=len, reverse=True)  # "consumer cards" before "cards"
    out: list[str] = []
    ruled_out_end = -1  # "no amd or huawei": a word joined to a ruled-out one is ruled out too
    for x in re.finditer(r"\b(?:" + "|".join(names) + r")\b", m.masked):
        joined = ruled_out_end >= 0 and re.fullmatch(r"\s*(?:,|/|or|and|nor|,\s*or)\s*",
                                                     m.masked[ruled_out_end:x.start()])
        ruled_out = negated(m.masked, x.start()) or bool(joined)
        if ruled_out:
            out.append(words[x.group()])
        ruled_out_end = x.end() if ruled_out else -1
    out += [gpu_id for s, _e, gpu_id, _n in m.gpus if negated(m.masked, s)
            and not _re("owned_not").search(m.masked[max(0, s - 40):s])]
    return sorted(set(out)) or None


def read_only(m: Message) -> list[str] | None:
    """Cards the user limits the choice to: 'on rtx 4090s only', 'only H100s', '只用4090'; and, in a
    message that names the model, the card the job is planned on ('fine-tune llama 8b on 4x h100',
    'H20部署Qwen3', 'how many H100s to serve 70B'), with its count when one is given ('4x h100-sxm')."""
    owned = {g for s, _e, g, _n in m.gpus if _re("owned").search(m.masked[max(0, s - 40):s])}
    out = []
    for s, e, gpu_id, count in m.gpus:
        if negated(m.masked, s) or gpu_id in owned:
            continue
        only = _re("only_before").search(m.masked[max(0, s - 24):s]) or _re("only_after").match(m.masked[e:e + 16])
        mine = gpu_id.startswith("apple-") or gpu_id in vocab()["owned_by_default"]  # a Mac named is owned
        if only or (_chosen(m, s, e) and not mine):
            out.append(f"{count}x {gpu_id}" if _counted(m.text[s:e]) else gpu_id)
    return sorted(set(out)) or None


def _chosen(m: Message, s: int, e: int) -> bool:
    """The one card of a message that names the model, said as the card the job runs on."""
    return bool(m.names and len(m.gpus) == 1 and (_re("chosen_before").search(m.masked[max(0, s - 24):s])
                                                  or _re("chosen_after").match(m.masked[e:e + 24])
                                                  or _re("chosen_count_question").search(m.masked)))


def _counted(span: str) -> bool:
    """Whether a card's span carries a count the user gave ('4x h100', '4张A800', 'A100 x 8')."""
    return bool(re.match(r"\s*\d", span) or re.search(r"[x×*]\s*\d+\s*$", span))


def read_has_host(m: Message) -> bool | None:
    """A computer for a card to go into: 'a GPU for my home PC', '装进我的电脑'."""
    named = bool(m.live("has_host"))
    card_only = bool(m.live("buy_card_only")) and not _re("host_needed").search(m.masked)
    return True if named or card_only else None


def read_preference(m: Message) -> str | None:
    """Rent or buy: 'i wanna buy not rent' -> buy; 'we'd rather rent, don't want to buy' -> rent;
    'rent or buy?' is a question (intent rent_buy), not a preference."""
    if _re("intents.rent_buy").search(m.masked):
        return None
    hits = [(x.start(), name) for name in ("buy", "rent") for x in m.live(f"preference.{name}")]
    if not hits:  # "no cloud", "don't want to rent": the other way
        hits = [(x.start(), other) for name, other in (("buy", "rent"), ("rent", "buy"))
                for x in _re(f"preference.{name}").finditer(m.masked) if negated(m.masked, x.start())]
    if not hits and m.pending == "preference":
        key = m.text.strip(" .!")
        return vocab()["choice_words"]["preference"].get(key)
    return max(hits)[1] if hits else None


def read_train_tokens(m: Message) -> float | None:
    """Training tokens per epoch: '500M training tokens', 'on 300M tokens', '2T tokens', or
    examples x tokens each ('50k examples of 1k tokens' -> 5e7, 20k preference pairs x 1.5k)."""
    direct = m.role("train_tokens")
    if direct:
        return float(direct[-1].value)
    if not _trains(m):
        return None
    counts = m.role("examples", "items")
    each = m.role("per_item_tokens")
    if counts and each:
        return float(counts[-1].value * each[-1].value)
    if counts and not m.role("output_tokens"):
        n = counts[-1].value
        m.notes.append(("note.example_tokens", {"n": f"{n:,.0f}", "each": f"{EXAMPLE_TOKENS:,}"}))
        return float(n * EXAMPLE_TOKENS)
    return None


def _trains(m: Message) -> bool:
    """Whether the message is about training (so counts are examples, not items of a batch job)."""
    words = bool(m.live("phase.train") or m.live("phase.pretrain") or m.role("examples"))
    return words and not (m.live("phase.batch") and not m.live("phase.train"))


def read_epochs(m: Message) -> float | None:
    """Passes over the data: '3 epochs', 'one epoch', '训练2轮'."""
    found = m.role("epochs")
    if not found:
        return None
    value = found[-1].value
    if not 0 < value <= 1000:
        m.problems.append("epochs must be between 0 and 1,000")
        return None
    return float(value)


def read_batch_items(m: Message) -> int | None:
    """Items of an offline job: '1 million documents', '10万条'; at the items question a bare number."""
    if _trains(m):
        return None
    found = m.role("items")
    if not found and m.phase == "batch":
        found = m.role("examples")
    if not found and m.pending == "batch_items":
        found = [q for q in m.qty if not q.role and not q.negated and q.value >= 1]
    if not found:
        return None
    value = found[-1].value
    if value < 1:
        m.problems.append("a batch job needs at least one item")
        return None
    return int(value)


def read_batch_input_tokens(m: Message) -> int | None:
    """Tokens read per item: '2k tokens each' (2,000), '2k-token documents'."""
    if _trains(m):
        return None
    found = m.role("per_item_tokens")
    if not found and m.phase == "batch":
        found = m.role("prompt_tokens") or m.role("context")  # "articles are ~2k tokens"
    return int(found[-1].value) if found and found[-1].value >= 1 else None


def read_batch_output_tokens(m: Message) -> int | None:
    """Tokens written per item: '200-token summaries', '~100 output tokens per document'."""
    if _trains(m) or m.phase in ("serve", "production", "train-and-serve"):
        return None
    found = m.role("output_tokens")
    if not found and m.live("output_short"):
        return SHORT_OUTPUT_TOKENS  # "outputs are short": a label or a few words
    if not found and m.live("output_same_length"):
        return read_batch_input_tokens(m)  # "outputs of similar length": as long as what is read
    return int(found[-1].value) if found and found[-1].value >= 1 else None


def read_prompt_tokens(m: Message) -> int | None:
    """Typical prompt length when serving: 'prompts around 4k tokens' (4,000)."""
    if m.phase == "batch" or _trains(m):
        return None
    found = m.role("prompt_tokens")
    return int(found[-1].value) if found and found[-1].value >= 1 else None


def read_deadline(m: Message) -> float | None:
    """Hours until an offline job must be done: 'within 2 days' (48), 'in 10 hours', 'by tomorrow'
    (24), 'by Friday' (72, an assumption the reply states)."""
    hits: list[tuple[int, float]] = []
    table = vocab()["duration_hours"]
    for q in m.role("deadline"):
        hits.append((q.start, q.value * table.get(q.extra, 1)))
    for pattern, hours in _rules("deadline_words"):
        for x in pattern.finditer(m.masked):
            if not negated(m.masked, x.start()):
                hits.append((x.start(), float(hours)))
    if hits:  # "by tomorrow morning, so ~12 hours": a bare duration after the deadline word says it exactly
        first = min(pos for pos, _h in hits)
        hits += [(q.start, q.value * table[q.extra]) for q in m.qty
                 if not q.role and q.extra in table and q.start > first and not q.negated
                 and _re("deadline_restated_before").search(m.masked[max(0, q.start - 16):q.start])
                 and not _re("deadline_restated_not").match(m.masked[q.end:q.end + 24])]
    now = _re("clock_now").search(m.masked)
    tomorrow = re.search(r"\btomorrow\b", m.masked)
    if now and tomorrow and not _re("weekday_today").search(m.masked):  # "by tomorrow 9am, its 6pm now"
        due_h, now_h = _clock(m.masked[tomorrow.end():tomorrow.end() + 20]), _clock(now.group(1) or now.group(2))
        if due_h is not None and now_h is not None:
            hits = [(pos, 24 + due_h - now_h if pos == tomorrow.start() or hours == 24 else hours)
                    for pos, hours in hits]
    today = _re("weekday_today").search(m.masked)
    if today:
        days = vocab()["zh_weekdays"].values()
        order = list(dict.fromkeys(days))  # monday ... sunday
        start = order.index(today.group(1))
        now_h = _clock(m.masked[today.end():today.end() + 20])
        due = {x.start(): ((order.index(x.group(1)) - start) % 7 or 7) * 24.0 + (
                   (_clock(m.masked[x.end():x.end() + 20]) or now_h) - now_h if now_h is not None else 0.0)
               for x in _re("weekday_due").finditer(m.masked)}
        hits = [(pos, due.get(pos, hours)) for pos, hours in hits]
    if not hits:
        return None
    value = max(hits)[1]
    if value <= 0:
        m.problems.append("a deadline must be in the future")
        return None
    return round(value, 4)


_PART_OF_DAY = {"morning": 9.0, "noon": 12.0, "midday": 12.0, "lunch": 12.0, "afternoon": 15.0, "eod": 17.0,
                "end of day": 17.0, "evening": 18.0, "night": 21.0, "midnight": 24.0}


def _clock(text: str) -> float | None:
    """The hour a few words name ('5pm', '17:30', 'morning', '下午 3 点', '早上'), as hours after midnight."""
    zh = re.match(r"\s*(上午|早上|中午|下午|晚上)?\s*(?:(\d{1,2})\s*点)?", text)
    if zh and (zh.group(1) or zh.group(2)):
        part = {"上午": 9, "早上": 9, "中午": 12, "下午": 15, "晚上": 20}.get(zh.group(1) or "")
        if zh.group(2):
            hour = int(zh.group(2))
            return float(hour + 12 if zh.group(1) in ("下午", "晚上") and hour < 12 else hour)
        return float(part) if part is not None else None
    x = re.match(r"\s*(?:at\s+|,\s*)?(\d{1,2})(?::(\d{2}))?\s*(am|pm)\b|\s*(?:at\s+)?(\d{1,2}):(\d{2})\b", text)
    if x and x.group(1):
        hour = int(x.group(1)) % 12 + (12 if x.group(3) == "pm" else 0)
        return hour + int(x.group(2) or 0) / 60
    if x:
        return int(x.group(4)) + int(x.group(5)) / 60 if int(x.group(4)) < 24 else None
    word = re.match(r"\s*(?:in the\s+|at\s+|by\s+)?(morning|noon|midday|lunch|afternoon|eod|end of day|evening|night|"
                    r"midnight)\b", text)
    return _PART_OF_DAY[word.group(1)] if word else None


def read_ttft(m: Message) -> float | None:
    """Target time to first token in ms: 'first token under 500 ms', 'under 2 seconds to first token'."""
    found = m.role("ttft_ms", "ttft_s")
    if not found:
        return None
    q = found[-1]
    value = q.value * (1000 if q.role == "ttft_s" else 1)
    if value <= 0:
        m.problems.append("a latency target must be positive")
        return None
    return float(value)


def read_min_tokens_per_s(m: Message) -> float | None:
    """Per-user decode speed target: 'at least 30 tokens/s per user', '50 ms per token' (20/s)."""
    found = m.role("tokens_per_s", "ms_per_token", "s_per_token")
    if not found:
        return None
    q = found[-1]
    if q.value <= 0:
        m.problems.append("a speed target must be positive")
        return None
    if q.role == "ms_per_token":
        return round(1000 / q.value, 4)
    if q.role == "s_per_token":
        return round(1 / q.value, 4)
    return float(q.value)


def read_gpus(m: Message, u: Understanding) -> None:
    """Cards named but not owned: two or more to compare ('compare L40S and A100'), or one to try
    ('and on two 4090s?')."""
    if u.updates.get("owned"):
        return
    found = [g for g in m.gpus if not negated(m.masked, g[0])]
    if not found:
        return
    if len(found) >= 2 and _re("compare").search(m.masked):
        u.compare_gpus = list(dict.fromkeys(g for _s, _e, g, _c in found))
        u.understood.append("compare " + " and ".join(u.compare_gpus))
        return
    s, e, gpu_id, count = found[-1]
    if not re.match(r"\d+\s*(?:x|\*)?\s+\S|.*\sx\s*\d+$", m.text[s:e]):
        u.compare_gpus = [gpu_id]  # 'why not an H100?': as many as it takes, not one
        u.understood.append(f"compare {gpu_id}")
        return
    u.whatif_gpus = (count, gpu_id)
    u.understood.append(f"{count} x {gpu_id}")


# ---------------------------------------------------------------- intents


def read_intents(m: Message) -> set[str]:
    """What the message asks beside slot values: reset, help, greet, thanks, not sure, math,
    rent or buy, injection."""
    found = set()
    for name in ("reset", "help", "greet", "thanks", "not_sure", "math", "rent_buy", "injection"):
        if _re(f"intents.{name}").search(m.text):
            found.add(name)
    if "reset" in found and re.search(r"\bfrom scratch\b", m.text) and not re.search(
            r"\b(start (over|again)|reset|new (conversation|chat|session))\b", m.text):
        found.discard("reset")
    return found


def read_topic(m: Message) -> str | None:
    """The glossary topic of a concept question ('what is a KV cache?', 'explain int8',
    '什么是KV缓存'), or None when the message is no such question."""
    finder = getattr(knowledge, "find_topic", None)
    if finder is None:
        return None
    asks = any(re.search(p, m.text) for p in vocab()["explain_patterns"]) \
        or _re("explain_bare").search(m.text)
    if not (asks or _re("best_gpu").search(m.text) or re.search(r"\b(best|which|what)\b", m.text)):
        return None
    try:
        if _re("compare_concepts").search(m.text):
            both = knowledge.find_topics(m.raw)
            if len(both) >= 2:
                return "+".join(both[:3])  # "lora vs qlora?": both entries, side by side
        return finder(m.raw)
    except Exception:  # noqa: BLE001 - a glossary that cannot be read answers no concept question
        return None


def read_choice(m: Message) -> int | None:
    """A choice number typed at a question ('2', 'option 2'): 1-based, for the engine to map."""
    if not m.pending or m.pending in CHOICE_SLOTS_WITH_NUMBERS:
        return None
    x = _re("choice").match(m.text)
    if not x:
        return None
    n = int(x.group(1))
    count = _choice_count(m.pending)
    if 1 <= n <= count or m.pending not in ("model", "utilisation", "batch_items"):
        return n if n >= 1 else None
    return None


def _choice_count(slot: str) -> int:
    """How many quick replies the question for a slot offers (the catalog's, else 9)."""
    try:
        from assistant.catalog import text

        return len(text("en", f"slot.{slot}.choices"))
    except Exception:  # noqa: BLE001 - no catalog entry: the fallback count
        return 9


def _pending_value(m: Message, u: Understanding) -> None:
    """A bare answer to the question just asked: a quick reply's words ('both', 'cheapest'), a bare
    size at the model question ('70' -> 70B), a bare number at the items question, or a name the
    catalog does not know."""
    pending = m.pending
    if not pending or pending in u.updates or u.choice is not None or "not_sure" in u.intents:
        return
    key = m.text.strip(" .!?")
    table = vocab()["choice_words"].get(pending, {})
    if key in table:
        u.updates[pending] = table[key]
        return
    if pending == "model":
        bare = re.fullmatch(r"(?:about |around |~)?(\d+(?:\.\d+)?)", key)
        if bare and float(bare.group(1)) > 0:
            spec = f"{float(bare.group(1)):g}B"
            try:
                check_size(float(bare.group(1)), float(bare.group(1)))
                u.updates["model"] = spec
            except BadValue as e:
                u.problems.append(str(e))
            return
        looks_like_a_name = re.search(r"[\d\-/]", key) or re.search(r"[A-Z]", m.raw)
        if not u.updates and not u.unknown_model and re.search(r"[a-z]", key) and len(key.split()) <= 4 \
                and not u.intents and not u.topic and looks_like_a_name and key not in _family_words():
            u.unknown_model = m.raw.strip()


def read_scale(m: Message) -> dict[str, float]:
    """Changes relative to what was said: 'double the users' (users x 2), 'half the context'."""
    found: dict[str, float] = {}
    for pattern, (slot, factor) in _rules("relative"):
        hit = pattern.search(m.masked)
        if hit and not negated(m.masked, hit.start()):
            found.setdefault(slot, float(factor))
    return found


# ---------------------------------------------------------------- entry point

READERS = (
    ("phase", read_phase),
    ("model", read_model),
    ("method", read_method),
    ("objective", read_objective),
    ("framework", read_framework),
    ("engine", read_engine),
    ("precision", read_precision),
    ("kv_cache", read_kv_cache),
    ("users", read_users),
    ("context", read_context),
    ("utilisation", read_utilisation),
    ("region", read_region),
    ("budget", read_budget),
    ("owned", read_owned),
    ("exclude", read_exclude),
    ("only", read_only),
    ("has_host", read_has_host),
    ("preference", read_preference),
    ("train_tokens", read_train_tokens),
    ("epochs", read_epochs),
    ("seq_len", read_seq_len),
    ("qlora_base", read_qlora_base),
    ("batch_items", read_batch_items),
    ("batch_input_tokens", read_batch_input_tokens),
    ("batch_output_tokens", read_batch_output_tokens),
    ("deadline_hours", read_deadline),
    ("ttft_ms", read_ttft),
    ("prompt_tokens", read_prompt_tokens),
    ("min_tokens_per_s", read_min_tokens_per_s),
)


def _note(slot: str, value: Any) -> str:
    """A short English note on one understood value."""
    if slot == "model":
        return f"model {value}"
    if slot == "framework":
        return f"with {value}"
    if slot == "kv_cache":
        return f"{value}-bit KV cache"
    if slot == "seq_len":
        return f"sequences of {value:,} tokens"
    if slot == "qlora_base":
        return f"a {value}-bit QLoRA base"
    if slot == "users":
        return f"{value} concurrent user{'s' if value != 1 else ''}"
    if slot == "utilisation":
        return f"{value:.0%} utilisation"
    if slot == "context":
        return f"{value:,}-token context"
    if slot.startswith("budget"):
        return f"a budget of ${value:,.0f}{' a month' if slot.endswith('month') else ''}"
    if slot == "precision":
        try:
            return f"{find_precision(value).name} weights"
        except Exception:  # noqa: BLE001 - an unknown precision is echoed as given
            return str(value)
    return f"{slot.replace('_', ' ')}: {value}"


def understand(raw: str, pending: str | None = None) -> Understanding:  # noqa: C901 - the readers in order, one guard each
    """Read one message; `pending` is the slot of the question just asked (or None)."""
    raw = raw or ""
    u = Understanding()
    cut = readable(raw)
    u.lang = language(cut)
    if not cut.strip():
        u.intents.add("empty")
        return u
    if len(cut) < len(raw):
        u.intents.add("truncated")
    m = _prepare(cut, pending)
    u.intents |= read_intents(m)
    if "reset" in u.intents:
        u.intents &= {"reset", "truncated", "injection"}
        return u
    if "help" in u.intents:
        return u
    u.choice = read_choice(m)
    if u.choice is not None:
        return u
    for slot, reader in READERS:
        value = reader(m)
        if slot == "phase":
            m.phase = value if isinstance(value, str) else None
        if value is None:
            continue
        if slot == "owned" or not isinstance(value, tuple):
            u.updates[slot] = value
        else:
            u.updates[value[0]] = value[1]
    if m.unknown:
        u.unknown_model = m.unknown[0]
        if m.unknown[1] and "model" not in u.updates and not any("parameters" in p for p in m.problems):
            u.updates["model"] = m.unknown[1]
    u.problems += m.problems
    u.notes += m.notes
    read_gpus(m, u)
    cny = [q for q in m.role("money") if q.extra == "CNY"]
    china_cards = {g.id for g in gpus() if g.china_specific}  # H20, A800, H800, L20, Ascend: sold for China
    if "region" not in u.updates and (cny or any(g in china_cards for _s, _e, g, _c in m.gpus)):
        u.region_hint = "china"
    u.scale = {slot: f for slot, f in read_scale(m).items() if slot not in u.updates}
    _pending_value(m, u)
    topic = read_topic(m)
    if topic == "best-gpu" or (topic is None and _re("best_gpu").search(m.text)):
        if not _sizing(u):
            u.intents.add("best_gpu")
            u.updates, u.problems, u.compare_gpus, u.whatif_gpus = {}, [], [], None
    elif topic:
        own = {slot for t in topic.split("+") for slot in vocab()["topic_slots"].get(t, [])}
        rest = {k for k in u.updates if k not in own}
        asked = any(re.search(p, m.text) for p in vocab()["explain_patterns"]) or (
            not u.updates and _re("explain_bare").search(m.text))
        if asked and not rest and not u.compare_gpus and not u.whatif_gpus:
            u.topic = topic
            u.intents.add("explain")
            u.intents -= {"math"}
            u.updates, u.problems, u.unknown_model = {}, [], None
        elif asked and rest:
            u.aside = topic  # "what's the diff between prefill and decode? ... serve mistral small": both
            u.intents -= {"math"}
    u.understood += [_note(k, v) for k, v in u.updates.items()]
    return u


def _sizing(u: Understanding) -> bool:
    """Whether a message gives anything to size (then 'which GPU is best for it' is answered)."""
    return bool(set(u.updates) - {"region", "preference"}) or bool(u.unknown_model)
