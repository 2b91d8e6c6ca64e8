"""Two jobs on the same cards: a second model served beside the first, or a second job in another window.

Served at the same time, both engines stay loaded on every card: the memory of each GPU is the sum of
both models' weights, KV caches and engine overheads (each engine is its own process with its own CUDA
context), and it must fit in the share of the card the engines may take (vLLM's 90%, split between
them with --gpu-memory-utilization). Run at different times (a chat by day, a batch job at night or
once a week), only the larger of the two must fit, and the second is checked on the first one's
cards: does it fit, and how long does its run take there.

Two services on two or more cards are also tried each on its own share of the cards (k for the first, the rest
for the second: "70B on 4 H100s, 32B on the other 4", "one copy on each card"): no engine shares a card, each
model's tensor-parallel degree and copies are its own, and each share says whether it meets its users. The
split kept is the one where both fit and meet their targets, then the one whose slower model is fastest.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.common import Explained, ToolInput, term
from gpu_advisor.tools.inference import VLLM_DEFAULT_UTILISATION
from gpu_advisor.tools.recommend import NODE_GPUS, Option, Workload, evaluate

# Cards tried for both jobs together, from the first job's own count up.
COUNTS = (1, 2, 4, 8, 16)


class PairInput(ToolInput):
    first: Workload = Field(description="the job the plan was sized for")
    second: Workload = Field(description="the other job on the same cards")
    gpu: str = Field(description="the plan's card (catalog id)")
    gpus: int = Field(gt=0, le=64, description="the plan's card count")
    together: bool = Field(description="true: both run at the same time (memory adds); false: in turns")
    first_per_gpu_bytes: float | None = Field(None, gt=0, description="the plan's own memory per card for the first "
                                                                       "job at `gpus` (as the plan laid it out); None: "
                                                                       "sized here")
    owned: bool = Field(False, description="the plan's cards are the user's own fleet: a split over several servers "
                                           "gives each model whole servers, its copies laid out over them")


class Share(BaseModel):
    """One model on its own share of the cards."""
    model: str
    gpus: int = Field(description="the cards this model gets")
    tp: int = Field(description="tensor-parallel GPUs of each copy")
    replicas: int = Field(description="copies of the model on its cards")
    users: int = Field(description="the people it serves at once")
    per_gpu_bytes: float = Field(description="its memory on each of its cards")
    capacity_bytes: float
    tokens_per_s: float | None = Field(None, description="each user's decode speed")
    ok: bool = Field(description="it meets its users' targets on these cards")


class PairResult(Explained):
    gpu: str
    gpu_name: str
    gpus_planned: int
    together: bool
    first_per_gpu_bytes: float = Field(description="the first job's memory on each card")
    second_per_gpu_bytes: float | None = Field(None, description="the second job's memory on each of the plan's cards; None: it "
                                                                 "does not load there")
    capacity_bytes: float = Field(description="each card's memory")
    fits: bool = Field(description="the plan's cards hold what must be loaded at once")
    gpus_needed: int | None = Field(None, description="the fewest of this card that hold it; None: not within 16")
    second_hours: float | None = Field(None, description="a second batch job's run on the cards that hold both "
                                                         "(gpus_needed, else the plan's)")
    second_tokens_per_s: float | None = Field(None, description="a second served model's speed per user there")
    second_precision: str | None = Field(None, description="the second served model's weight format there")
    split: list[Share] = Field(default_factory=list, description="two services each on its own share of the plan's "
                                                                   "cards (first, second); empty: no split holds both")


def _per_gpu(o: Option | None) -> float | None:
    return o.serve_per_gpu_bytes if o is not None and o.serves else None


def _both(inp: PairInput, n: int) -> tuple[Option | None, Option | None]:
    gpu = find_gpu(inp.gpu)
    return evaluate(inp.first, gpu, n), evaluate(inp.second, gpu, n, all_cards=inp.second.spec.batch)


def _holds(inp: PairInput, a: float | None, b: float | None, capacity: float) -> bool:
    if a is None or b is None:
        return False
    return not inp.together or a + b <= capacity * VLLM_DEFAULT_UTILISATION


def _capacity(o: Option | None, inp: PairInput) -> float:
    return o.capacity_bytes if o is not None and o.capacity_bytes else find_gpu(inp.gpu).memory_gb * 1e9


def _share(w: Workload, o: Option) -> Share:
    return Share(model=w.model, gpus=o.gpus, tp=o.tp or o.gpus // max(o.replicas, 1), replicas=o.replicas,
                 users=w.users, per_gpu_bytes=o.serve_per_gpu_bytes or 0.0, capacity_bytes=o.capacity_bytes,
                 tokens_per_s=o.decode_tokens_per_s, ok=o.ok)


def split(inp: PairInput) -> list[Share]:
    """Both services, each on its own share of the plan's cards: the best split, or [] when none holds both."""
    if not inp.together or inp.gpus < 2 or not (inp.first.spec.serves and inp.second.spec.serves) \
            or inp.first.spec.batch or inp.second.spec.batch:
        return []
    gpu = find_gpu(inp.gpu)
    best: tuple[tuple[bool, float, int], list[Share]] | None = None
    node = inp.first.server_gpus or NODE_GPUS
    fleet = inp.owned and inp.gpus > node  # an owned fleet of servers: each model gets whole servers
    for k in range(node if fleet else 1, inp.gpus, node if fleet else 1):
        a, b = evaluate(inp.first, gpu, k, owned=fleet), evaluate(inp.second, gpu, inp.gpus - k, owned=fleet)
        if a is None or b is None or not a.serves or not b.serves:
            continue
        key = (a.ok and b.ok, min(a.decode_tokens_per_s or 0.0, b.decode_tokens_per_s or 0.0), k)
        if best is None or key[:2] > best[0][:2]:
            best = (key, [_share(inp.first, a), _share(inp.second, b)])
    return best[1] if best else []


