"""A model already served on part of the user's own cards and a second one to add: "our lab owns 16x H100 (2 nodes,
IB). currently serving llama 3.1 70b to ~200 users on 8 of them. we want to add a second model, qwen2.5 72b, for
another ~150 users. do we have enough or do we need to buy more?", "我们有16张H100，其中8张在跑llama 3.1 70b给200人用，
想再上一个qwen2.5 72b给150人，卡够吗". Before, both models were weighed as one choice on all 16 cards, or served
together on them ('they do not fit together'); now the model added is the job sized, on the cards left free
(assistant/running_job.py), and the running one is the second job (u.second with 'running': the cards it holds),
checked on its own cards with its own users. The words: words/running_job.yaml."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import _zh_numerals, word_pattern

# The slots that say a job's load: the running job's go with it, the added job's are the plan's.
LOAD = ("users", "population", "users_range")
# Characters read before a model's name for the words that add it or say it runs.
LEAD = 60


def _busy(m: Message) -> int | None:
    """How many of the cards the running model holds, as said."""
    typed = _zh_numerals(unicodedata.normalize("NFKC", m.raw).lower())
    for key in ("running_job.busy.en", "running_job.busy.zh"):
        found = word_pattern(key).search(typed)
        if found:
            return int(next(g for g in found.groups() if g))
    return None


def _owned(u: Understanding) -> int | None:
    owned = u.updates.get("owned") or []
    if len(owned) != 1:
        return None
    found = re.match(r"^\s*(\d+)\s*x\s", str(owned[0]))
    return int(found[1]) if found else None


def _clauses(m: Message, first: tuple[int, int, str], second: tuple[int, int, str]) -> tuple[str, str]:
    """The text of each model's clause: cut at the last clause end between the two names."""
    text = m.text
    ends = [x.end() for x in word_pattern("running_job.cut").finditer(text, first[1], second[0])]
    cut = ends[-1] if ends else second[0]
    return text[:cut], text[cut:]


def _which_runs(m: Message, first: tuple[int, int, str], second: tuple[int, int, str]) -> int:
    """0 when the first model named is the one running, 1 when the second: the words said just before each name
    (after the other name) add it ('we want to add a second model, qwen2.5 72b') or say it runs ('currently serving')."""
    leads = (m.text[max(0, first[0] - LEAD):first[0]], m.text[max(first[1], second[0] - LEAD):second[0]])
    added = [bool(word_pattern("running_job.added").search(c)) for c in leads]
    if added[0] != added[1]:
        return 1 if added[0] else 0
    running = [bool(word_pattern("running_job.running").search(c)) for c in leads]
    return 1 if running[1] and not running[0] else 0


def _load(text: str) -> dict[str, Any]:
    from gpu_advisor.assistant.reading import understand

    said = understand(text, None, whole=False).updates
    return {k: said[k] for k in LOAD if k in said}


def read_running_job(m: Message, u: Understanding) -> bool:
    """Read a running model and one to add (see the module's note); True when read."""
    named = [(s, e, x) for s, e, x in m.names]
    models = list(dict.fromkeys(x for _s, _e, x in named))
    total, busy = _owned(u), _busy(m)
    if len(models) != 2 or total is None or busy is None or not 0 < busy < total \
            or u.updates.get("phase") not in (None, "serve", "production"):
        return False
    first = next(n for n in named if n[2] == models[0])
    second = next(n for n in named if n[2] == models[1])
    clauses = _clauses(m, first, second)
    runs = _which_runs(m, first, second)
    running, added = (models[0], models[1]) if runs == 0 else (models[1], models[0])
    load_running, load_added = _load(clauses[runs]), _load(clauses[1 - runs])
    for key in LOAD:
        u.updates.pop(key, None)
    u.updates.update(load_added)
    u.updates["model"] = added
    u.updates["phase"] = u.updates.get("phase") or "serve"
    u.second = {"phase": "serve", "model": running, "users": load_running.get("users"), "batch_items": None,
                "together": True, "together_said": True, "running": busy}
    u.ask = {k: v for k, v in u.ask.items() if k not in ("weigh", "models")}
    u.intents.discard("weigh")
    u.notes = [(key, values) for key, values in u.notes if key != "note.model_other"]  # both are sized now
    return True
