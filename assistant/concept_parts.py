"""A message that asks a concept beside another question of its own, with no plan yet: "why is decode slower than
prefill on H100? and TP vs PP diff", "llama 3 8b vs qwen3 8b which cheaper? and what is kv cache?", "什么是KV缓存？
另外，什么是张量并行？". Read whole, one part won and the other was dropped (or a concept that was not asked came in
with the one that was). The message is cut at the compound joiners (words/compound.yaml: 'and', 'also', a question
mark, '；', '另外', '还有', '顺便问下', ...); a piece that is no question of its own ('in simple terms', a bare name
'lora' before 'and qlora?') goes with the piece before it (the first with the one after it), and so does a piece
that names the concept of the piece before ('what is prefill' 'and decode?'). The cut is kept when at least two
pieces are left, each a concept asked (a glossary topic), two models, cards or weight formats weighed, a job sized
(a model and what is done with it) or a model's figure asked (its KV cache), and at least one is a concept; each
piece is then answered as its own turn, in the order asked (assistant/parts.py). Concepts asked one after another
that the whole message already reads as one pair ('what is kv cache and what is prefill?') are left to that pair,
unless one is asked of a card ('on H100'), whose figures only that part's reply gives (assistant/concept_example.py)."""

from __future__ import annotations

import re
import unicodedata
from itertools import pairwise
from typing import Any

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.reading.message import Understanding
from gpu_advisor.assistant.reading.text import vocab

# The most pieces one message is cut into here; more is a list, read whole.
MAX_PIECES = 4
# The kinds of question a piece may be.
CONCEPT, COMPARE, SIZING, FIGURE = "concept", "compare", "sizing", "figure"
# Questions of a model's figure a piece may ask on its own ('how big is the kv cache for llama 70b at 32k?'); asked
# beside the concept of the same name ('what is a kv cache? also how big is it for llama 8b') it is one question.
FIGURES = frozenset({"kv_cache"})
# What the whole message may ask of the job it names: the concepts in it are weighed for that job ('Qwen3-8B用全参微调
# 还是LoRA，序列长度4k，显存差多少？', 'TP or PP for 70B across 2 nodes?'), one question.
OF_THE_JOB = frozenset({"method_compare", "parallelism"})
# Questions whose own answer explains the concept beside its figures (the MoE against the dense model with both
# counts and why, assistant/moe_dense.py and moe_pair.py; a MoE's memory asked beside models, reading/moe.py; the
# cards for each format with int4's quality hit, count_each_format): read whole, the concept part of it.
EXPLAINED_WHOLE = ("moe_dense", "moe_pair", "moe", "count_each_format")


def _cut(text: str) -> list[tuple[str, str]]:
    """(joiner before, piece) for each piece of the message; the first joiner is ''. A question mark that joined
    two pieces stays with the piece it ended."""
    words = vocab()["compound"]["joiner"]
    typed = unicodedata.normalize("NFKC", text).strip()
    cut = re.split(f"((?:{words['en']})|(?:{words['zh']}))", typed, flags=re.I)
    out: list[tuple[str, str]] = []
    for i in range(0, len(cut), 2):
        piece, before = (cut[i] or "").strip(), cut[i - 1] if i else ""
        after = cut[i + 1] if i + 1 < len(cut) else ""
        if piece and re.search(r"[?？]", after):
            piece += "?" if "?" in after else "？"
        if piece.strip(" ,，;；"):
            out.append((before, piece))
    return out


def kind(u: Understanding) -> str | None:
    """What a piece read alone asks: a concept, a weighing of models or cards, a job to size; None for nothing of its
    own."""
    if u.topic and u.intents & {"explain", "concept"}:
        return CONCEPT
    if len(u.ask.get("models") or []) >= 2 or len(u.compare_gpus) >= 2 or len(u.ask.get("formats") or []) >= 2 \
            or "precision_compare" in u.intents:
        return COMPARE
    if u.updates.get("model") and u.updates.get("phase"):
        return SIZING
    if u.intents & FIGURES and (u.ask.get("model") or u.updates.get("model")):
        return FIGURE
    return None


def _topics(u: Understanding) -> set[str]:
    return set((u.topic or "").split("+")) - {""}


def concepts_named(kept: list[tuple[tuple[str, str], Understanding]]) -> set[str]:
    return set().union(*(_topics(u) for _p, u in kept if kind(u) == CONCEPT))


def _open(piece: str) -> bool:
    """'difference between lora' ends before its 'and': the next piece is the other half."""
    return bool(re.search(vocab()["compound"]["between"]["en"], piece.lower())) and not piece.endswith("?")


