"""The first line owed to a message that trains and then serves on cards it names ('weekly DPO runs … and also serve
it to ~500 beta users … a box w/ 2x rtx 5090?', review CT E2): whether each job fits those cards, said apart, never
one verdict for both drawn from the training's memory alone. Training by tools.recommend's option at that count,
serving by what that many cards serve at once (tools.capacity) against the people at once the plan counts."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.writers import gb
from gpu_advisor.tools.capacity import capacity
from gpu_advisor.tools.recommend import Option, Recommendation


def both_jobs_line(rec: Recommendation, option: Option, lang: str, recorder: Any = None) -> tuple[str, dict[str, Any]] | None:
    """'**Fine-tuning fits on 2 × RTX 5090** (11.3 GB of 34.0 GB per GPU); **serving does not** …'; with the data
    behind it. None when the job does not both train and serve, or the option has no training memory."""
    w = rec.workload
    best = rec.best
    if best is None or not (w.spec.trains and w.spec.serves) or option.train_per_gpu_bytes is None:
        return None
    c = capacity(w, option.gpu, option.gpus, precision=w.serve_precision, plan=option)
    if recorder is not None:
        recorder("capacity", {"workload": w.model_dump(mode="json"), "gpu": option.gpu, "gpus": option.gpus,
                              "precision": w.serve_precision}, c.model_dump(mode="json"), 0.0)
    trains = option.train_per_gpu_bytes <= option.capacity_bytes and option.trains is not False
    serves = c.users >= w.users
    key = "pinned.both_" + ("train" if trains else "no_train") + ("_serve" if serves else "_no_serve")
    data = {"gpu": option.gpu, "gpus": option.gpus, "fits": trains and serves, "train_fits": trains,
            "serve_fits": serves, "users_held": c.users, "users": w.users}
    return say(lang, key, option=f"{option.gpus} × {option.gpu_name}", used=gb(option.train_per_gpu_bytes),
               capacity=gb(option.capacity_bytes), held=f"{c.users:,}", users=f"{w.users:,}",
               plan=f"{best.gpus} × {best.gpu_name}"), data
