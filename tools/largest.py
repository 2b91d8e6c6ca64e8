"""The inverse question: the biggest model a card (or a few) holds for one job ('whats the biggest model i can
finetune with lora / qlora on a 3090', '24G显存最大能跑多大的模型', 'largest model on 2x 4090 at q4'). For each
method (LoRA, QLoRA, full) or weight format asked, the largest parameter count whose memory still fits, found
by halving on a model known only by its size (the same sizing a plan uses: tools.recommend.evaluate, at the
workload's sequence, batch, context and users), then the catalog's largest general models that fit on their
own architecture, and the next bigger one that does not. Memory decides; the speed of each is reported."""

from __future__ import annotations

from pydantic import BaseModel, Field

from gpu_advisor.knowledge import find_gpu, models
from gpu_advisor.tools.biggest import SPECIALISED
from gpu_advisor.tools.recommend import Option, Workload, evaluate

STEP_B = 0.5  # the size found to within half a billion parameters
MAX_EXAMPLES = 3
FOUR_BIT = ("q4_k_m", "int4")  # the 4-bit format tried for speed: a desktop card's or a Mac's file, else a server's


class Fitting(BaseModel):
    """One catalog model sized on the cards."""

    model: str
    params_b: float
    active_params_b: float | None = None
    fits: bool
    precision: str | None = None
    per_gpu_gb: float = Field(description="memory per GPU the job needs, GB")
    decode_tokens_per_s: float | None = Field(None, description="serving: one user's tokens per second")


class Largest(BaseModel):
    """The biggest model `gpus` × `gpu` holds for one method or format."""

    gpu: str
    gpus: int
    trains: bool = Field(description="fine-tuning (a method) rather than serving (a weight format)")
    method: str | None = Field(None, description="fine-tuning method: lora, qlora, full")
    precision: str | None = Field(None, description="serving: the weight format at the largest size")
    params_b: float = Field(description="largest dense size that fits, billions of parameters (0: none)")
    per_gpu_gb: float = Field(0.0, description="memory per GPU at that size, GB")
    capacity_gb: float = Field(0.0, description="usable memory per GPU, GB")
    decode_tokens_per_s: float | None = Field(None, description="serving: one user's tokens per second at that size")
    seq_len: int = Field(description="training sequence length used")
    context: int = Field(description="serving context used")
    examples: list[Fitting] = Field([], description="the catalog's largest general models that fit, largest first")
    quick: Fitting | None = Field(None, description="serving: the largest dense catalog model that fits and writes at the "
                                                    "speed floor (reading speed, or the speed said) for one user")
    speed_floor: float | None = Field(None, description="serving: the per-user tokens/s the quick model meets")
    over: Fitting | None = Field(None, description="the next catalog model bigger than the largest size, which does not fit")


def _newest(model_id: str) -> tuple[int, ...]:
    """Of two models the same size, the newer line first ('qwen2.5-72b' before 'qwen2-72b'): the id's
    characters, reversed in order."""
    return tuple(-ord(c) for c in model_id)


def _job(w: Workload, model: str, method: str | None, precision: str | None) -> Workload:
    if method:
        return w.model_copy(update={"phase": "fine-tune", "model": model, "method": method})
    return w.model_copy(update={"phase": "serve", "model": model, "serve_precision": precision, "users": w.users or 1})


def _fits(o: Option | None, trains: bool) -> bool:
    return o is not None and bool(o.trains if trains else o.serves)


def _sized(w: Workload, model: str, gpu_id: str, gpus: int, method: str | None, precision: str | None) -> Option | None:
    return evaluate(_job(w, model, method, precision), find_gpu(gpu_id), gpus, owned=True)


def _row(model_id: str, params: float, active: float | None, o: Option | None, trains: bool) -> Fitting:
    used = (o.train_per_gpu_bytes if trains else o.serve_per_gpu_bytes) if o is not None else None
    return Fitting(model=model_id, params_b=params, active_params_b=active, fits=_fits(o, trains),
                   precision=None if o is None else o.precision, per_gpu_gb=round((used or 0) / 1e9, 1),
                   decode_tokens_per_s=None if o is None or trains else o.decode_tokens_per_s)


