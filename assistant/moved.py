"""What a follow-up moved, said in one line when it moved nothing ('what if i quantize it to fp8' on a plan already
in FP8, 'LoRA 吧' on a plan already of LoRA): the new plan's pick is the old one, on the same cards, in the same
precision, with the same memory, speed and time, so the reply says the plan already did that (code
`moved.nothing`, worded per language in the catalogs) instead of a table of figures "against" themselves."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.writers import gpu_words

# The figures of a plan's pick that a change would move.
FIGURES = ("gpu", "gpus", "precision", "kv_precision", "serve_per_gpu_bytes", "train_per_gpu_bytes",
           "decode_tokens_per_s", "job_hours", "usd_per_hour", "job_usd", "tp", "pp", "replicas")


def nothing_moved(answer: Any, before: dict[str, Any], lang: str) -> str:
    """The line for a change that left the plan's pick as it was, or "" when anything moved."""
    new = answer.recommend.best
    if new is None or not before.get("gpu"):
        return ""
    now = new.model_dump(mode="json")
    if any(now.get(k) != before.get(k) for k in FIGURES):
        return ""
    if new.precision and not (new.train_per_gpu_bytes and not new.serve_per_gpu_bytes):
        return say(lang, "moved.nothing_precision", precision=str(new.precision).upper(), option=gpu_words(new, lang))
    return say(lang, "moved.nothing", option=gpu_words(new, lang))


# The tool inputs a follow-up moves that a person reads as a value, with the slot whose label names them.
SHOWN = (("model", "model"), ("method", "method"), ("serve_precision", "precision"), ("population", "population"),
         ("users", "users"),
         ("context", "context"), ("candidates", "only"))


def _value(key: str, value: Any, lang: str) -> str:
    if key == "model":
        from gpu_advisor.assistant.writers import model_words
        from gpu_advisor.tools.models import resolve_model

        try:
            return model_words(resolve_model(str(value)).name, lang)
        except (LookupError, ValueError):
            return str(value)
    if key == "method":
        from gpu_advisor.assistant.method_switch import NAMES

        return NAMES.get(str(value)) or say(lang, f"mcmp.name.{value}")
    if key == "serve_precision":
        return str(value).upper()
    if key == "candidates":  # the cards planned on ('2x h100-sxm' keeps its count)
        from gpu_advisor.knowledge.resolve import find_gpu

        def card(c: str) -> str:
            n, _x, g = c.rpartition("x ") if "x " in c else ("", "", c)
            try:
                return f"{n} × {find_gpu(g).name}" if n else find_gpu(g).name
            except (LookupError, ValueError):
                return c
        return "/".join(card(str(c)) for c in value)
    return f"{int(value):,}" if isinstance(value, (int, float)) else str(value)


def _trains(inputs: dict[str, Any]) -> bool:
    """Whether the plan of these tool inputs trains a model (its method sized something)."""
    from gpu_advisor.tools.phases import PHASES

    spec = PHASES.get(str(inputs.get("phase")))
    return bool(spec and spec.trains)


def _per_gpu(old_pick: dict[str, Any], new_pick: Any) -> tuple[float, float] | None:
    """The memory each GPU holds in the pick before and in this one (serving's when this pick serves, else
    training's), in GB as the answer shows them; None when either has none or it did not move."""
    now = new_pick.model_dump(mode="json") if hasattr(new_pick, "model_dump") else dict(new_pick or {})
    key = "serve_per_gpu_bytes" if now.get("serve_per_gpu_bytes") else "train_per_gpu_bytes"
    old, new = (old_pick or {}).get(key), now.get(key)
    if not old or not new or round(old / 1e9, 1) == round(new / 1e9, 1):
        return None
    return round(old / 1e9, 1), round(new / 1e9, 1)


def _cap_moved(before: dict[str, Any], after: dict[str, Any], lang: str, new_pick: Any) -> str:
    """'budget cap $3 an hour' when a follow-up said a budget by the hour or the day; "" otherwise."""
    if not after.get("budget_per") or not after.get("budget_usd_per_month") or (
            before.get("budget_usd_per_month") == after.get("budget_usd_per_month")
            and before.get("budget_per") == after.get("budget_per")):
        return ""
    from gpu_advisor.assistant.budget_cap import cap_usd
    from gpu_advisor.assistant.writers import cash_at
    from gpu_advisor.tools.recommend import Workload

    try:
        w = Workload.model_validate(after)
    except ValueError:
        return ""
    return say(lang, "budget_cap.moved", cap=cash_at(cap_usd(w), getattr(new_pick, "usd_per_cny", None)),
               per=say(lang, f"budget_cap.per.{w.budget_per}"))


def moved_line(before: dict[str, Any], after: dict[str, Any], lang: str, old_pick: dict[str, Any] | None = None,
               new_pick: Any = None) -> tuple[str, list[dict[str, Any]]]:
    """'**What moved**: model Llama 3.3 70B → Llama 3.1 8B; users 50 → 100; 61.5 → 74.6 GB per GPU.' from the tool
    inputs of the plan before and of this one (and the memory per GPU of the two picks, when given and it moved),
    and the values moved (for the answer's data); "" when none of the values a person reads moved (or the plan
    before had no value)."""
    from gpu_advisor.assistant.slots import SLOTS

    items, data = [], []
    phase_moved = before.get("phase") != after.get("phase")  # a training plan's users or context meant nothing
    for key, slot in SHOWN:
        if phase_moved and key not in ("model", "method"):
            continue
        if key == "method" and not (_trains(before) and _trains(after)):
            continue  # a serving plan's method was a default never used: 'QLoRA → LoRA' moved nothing (review s27)
        old, new = before.get(key), after.get(key)
        if old is None or new is None or old == new:
            continue
        if key == "method" and (str(old) not in ("full", "lora", "qlora") or str(new) not in ("full", "lora", "qlora")):
            continue
        items.append(say(lang, "moved.item", label=SLOTS[slot].label(lang), old=_value(key, old, lang),
                         new=_value(key, new, lang)))
        data.append({"input": key, "old": old, "new": new})
    cap = _cap_moved(before, after, lang, new_pick)
    if cap:  # 'budget cap $3 an hour' (assistant.budget_cap)
        items.append(cap)
        data.append({"input": "budget_usd_per_month", "old": before.get("budget_usd_per_month"),
                     "new": after.get("budget_usd_per_month")})
    memory = _per_gpu(old_pick or {}, new_pick) if items else None
    if memory:  # what the change did to each GPU's memory (issue 25: "1 × A100 → 2 × A100; 61.5 → 74.6 GB per GPU")
        items.append(say(lang, "moved.per_gpu", old=f"{memory[0]:.1f}", new=f"{memory[1]:.1f}"))
        data.append({"input": "per_gpu_gb", "old": memory[0], "new": memory[1]})
    return (say(lang, "moved.head", items=say(lang, "sep").join(items)) if items else ""), data
