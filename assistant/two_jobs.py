"""Two questions of their own in one message, each with its own model and job: "i have a 3090 at home. can i run
qwen2.5 32b on it? and separately could i qlora finetune llama 3.1 8b on the same card", "fp8 vs int4 for a 70b
— which loses more quality? also how much kv cache does llama 3.1 70b need at 32k". Read whole, the second model
replaced the first and one job was sized for it; now the message is cut at the joiners of words/two_jobs.yaml and,
when every piece read alone names its own model and its own job or question (and the pieces differ in job or ask
a question of their own), each piece is answered as its own turn, in order, by the compound follow-ups' machinery
(assistant/parts.py); what a piece says (the card owned) carries into the pieces after it."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import Any

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.reading.compound import QUESTION_CODES
from gpu_advisor.assistant.reading.message import Understanding
from gpu_advisor.assistant.reading.text import vocab

# The most pieces one message is cut into here; more is a list, read whole.
MAX_JOBS = 3
# Questions a piece may ask without a plan and still be answered on its own (a model's KV cache, two formats).
OWN_QUESTIONS = frozenset({"precision_compare", "kv_cache", "fit_check", "concept", "explain"})


def _cut(text: str) -> list[str]:
    words = vocab()["two_jobs"]["joiner"]
    typed = unicodedata.normalize("NFKC", text).strip()
    return [p.strip(" ,，;；") for p in re.split(f"(?:{words['en']})|(?:{words['zh']})", typed, flags=re.I)
            if p and p.strip(" ,，;；")]


def _said(text: str, key: str) -> bool:
    words = vocab()["two_jobs"][key]
    typed = unicodedata.normalize("NFKC", text).lower()
    return bool(re.search(words["en"], typed) or re.search(words["zh"], typed))


def _model(u: Understanding) -> str | None:
    return u.updates.get("model") or u.ask.get("model")


def _job(u: Understanding) -> str | None:
    """What a piece asks: a question of its own, else the job it sizes; None when it asks neither."""
    own = sorted(u.intents & OWN_QUESTIONS - {"fit_check"})
    if own:
        return own[0]
    return str(u.updates["phase"]) if u.updates.get("phase") else None


def split(state: Any) -> list[str] | None:
    """The pieces of a message that asks two questions of its own, else None."""
    from gpu_advisor.assistant.parts import _text

    if state.get("pending"):
        return None  # the answer to the question just asked is read whole
    cut = _cut(_text(state))
    if not 2 <= len(cut) <= MAX_JOBS:
        return None
    read = [understand(p, None) for p in cut]
    if any(_job(u) is None or (_model(u) is None and not u.intents & OWN_QUESTIONS - {"fit_check"}) for u in read):
        return None  # a piece without its own model or job ('also 32k context') belongs to the one request
    jobs = [_job(u) for u in read]
    models = [_model(u) for u in read]
    questions = any(u.intents & QUESTION_CODES - {"fit_check"} for u in read)
    if len(set(jobs)) < len(jobs) and not questions:
        return None  # 'serve llama 70b, also serve qwen 32b': one deployment of two models, read whole
    if not questions and not _said(_text(state), "strong") and not all(_said(p, "asks") for p in cut):
        return None  # 'serve qwen for the team, and also fine-tune llama on our tickets': a second job (reading.multi)
    if len(set(models)) < len(models) and len(set(jobs)) < len(jobs):
        return None
    asked = [(u.topic or "").replace("-", "_") for u in read]
    if any(m is None and (t in jobs or jobs.count(j) > 1) for m, t, j in zip(models, asked, jobs, strict=True)):
        return None  # 'what is a kv cache? also how big is it for llama 8b at 32k': one question, the figure first
    return cut


def corrects(state: Any) -> bool:
    """Whether the message puts right what was said ('oh wait sorry I meant the 70b distill, not the full one. and
    on a PC with 2x 3090 instead of the mac'): one change, read whole, never cut into pieces."""
    from gpu_advisor.assistant.parts import _text
    from gpu_advisor.assistant.reading.text import clean, word_pattern

    return bool(word_pattern("corrected.whole").search(clean(_text(state))))


def pieces(state: Any) -> list[str] | None:
    """A compound follow-up's questions (assistant/parts.py), else two questions of their own; None for a
    correction, read whole."""
    from gpu_advisor.assistant import concept_parts, parts

    if corrects(state):
        return None
    return parts.questions(state) or split(state) or concept_parts.split(state)


# What the pieces after the first keep of the one before: the hardware and the place said ('i have a 3090 at home
# … could i qlora llama 3.1 8b on it too'); the job, the model and its settings are each piece's own.
KEPT = ("owned", "only", "exclude", "region", "personal", "preference", "server_gpus", "has_host", "system_ram_gb",
        "used_ok", "currency")


def _concept(sub: Any) -> bool:
    """Whether the piece is a glossary concept asked (assistant/concept_parts.py): it sizes nothing."""
    from gpu_advisor.assistant.concept_parts import CONCEPT, kind
    from gpu_advisor.assistant.parts import _text

    return kind(understand(_text(sub), None)) == CONCEPT


def piece_reader(state: Any, read: Callable[[Any], dict[str, Any]]) -> Callable[[Any], dict[str, Any]]:
    """The reader of each piece: for two questions of their own, every piece after the first starts from the cards
    said (not from the job before, which would make it a change of that job or a fresh plan without the cards).
    After a plan the reader is as it is: a compound follow-up's pieces follow the plan."""
    if state.get("results"):
        return read  # after a plan: a compound follow-up's pieces, or two questions read as follow-ups of the plan
    seen: list[int] = []

    def own(sub: Any) -> dict[str, Any]:
        if seen and not _concept(sub):  # a concept asked after a job keeps that job (and the question it asked)
            profile, assumed = sub.get("profile") or {}, sub.get("defaulted") or {}
            said = {k: profile[k] for k in KEPT if profile.get(k) is not None and k not in assumed}
            sub.update({"profile": said, "results": {},
                        "also": None, "pending": None, "defaulted": {}, "asked": []})
        seen.append(1)
        return read(sub)

    return own
