"""Why a row that shows less than the plan does not lead, from the options' own figures (review AU8, AU12, AT C2):
one copy split over more cards (over PCIe where the card has no NVLink), split across servers, little memory to spare,
a warning on the card; for a purchase by an organisation, the market the card is had in (review CG #7): sold in
China only through grey channels without warranty (tools.recommend.china_official_first), or sold used only
(tools.recommend.second_hand_for_a_company); and the other terms of the ranking (tools.recommend._rank_key,
cost_score): a card the user was quoted, a service bought held at a product's speed or in 8 bits, a card off CUDA,
the fine-tuning runs paid on the same cards, else what the whole job costs rather than the column shown. Said under
the table whenever the plan is not the cheapest row shown (issue 25: it was said only when the cheapest way was
asked, or for the market), and in the answer to 'why not X?' (assistant.direct). A thinly priced row is explained by
writers._cheaper_row_lines."""

from __future__ import annotations

from collections.abc import Callable

from gpu_advisor.assistant.advice import Answer
from gpu_advisor.assistant.catalog import say
from gpu_advisor.knowledge import find_gpu
from gpu_advisor.knowledge.china_channel import officially_sold
from gpu_advisor.tools.recommend import (
    FOUR_BIT,
    STACK_PENALTY,
    TIGHT_HEADROOM,
    Option,
    Recommendation,
    as_bought,
    quoted,
    second_hand_for_a_company,
    service_bought,
    slow_for_service,
)

# The reasons of a market, not of the figures (review CG #7)
MARKET = ("grey", "used")
# Said when no other reason is on record: the ranking weighs what the whole job costs, not the column shown alone
WHOLE = "whole"


def paid_key(rec: Recommendation) -> str:
    """The option field the plan is paid by: the purchase for a buy, a run for a job, else the hour."""
    best = rec.best
    if rec.action == "buy":
        return "purchase_usd"
    return "job_usd" if best is not None and best.job_usd is not None and not rec.workload.spec.serves else "usd_per_hour"


def cheaper_why_lines(answer: Answer, lang: str, rows: list[Option], words: Callable[..., str],
                      price: Callable[[Option, float | None], str]) -> list[str]:
    """One line for the cheapest row below the plan, with why it does not lead; none when the plan is the cheapest."""
    rec = answer.recommend
    best = rec.best
    if best is None or best.owned:
        return []
    key = paid_key(rec)
    mine = getattr(best, key)
    if not mine:  # (a plan with no price in that field: an unpriced Ascend bought, an owned share)
        return []
    cheaper = [o for o in rows if o.ok and not o.owned and getattr(o, key) and getattr(o, key) < mine
               and (o.gpu, o.gpus) != (best.gpu, best.gpus)]
    if not cheaper:
        return []
    o = min(cheaper, key=lambda x: getattr(x, key))
    why = why_words(why_codes(rec, o) or [WHOLE], o, lang)
    theirs = getattr(o, key)
    return [say(lang, "buybox.cheaper_why", option=words(o), price=price(o, theirs), pick=price(best, mine),
                pct=f"{(mine / theirs - 1) * 100:.0f}", why=say(lang, "sep").join(why)), ""]


def why_codes(rec: Recommendation, o: Option) -> list[str]:
    """Why row `o` does not lead over the plan, as codes (empty when nothing on record says so)."""
    best, w = rec.best, rec.workload
    if best is None:
        return []
    codes = []
    if rec.action == "buy" and w.region == "china" and not w.personal and officially_sold(find_gpu(best.gpu)) \
            and not officially_sold(find_gpu(o.gpu)):
        codes.append("grey")
    if rec.action == "buy" and second_hand_for_a_company(o, as_bought(w)) and not second_hand_for_a_company(best, as_bought(w)):
        codes.append("used")
    per_copy, best_copy = o.gpus // max(o.replicas, 1), best.gpus // max(best.replicas, 1)
    if per_copy > best_copy:
        codes.append("pcie" if o.engine != "llama.cpp" and not find_gpu(o.gpu).has_nvlink else "cards")
    if o.pp > 1 and best.pp <= 1:
        codes.append("servers")
    if o.headroom_fraction < max(TIGHT_HEADROOM, best.headroom_fraction) and o.headroom_fraction < 0.15:
        codes.append("tight")
    if o.avoid and not best.avoid:
        codes.append("warned")
    if quoted(w, best.gpu) is not None and quoted(w, o.gpu) is None:
        codes.append("quoted")
    if service_bought(w) and o.ok:  # tools.recommend._service_bought: 8 bits, then a product's speed
        if o.precision in FOUR_BIT and best.precision not in FOUR_BIT:
            codes.append("four_bit")
        if slow_for_service(o, w) and not slow_for_service(best, w):
            codes.append("slow")
    if STACK_PENALTY[find_gpu(o.gpu).stack] > STACK_PENALTY[find_gpu(best.gpu).stack]:
        codes.append("stack")
    if w.spec.trains and w.spec.serves and o.job_usd is not None and best.job_usd is not None \
            and o.job_usd > best.job_usd:
        codes.append("runs")
    return codes


def why_words(codes: list[str], o: Option, lang: str) -> list[str]:
    """The codes as the clauses of one sentence, in the user's language."""
    per_copy = o.gpus // max(o.replicas, 1)
    return [say(lang, f"buybox.why_{c}", n=f"{per_copy:,}", spare=f"{o.headroom_fraction * 100:.0f}",
                tps=f"{o.decode_tokens_per_s or 0:,.0f}") for c in codes]
