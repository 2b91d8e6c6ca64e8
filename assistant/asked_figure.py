"""A follow-up that asks for a figure, answered first with that figure (review T: the old plan was reprinted or
another question answered). Three answers, each a code with its tools' figures (reading/asked_figure.py reads them):

- `figure.moved`: a change asked with a figure ('and how much is it at 4k?', '那换成LoRA呢，快多少', '换成16k要多少显存',
  'how much cheaper with qlora'): the new plan's figures beside the plan before's, the measure asked first, with
  how much each moved (time, memory, cost, speed per user);
- `figure.longest`: the longest context the plan's cards hold in its weight format, per KV-cache format
  ('那int4的话上下文最多能开到多长', tools.context_limit);
- `figure.counts`: the fewest of each card named that meet the job ('h200 vs h100 vs mi300x, how many servers each?',
  'can we use fp8 on h100 to cut the count?'): servers and GPUs per card (assistant.direct.fewest), and in 16-bit
  weights beside a lower format asked, for the cut.

Every figure comes from a tool result (recorded); the writers put it in the user's language."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.writers import cash, gb, gpu_words, hours, tps
from gpu_advisor.tools.recommend import Option, Recommendation

# The inputs a change moves that name the new setup, in the order they are named ('LoRA', '4,096 tokens').
NAMED = ("method", "seq_len", "context", "serve_precision", "model", "users")
# The figures shown, per job, in order (the measure asked goes first).
TRAIN_FIGURES = ("memory", "speed", "cost")
SERVE_FIGURES = ("memory", "speed", "cost")
SIXTEEN = "bf16"  # the weights a lower format is set against when it is asked to cut the count
KV_BITS = (None, 8, 4)  # the KV-cache formats the longest context is said for: 16-bit, 8-bit, 4-bit


def _name(key: str, value: Any, lang: str) -> str:
    from gpu_advisor.assistant.moved import _value

    if key in ("seq_len", "context"):
        return say(lang, "figure.tokens", n=f"{int(value):,}")
    if key == "users":
        return say(lang, "figure.users", n=f"{int(value):,}")
    if key == "method":
        from gpu_advisor.assistant.method_switch import NAMES

        return NAMES.get(str(value)) or say(lang, f"mcmp.name.{value}").removeprefix("a ")
    return _value(key, value, lang)


def _moved_input(before: dict[str, Any], after: dict[str, Any], trains: bool) -> tuple[str, Any, Any] | None:
    for key in NAMED:
        if key == ("context" if trains else "seq_len"):
            continue  # a training plan's context, a serving plan's sequence length: not what the job is sized on
        old, new = before.get(key), after.get(key)
        if old is not None and new is not None and old != new:
            return key, old, new
    return None


def _pct(new: float, old: float) -> int:
    return round(abs(new - old) / old * 100) if old else 0


def _item(kind: str, new: Option, old: Option, rec: Recommendation, trains: bool, lang: str,
          data: dict[str, Any]) -> str | None:
    """One figure, new against old, with how much it moved ('about 1.3 h a run, against 1.7 h: 24% less time')."""
    if kind == "speed" and trains and new.job_hours and old.job_hours:
        pct, factor = _pct(new.job_hours, old.job_hours), round(old.job_hours / new.job_hours, 1)
        data["hours"], data["hours_pct"], data["hours_factor"] = [new.job_hours, old.job_hours], pct, factor
        key = "figure.hours_less" if new.job_hours < old.job_hours else "figure.hours_more"
        if round(new.job_hours, 1) == round(old.job_hours, 1):
            key = "figure.hours_same"
        return say(lang, key, new=hours(new.job_hours), old=hours(old.job_hours), pct=pct, factor=f"{factor:g}")
    if kind == "speed" and not trains and new.decode_tokens_per_s and old.decode_tokens_per_s:
        pct = _pct(new.decode_tokens_per_s, old.decode_tokens_per_s)
        data["tokens_per_s"], data["tokens_per_s_pct"] = [new.decode_tokens_per_s, old.decode_tokens_per_s], pct
        more = new.decode_tokens_per_s >= old.decode_tokens_per_s
        return say(lang, "figure.speed_more" if more else "figure.speed_less", new=tps(new.decode_tokens_per_s),
                   old=tps(old.decode_tokens_per_s), pct=pct)
    if kind == "memory":
        n = new.train_per_gpu_bytes if trains else new.serve_per_gpu_bytes
        o = old.train_per_gpu_bytes if trains else old.serve_per_gpu_bytes
        if not n or not o:
            return None
        data["per_gpu_bytes"] = [n, o]
        if (new.gpu, new.gpus) != (old.gpu, old.gpus):  # per GPU on other cards: no share of the one before
            return say(lang, "figure.memory_other", new=gb(n), old=gb(o), capacity=gb(new.capacity_bytes),
                       was=gb(old.capacity_bytes))
        pct = data["memory_pct"] = _pct(n, o)
        return say(lang, "figure.memory_less" if n <= o else "figure.memory_more", new=gb(n), old=gb(o), pct=pct,
                   capacity=gb(new.capacity_bytes))
    if kind == "cost":
        n_usd = None if new.owned else (new.job_usd if trains else new.usd_per_hour)
        o_usd = None if old.owned else (old.job_usd if trains else old.usd_per_hour)
        if n_usd is None or o_usd is None:
            return say(lang, "figure.cost_owned") if new.owned and kind == data.get("asked") else None
        pct = _pct(n_usd, o_usd)
        data["usd"], data["usd_pct"] = [n_usd, o_usd], pct
        unit = "run" if trains else "hour"
        moved = "same" if cash(n_usd, rec) == cash(o_usd, rec) else "less" if n_usd <= o_usd else "more"
        return say(lang, f"figure.cost_{unit}_{moved}", new=cash(n_usd, rec),
                   old=cash(o_usd, rec), pct=pct)
    return None


def figure_moved(answer: Any, previous: dict[str, Any], asked: str, lang: str) -> tuple[str, dict[str, Any]] | None:
    """The new plan's figures beside the plan before's, the measure asked first; None without both plans or with
    nothing named that moved."""
    rec: Recommendation = answer.recommend
    if rec is not None and asked in ("speed", "any"):
        from gpu_advisor.assistant.asked_speed import offload_speed

        line = offload_speed(rec, lang)  # the plan runs another model: the one asked, part of it in RAM
        if line and rec.offload is not None:
            return line, {"code": "figure.offload", "model": rec.offload.model_id,
                          "tokens_per_s": rec.offload.decode_tokens_per_s, "flags": rec.offload.flags}
    before = (previous.get("recommend") or {}).get("best") or {}
    new = rec.best if rec is not None else None
    if new is None or not before.get("gpu") or rec.workload is None:
        return None
    old = Option.model_validate(before)
    # like for like: the setup of the plan before, sized again, when the new plan still has it (else its own pick)
    new = next((o for o in [new, *rec.options] if (o.gpu, o.gpus) == (old.gpu, old.gpus) and o.ok), new)
    trains = rec.workload.spec.trains and not rec.workload.spec.serves
    moved = _moved_input(previous.get("inputs") or {}, answer.inputs or {}, trains)
    if moved is None:
        return None
    key, was, now = moved
    order = TRAIN_FIGURES if trains else SERVE_FIGURES
    kinds = [asked, *[k for k in order if k != asked]] if asked in order else list(order)
    data: dict[str, Any] = {"code": "figure.moved", "input": key, "old": was, "new": now, "asked": asked,
                            "gpu": new.gpu, "gpus": new.gpus}
    items = [x for x in (_item(k, new, old, rec, trains, lang, data) for k in kinds) if x]
    if not items:
        return None
    same = (new.gpu, new.gpus) == (old.gpu, old.gpus)
    where = say(lang, "figure.on_same" if same else "figure.on_other", setup=gpu_words(new, lang),
                before=gpu_words(old, lang))
    head = say(lang, "figure.head", now=_name(key, now, lang), was=_name(key, was, lang), where=where)
    return head + say(lang, "sep").join(items) + say(lang, "fig.end"), data


def on_cards_said(answer: Any) -> bool:
    """Whether a first message's plan is on cards the person has ('家里就一张4060ti 16g … 上下文最多能开多长'): the
    longest context is then theirs to ask before any plan was shown."""
    rec = answer.recommend
    return rec is not None and rec.best is not None and bool(rec.best.owned)


def longest(answer: Any, lang: str, recorder: Any = None) -> tuple[str, dict[str, Any]] | None:
    """The longest context per conversation the plan's cards hold in its weight format, for each KV-cache format."""
    from gpu_advisor.tools.context_limit import longest_context

    rec: Recommendation = answer.recommend
    best = rec.best if rec is not None else None
    w = rec.workload if rec is not None else None
    if best is None or w is None or not w.spec.serves or w.spec.trains:
        return None
    w = w.model_copy(update={"engine": best.engine or w.engine})
    rows: list[str] = []
    limits: list[dict[str, Any]] = []
    data: dict[str, Any] = {"code": "figure.longest", "gpu": best.gpu, "gpus": best.gpus, "precision": best.precision,
                            "users": w.users, "limits": limits}
    for bits in KV_BITS:
        args = {"workload": w.model_dump(mode="json"), "gpu": best.gpu, "gpus": best.gpus, "precision": best.precision,
                "kv_cache": bits}
        out = longest_context(w, best.gpu, best.gpus, precision=best.precision, kv_cache=bits)
        if recorder is not None:
            recorder("longest_context", args, out.model_dump(mode="json"), 0.0)
        at = out.at_limit
        kv = str(at.kv_precision).upper() if at is not None and at.kv_precision else \
            say(lang, "figure.kv_bits", bits=bits or 16)
        limits.append({"kv_cache": bits, "kv_precision": kv, "context": out.context,
                               "model_max": out.model_max})
        if out.context == 0:
            rows.append(say(lang, "figure.longest_none", kv=kv))
            continue
        top = say(lang, "figure.longest_top", model_max=f"{out.model_max:,}") if out.context >= out.model_max else ""
        rows.append(say(lang, "figure.longest_row", kv=kv, tokens=f"{out.context:,}", top=top,
                        tps=tps(at.decode_tokens_per_s or 0) if at else "-"))
        if out.context >= out.model_max:
            break  # a smaller cache holds no more than the model's own maximum
    head = say(lang, "figure.longest_head", setup=gpu_words(best, lang), precision=str(best.precision or "").upper(),
               users=f"{w.users:,}")
    return head + "\n" + "\n".join(f"- {r}" for r in rows), data


