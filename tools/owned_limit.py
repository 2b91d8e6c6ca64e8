"""The limit at which cards you own hold a service they cannot hold as asked (review s28: '2x rtx 3090, llama 3.1 70b
at 4bit for 10 concurrent users' was sent to rent an A100 while the two cards hold it at ~2-3k tokens a user).

A few cards of one kind (a desktop or workstation's), several people at once, the model in the format planned,
neither renting nor buying said:
- the longest context per conversation at which every user fits at once, with the KV cache as planned and with
  it in 8 bits (vLLM --kv-cache-dtype fp8: half the cache);
- the most users at once at the context asked;
- the fewest more of the same card (up to as many again) that hold the job as asked.
Each figure is the owned card evaluated by tools.recommend (memory and speed targets); nothing is sized here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from gpu_advisor.tools.common import last_step

if TYPE_CHECKING:
    from gpu_advisor.knowledge.schema import Gpu
    from gpu_advisor.tools.recommend import Option, Recommendation, Workload

# The segments of cards bought for a desktop or workstation: data-centre fleets have their own answers
# (serving the gap, a request rate's copies).
LIMIT_SEGMENTS = ("consumer", "workstation")
# The most cards of one kind this answer is about (one or two desktops, a workstation of eight).
LIMIT_MAX_CARDS = 8
# More of the same card are tried up to this many times as many again as you own.
MORE_AT_MOST = 1


class OwnedLimit(BaseModel):
    """What the cards you own hold of a service they cannot hold as asked (see the module)."""

    gpu: str
    gpus: int
    users_asked: int = Field(description="the users at once asked (the plan below may serve only the rest of them)")
    context_asked: int
    context: int | None = Field(None, description="longest context per user, every user at once, KV cache as planned")
    context_kv8: int | None = Field(None, description="the same with the KV cache in 8 bits")
    kv8: str | None = Field(None, description="the 8-bit KV format on this card (tools.kv_format): 'fp8', 'int8'")
    users: int | None = Field(None, description="most users at once at the context asked, KV cache as planned")
    users_kv8: int | None = Field(None, description="the same with the KV cache in 8 bits")
    at_limit: Option | None = Field(None, description="your cards at the first limit said (its memory and speed)")
    more: Option | None = Field(None, description="your cards and the fewest more of them that hold the job as asked")

    @property
    def holds(self) -> bool:
        """Whether some limit lets your cards serve (a shorter context, fewer users, an 8-bit KV cache)."""
        return any(x for x in (self.context, self.context_kv8, self.users, self.users_kv8))


def applies(w: Workload, rec: Recommendation) -> bool:
    """A service for several people at once on one kind of a few desktop or workstation cards you own that
    do not hold it as asked, with no request rate (its copies are sized by the queue) and no pool."""
    from gpu_advisor.tools.recommend import LLAMA_CPP_MAX_USERS, parse_owned

    if not (w.spec.serves and not w.spec.trains and not w.spec.batch and len(w.owned) == 1
            and w.users > LLAMA_CPP_MAX_USERS // 2 and not (w.requests_per_s or w._rate_per_s)
            and (w.preference == "either" or "preference" in w.flexible)):
        return False  # (renting or buying said: the plan's heading answers what to rent or buy)
    if len(rec.owned_options) != 1 or rec.owned_options[0].ok or rec.pool is not None \
            or (rec.best is not None and rec.best.owned and not rec.best.owned_gpus):
        return False
    count, gpu = parse_owned(w.owned[0])
    return gpu.segment in LIMIT_SEGMENTS and count <= LIMIT_MAX_CARDS


def owned_limit(w: Workload, rec: Recommendation) -> OwnedLimit | None:
    """The limits of the cards you own for the service asked (see the module); None where it does not apply."""
    if not applies(w, rec):
        return None
    from gpu_advisor.tools.recommend import parse_owned

    count, gpu = parse_owned(w.owned[0])
    limit = limits_on(w, gpu, count, rec.owned_options[0].precision, owned=True)
    limit.more = _more(w, rec, w.model_copy(update=_format(rec.owned_options[0].precision)), gpu, count)
    return limit


def _format(precision: str | None) -> dict[str, object]:
    return {"serve_precision": precision} if precision else {}


def limits_on(w: Workload, gpu: Gpu, count: int, precision: str | None, owned: bool) -> OwnedLimit:
    """The longest context at which `count` x `gpu` hold every user at once, and the most users at once at the context
    asked, each with the KV cache as planned and in 8 bits, in `precision` weights: cards you own (`owned`) or the
    count the user named for the job (tools.named_limit)."""
    from gpu_advisor.tools.kv_format import kv8_format
    from gpu_advisor.tools.recommend import CONTEXT_STEP, evaluate

    base = w.model_copy(update=_format(precision))

    def on_yours(**change: object) -> Option | None:
        o = evaluate(base.model_copy(update=change), gpu, count, owned=owned)
        return o if o is not None and o.ok else None

    def context(kv: int | None) -> int | None:
        if w.kv_cache and kv is None:
            return None
        steps = last_step(lambda n: on_yours(context=n * CONTEXT_STEP, kv_cache=kv) is not None,
                          1, w.context // CONTEXT_STEP - 1)
        return None if steps is None else steps * CONTEXT_STEP

    def users(kv: int | None) -> int | None:
        if w.kv_cache and kv is None:
            return None
        return last_step(lambda n: on_yours(users=n, kv_cache=kv) is not None, 1, w.users - 1)

    kv8 = kv8_format(gpu)
    asked_kv = w.kv_cache  # an 8-bit cache asked already: the limits are with it
    limit = OwnedLimit(gpu=gpu.id, gpus=count, kv8=kv8, users_asked=w.users, context_asked=w.context,
                       context=context(asked_kv), users=users(asked_kv),
                       context_kv8=context(8) if kv8 and not asked_kv else None,
                       users_kv8=users(8) if kv8 and not asked_kv else None)
    # a card with FP8 units tries the 8-bit cache on its own (tools.recommend.serving_tries): a limit found with it
    # is the 8-bit cache's
    if limit.context and not asked_kv and _kv8_taken(on_yours(context=limit.context)):
        limit.context_kv8, limit.context = max(limit.context, limit.context_kv8 or 0), None
    if limit.users and not asked_kv and _kv8_taken(on_yours(users=limit.users)):
        limit.users_kv8, limit.users = max(limit.users, limit.users_kv8 or 0), None
    if limit.context:
        limit.at_limit = on_yours(context=limit.context, kv_cache=asked_kv)
    elif limit.context_kv8:
        limit.at_limit = on_yours(context=limit.context_kv8, kv_cache=8)
    return limit


def _kv8_taken(o: Option | None) -> bool:
    return o is not None and o.kv_precision is not None


def _more(w: Workload, rec: Recommendation, base: Workload, gpu: object, count: int) -> Option | None:
    """Your cards and the fewest more of them (up to MORE_AT_MOST times as many again) that hold the job as asked in
    the same computer: the plan's own when it adds your card."""
    from gpu_advisor.tools.recommend import evaluate

    best = rec.best
    if best is not None and best.owned_gpus and best.gpu == rec.owned_options[0].gpu:
        return best
    for total in range(count + 1, count * (1 + MORE_AT_MOST) + 1):
        o = evaluate(base, gpu, total, owned=True)  # type: ignore[arg-type]
        if o is not None and o.ok:
            return o
    return None
