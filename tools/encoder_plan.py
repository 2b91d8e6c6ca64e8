"""An embedding or reranking service at a request rate, weighed over cards: the user's own cards first, else the
cards one rents, ranked by what the service costs an hour (tools.encoder_serving sizes each card; tools.cost's
price snapshots price it). A service takes traffic around the clock, so a month is HOURS_PER_MONTH rented hours.
Own cards cost no rent: they do the job when there are as many of them as the rate needs."""

from __future__ import annotations

from pydantic import BaseModel, Field

from gpu_advisor.knowledge import find_gpu, rules
from gpu_advisor.tools.common import MAX_COUNT, MODEL_HELP, REGION_HELP, Explained, ToolError, ToolInput, term
from gpu_advisor.tools.cost import HOURS_PER_MONTH, Region, few_offers, offer_spread, try_price
from gpu_advisor.tools.encoder_serving import EncoderServingInput, EncoderServingResult, encoder_serving

# The cards weighed for renting, by market: what the rental snapshots price widely (tools.recommend's lists, with
# the small inference cards an encoder fits on: it reads, it holds no KV cache worth a large card).
CARDS: dict[str, tuple[str, ...]] = {
    "global": ("l4", "a10", "rtx-4090", "rtx-5090", "l40s", "a100-80gb-sxm", "h100-sxm"),
    "china": ("rtx-4090", "rtx-3090", "l20", "a800-80gb-sxm", "h20", "h800-sxm"),
}
OPTIONS_SHOWN = 4


class EncoderPlanInput(ToolInput):
    model: str = Field(description=MODEL_HELP + " (an embedding or reranking model)")
    requests_per_s: float = Field(gt=0, le=1e7, description="requests per second (queries for a reranker)")
    tokens_per_input: int = Field(512, gt=0, le=MAX_COUNT, description="tokens of each text (each candidate)")
    inputs_per_request: int = Field(1, gt=0, le=10_000, description="texts per request; a reranker's candidates")
    region: Region = Field("global", description=REGION_HELP)
    owned: list[str] = Field([], description="the user's own cards as 'N x card' ('2x rtx-4090'): weighed first")
    cards: list[str] | None = Field(None, description="cards to weigh for renting; None: the market's usual ones")


class EncoderOption(BaseModel):
    gpu: str
    gpu_id: str
    gpus: int
    owned: int = Field(0, description="the user's own cards of this kind (0: rented)")
    enough: bool = Field(description="own cards: as many as the rate needs; rented: always")
    usd_per_gpu_hour: float | None = None
    usd_per_hour: float | None = None
    usd_per_month: float | None = None
    offers: int = 0
    sized: EncoderServingResult


class EncoderPlanResult(Explained):
    model: str
    reranker: bool
    requests_per_s: float
    options: list[EncoderOption]
    best: EncoderOption | None
    usd_per_cny: float | None = Field(None, description="where the user pays in yuan: the rate shown")


def _owned(entries: list[str]) -> list[tuple[int, str]]:
    out = []
    for entry in entries:
        count, sep, card = entry.partition("x ")
        n = int(count) if sep and count.strip().isdigit() else 1
        out.append((n, (card if sep and count.strip().isdigit() else entry).strip()))
    return out


def _sized(inp: EncoderPlanInput, gpu: str) -> EncoderServingResult:
    return encoder_serving(EncoderServingInput(model=inp.model, gpu=gpu, requests_per_s=inp.requests_per_s,
                                               tokens_per_input=inp.tokens_per_input,
                                               inputs_per_request=inp.inputs_per_request))


def encoder_plan(inp: EncoderPlanInput) -> EncoderPlanResult:
    options: list[EncoderOption] = []
    for n, card in _owned(inp.owned):
        gpu = find_gpu(card)
        sized = _sized(inp, gpu.id)
        options.append(EncoderOption(gpu=gpu.name, gpu_id=gpu.id, gpus=sized.gpus, owned=n,
                                     enough=sized.fits and sized.gpus <= n, sized=sized))
    owned_ids = {o.gpu_id for o in options}
    rented: list[EncoderOption] = []
    for card in inp.cards or CARDS["china" if inp.region == "china" else "global"]:
        gpu = find_gpu(card)
        quote = try_price(gpu.id, inp.region)
        if gpu.id in owned_ids or quote is None:
            continue
        sized = _sized(inp, gpu.id)
        if not sized.fits:
            continue
        hour = sized.gpus * quote.usd_per_gpu_hour_typical
        rented.append(EncoderOption(gpu=gpu.name, gpu_id=gpu.id, gpus=sized.gpus, enough=True,
                                    usd_per_gpu_hour=quote.usd_per_gpu_hour_typical, usd_per_hour=hour,
                                    usd_per_month=hour * HOURS_PER_MONTH, offers=quote.samples, sized=sized))
    # a price from one or two offers ranks as if it cost the market's usual spread more (tools.cost.offer_spread)
    spread = offer_spread().spread
    rented.sort(key=lambda o: ((o.usd_per_hour or 0.0) * (1 + spread if few_offers(o.offers) else 1), o.gpus))
    options = [o for o in options if o.enough] + rented[:OPTIONS_SHOWN] + [o for o in options if not o.enough]
    if not options:
        raise ToolError("no card on record both holds this model and has a rental price in this market")
    best = options[0] if options[0].enough else None
    first = options[0].sized
    terms = [
        term("tokens_per_s_needed", "Tokens read per second", first.tokens_per_s_needed, "tokens/s",
             "requests/s x inputs per request x tokens per input (tools.encoder_serving)",
             {"requests_per_s": inp.requests_per_s, "inputs_per_request": inp.inputs_per_request}),
        term("options", "Cards weighed", len(options), "options",
             "own cards first when there are enough of them, then rented cards by dollars an hour (a price from "
             "few offers counted at the market's usual spread more)",
             {"region": inp.region}),
    ]
    if best is not None and best.usd_per_hour is not None:
        terms.append(term("usd_per_month", "Rent a month", best.usd_per_month or 0.0, "USD",
                          "GPUs x typical $/GPU-hour x hours in a month (up around the clock)",
                          {"gpus": best.gpus, "usd_per_gpu_hour": round(best.usd_per_gpu_hour or 0.0, 2),
                           "hours": HOURS_PER_MONTH}))
    return EncoderPlanResult(
        model=first.model, reranker=first.reranker, requests_per_s=inp.requests_per_s, options=options, best=best,
        usd_per_cny=rules().usd_per_cny if inp.region == "china" else None, terms=terms,
        assumptions=[*first.assumptions, f"a service up around the clock: {HOURS_PER_MONTH:g} rented hours a month"],
        warnings=list(first.warnings))