def counts(answer: Any, cards: list[str], lower: str | None, lang: str,
           recorder: Any = None) -> tuple[str, dict[str, Any]] | None:
    """The fewest of each card named that meet the job at the plan's load and targets (and in 16-bit weights beside
    a lower format asked to cut the count). None when the one card named is the plan's own (its headline says it)."""
    from gpu_advisor.knowledge import find_gpu

    rec: Recommendation = answer.recommend
    if rec is None or rec.workload is None or not cards:
        return None
    best = rec.best
    if len(cards) == 1 and best is not None and best.gpu == cards[0] and not lower:
        return None
    rows: list[str] = []
    sized: list[dict[str, Any]] = []
    data: dict[str, Any] = {"code": "figure.counts", "cards": sized}
    formats: list[str | None] = [None]
    if lower and lower != SIXTEEN and not rec.workload.spec.trains:
        formats.append(SIXTEEN)
    for gpu_id in cards:
        parts = []
        for fmt in formats:
            o = _fewest_on(rec, gpu_id, fmt, recorder)
            sized.append({"gpu": gpu_id, "format": fmt or (o.precision if o else None),
                          "gpus": o.gpus if o else None, "servers": _servers(o),
                          "per_gpu_bytes": (o.serve_per_gpu_bytes or o.train_per_gpu_bytes) if o else None})
            parts.append(_count_words(o, fmt, lang))
        rows.append(say(lang, "figure.count_row", gpu=find_gpu(gpu_id).name, counts=say(lang, "sep").join(parts)))
    if all(x["gpus"] is None for x in sized):  # no count of any card named meets it: why (an end-to-end target)
        from gpu_advisor.assistant.count_unmet import unmet_count_line

        unmet = unmet_count_line(answer, lang)
        if unmet:
            return unmet, {**data, "code": "figure.counts_unmet"}
    w = rec.workload
    load = say(lang, "figure.load_rate", rate=f"{w.requests_per_s:g}") \
        if w.requests_per_s and w.spec.serves and rec.prefill_load is None \
        else say(lang, "direct.load.users", users=f"{w.users:,}") if w.spec.serves else say(lang, "direct.load.job")
    return say(lang, "figure.counts_head", load=load) + "\n" + "\n".join(f"- {r}" for r in rows), data


