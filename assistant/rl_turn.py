"""The figures of an RL fine-tune said in a later turn ('prompt大概一万条 每条采样8个 回答长度两千token左右', '10k prompts, 8
samples each, answers around 2k tokens', '数据7500条' after 'GRPO on qwen2.5 7b'): the prompts, the group and the
completion length of that run, never an offline batch job over as many items (review BR C10: '好的：离线批处理任务' and
the counts asked again) nor supervised examples of a fixed length; and a completion length said again replaces the
one before (review BT #2: 'the rollouts are up to 8k tokens each' kept 1,024), never a training sequence length."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from gpu_advisor.tools.phases import (
    DEFAULT_COMPLETION_TOKENS,
    DEFAULT_PROMPT_TOKENS,
    DEFAULT_SAMPLES,
    RL_PROMPTS,
)

# What a batch reading of the same words fills, and the RL slot each one is.
AS_RL = {"batch_items": "rl_prompts", "batch_output_tokens": "rl_completion_tokens"}
# Readings that have no place in an RL run once its figures are taken: the batch job's input length, and the
# examples' tokens (an RL run trains on what it generates: prompts x samples x (prompt + completion)).
NOT_RL = ("batch_items", "batch_input_tokens", "batch_output_tokens", "train_tokens")
# Lengths read from the same words as the completion ('rollouts up to 16k tokens': 16,000 and a 16,384 context):
# within this share of it, the same number read twice.
SAME_LENGTH = 0.05


def _count(value: Any) -> int:
    return int(str(value).replace(",", ""))


def _as_rl(updates: dict[str, Any], notes: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
    """A batch or example reading in an RL conversation, turned into the RL run's figures in place; the reader's
    notes that no longer hold."""
    dropped: list[tuple[str, dict[str, Any]]] = []
    for slot in ("train_examples", "batch_items"):  # '4 samples per prompt instead': the group, read as examples too
        if slot in updates and updates[slot] in (updates.get("rl_samples"), updates.get("rl_prompts_per_step")):
            updates.pop(slot)  # ('batch size 256 prompts': a step's prompts, not the run's)
    if "batch_items" in updates and updates.get("phase") in ("batch", None):
        updates.pop("phase", None)
        per = next((v for k, v in notes if k == "note.items_from_samples"), None)
        if per:  # '10k prompts, 8 samples each': the prompts and the group, not 80,000 items
            dropped += [(k, v) for k, v in notes if k == "note.items_from_samples"]
            updates["rl_prompts"], updates["rl_samples"] = _count(per["prompts"]), _count(per["samples"])
            updates.pop("batch_items")
    if "rl_prompts" not in updates and (updates.get("train_examples") or updates.get("batch_items")):
        # '数据7500条': the prompts the policy is trained on, not examples of an assumed length
        updates["rl_prompts"] = int(updates.pop("train_examples", None) or updates.pop("batch_items"))
        dropped += [(k, v) for k, v in notes if k == "note.example_tokens"]
    if "batch_output_tokens" in updates:  # '回答其实是8k token': each completion's length
        updates.setdefault("rl_completion_tokens", int(updates["batch_output_tokens"]))
        if updates.get("phase") == "batch":
            updates.pop("phase")
    if "context" in updates and "rl_completion_tokens" not in updates and updates.get("phase") in (None, "fine-tune"):
        # 'response 长度 to 8k' (rewritten '回答长度改成8k'): no context is served in an RL fine-tune; the length said
        # bounds what each rollout generates
        updates["rl_completion_tokens"] = int(updates.pop("context"))
    for slot in NOT_RL:
        updates.pop(slot, None)
    return dropped


def as_rl_figures(objective: str | None, updates: dict[str, Any],
                  notes: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
    """The one place a turn's reading becomes an RL run's figures, in place (`objective`: the conversation's so far):
    in an RL conversation a batch or example reading gives its counts and lengths to the RL run; in any RL turn a
    sequence length or context read from the completion's own words goes. Returns the reader's notes that no longer
    hold (the items counted from prompts x samples, the examples' assumed length)."""
    if updates.get("objective", objective) != "rl":
        return []
    dropped = _as_rl(updates, notes) if objective == "rl" else []
    completion = updates.get("rl_completion_tokens")
    if updates.get("phase") not in ("fine-tune", None):
        return dropped  # (a context said for serving the tuned model stays)
    for slot in ("seq_len", "context"):  # 'the rollouts are up to 8k tokens each': the completion, not a sequence
        if completion and isinstance(updates.get(slot), (int, float)) \
                and abs(updates[slot] - completion) <= SAME_LENGTH * completion:
            updates.pop(slot)
    return dropped


# The method an online-RL run takes when none is said: full fine-tuning, what verl, OpenRLHF and TRL's GRPOTrainer do
# unless a LoRA rank is set (knowledge: frameworks.yaml default_method), where it fits the cards said; else LoRA, else
# QLoRA (the first that fits; QLoRA when none does, and the plan then says what it takes).
RL_METHODS = ("full", "lora", "qlora")


@lru_cache(maxsize=256)
def _fits(model: str, method: str, cards: tuple[tuple[int, str], ...], samples: int, completion: int,
          algorithm: str, framework: str | None, prompt: int = DEFAULT_PROMPT_TOKENS,
          others: tuple[str | None, str | None] = (None, None)) -> bool:
    """Whether any of the cards said (count, card) holds the RL run with that method, colocated or split (tools.rl)."""
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.rl import RlInput, rl_run

    for n, gpu in cards:
        try:
            base = RlInput(model=model, gpu=gpu, gpus=n, method=method, algorithm=algorithm, prompts=RL_PROMPTS,
                           samples=samples, completion_tokens=completion, framework=framework, prompt_tokens=prompt,
                           reward_model=others[0], critic_model=others[1])
            if rl_run(base).fits or (n > 1 and rl_run(base.model_copy(update={"layout": "split"})).fits):
                return True
        except (ToolError, ValueError, KeyError):
            return True  # a model or card the tools cannot size here: the framework's default stands
    return False


def _cards(p: dict[str, Any]) -> tuple[tuple[int, str], ...]:
    """The cards the run is on: those owned, else those the user kept to with a count ('only 8x A100')."""
    from gpu_advisor.tools.recommend import parse_owned

    said = p.get("owned") or [c for c in p.get("only") or [] if c[:1].isdigit()]
    out = []
    for text in said:
        try:
            n, gpu = parse_owned(text)
        except Exception:  # noqa: BLE001 - an unknown card: nothing to check against
            continue
        out.append((n, gpu.id))
    return tuple(out)


def rl_method(p: dict[str, Any]) -> tuple[str, tuple[tuple[int, str], ...]]:
    """The method an RL run defaults to and the cards it was checked on: full where it fits them (or no cards are
    said), else LoRA, else QLoRA."""
    cards = _cards(p)
    if not cards or not p.get("model"):
        return RL_METHODS[0], cards
    args = (p.get("rl_samples") or DEFAULT_SAMPLES, p.get("rl_completion_tokens") or DEFAULT_COMPLETION_TOKENS,
            p.get("rl_algorithm") or "grpo", p.get("framework"), p.get("rl_prompt_tokens") or DEFAULT_PROMPT_TOKENS,
            (p.get("rl_reward_model"), p.get("rl_critic_model")))
    return next((m for m in RL_METHODS if _fits(p["model"], m, cards, *args)), RL_METHODS[-1]), cards


def rl_method_words(p: dict[str, Any], lang: str) -> str:
    """The assumption said for that default: whose default full fine-tuning is, and whether the cards hold it."""
    from gpu_advisor.assistant.catalog import say
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.training import find_framework

    method, cards = rl_method(p)
    fw = find_framework(p["framework"]) if p.get("framework") else None
    who = say(lang, "rl_default.named", name=fw.name) if fw is not None and fw.default_method else \
        say(lang, "rl_default.any")
    where = say(lang, "list_sep").join(f"{n} × {find_gpu(g).name}" for n, g in cards)
    key = "full" if not cards else "fits" if method == "full" else method
    return say(lang, f"slot.method.default_rl_{key}", who=who, cards=where)


# What the RL method's default was checked with (rl_method): a later turn that changes one takes the default again.
METHOD_INPUTS = ("rl_reward_model", "rl_critic_model", "rl_samples", "rl_completion_tokens", "rl_prompt_tokens",
                 "rl_algorithm", "model", "owned", "only", "framework")


def method_stale(updates: dict[str, Any], defaulted: dict[str, str], objective: str | None) -> bool:
    """Whether an RL run's assumed method must be taken again: it was a default, and this turn changed what it was
    checked with ('价值模型用 7B' after LoRA was assumed for a 32B critic: full may fit now)."""
    return objective == "rl" and "method" in defaulted and "method" not in updates \
        and any(k in updates for k in METHOD_INPUTS)