def _quick(w: Workload, model_id: str, row: Fitting, gpu_id: str, gpus: int, precision: str | None) -> Fitting | None:
    """The row when it writes at the workload's speed floor for one user; with no format said and the usual one
    too slow, the model in 4-bit when that is fast enough (fewer bytes read a token)."""
    if (row.decode_tokens_per_s or 0) >= w.speed_floor:
        return row
    if precision is not None or (row.precision or "") in (FOUR_BIT + ("int4", "awq", "gptq")):
        return None
    four = FOUR_BIT[0] if find_gpu(gpu_id).segment in ("consumer", "apple") else FOUR_BIT[1]
    o = _sized(w, model_id, gpu_id, gpus, None, four)
    alt = _row(model_id, row.params_b, row.active_params_b, o, False)
    return alt if alt.fits and (alt.decode_tokens_per_s or 0) >= w.speed_floor else None


def largest(w: Workload, gpu_id: str, gpus: int, method: str | None = None, precision: str | None = None) -> Largest:
    """The largest model `gpus` × `gpu_id` holds: fine-tuned with `method` (lora, qlora, full), else served in
    `precision` (None: the tools' usual format, 4-bit where that is what fits). `w` carries the sequence,
    batch, context and users said."""
    trains = method is not None
    top = int(find_gpu(gpu_id).memory_gb * gpus * 4 / STEP_B)  # no format holds more than 4 parameters a byte

    def at(steps: int) -> Option | None:
        return _sized(w, f"generic-{steps * STEP_B:g}b", gpu_id, gpus, method, precision)

    good, good_opt, bad = 0, None, top + 1
    while bad - good > 1:  # memory grows with size: halve between the last that fits and the first that does not
        mid = (good + bad) // 2
        o = at(mid)
        if _fits(o, trains):
            good, good_opt = mid, o
        else:
            bad = mid
    size = good * STEP_B
    general = sorted((m for m in models() if m.modality == "text" and not m.encoder
                      and not any(s in m.id for s in SPECIALISED + ("codellama",))), key=lambda m: (-m.total_params_b, _newest(m.id)))
    examples: list[Fitting] = []
    over: Fitting | None = None
    quick: Fitting | None = None
    for m in general:
        if m.total_params_b > size * 1.6 + 1:
            continue  # far beyond the size found: a MoE of that total holds no more than a dense one
        has_dense = any(e.active_params_b is None for e in examples)
        if len(examples) >= MAX_EXAMPLES and has_dense and (trains or quick is not None):
            break
        row = _row(m.id, m.total_params_b, m.active_params_b if m.is_moe else None,
                   _sized(w, m.id, gpu_id, gpus, method, precision), trains)
        if row.fits and not trains and quick is None and not m.is_moe:
            quick = _quick(w, m.id, row, gpu_id, gpus, precision)
        if row.fits and (len(examples) < MAX_EXAMPLES or (not has_dense and not m.is_moe)) \
                and all(e.params_b != row.params_b for e in examples):
            examples.append(row)  # one model of each size, and the largest dense one among them
        elif not row.fits and not has_dense and m.total_params_b > size and not m.is_moe:
            over = row  # the dense model just above the size found: the next one that does not fit
    used = (good_opt.train_per_gpu_bytes if trains else good_opt.serve_per_gpu_bytes) if good_opt else None
    return Largest(gpu=gpu_id, gpus=gpus, trains=trains, method=method,
                   precision=None if trains or good_opt is None else good_opt.precision, params_b=size,
                   per_gpu_gb=round((used or 0) / 1e9, 1),
                   capacity_gb=round((good_opt.capacity_bytes if good_opt else 0) / 1e9, 1),
                   decode_tokens_per_s=None if trains or good_opt is None else good_opt.decode_tokens_per_s,
                   seq_len=w.seq_len, context=w.context, examples=examples, over=over, quick=quick,
                   speed_floor=None if trains else w.speed_floor)
