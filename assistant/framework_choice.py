"""A choice between fine-tuning frameworks: what each is for (the catalogs' fwc.about.<id>), which one an expert
would start with for this job and card (a rule per case, as a code), and which of them the sizing has a memory
preset for (knowledge frameworks.yaml). No speed is ranked that was not measured."""

from __future__ import annotations

from typing import Any

from gpu_advisor.knowledge import find_gpu, frameworks

NAMES = {"mindspeed": "MindSpeed-LLM", "ms-swift": "ms-swift", "megatron": "Megatron-LM"}
SERVER = 8  # cards in one server: beyond it a run spans servers


def _card(ctx: Any) -> tuple[str | None, int]:
    for key in ("owned", "only"):
        for entry in ctx.profile.get(key) or []:
            count, _x, card = entry.partition("x ")
            try:
                return find_gpu(card if _x else entry).vendor, int(count) if _x else 1
            except (LookupError, ValueError):
                continue
    return None, 1


def _name(fw: str) -> str:
    return next((f.name for f in frameworks() if f.id == fw), NAMES.get(fw, fw))


def _pick(named: list[str], vendor: str | None, cards: int, method: str, phase: str) -> tuple[str, str] | None:
    full = method == "full" or phase == "pretrain"
    rules = (
        ("mindspeed", vendor == "huawei" and full and cards > SERVER, "ascend_full"),
        ("llama-factory", vendor == "huawei", "ascend_adapters"),
        ("ms-swift", vendor == "huawei", "ascend_adapters"),
        ("mindspeed", vendor == "huawei", "ascend_full"),
        ("unsloth", cards <= 1 and not full and vendor in (None, "nvidia"), "one_gpu"),
        ("megatron", full and cards > SERVER, "multi_full"),
        ("deepspeed", full and cards > 1, "multi_full"),
        ("llama-factory", True, "default"),
        ("axolotl", True, "default"),
    )
    return next(((fw, why) for fw, cond, why in rules if cond and fw in named), None)


def framework_choice(ctx: Any) -> str:
    named = list(ctx.turn.ask.get("frameworks") or [])
    vendor, cards = _card(ctx)
    lines = [ctx.say("fwc.head"), ""]
    for fw in named:
        lines.append("- " + ctx.say("fwc.line", name=_name(fw), about=ctx.say(f"fwc.about.{fw}")))
    method, phase = ctx.profile.get("method") or "", ctx.profile.get("phase") or ""
    pick = _pick(named, vendor, cards, method, phase)
    lines.append("")
    if pick is not None:
        lines.append(ctx.say("fwc.pick", name=_name(pick[0]), why=ctx.say(f"fwc.why.{pick[1]}")))
        ctx.data["pick"] = {"framework": pick[0], "because": pick[1]}
    presets = {f.id for f in frameworks()}
    missing = [fw for fw in named if fw not in presets]
    if missing:
        lines.append(ctx.say("fwc.no_preset", names=ctx.say("list_sep").join(_name(fw) for fw in missing)))
    ctx.data["frameworks"] = [{"id": fw, "preset": fw in presets} for fw in named]
    return "\n".join(lines)
