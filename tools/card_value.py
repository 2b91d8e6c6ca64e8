"""Which of two or more cards is better value for inference ('H20和A100哪个跑推理划算', 'which is better bang for buck
for inference, h100 or a100'): each card's rental price (tools.cost.price_quote in the market asked about) and
purchase price (the China street price in China, else the record's) divided into what sets its speed. Decoding
reads the weights and the KV cache for every token, so its tokens/s per dollar follow memory bandwidth per dollar;
prefill (long prompts, RAG) and large batches are compute-bound, so they follow dense TFLOPS per dollar (FP8 where
the card has FP8 tensor cores, else BF16). A card with no price on record is said, never ranked."""

from __future__ import annotations

from pydantic import BaseModel, Field

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.knowledge.china_prices import china_price_usd
from gpu_advisor.tools.common import Explained, ToolError, ToolInput
from gpu_advisor.tools.cost import Region, price_quote


class CardValueInput(ToolInput):
    gpus: list[str] = Field(min_length=2, max_length=4, description="the cards weighed")
    region: Region = Field("global", description="the market the prices are taken in")
    buy_usd: list[float | None] | None = Field(None, description="each card's purchase price as the user would pay "
                                               "it, in the order of gpus (None: none on record); default: the China "
                                               "street price in China, else the record's")


class CardValue(BaseModel):
    gpu: str
    name: str
    bandwidth_gbps: float
    bf16_tflops: float
    fp8_tflops: float | None
    rent_usd_per_hour: float | None = Field(description="typical on-demand $/GPU-hour in the market, None: no offer")
    rent_providers: list[str] = []
    rent_region: str | None = None
    buy_usd: float | None = Field(description="purchase price of one card, None: none on record")
    bandwidth_per_rent: float | None = Field(description="GB/s per $/hour")
    tflops_per_rent: float | None = Field(description="BF16 TFLOPS per $/hour")
    bandwidth_per_buy: float | None = Field(description="GB/s per $1,000")
    tflops_per_buy: float | None = Field(description="BF16 TFLOPS per $1,000")


class CardValueResult(Explained):
    cards: list[CardValue]
    region: str
    decode_rent: str | None = Field(description="the card with the most bandwidth per rental dollar")
    prefill_rent: str | None = Field(description="the card with the most BF16 TFLOPS per rental dollar")
    decode_buy: str | None = None
    prefill_buy: str | None = None


def _best(cards: list[CardValue], key: str) -> str | None:
    priced = [c for c in cards if getattr(c, key) is not None]
    if len(priced) < 2:
        return None
    return max(priced, key=lambda c: float(getattr(c, key))).gpu


def card_value(inp: CardValueInput) -> CardValueResult:
    cards: list[CardValue] = []
    for i, query in enumerate(inp.gpus):
        gpu = find_gpu(query)
        try:
            quote = price_quote(gpu.id, inp.region)
            rent, providers, where = quote.usd_per_gpu_hour_typical, quote.providers, quote.region
        except ToolError:
            rent, providers, where = None, [], None
        buy = inp.buy_usd[i] if inp.buy_usd is not None and i < len(inp.buy_usd) else \
            (china_price_usd(gpu.id) if inp.region == "china" else None) or gpu.buy_price_usd
        cards.append(CardValue(
            gpu=gpu.id, name=gpu.name, bandwidth_gbps=gpu.memory_bandwidth_gbps, bf16_tflops=gpu.bf16_tflops,
            fp8_tflops=gpu.fp8_tflops, rent_usd_per_hour=rent, rent_providers=providers, rent_region=where,
            buy_usd=buy, bandwidth_per_rent=gpu.memory_bandwidth_gbps / rent if rent else None,
            tflops_per_rent=gpu.bf16_tflops / rent if rent else None,
            bandwidth_per_buy=gpu.memory_bandwidth_gbps / buy * 1000 if buy else None,
            tflops_per_buy=gpu.bf16_tflops / buy * 1000 if buy else None))
    assumptions = ["decode speed per dollar follows memory bandwidth per dollar; prefill and large batches follow "
                   "dense BF16 TFLOPS per dollar", "rental: the typical on-demand price on record in the market"]
    return CardValueResult(cards=cards, region=inp.region, decode_rent=_best(cards, "bandwidth_per_rent"),
                           prefill_rent=_best(cards, "tflops_per_rent"), decode_buy=_best(cards, "bandwidth_per_buy"),
                           prefill_buy=_best(cards, "tflops_per_buy"), assumptions=assumptions)
