"""Two jobs in one message joined plainly, each on its own model: "is a used rtx a6000 better than two used 3090s?
i want to qlora 32b models and chat with 70b at q4". Read whole, the last model won and the plan QLoRA'd the 70B
(and called it train-then-serve). Now, when the message reads as training and no second job was kept, each part
at a plain joiner (words/aside_train.yaml job_models_cut) is read alone; a training clause on one model and a
running clause on another make two jobs: the served one is sized (its model, its precision), and the training
run, with its own model and method, is the second job (u.second), said back and checked beside it."""

from __future__ import annotations

import re
from collections.abc import Callable

from gpu_advisor.assistant.reading.message import Understanding
from gpu_advisor.assistant.reading.text import clean, word_pattern

TRAINS = ("fine-tune", "train-and-serve")
RUNS = ("serve", "experiment")
TRAINING_SLOTS = ("method", "train_tokens", "train_examples", "epochs", "qlora_base", "objective")
MAX_CUTS = 6


def read_job_models(raw: str, u: Understanding, read: Callable[[str], Understanding]) -> None:
    """Split a training job on one model from a running job on another (see the module's text)."""
    if u.second or u.updates.get("phase") not in TRAINS:
        return
    text = clean(raw)
    for x in list(re.finditer(word_pattern("job_models_cut"), text))[:MAX_CUTS]:
        left = read(text[:x.start()])
        if left.updates.get("phase") not in ("fine-tune", *RUNS) or not isinstance(left.updates.get("model"), str):
            continue  # the left part is neither job on a model of its own: no pair, whatever the right part reads
        right = read(text[x.end():])
        jobs = {str(side.updates.get("phase")): side for side in (left, right)}
        train = jobs.get("fine-tune")
        run = next((jobs[p] for p in RUNS if p in jobs), None)
        if train is None or run is None:
            continue
        tm, rm = train.updates.get("model"), run.updates.get("model")
        if not (isinstance(tm, str) and isinstance(rm, str)) or tm == rm:
            continue
        for slot in TRAINING_SLOTS:
            u.updates.pop(slot, None)
        u.updates.update({"phase": "serve", "model": rm})
        if run.updates.get("precision"):
            u.updates["precision"] = run.updates["precision"]
        else:
            u.updates.pop("precision", None)
        u.second = {"phase": "fine-tune", "model": tm, "users": None, "batch_items": None, "together": False,
                    "together_said": False, **({"method": train.updates["method"]} if train.updates.get("method") else {})}
        return
