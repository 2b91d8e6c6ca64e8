"""The second part of a training question on fewer of the user's machines ("and if we only get 2 of the nodes bc other
team needs the rest, how long then"; reading/fewer.py puts {'servers': 2} or {'gpus': 16} in the turn's ask): the
run is checked again on that many of the plan's cards (training_memory, training_time with the plan's own inputs)
and its hours said right under the headline, beside the hours on all of them."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say

DAY = 24.0


def fewer_figures(ask: dict[str, Any], rec: Any, recorder: Any) -> dict[str, Any] | None:
    """The run on fewer cards: count, servers, hours, memory per GPU; None when not asked or not fewer."""
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.inference import usable_bytes
    from gpu_advisor.tools.recommend import training_setup, training_time_setup
    from gpu_advisor.tools.training import training_memory
    from gpu_advisor.tools.training_time import training_time

    fewer = ask.get("fewer")
    best = rec.best if rec else None
    if not isinstance(fewer, dict) or best is None or best.training_hours is None:
        return None
    w = rec.workload
    per = int(best.server_gpus or w.server_gpus or 8)
    n = int(fewer.get("gpus") or int(fewer.get("servers") or 0) * per)
    if "share" in fewer:  # 'and if we only get half of them': that share of the plan's cards
        n = max(1, round(best.gpus * float(fewer["share"])))
    if n <= 0 or n >= best.gpus:
        return None
    try:
        mem_in, time_in = training_setup(w, n, best.gpu), training_time_setup(w, best.gpu, n, best.owned)
        mem, run = training_memory(mem_in), training_time(time_in)
    except (ToolError, LookupError, ValueError):
        return None
    if recorder is not None:
        recorder("training_memory", mem_in.model_dump(mode="json"), mem.model_dump(mode="json"), 0.0)
        recorder("training_time", time_in.model_dump(mode="json"), run.model_dump(mode="json"), 0.0)
    room = usable_bytes(find_gpu(best.gpu))
    return {"gpus": n, "servers": -(-n // per), "of": best.gpus, "gpu": best.gpu, "gpu_name": best.gpu_name,
            "hours": run.hours, "all_hours": best.training_hours, "per_gpu_bytes": mem.per_gpu_total_bytes,
            "capacity_bytes": room, "fits": mem.per_gpu_total_bytes <= room}


def with_fewer(text: str, extra: dict[str, Any], ask: dict[str, Any], rec: Any, lang: str,
               recorder: Any) -> tuple[str, dict[str, Any]]:
    """The reply with the time on fewer cards right under its headline (see the module's text)."""
    from gpu_advisor.assistant.writers import gb, hours

    f = fewer_figures(ask, rec, recorder)
    if f is None:
        return text, extra
    key = "second2.fewer_yes" if f["fits"] else "second2.fewer_no"
    line = say(lang, key, n=f["gpus"], card=f["gpu_name"], servers=f["servers"], hours=hours(f["hours"]),
               days=f"{f['hours'] / DAY:,.1f}", all=f["of"], all_hours=hours(f["all_hours"]),
               need=gb(f["per_gpu_bytes"]), have=gb(f["capacity_bytes"]))
    head, sep, rest = text.partition("\n\n")
    text = head + sep + line + "\n\n" + rest if sep else text + "\n\n" + line
    return text, {**extra, "fewer": f}
