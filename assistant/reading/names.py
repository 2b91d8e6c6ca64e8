"""Names from the catalogs: models, cards and Macs, and model names the catalog does not hold."""

from __future__ import annotations

import difflib
import re
from functools import cache, lru_cache

from gpu_advisor.assistant.reading.cards import card_span, server_memory, server_span
from gpu_advisor.assistant.reading.mac_said import macs_as_said, macs_named
from gpu_advisor.assistant.reading.restated_cards import merge_restated
from gpu_advisor.assistant.reading.text import MASK, MAX_NAMES, vocab, word_pattern
from gpu_advisor.knowledge import find_model, gpus, models
from gpu_advisor.knowledge.pattern_cache import compiled
from gpu_advisor.knowledge.resolve import normalise


@cache
def model_index() -> dict[str, str]:
    """Normalised name -> model id; knowledge's shared index when it has one."""
    from gpu_advisor.knowledge import resolve

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
    from gpu_advisor.assistant.reading.unsized import sized_index  # cards sized from their figures on record

    return {**sized_index(), **index}


@cache
def _server_index() -> dict[str, tuple[str, int]]:
    """Normalised server model name ('atlas 800i a2', 'dgx h100') -> (GPU id, GPUs it holds)."""
    return {normalise(name): (g.id, per) for g in gpus() for name, per in g.server_models.items()}


@cache
def family_words() -> frozenset[str]:
    """Family words of catalog models ('llama', 'qwen', 'gemma', ...) as they are typed."""
    from gpu_advisor.knowledge import resolve

    words = {m.family for m in models()} | {"mixtral", "meta-llama"}
    for extra in getattr(resolve, "FAMILY_WORDS", {}).values():
        words |= {w for w in extra if re.fullmatch(r"[a-z][a-z\-]*", w)}
    return frozenset(words - {"generic"})


_TOKEN = re.compile(r"[a-z0-9][a-z0-9.\-_/]*")


_LETTER = re.compile(r"[a-z]")
_RANGE = re.compile(r"\d+\s*[-~]\s*\d+")  # two numbers joined as a range


def name_tokens(text: str) -> list[tuple[int, int, str]]:
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
    tokens = name_tokens(text)[:MAX_NAME_WORDS]
    for n in range(max_n, 0, -1):
        for i in range(len(tokens) - n + 1):
            span = tokens[i:i + n]
            yield span[0][0], span[-1][1], " ".join(t[2] for t in span)


@cache
def stop_words() -> frozenset[str]:
    """Words that are never part of a model name."""
    return frozenset(vocab()["name_stopwords"])


@cache
def _keys_by_digits() -> dict[str, list[str]]:
    """Catalog name keys grouped by their digits: typos are looked for among names with the same
    numbers only ("lama 3 70b" among the *370* names), which keeps fuzzy matching fast and sane."""
    groups: dict[str, list[str]] = {}
    for key in model_index():
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


def same_shape(gram: str) -> str | None:
    """The catalog model a variant's name is built on ('qwen2.5-math 7b' -> qwen2.5-7b), when the variant has no
    entry of its own; said back by `variant_notes`."""
    stripped = word_pattern("same_shape_variant").sub(" ", gram)
    return model_index().get(normalise(stripped)) if stripped != gram else None


def find_models(text: str) -> list[tuple[int, int, str]]:
    """Catalog models named in the text: (start, end, id), longest names first, no overlaps."""
    index = model_index()
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
            model_id = None if fuzzy else index.get(key) or (_resolve_token(gram) if " " not in gram else None) \
                or same_shape(gram)
            words = gram.split()
            if fuzzy and 6 <= len(key) <= 40 and len(words) <= 3 and re.search(r"\d", words[-1]) \
                    and re.match(r"[a-z]", words[0]) and words[0] not in stop_words():
                same_digits = _keys_by_digits().get(re.sub(r"\D", "", key), [])
                close = difflib.get_close_matches(key, same_digits, n=1, cutoff=0.88)
                if close and re.fullmatch(r"\d+(?:\.\d+)?", words[-1]) and close[0].startswith(key):
                    close = []  # "llama 3" is a version with no size, not "llama 3b"
                model_id = index[close[0]] if close else None
            if model_id and "-distill-" not in model_id and word_pattern("model_variant_after").match(text[end:end + 24]):
                continue  # "deepseek r1 distill" with no size: one of its distills, not the model itself
                # ("deepseek r1 32b 蒸馏版" names the distill by its size: the word after it only repeats that)
            if model_id:
                found.append((start, end, model_id))
                taken[start:end] = b"\x01" * (end - start)
    return sorted(found)


