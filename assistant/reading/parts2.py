"""Two-part questions whose second part is a job of another kind or for later (h-parts2, reviews AX 4, AZ 19).

- '噢对了 我还想偶尔微调一下 8B 的模型', 'oh and I'd also like to fine-tune an 8B now and then' after a serving plan:
  an occasional fine-tune of another model is a training run on the plan's cards while serving pauses, checked
  there (assistant/side_lora.py: LoRA, else QLoRA, and the hours per run), never a second model served beside
  the first; the plan chosen before stays.
- '70B mostly, but maybe llama 405b later': the model said to come later is a note, not a second service now."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.reading.message import Understanding
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
