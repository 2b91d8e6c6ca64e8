"""Training asked on the side of a question about running a model: "can i run llama 3.3 70b on it locally? what
quant and roughly how many tok/s. also could i lora finetune something on it or is that a dumb idea". Read whole,
the training words won and the 70B was sized as a LoRA run on a B200; then "i mostly meant running it for chat, the
finetuning was a side question" stayed a fine-tune. Now, when the clause that names the training carries a side
cue (words/aside_train.yaml) and another clause, read alone, runs or serves the model, the job is running it
(serving, or trying out), the method goes, and a note says the training question is answered on its own; a later
turn that waves the training off ('was a side question', '只是顺便问问') drops the training (u.ask['drops'])."""

from __future__ import annotations

import re
from collections.abc import Callable

from gpu_advisor.assistant.reading.message import Understanding
from gpu_advisor.assistant.reading.text import clean, word_pattern

TRAINING = ("fine-tune", "train-and-serve")
RUNNING = ("serve", "experiment")
TRAINING_SLOTS = ("method", "train_tokens", "train_examples", "epochs", "qlora_base", "objective")


def _drop_training(u: Understanding, phase: str) -> None:
    u.updates["phase"] = phase
    for slot in TRAINING_SLOTS:
        u.updates.pop(slot, None)


def read_aside_train(raw: str, u: Understanding, read: Callable[[str], Understanding]) -> None:
    """Running the model is the job when the training is only asked on the side (see the module's text)."""
    if u.updates.get("phase") not in TRAINING:
        return
    text = clean(raw)
    if word_pattern("aside_train.dismissed").search(text):
        _drop_training(u, "serve")
        u.ask = {**u.ask, "drops": "train"}
        return
    clauses = [c for c in re.split(word_pattern("aside_train.cut"), text) if c and c.strip()]
    train = word_pattern("aside_train.train")
    trained = [c for c in clauses if train.search(c)]
    if not trained or not all(word_pattern("aside_train.cue").search(c) for c in trained):
        return
    rest = " . ".join(c for c in clauses if not train.search(c))
    if not rest.strip():
        return
    main = read(rest)
    if main.updates.get("phase") not in RUNNING or not (main.updates.get("model") or u.updates.get("model")):
        return
    _drop_training(u, str(main.updates["phase"]))
    if u.second and u.second.get("phase") in (None, *TRAINING):
        u.second = None  # the training clause read as a second job: it is the side question, not sized here
    if main.updates.get("phase") == "serve":  # 'also can we LoRA it on the same boxes?': checked on the plan's cards
        asked = read(" . ".join(trained)).updates
        lengths = ("seq_len", "prompt_tokens")  # '20k examples of 1k tokens': the training data's, not the chats'
        if any(asked.get(k) for k in lengths) and not any(main.updates.get(k) for k in lengths):
            for k in lengths:
                u.updates.pop(k, None)
        data = {k: asked[k] for k in ("train_tokens", "train_examples", "epochs") if asked.get(k)}
        u.ask = {**u.ask, "side_train": {"phase": "fine-tune", "method": asked.get("method") or "lora",
                                         "model": asked.get("model") or "", **data}}
        return
    u.notes.append(("note.side_training", {}))


def read_side_use(raw: str, u: Understanding) -> None:
    """'主要做lora微调7b到14b的模型，偶尔推理', 'mostly lora, occasionally inference': 'occasionally' says how often the side
    job runs, not how busy the cards are; the utilisation read from it (5%) was said back as the user's own figure.
    Dropped unless a share was stated ('busy 60% of the time')."""
    text = clean(raw)
    if not u.updates.get("utilisation") or word_pattern("main_side.stated_use").search(text):
        return
    clauses = [c for c in re.split(word_pattern("main_side.cut"), text) if c and c.strip()]
    main = [c for c in clauses if word_pattern("main_side.main").search(c)]
    side = [c for c in clauses if word_pattern("main_side.side").search(c)]
    if not main or not side or set(main) & set(side) or all(word_pattern("corr3.rare_besides").search(c) for c in side):
        return  # 'mostly working hours, rarely at night': the hours of one service, no side job
    u.updates.pop("utilisation", None)
    weighed = u.ask.get("buy_or_rent")
    if isinstance(weighed, dict) and weighed.get("busy"):
        u.ask = {**u.ask, "buy_or_rent": {k: v for k, v in weighed.items() if k != "busy"}}
