"""Servers the user owns shared out between two jobs: '我们有4台8卡H100 … 全参微调Llama-3.1-70B（数据2亿token）… 留一部分
卡部署DeepSeek-V3，20个并发。卡怎么分？', 'we have 4 nodes of 8x H100: serve deepseek-v3 for 20 users and full fine-tune
llama 3.1 70b on 200M tokens, how do we split them?'.

The service holds its cards all day, so it gets the fewest whole servers of theirs that meet its targets (the
recommend tool on that many owned cards, one server more each try); the training run gets every other server,
sized by the same tool (memory per GPU and hours for its tokens). Before, all the cards served and the training run
was 'not sized here', or the plan rented other cards. The plan below the paragraph is the service on its share."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.running_job import running_ack, running_split, running_words

# Servers of the user's own tried for the service, at most: beyond them the split is no longer 'a part of the cards'.
MAX_SERVERS = 16


def _parts(profile: Any, also: dict[str, Any] | None) -> tuple[int, Any, int] | None:
    """(cards owned, their card, cards per server) when the split applies: a service sized on the user's own cards
    of one kind, several servers of them, and a training run of a known model beside it."""
    from gpu_advisor.tools.recommend import parse_owned

    if not also or also.get("phase") != "fine-tune" or not also.get("run") or not also.get("model"):
        return None
    if profile.phase not in ("serve", "production") or len(profile.owned or []) != 1:
        return None
    try:
        count, gpu = parse_owned(str(profile.owned[0]))
    except LookupError:
        return None
    per = int(profile.server_gpus or 8)
    if per < 1 or count % per or not 2 <= count // per <= MAX_SERVERS:
        return None
    return count, gpu, per


def _train(w: Any, also: dict[str, Any], gpu: Any, n: int, recorder: Any) -> Any:
    """The training run on n of the user's cards: the recommend tool's option for them, or None."""
    from gpu_advisor.tools.recommend import Workload, recommend

    run = also["run"]
    data = w.model_dump()
    data.update({"phase": "fine-tune", "model": also["model"], "method": run.get("method") or "full",
                 "owned": [f"{n}x {gpu.id}"], "users": 1, "population": None, "requests_per_s": None,
                 "train_tokens": run.get("train_tokens"), "epochs": run.get("epochs") or 1.0,
                 "seq_len": run.get("seq_len") or data.get("seq_len"), "network": data.get("network") or "fast",
                 "flexible": [f for f in data.get("flexible", []) if f not in ("method", "phase", "model")]})
    tw = Workload.model_validate(data)
    rec = recommend(tw)
    if recorder is not None:
        recorder("recommend", tw.model_dump(mode="json"), rec.model_dump(mode="json"), 0.0)
    best = rec.best
    return best if best is not None and best.owned and best.gpus == n else None


def split_owned(profile: Any, also: dict[str, Any] | None, defaulted: list[str], recorder: Any = None
                ) -> dict[str, Any] | None:
    """The split of the user's servers: {'serve_owned': '8x h100-sxm', 'gpu', 'per', 'total', 'serve_gpus',
    'train': the training option on the rest}; None when it does not apply or no share of servers does both jobs."""
    from gpu_advisor.assistant.advice import workload_for
    from gpu_advisor.tools.common import ToolError
    from gpu_advisor.tools.recommend import recommend

    if (also or {}).get("running"):  # 'serving A on 8 of them, add B': B on the cards left free (running_job.py)
        return running_split(profile, also, defaulted, recorder)
    parts = _parts(profile, also)
    if parts is None or also is None:
        return None
    total, gpu, per = parts
    try:
        for servers in range(1, total // per):
            n = servers * per
            mine = profile.model_copy(update={"owned": [f"{n}x {gpu.id}"]})
            w = workload_for(mine, defaulted)
            best = recommend(w).best
            if best is None or not best.owned or not best.ok:
                continue
            train = _train(w, also, gpu, total - n, recorder)
            if train is None or train.trains is False or not train.ok:
                return None  # the rest cannot hold the training run: the plan stays as it was
            return {"serve_owned": f"{n}x {gpu.id}", "gpu": gpu.id, "gpu_name": gpu.name, "per": per, "total": total,
                    "serve_gpus": n, "train_gpus": total - n, "train_model": also["model"],
                    "method": train_method(also), "hours": train.training_hours,
                    "per_gpu_bytes": train.train_per_gpu_bytes, "capacity_bytes": train.capacity_bytes,
                    "tokens": also["run"].get("train_tokens")}
    except (ToolError, LookupError, ValueError):
        return None
    return None


def train_method(also: dict[str, Any]) -> str:
    return str((also.get("run") or {}).get("method") or "full")


def split_words(split: dict[str, Any], lang: str, serve_model: str) -> tuple[str, str]:
    """(headline, paragraph) of the split, every figure a tool's."""
    from gpu_advisor.assistant.pairing import _name
    from gpu_advisor.assistant.writers import gb, hours

    if split.get("kind") == "running":
        return running_words(split, lang, serve_model)
    per, n, m = split["per"], split["serve_gpus"], split["train_gpus"]
    values = {"total": split["total"], "card": split["gpu_name"], "servers": split["total"] // per, "per": per,
              "serve_servers": n // per, "serve_gpus": n, "train_servers": m // per, "train_gpus": m,
              "serve_model": _name(serve_model), "train_model": _name(split["train_model"]),
              "method": say(lang, f"method.{split['method']}"),
              "need": gb(split["per_gpu_bytes"] or 0), "have": gb(split["capacity_bytes"] or 0),
              "hours": hours(split["hours"] or 0),
              "network": say(lang, "owned_split.network") if m > per else "",
              "tokens": f"{(split['tokens'] or 0) / 1e6:,.0f}M" if lang != "zh"
              else f"{(split['tokens'] or 0) / 1e8:,.4g} 亿"}
    return say(lang, "owned_split.headline", **values), say(lang, "owned_split.body", **values)


def split_ack(also: dict[str, Any], lang: str) -> str:
    """The training run in 'from what you said', sized on the servers left to it."""
    from gpu_advisor.assistant.pairing import _name

    if also.get("running"):
        return running_ack(also, lang)
    return say(lang, "ack.also", job=say(lang, "pair.job.fine-tune"), model=_name(str(also.get("model") or "")),
               when=say(lang, "owned_split.when"))