@cache
def _instance_pattern() -> re.Pattern[str]:
    """Cloud instance families by the words people type for them (knowledge/data/clouds.yaml), with a size
    suffix ('p5.48xlarge', 'a3-highgpu-8g') or none; separators typed as space, '_' or '-'."""
    from gpu_advisor.knowledge.clouds import instance_families

    words = sorted(instance_families(), key=len, reverse=True)
    alternation = "|".join(r"[\s_-]*".join(re.escape(part) for part in re.split(r"[\s_-]+", w)) for w in words)
    return compiled(rf"(?<![\w.-])({alternation})(?:\.\d*x?large|-\d+g)?(?![\w-])")


def _joined(words: str) -> str:
    """An instance name with its separators dropped ('nd_h100-v5' -> 'ndh100v5')."""
    return re.sub(r"[\s_-]+", "", words)


def _instances(text: str, taken: bytearray, notes: list[tuple[str, dict[str, str]]]) -> list[tuple[int, int, str, int]]:
    """Cloud instances named ('p5 vs p4d?', 'ND H100 v5', 'a2-ultragpu'): the card each carries, and a note
    that says which card that is."""
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.knowledge.clouds import instance_families

    families = {_joined(alias): family for alias, (_cloud, family) in instance_families().items()}
    found, said = [], []
    for x in _instance_pattern().finditer(text):
        family = families[_joined(x.group(1))]
        found.append((x.start(), x.end(), family.gpu, 1))
        taken[x.start():x.end()] = b"\x01" * (x.end() - x.start())
        said.append(f"{family.name} = {family.gpus} × {find_gpu(family.gpu).name}")
        if len(found) >= MAX_NAMES:
            break
    if said:
        notes.append(("note.instances", {"instances": "; ".join(dict.fromkeys(said))}))
    return found


_JOINED_COUNT = re.compile(r"(?<![\w.])(\d{1,3})[x×*](?=\d{3,4}\b|(?:rtx|gtx|[ahlbv])\s?\d{2,4}\b)", re.I)


