"""'8bit vs 4bit quant?', '8bit和4bit差多少', 'q8 or q4 for this?': two weight widths compared for the plan on
screen (intent precision_compare, the widths in u.ask["widths"], a format named exactly in u.ask["named"]). Read
when the message names at least two different widths and a comparison cue, and asks nothing else to size. Two
formats of one width ('awq vs gptq') stay the format question (reading.asks); the words are
words/precision_compare.yaml's, the reply assistant/precisions.py's."""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.format_pair import quality_said, read_format_pair
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab, word_pattern

# Slots the widths' own words fill ('8-bit' -> precision, '4位' -> a count, 'int4对比' -> 4 pairs and DPO): dropped.
OWN_SLOTS = {"precision", "kv_cache", "qlora_base", "users", "phase", "objective", "train_tokens", "train_examples"}
# Intents the comparison replaces (the concept of quantization, the format question, a what-if to one width).
REPLACED = {"concept", "explain", "whatif", "formats", "math", "why"}
# What a width's match may be besides a bare width: a catalog precision id, kept as the file asked about.
EXACT = {"fp8", "int8", "q8_0", "q6_k", "q5_k_m", "int4", "q4_k_m", "q4_0", "awq", "nf4", "mxfp4", "nvfp4", "bf16",
         "fp16", "f16", "q3_k_m"}


# Slots a weighed comparison may carry besides the widths ('fp8 vs int4 for serving a 70b model, which is better'):
# the model whose memory each width is given for, the job and engine it is for ('if im serving w/ vllm'), and a
# purchase still ahead ('asking before we buy anything': a reason to ask, no preference to buy).
WEIGHED_SLOTS = {"model", "phase", "engine", "engine_app", "preference", "only"}


def weighs(text: str, typed: str) -> bool:
    """Whether the two widths are weighed against each other (which loses more, when to pick, 选哪个)."""
    return bool(word_pattern("precision_verdict.en").search(text) or word_pattern("precision_verdict.zh").search(typed)
                or dims_asked(text, typed))


def dims_asked(text: str, typed: str) -> bool:
    """'quality and speed wise', '速度和质量上': the formats weighed on the dimensions named (words/concept.yaml)."""
    return bool(word_pattern("format_dims.en").search(text) or word_pattern("format_dims.zh").search(typed))


@cache
def _rows() -> list[tuple[re.Pattern[str], int]]:
    return [(re.compile(row[0]), int(row[1])) for row in vocab()["precision_compare"]["widths"]]


def widths_named(typed: str) -> list[tuple[int, str | None]]:
    """(bits, exact format or None) of each width named, in the order said, one per width."""
    found: list[tuple[int, int, str | None]] = []
    for pattern, bits in _rows():
        for hit in pattern.finditer(typed):
            word = re.sub(r"[\s-]", "", hit.group())
            found.append((hit.start(), int(bits), word if word in EXACT else None))
    out: dict[int, str | None] = {}
    for _start, bits, exact in sorted(found):
        out.setdefault(bits, exact)
    return list(out.items())


def quality_asked(m: Message, typed: str) -> bool:
    """'does int4 awq hurt quality vs fp8', 'FP8和INT4哪个精度损失大': the formats weighed on quality."""
    return bool(word_pattern("quality.en").search(m.masked) or word_pattern("quality.zh").search(typed))


def cue_concept() -> dict[str, str]:
    return dict(vocab()["precision_compare"]["concept"])


def read_precision_compare(m: Message, u: Understanding) -> None:
    if u.intents & {"reset", "help", "empty"} or u.choice is not None or u.compare_gpus or u.whatif_gpus:
        return
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    widths = widths_named(typed)
    if read_format_pair(m, u, widths):
        return  # 'is AWQ or GPTQ better quality for a 70b?': two formats of one width weighed (reading/format_pair.py)
    if len(widths) < 2 or ("formats" in u.intents and len(u.ask.get("formats") or []) > len(widths)
                           and not dims_asked(m.text, typed)):  # 'fp8 vs int4 (awq/gptq), quality and speed': weighed
        return  # 'AWQ、GPTQ、GGUF、FP8啥区别': formats of one width among them, the format question's (reading.asks)
    cue = vocab()["precision_compare"]["cue"]
    # 'which one loses more', '选哪个'; 'does int4 hurt quality vs fp8 for a 70b': quality weighed for a model named,
    # not the plan on screen ('will eval scores differ between fp8 and bf16?' stays the plan's quality question)
    weighed = weighs(m.text, typed) or bool(quality_said(m, typed) and u.updates.get("model"))
    if not (re.search(cue["en"], m.text) or re.search(cue["zh"], typed) or weighed):
        return
    named_model = next((model_id for start, _e, model_id in m.names if not negated(m.text, start)), None)
    asks_memory = bool(word_pattern("memory_question").search(m.text) or word_pattern("memory_question").search(typed))
    rest = set(u.updates) - OWN_SLOTS - ({"model"} if named_model and asks_memory else set()) \
        - (WEIGHED_SLOTS if weighed else set())
    counts = {int(b) for b, _f in widths}
    counts.add(sum(counts))  # '8位和4位': the widths' own words, listed like people, summed (reading.listed_people)
    if rest or (u.updates.get("users") and u.updates["users"] not in counts):
        return
    u.intents = (u.intents - REPLACED) | {"precision_compare"}
    u.topic, u.aside = None, None
    u.ask = {**u.ask, "widths": [b for b, _f in widths], "named": [f for _b, f in widths]}
    if quality_asked(m, typed):
        from gpu_advisor.assistant.reading.asks import formats_named

        # 'fp8 vs int4 awq for quality?': with no plan, each format's quality is the answer
        u.ask["quality"] = [f for f in formats_named(m) if f not in ("gguf", "exl2", "mlx", "bnb")][:2]
    if re.search(cue_concept()["en"], m.text) or re.search(cue_concept()["zh"], typed):
        u.ask["explain"] = True  # 'FP8和INT4有啥区别': each width explained before its figures
    if weighed:
        u.intents -= {"quality"}  # 'FP8和INT4哪个精度损失更大': the weighed comparison answers the quality half too
        u.ask["verdict"] = True  # with no plan: gaps, memory, speed and a verdict (assistant/precision_verdict.py)
    if not named_model and (asks_memory or u.ask.get("quality") or weighed):
        from gpu_advisor.assistant.reading.model import read_model

        named_model = read_model(m) or None  # 'for a 70B, how much memory each': the bare size sized as its own model
    if named_model:  # 'int4 awq vs fp8 for deepseek r1 distill llama 70b, how much memory each?': with no plan, each
        u.ask["model"] = named_model  # width's memory for that model (assistant/precisions.py)
    u.updates, u.scale, u.notes, u.problems = {}, {}, [], []