def _fewest_on(rec: Recommendation, gpu_id: str, fmt: str | None, recorder: Any = None) -> Option | None:
    """The fewest of one card that meet the plan's job (in `fmt` weights when given): a request rate sized as the
    plan was (Little's law and the queueing model, tools.recommend on that card alone), else the counts tried by
    assistant.direct.fewest."""
    from gpu_advisor.assistant.direct import fewest

    w = rec.workload
    if fmt is not None:
        w = w.model_copy(update={"serve_precision": fmt, "flexible": [f for f in w.flexible if f != "precision"]})
    at = rec if fmt is None else rec.model_copy(update={"workload": w, "relaxed": None})
    return fewest(at, gpu_id, recorder)


def _servers(o: Option | None) -> int | None:
    if o is None:
        return None
    if o.servers:
        return o.servers
    per = o.server_gpus or 8
    return -(-o.gpus // per)


def _count_words(o: Option | None, fmt: str | None, lang: str) -> str:
    if o is None:
        return say(lang, "figure.count_none" if fmt else "figure.count_none_any", precision=(fmt or "").upper())
    servers = _servers(o) or 1
    precision = str(fmt or o.precision or "").upper()
    key = ("figure.count_servers" if servers > 1 else "figure.count_one") + ("" if precision else "_plain")
    return say(lang, key, gpus=o.gpus, servers=servers, precision=precision,
               per_gpu=gb(o.serve_per_gpu_bytes or o.train_per_gpu_bytes or 0))


def joined(parts: list[tuple[str, dict[str, Any]] | None], lang: str) -> tuple[str, dict[str, Any]] | None:
    """The answers found, in order, as one block and one data record (the first's code)."""
    found = [p for p in parts if p]
    if not found:
        return None
    data = dict(found[0][1])
    for p in found[1:]:
        data.setdefault("also", []).append(p[1])
    return "\n\n".join(p[0] for p in found), data