def find_gpus(text: str, notes: list[tuple[str, dict[str, str]]] | None = None,
              counted: set[int] | None = None, per_server: dict[int, int] | None = None) -> list[tuple[int, int, str, int]]:
    """GPUs named in the text with a count when one precedes or follows them ("two 4090s",
    "8x H100", "A100 x 8"): (start, end, id, count); the span covers the count. A count of servers
    ('2 H100 servers') counts the cards in them, and a card named with its memory ('4090 48g') is that
    card (reading.cards); what was assumed goes to `notes`, and the starts of the spans that carry a count
    the user gave ('4x h100', not '4090d') to `counted`."""
    index = _gpu_index()
    notes = [] if notes is None else notes
    counted = set() if counted is None else counted
    per_server = {} if per_server is None else per_server
    servers = _server_index()
    found: list[tuple[int, int, str, int]] = []
    # "2x3090", "8xA100": the count's x joined to the name is read as "2*3090" (same length, same spans)
    text = _JOINED_COUNT.sub(lambda x: x.group(1) + "*", text)  # the x kept as "*": a count of cards, never machines
    taken = bytearray(len(text) + 16)
    found += _instances(text, taken, notes)
    for start, end, gram in _ngrams(text, 4):
        if any(taken[start:end]) or MASK in text[start:end] or (" " in gram and not _LETTER.search(gram)):
            continue
        key = normalise(gram)
        server = servers.get(key) or (servers.get(key[:-1]) if key.endswith("s") else None)
        gpu_id = server[0] if server else index.get(key) or (index.get(key[:-1]) if key.endswith("s") else None)
        if not gpu_id or (key.isdigit() and (len(key) < 4 or _RANGE.fullmatch(gram))):
            continue  # '40-60 at once', '50-80 users': a range of numbers, never the 4060 or the 5080
        if " " in gram and gram.split()[-1].isdigit() and word_pattern("memory_unit_after").match(text[end:end + 8]):
            continue  # 'a 40 gb a100': 'a 40' is an article and a memory, not the A40
        if " " in gram and gram.split()[-1].isdigit() and word_pattern("length_unit_after").match(text[end:end + 12]):
            continue  # 'plus a 2000 token prompt': an article and a length, not the RTX A2000
        digit = next((i for i in range(start, end) if text[i].isdigit()), None)
        if digit and word_pattern("money_before").search(text[:digit]):
            continue  # 'on a $800 budget', 'with a $100': an article and an amount of money, not the A800 or the A100
        if server:  # a server by its model name: its cards, so many in each (of the memory said: 'the 40gb version')
            s0, e0, gpu_id, count, has_count = server_span(text, start, end, gpu_id, server[1], per_server)
            gpu_id, e0 = server_memory(text, end, e0, gpu_id)
        else:
            s0, e0, gpu_id, count, has_count = card_span(text, start, end, gpu_id, index, notes, per_server)
        found.append((s0, e0, gpu_id, count))
        if has_count:
            counted.add(s0)
        taken[s0:e0] = b"\x01" * (e0 - s0)
        if len(found) >= MAX_NAMES:
            break
    found = macs_named(text, found, MAX_NAMES)  # 'macbook air m3 16gb', 'a 16gb m2': the chip table's configuration
    found = macs_as_said(text, found, counted)  # 'a 64gb m3 max', 'm3 max with 64 gigs': that Mac
    for x in word_pattern("described_gpu").finditer(text):  # "a card with 96 GB and 1.8 TB/s": sized by its numbers
        if any(taken[x.start():x.end()]) or len(found) >= MAX_NAMES:
            continue
        spec = f"custom:memory={x['memory']}GB,bandwidth={x['bandwidth']}{x['unit'].upper()}B/s"
        found.append((x.start(), x.end(), spec, int(x["count"] or 1)))
        if x["count"]:
            counted.add(x.start())
    return merge_restated(text, found, per_server, counted)  # '4台Atlas 800T A2（每台8张910B）': the servers' cards, once


@cache
def _engine_names() -> list[tuple[re.Pattern[str], str]]:
    """One pattern per name of a serving engine in knowledge/data/engines.yaml (id, name, aliases),
    longest first; Latin names inside Chinese text have no word boundary, so the edges are "no letter
    or digit next to it"."""
    from gpu_advisor.knowledge import engines

    names = {(name.lower(), e.id) for e in engines() for name in (e.id, e.name.split(" (")[0], *e.aliases)}
    rows = sorted(names, key=lambda row: -len(row[0]))
    return [(compiled(r"(?<![a-z0-9])" + re.escape(name).replace(r"\ ", r"[\s\-]?") + r"(?![a-z0-9])"), engine_id)
            for name, engine_id in rows]


def find_engines(text: str) -> list[tuple[int, int, str]]:
    """Serving engines named in the text ('vllm', 'TensorRT-LLM', 'ollama' (llama.cpp underneath)):
    (start, end, engine id), in the order written, each span read once."""
    taken = bytearray(len(text) + 1)
    found: list[tuple[int, int, str]] = []
    for pattern, engine_id in _engine_names():
        for x in pattern.finditer(text):
            if any(taken[x.start():x.end()]):
                continue
            taken[x.start():x.end()] = b"\x01" * (x.end() - x.start())
            found.append((x.start(), x.end(), engine_id))
    return sorted(found)
