"""Prefix caching asked as a concept, with what it saves ('问个概念问题：vllm 的 prefix caching 是啥原理？我们做RAG，每个请求
system prompt 都一样有2k token，开了能省多少？'): not a sizing request and not the glossary alone. Heard when prefix caching
is named with what it saves asked, or how it works asked with the shared prompt's length said, and nothing else to
size (the prompt's lengths, the model, its users and engine may come
with it). Sets intent prefix_saving (with no_sizing) and u.ask: "shared" (the shared prefix's tokens), "own" (the rest
of each prompt, when said: retrieved text and the question added, or the total less the shared part), "model" and
"users" when named; assistant/prefix_saving.py answers. Words: words/prefix_saving.yaml."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import vocab

# Slots the question's own words may fill: the prompt's lengths, the model, its users, job and engine.
OWN_SLOTS = {"prompt_tokens", "shared_prefix_tokens", "rl_prompt_tokens", "context", "output_tokens", "use_case",
             "model", "users", "phase", "engine", "engine_app", "hit_rate", "population"}
# Intents the prefix question replaces (the engine pick its engine name brought, the concept alone, a what-if).
REPLACED = {"concept", "explain", "whatif", "engine_choice", "math", "why", "not_sure", "kv_cache", "metric"}
# A label after a length's unit counts when it starts within LABEL_GAP characters ('a 100 token question'), read
# in the AFTER_CHARS characters after the unit.
LABEL_GAP = 6
AFTER_CHARS = 40
# Roles of the quantities that are a prompt's length in tokens.
LENGTH_ROLES = {"prompt_tokens", "shared_prompt_tokens", "shared_prefix_tokens", "context", "output_tokens",
                "rl_prompt_tokens"}


def _words() -> dict[str, Any]:
    return vocab()["prefix_saving"]


def _hit(words: dict[str, str], m: Message, typed: str) -> bool:
    return bool(re.search(words["en"], m.text) or re.search(words["zh"], typed))


def _labels(text: str) -> list[tuple[int, int, str]]:
    found: list[tuple[int, int, str]] = []
    for name, words in _words()["label"].items():
        for pattern in (words["en"], words["zh"]):
            found += [(x.start(), x.end(), name) for x in re.finditer(pattern, text)]
    return found


def _label(before: str, after: str) -> str | None:
    """The label of a length: the last one said before it (since the length before), else the first one said just
    after its unit ('a 100 token question', '3k tokens of retrieved text')."""
    said = _labels(before)
    if said:
        return max(said, key=lambda x: x[1])[2]
    unit = re.match(_words()["tokens_after"], after)
    tail = after[unit.end() if unit else 0:][:AFTER_CHARS]
    said = [x for x in _labels(tail) if x[0] <= LABEL_GAP]
    return min(said)[2] if said else None


def lengths(m: Message) -> dict[str, int]:
    """The prompt's lengths said, by label ('shared', 'retrieved', 'question', 'total'); an unlabelled length is the
    shared prefix when none is yet, else the retrieved text."""
    out: dict[str, int] = {}
    last = 0
    for q in m.qty:
        after = m.text[q.end:]
        if q.negated or not (q.role in LENGTH_ROLES or re.match(_words()["tokens_after"], after)):
            continue
        label = "shared" if q.role == "shared_prefix_tokens" else _label(m.text[last:q.start].lower(),
                                                                          after.lower())
        label = label or ("shared" if "shared" not in out else "retrieved")
        last = q.end
        if label not in out and q.value >= 1:
            out[label] = round(q.value)
    return out


def _own(said: dict[str, int], shared: int) -> int | None:
    if said.get("total") and said["total"] > shared:
        return said["total"] - shared
    own = said.get("retrieved", 0) + said.get("question", 0)
    return own or None


def _injection_only_subject(m: Message) -> bool:
    """Whether the injection words heard are only the system prompt the question is about."""
    pattern = vocab()["intents"]["injection"]
    return not re.search(pattern, re.sub(_words()["benign"], " ", m.text.lower()))


def read_prefix_saving(m: Message, u: Understanding) -> None:
    if u.intents & {"reset", "help", "empty"} or u.choice is not None or u.compare_gpus or u.whatif_gpus:
        return
    typed = unicodedata.normalize("NFKC", m.raw).lower()
    words = _words()
    if not _hit(words["subject"], m, typed) or set(u.updates) - OWN_SLOTS or u.unknown_model or m.gpus:
        return
    said = lengths(m)
    shared = said.get("shared") or u.updates.get("shared_prefix_tokens")
    if not (_hit(words["cue"], m, typed) or (shared and _hit(words["how"], m, typed))):
        return  # 'what is prefix caching': the glossary's entry
    if "injection" in u.intents and not _injection_only_subject(m):
        return
    model = u.updates.get("model")
    users = u.updates.get("users")
    ask: dict[str, Any] = {"prefix": True}
    if isinstance(shared, (int, float)) and shared >= 1:
        ask["shared"] = int(shared)
        own = _own(said, int(shared))
        if own:
            ask["own"] = own
    if isinstance(model, str):
        ask["model"] = model
    if isinstance(users, (int, float)) and users >= 1:
        ask["users"] = int(users)
    u.intents = (u.intents - REPLACED - {"injection"}) | {"prefix_saving", "no_sizing"}
    u.ask = ask
    u.topic, u.aside, u.also = None, None, None
    u.updates, u.scale, u.notes, u.problems = {}, {}, [], []
