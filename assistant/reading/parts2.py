"""Two-part questions whose second part is a job of another kind or for later (h-parts2, reviews AX 4, AZ 19).

- '噢对了 我还想偶尔微调一下 8B 的模型', 'oh and I'd also like to fine-tune an 8B now and then' after a serving plan:
  an occasional fine-tune of another model is a training run on the plan's cards while serving pauses, checked
  there (assistant/side_lora.py: LoRA, else QLoRA, and the hours per run), never a second model served beside
  the first; the plan chosen before stays.
- '70B mostly, but maybe llama 405b later': the model said to come later is a note, not a second service now."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.text import clean, word_pattern

# What a training clause says of its run, carried to the check on the plan's cards.
RUN = ("method", "train_tokens", "train_examples", "epochs", "seq_len")
# What the training words set that belongs to the run, not to the service: taken off the serving plan's updates.
TRAINING_SLOTS = ("phase", "model", "users", "batch_items", "method", "train_tokens", "train_examples", "epochs",
                  "seq_len", "qlora_base", "objective", "utilisation")


def side_fine_tune(second: dict[str, Any], updates: dict[str, Any]) -> dict[str, Any]:
    """The fine-tune of another model asked beside a serving plan: the run, checked on the plan's cards."""
    run = {k: updates[k] for k in RUN if updates.get(k)}
    for key in TRAINING_SLOTS:  # 'occasionally' says how often the run is, not how busy the service is
        updates.pop(key, None)
    return {"phase": "fine-tune", "model": second["model"], "method": run.get("method") or "lora", "run": run,
            "side": True, "users": None, "batch_items": None, "together": False, "together_said": False}


TRAINING = ("fine-tune", "pretrain", "continued-pretrain")
# What a message says of a plan of its own: then the training run is no side question of the plan before.
OWN_PLAN = ("users", "population", "requests_per_s", "batch_items", "owned", "only", "budget_usd")


def read_side_train(raw: str, u: Understanding) -> None:
    """'对了，偶尔也想拿 qwen2.5 7b 做做lora微调', 'and sometimes I want to fine-tune an 8b too': a training run of a
    model said on the side is a job added to the plan (u.second, 'added'); after a serving plan of another model
    it is checked on that plan's cards (reading.multi.added_model), never the plan in its place."""
    if u.second is not None or u.updates.get("phase") not in TRAINING or not u.updates.get("model"):
        return
    if u.choice is not None or u.intents & {"reset", "help", "empty", "explain"} or set(u.updates) & set(OWN_PLAN):
        return
    text = clean(raw)
    if not any(word_pattern(f"parts2.side_train.{lang}").search(text) for lang in ("en", "zh")):
        return
    u.second = {"phase": None, "model": u.updates["model"], "users": None, "batch_items": None, "together": True,
                "together_said": False, "added": True}


# Slots of a service's load: with none said, an engine asked 'for inference' is a question, not a service to size.
SERVE_LOAD = ("users", "population", "requests_per_s", "batch_items", "context", "users_range")


def _box_count(m: Message) -> int | None:
    for lang in ("en", "zh"):
        found = word_pattern(f"parts2.box_count.{lang}").search(m.text)
        if found:
            return int(next(v for v in found.groupdict().values() if v))
    return None


def read_box_count(m: Message, u: Understanding) -> None:
    """'在昇腾910B上…全参微调…8卡一台够不够，要跑几个小时', 'on ascend 910b … is one 8-card box enough': the card named
    with no count, and the cards of one machine said apart from it, are that many of that card (the count the job
    is asked of: fits and hours on it), not a count left for the plan to choose."""
    if u.whatif_gpus or u.updates.get("owned") or u.choice is not None or u.intents & {"reset", "help", "empty"}:
        return
    named = {g for s, _e, g, _n in m.gpus if s not in m.counted}
    if len(named) != 1 or any(s in m.counted for s, _e, _g, _n in m.gpus):
        return
    n = _box_count(m)
    if not n:
        return
    card = next(iter(named))
    u.whatif_gpus = (n, card)
    u.compare_gpus = [g for g in u.compare_gpus if g != card]
    u.updates.pop("only", None)


def read_engine_after(m: Message, u: Understanding) -> None:
    """'…要跑几个小时？另外推理的时候用MindIE还是vllm-ascend好' beside a training run: the engine question is answered
    after the sizing when it was asked after it, and 'for inference' with no load said is no service to size."""
    if u.also != "engine_choice" or not m.engines:
        return
    first = min(s for s, _e, _x in m.engines)
    if any(word_pattern(f"parts2.asked_before.{lang}").search(m.text[:first]) for lang in ("en", "zh")):
        u.ask = {**u.ask, "engine_after": True}
    if u.updates.get("phase") == "train-and-serve" and not set(u.updates) & set(SERVE_LOAD):
        u.updates["phase"] = "fine-tune"  # the run is the job; serving it is only the engine asked
        if u.updates.get("seq_len"):
            u.updates.pop("prompt_tokens", None)  # '每条2k token': the samples' length, no prompt of a service


def read_later_second(u: Understanding) -> None:
    """'70B mostly, but maybe llama 405b later', '主要跑70B，以后可能上405b': the model said to come later, read as a
    second service (reading.multi), is no job running now: the plan is the model used now, the later one a note."""
    later = u.ask.get("later_models") or []
    if not u.second or u.second.get("model") not in later:
        return
    u.second = None
    if not any(code == "note.model_other" for code, _args in u.notes):
        from gpu_advisor.assistant.reading.asks_parts import _name

        chosen, others = _name(str(u.updates.get("model") or "")), [_name(x) for x in later]
        u.notes.append(("note.model_other", {"chosen": chosen, "others": ", ".join(others), "first": others[0],
                                             "covered": ""}))