def _joined(a: tuple[str, str], b: tuple[str, str]) -> tuple[str, str]:
    return a[0], f"{a[1]}{b[0] or ' '}{b[1]}"


def _figure_after(kept: list[tuple[tuple[str, str], Understanding]], concepts: set[str]) -> bool:
    """'whats the kv cache exactly and how big does it get for llama 3 70b … with 32 users?': a job piece after the
    concept that, read with it, asks that concept's figure ('it' is the KV cache): one question."""
    for i, ((_b, piece), u) in enumerate(kept):
        if kind(u) != CONCEPT:
            continue
        for (_b2, later), v in kept[i + 1:]:
            if kind(v) in (SIZING, FIGURE) and concepts & understand(f"{piece} {later}", None).intents:
                return True
    return False


def _how_much(piece: str) -> bool:
    words = vocab()["compound"]["how_much"]
    return bool(re.search(f"(?:{words['en']})|(?:{words['zh']})", piece.lower()))


def _job_figure(kept: list[tuple[tuple[str, str], Understanding]]) -> bool:
    """'llama 3.2 3b 全参微调，显存要多少？', 'fp8 vs int4 for a 70B model: what's the difference, and how much vram
    each?': a concept word after a job or a weighing that, read with it, asks no concept and no figure of that concept
    (the job's memory, not what memory is): one question. 'serve llama 3 8b to 50 users, and what is kv cache?' read
    together asks the KV cache's figure: two."""
    for ((_b, job), u), ((_b2, piece), v) in pairwise(kept):
        if kind(u) in (SIZING, COMPARE) and kind(v) == CONCEPT:
            if not _how_much(piece):
                continue  # 'what is expert parallelism?': the concept itself asked
            both = understand(f"{job} {piece}", None)
            own = {t.replace("-", "_") for t in _topics(v)}
            if not both.topic and not both.aside and not own & both.intents:
                return True
    return False


def split(state: Any) -> list[str] | None:
    """The pieces of a first message that asks a concept and another question of its own, else None."""
    from gpu_advisor.assistant.parts import _text

    if state.get("pending") or state.get("results"):
        return None  # an answer to the question asked, or a follow-up of a plan (assistant/parts.py): read whole
    text = _text(state)
    cut = _cut(text)
    if not 2 <= len(cut) <= MAX_PIECES * 2:
        return None
    kept: list[tuple[tuple[str, str], Understanding]] = []
    for piece in cut:
        u = understand(piece[1], None)
        if kept and (kind(u) is None or _topics(u) & _topics(kept[-1][1]) or kind(kept[-1][1]) is None
                     or _open(kept[-1][0][1])):
            piece = _joined(kept[-1][0], piece)  # no question of its own, or the same concept: one piece
            kept[-1] = (piece, understand(piece[1], None))
            continue
        kept.append((piece, u))
    kinds = [kind(u) for _piece, u in kept]
    if not 2 <= len(kept) <= MAX_PIECES or None in kinds or CONCEPT not in kinds:
        return None
    concepts = {t.replace("-", "_") for _p, u in kept if kind(u) == CONCEPT for t in _topics(u)}
    if any(concepts & u.intents for _p, u in kept if kind(u) != CONCEPT) or _figure_after(kept, concepts) \
            or _job_figure(kept):
        return None  # 'what is a kv cache? and how big is it for llama 8b at 32k': the concept's figure, read whole
    whole = understand(text, None)
    if any(whole.ask.get(k) for k in EXPLAINED_WHOLE):
        return None  # 'how many users can qwen3-30b-a3b and a dense 32B each handle? And why is the MoE so much faster?'
    if (set(kinds) & {SIZING, FIGURE} or whole.updates.get("model")) \
            and (whole.intents & OF_THE_JOB or whole.ask.get("par_choice")):
        return None  # '2台机器跑70B，用张量并行还是流水线并行？', 'LoRA和QLoRA差在哪，显存能省多少？拿llama3.1 8b举个例子':
        # the concepts weighed for the job (or the example model) named, read whole
    if kinds[0] == CONCEPT and SIZING in kinds and set((whole.aside or "").split("+")) >= concepts_named(kept):
        return None  # 'whats the diff between prefill and decode? we want to serve …': the aside first, the job after
    pair = len(_topics(whole)) > 1 and concepts_named(kept) <= _topics(whole)
    if pair and set(kinds) == {CONCEPT} and not any(u.ask.get("example_card") for _p, u in kept):
        return None  # 'what is kv cache and what is prefill?': the pair, read whole
    return [piece for (_before, piece), _u in kept]