def pair(inp: PairInput) -> PairResult:
    """Whether the plan's cards hold both jobs, and if not, how many of the same card do."""
    first, second = _both(inp, inp.gpus)
    gpu = find_gpu(inp.gpu)
    capacity = _capacity(second if first is None else first, inp)
    a_bytes = inp.first_per_gpu_bytes or _per_gpu(first)
    b_bytes = _per_gpu(second)  # on the plan's cards, beside the first's own bytes there (never on more cards)
    fits = _holds(inp, a_bytes, b_bytes, capacity)
    needed = inp.gpus if fits else None
    for n in (c for c in COUNTS if c > inp.gpus):
        if needed is not None:
            break
        a, b = _both(inp, n)
        if _holds(inp, _per_gpu(a), _per_gpu(b), _capacity(a, inp)):
            needed, second = n, b  # the second job as it runs on the cards that hold both
    a_bytes = a_bytes or 0.0
    result = PairResult(gpu=gpu.id, gpu_name=gpu.name, gpus_planned=inp.gpus, together=inp.together,
                        first_per_gpu_bytes=a_bytes, second_per_gpu_bytes=b_bytes, capacity_bytes=capacity,
                        fits=fits, gpus_needed=needed,
                        second_hours=second.job_hours if second and second.serves and inp.second.spec.batch else None,
                        second_tokens_per_s=second.decode_tokens_per_s if second and second.serves
                        and inp.second.spec.serves else None,
                        second_precision=second.precision if second and second.serves else None)
    result.split = split(inp)
    if result.split:
        result.assumptions.append("split: each model on its own cards, its own engine, tensor-parallel within them")
    if inp.together and b_bytes is not None:
        result.terms.append(term("together_per_gpu_bytes", "both models on each card", a_bytes + b_bytes, "bytes",
                                 "first job's memory per GPU + second job's memory per GPU",
                                 {"first_bytes": a_bytes, "second_bytes": b_bytes}))
    result.assumptions.append("at the same time: both engines stay loaded on every card, and each is given its "
                              "share of the card's memory" if inp.together else
                              "in turns: one job's engine is stopped while the other runs")
    return result
