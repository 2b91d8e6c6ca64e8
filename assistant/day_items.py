"""A service's items a day said before ('部署 Qwen2.5-VL-72B 做发票识别，每天大概两万张图片'), then the job put right as a
batch ('不是聊天，是后台批量跑的，白天8小时内处理完就行', "it's not a chatbot, it's a nightly batch, must finish in 8h"):
a batch job of that many items, every day, due within the window said (a day when none is), and the count is never
asked again (review CM #9: it was). A vision model's served items are one image each (its image tokens in every
prompt, tools.recommend): a batch's items carry it already (slots.Slot.default_for)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.policy import Profile
from gpu_advisor.assistant.reading.daily_volume import DAY_HOURS
from gpu_advisor.knowledge import find_model

DAYS_A_MONTH = 30.0
SERVED = ("serve", "production", "train-and-serve", "experiment")


def apply_day_items(profile: Profile, updates: dict[str, Any], lang: str, notes: list[str]) -> None:
    """The items a day said, as the batch's items when the job turns batch; as one image a request for a vision
    model served."""
    phase = updates.get("phase") or profile.phase
    items = updates.get("items_per_day") or profile.items_per_day
    if not items:
        return
    if phase in SERVED and "items_per_day" in updates and not (updates.get("images_per_request")
                                                                or profile.images_per_request):
        if _image_tokens(updates.get("model") or profile.model):
            updates["images_per_request"] = 1  # '每天两万张图片' to a vision model: each request one image
        return
    if phase != "batch" or profile.phase == "batch" or "batch_items" in updates:
        return
    updates["batch_items"] = int(items)
    for slot in ("requests_per_s", "rate_day_hours"):  # the same items, now the batch's: no rate of them is left
        updates.setdefault(slot, None)
    if profile.images_per_request == 1 and "images_per_request" not in updates:
        updates["images_per_request"] = None  # one image an item: the batch's input counts it (slots.Slot.default_for)
    if "runs_per_month" not in updates and not profile.runs_per_month:
        updates["runs_per_month"] = DAYS_A_MONTH
    if "deadline_hours" not in updates and not profile.deadline_hours:
        updates["deadline_hours"] = DAY_HOURS
    notes.append(say(lang, "note.day_items_batch", items=f"{int(items):,}",
                     hours=f"{updates.get('deadline_hours') or profile.deadline_hours:g}"))


def _image_tokens(model: str | None) -> int:
    if not model:
        return 0
    try:
        return find_model(model).image_tokens or 0
    except (LookupError, ValueError):
        return 0
