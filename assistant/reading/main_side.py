"""A main job and a side job of one kind in one message: "mostly lora on the 70b, sometimes full finetune on the
8b", "主要是70b的lora，偶尔全量微调8b". Read whole, the last model and method said won (the 8B full fine-tune) and
'sometimes' was read as the cards' utilisation; now the clause with the main cue (words/main_side.yaml) gives the
job sized and the clause with the side cue is kept as the second job (u.second, with its method), which
assistant/side_job.py checks on the plan's cards. A utilisation read only from the side cue is dropped."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from gpu_advisor.assistant.reading.message import Understanding
from gpu_advisor.assistant.reading.text import clean, word_pattern

# What a clause says of its own job.
JOB = ("model", "method", "phase")


def _clause(text: str, key: str) -> str | None:
    cue = word_pattern(f"main_side.{key}")
    return next((c for c in re.split(word_pattern("main_side.cut"), text) if c and cue.search(c)), None)


def read_main_side(raw: str, u: Understanding, read: Callable[[str], Understanding]) -> None:
    text = clean(raw)
    main_text, side_text = _clause(text, "main"), _clause(text, "side")
    if not main_text or not side_text or main_text == side_text:
        return
    main, side = read(main_text), read(side_text)
    said: dict[str, dict[str, Any]] = {"main": {k: main.updates[k] for k in JOB if main.updates.get(k)},
                                       "side": {k: side.updates[k] for k in JOB if side.updates.get(k)}}
    if not {"model", "method"} & set(said["main"]):
        return
    if not {"model", "method"} & set(said["side"]):  # 'lora mostly, occasionally full': the main job is the plan
        u.updates.update({k: v for k, v in said["main"].items() if k != "phase"})
        return
    if {k: v for k, v in said["main"].items() if k != "phase"} == {k: v for k, v in said["side"].items() if k != "phase"}:
        return
    if (side.updates.get("utilisation") or main.updates.get("utilisation")) \
            and not word_pattern("main_side.stated_use").search(text):
        u.updates.pop("utilisation", None)  # 'sometimes': how often a job runs, not how busy the cards are
    u.updates.update({k: v for k, v in said["main"].items() if k != "phase"})
    model = said["side"].get("model") or said["main"].get("model") or u.updates.get("model")
    phase = said["side"].get("phase") or said["main"].get("phase") or u.updates.get("phase")
    u.second = {"phase": phase, "model": model, "users": None, "batch_items": None, "together": False,
                "together_said": False, **({"method": said["side"]["method"]} if said["side"].get("method") else {})}
