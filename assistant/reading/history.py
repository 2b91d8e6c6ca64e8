"""What was done before is history, not the job to size: 'we trained our own 20B model and want to serve it',
'我们微调了一个20B模型，想部署' serve a custom 20B; the training is past. Grammar only: the words are in
words/horizon.yaml (train_past_*)."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import word_pattern


def past_training(text: str, x: re.Match[str]) -> bool:
    """A training verb said in the past with its doer ('we trained', "we've fine-tuned", 'fine-tune 了'): the
    model's history. Only the past verbs are dropped: 'we trained a 7B, now want to train a 20B' still trains."""
    before = text[max(0, x.start() - 24):x.start()]
    said_past = (x.group().endswith("ed") and word_pattern("train_past_before").search(before)) \
        or word_pattern("train_past_after").match(text[x.end():x.end() + 8])
    return bool(said_past) or _after_past(text, x)


def _after_past(text: str, x: re.Match[str]) -> bool:
    """'we pretrained our own 13B from scratch': a training word in the same clause as a past one is past too."""
    clause = re.split(r"[,.;!?，。；！？]", text[max(0, x.start() - 40):x.start()])[-1]
    return any(y.group().endswith("ed") and word_pattern("train_past_before").search(clause[:y.start()])
               for key in ("phase.train", "phase.pretrain") for y in word_pattern(key).finditer(clause))



def own_model(m: Message) -> bool:
    """'our own 20B model', '我们自己训的20B', 'we trained a 13B': the model is theirs."""
    return bool(word_pattern("own_model").search(m.masked) or word_pattern("own_model_more").search(m.masked)
                or any(past_training(m.masked, x) for x in word_pattern("phase.train").finditer(m.masked)))


def own_model_note(m: Message, u: Understanding) -> None:
    """'our own 20B model', '我们自己训的20B': a model of theirs, sized by its parameter count, said so."""
    model = str(u.updates.get("model") or "")
    if re.fullmatch(r"\d+(?:\.\d+)?B", model) and not u.unknown_model and own_model(m):
        u.notes.append(("note.own_model_sized", {"size": model}))
