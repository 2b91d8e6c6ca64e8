"""Advice for people who own their cards (tools/recommend.py, tools/scale.py): every layout of an owned
cluster tried and the best chosen with its reason; cards that miss a target by a modest margin get more of
the same card first, priced for the added ones only; consumer cards serve in small PCIe units, never as
pipelines across servers, and a plan the answer warns about names a better one."""

from __future__ import annotations

import pytest

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.cost import try_price
from gpu_advisor.tools.recommend import TIGHT_HEADROOM, Workload, recommend, shortfall
from gpu_advisor.tools.scale import PCIE_MAX_TP, plan, small_units_only, units


def serve(**kw) -> Workload:
    return Workload(phase="serve", server_gpus=8, **kw)


# --- every layout of an owned cluster tried, the one that meets the targets chosen -----------------------

OWNED_CLUSTERS = [
    # model, card, cards owned, users, first-token target (ms), region, format chosen
    ("deepseek-v3", "h100-sxm", 32, 400, 2000, "global", "fp8"),
    ("deepseek-v3", "a800-80gb-sxm", 32, 200, 3000, "china", "fp8"),
    ("llama-3.1-405b", "h100-sxm", 24, 40, 2000, "global", "fp8"),
    ("deepseek-r1", "h200", 16, 200, 2000, "global", "fp8"),
]


@pytest.mark.parametrize(("model", "card", "count", "users", "ttft", "region", "fmt"), OWNED_CLUSTERS)
def test_every_layout_of_an_owned_cluster_is_tried_and_the_fastest_that_meets_the_targets_wins(
        model, card, count, users, ttft, region, fmt):
    rec = recommend(serve(model=model, users=users, ttft_ms=ttft, region=region, owned=[f"{count}x {card}"]))
    best = rec.best
    assert best is not None and best.owned and best.ok and rec.action == "use"
    assert best.gpus <= count and best.precision == fmt  # the checkpoint's format when it meets the targets
    assert best.chosen_because == "meets"
    tried = best.layouts_tried
    assert len(tried) >= 2 and len({(t.replicas, t.tp, t.pp, t.precision) for t in tried}) == len(tried)
    first = tried[0]
    assert (first.replicas, first.tp, first.pp, first.precision) == (best.replicas, best.tp, best.pp, best.precision)
    assert all(t.gpus <= count for t in tried)
    same = [t for t in tried if t.ok and t.precision == fmt]
    assert all((t.decode_tokens_per_s or 0) <= (first.decode_tokens_per_s or 0) + 1e-9 for t in same)


def test_deepseek_v3_on_four_owned_h100_servers_is_one_expert_parallel_copy_over_all_of_them_in_fp8():
    # h-fixc: an MLA mixture of experts runs data-parallel attention + expert parallel across servers (DeepSeek's own
    # layout): one copy over the 32 GPUs writes faster per user (24 tokens/s) than two copies of TP8 x PP2 (18)
    rec = recommend(serve(model="deepseek-v3", users=400, ttft_ms=2000, owned=["32x h100-sxm"]))
    best = rec.best
    assert best is not None and best.owned and best.ok
    assert (best.replicas, best.tp, best.pp, best.servers, best.precision) == (1, 32, 1, 4, "fp8")
    assert best.dp_attention == 32 and best.expert_parallel
    assert best.link_between == "infiniband"
    # the other layouts are there, with their figures: pipeline stages over servers, four copies in 4-bit
    layouts = {(t.replicas, t.tp, t.pp, t.precision) for t in best.layouts_tried}
    assert {(2, 8, 2, "fp8"), (1, 8, 4, "fp8"), (4, 8, 1, "int4")} <= layouts
    assert all((t.decode_tokens_per_s or 0) <= (best.decode_tokens_per_s or 0) + 1e-9
               for t in best.layouts_tried if t.precision == "fp8")


def test_when_no_layout_of_your_cards_meets_the_target_the_closest_is_chosen_and_the_gap_said():
    rec = recommend(serve(model="deepseek-v3", users=400, ttft_ms=60, owned=["32x h100-sxm"]), with_levers=False)
    mine = rec.owned_options[0]
    assert not mine.ok and mine.chosen_because == "closest"
    assert mine.layouts_tried and mine.layouts_tried[0].shortfall is not None
    gaps = [t.shortfall for t in mine.layouts_tried if t.shortfall is not None]
    assert mine.layouts_tried[0].shortfall == min(gaps) > 1.0
    assert shortfall(mine, rec.workload) == pytest.approx(mine.layouts_tried[0].shortfall)


# --- more of the same card first ---------------------------------------------------------------------

def _batch(**kw) -> Workload:
    job = {"batch_items": 2_000_000, "batch_input_tokens": 3000, "batch_output_tokens": 300, "server_gpus": 8}
    return Workload(phase="batch", **{**job, **kw})


EXTENSIONS = [
    # workload, card, cards owned, cards added
    (_batch(model="llama-3.1-70b", deadline_hours=24, owned=["16x h100-sxm"]), "h100-sxm", 16, 8),
    (_batch(model="qwen2.5-72b", deadline_hours=24, owned=["16x h100-sxm"]), "h100-sxm", 16, 8),
    (serve(model="llama-3.1-70b", users=300, min_tokens_per_s=20, owned=["8x a100-80gb-sxm"]), "a100-80gb-sxm", 8, 8),
    (serve(model="llama-3.1-8b", users=40, owned=["1x rtx-4090"]), "rtx-4090", 1, 1),
    (serve(model="qwen2.5-14b", users=50, region="china", utilisation=1.0, owned=["2x rtx-4090"]), "rtx-4090", 2, 2),
]


@pytest.mark.parametrize(("w", "card", "owned", "added"), EXTENSIONS)
def test_owned_cards_that_miss_by_a_modest_margin_get_more_of_the_same_card_first(w, card, owned, added):
    rec = recommend(w)
    mine = rec.owned_options[0]
    assert not mine.ok  # your cards alone miss (the deadline, the speed, or the users they hold)
    best = rec.best
    assert best is not None and best.ok and not best.owned and best.gpu == card
    assert (best.owned_gpus, best.gpus - best.owned_gpus) == (owned, added)
    assert rec.action in ("rent", "buy")
    assert added % (best.gpus // best.replicas) == 0  # the added cards hold whole copies of the model
    quote = try_price(card, w.region)
    assert quote is not None and best.usd_per_hour == pytest.approx(quote.usd_per_gpu_hour_typical * added)
    others = [o for o in rec.options if o.ok and not o.owned_gpus]
    assert others, "other card classes stay in the list, after the extension"
    if w.deadline_hours:
        assert best.meets["deadline"] and best.job_usd == pytest.approx(best.usd_per_hour * best.job_hours)


def test_an_extension_prices_only_the_added_cards_for_buying_too():
    rec = recommend(_batch(model="llama-3.1-70b", deadline_hours=24, owned=["16x h100-sxm"]))
    best = rec.best
    assert best is not None and best.owned_gpus == 16 and best.purchase_usd is not None
    alone = recommend(_batch(model="llama-3.1-70b", deadline_hours=24, candidates=["8x h100-sxm"]), with_levers=False)
    eight = [o for o in alone.options if o.gpus == 8]
    assert eight and best.purchase_usd == pytest.approx(eight[0].purchase_usd)


def test_far_too_few_cards_get_no_extension():
    # one 4090 for a 70B model and 200 people: doubling it is nowhere near; the other classes compete on cost
    rec = recommend(serve(model="llama-3.1-70b", users=200, owned=["1x rtx-4090"]))
    assert rec.best is None or rec.best.owned_gpus == 0


def test_cards_that_do_the_job_are_used_as_they_are():
    rec = recommend(_batch(model="llama-3.1-8b", deadline_hours=48, batch_items=10_000, owned=["8x h100-sxm"]))
    assert rec.best is not None and rec.best.owned and rec.best.owned_gpus == 0


# --- consumer cards serve in small units -------------------------------------------------------------

CONSUMER = ["rtx-3090", "rtx-4090", "rtx-5090"]
BIG = ["qwen2.5-72b", "llama-3.1-70b"]


@pytest.mark.parametrize("card", CONSUMER)
@pytest.mark.parametrize("model", BIG)
def test_consumer_cards_never_pipeline_across_servers_nor_split_a_model_over_more_than_four(card, model):
    from gpu_advisor.tools.models import resolve_model

    gpu = find_gpu(card)
    assert small_units_only(gpu)
    assert all(tp <= PCIE_MAX_TP and pp == 1 for tp, pp in units(resolve_model(model), gpu=gpu))
    for layout in plan(model, gpu, [("vllm", "int8", None), ("vllm", "int4", None)], 200, 8192, 6.0,
                       all_formats=True):
        assert layout.tp <= PCIE_MAX_TP and layout.pp == 1


@pytest.mark.parametrize("card", CONSUMER)
@pytest.mark.parametrize("model", BIG)
def test_a_big_model_on_consumer_cards_only_is_small_4_bit_copies_and_a_better_card_is_named(card, model):
    rec = recommend(serve(model=model, users=100, candidates=[card]))
    best = rec.best
    assert best is not None and best.ok and best.gpu == card
    assert best.tp is not None and best.tp <= PCIE_MAX_TP and best.pp == 1 and best.replicas >= 2
    assert best.precision == "int4"  # 72B in 4 bits fits 2-4 x 24 GB
    if best.headroom_fraction < TIGHT_HEADROOM or (best.servers or 1) > 1:
        # the answer warns about this plan: it must name the better one
        assert rec.better is not None and rec.better.ok and rec.better.gpu != card


def test_data_centre_pcie_cards_keep_pipelines_across_servers():
    from gpu_advisor.tools.models import resolve_model

    assert not small_units_only(find_gpu("l40s"))
    assert any(pp > 1 for _tp, pp in units(resolve_model("llama-3.1-405b"), gpu=find_gpu("l40s")))


def test_owned_consumer_servers_serve_as_small_copies():
    rec = recommend(serve(model="qwen2.5-72b", users=60, owned=["24x rtx-3090"]))
    best = rec.best
    assert best is not None and best.owned and best.ok
    assert best.tp is not None and best.tp <= PCIE_MAX_TP and best.pp == 1 and best.replicas >= 6


@pytest.mark.parametrize("card", ["h100-sxm", "a100-80gb-sxm"])
@pytest.mark.parametrize("count", [8, 16])
@pytest.mark.parametrize("miss", [0.07, 0.4])
def test_a_deadline_missed_by_a_modest_margin_adds_at_most_as_many_again_of_your_card(card, count, miss):
    from gpu_advisor.tools.recommend import DEADLINE_MARGIN

    job = {"model": "llama-3.1-70b", "batch_items": 300_000, "owned": [f"{count}x {card}"]}
    alone = recommend(_batch(**job), with_levers=False).owned_options[0]
    assert alone.ok and alone.job_hours is not None
    # a deadline your cards miss by `miss` (against the plan's margin)
    deadline = alone.job_hours / (1 + miss) / (1 - DEADLINE_MARGIN)
    rec = recommend(_batch(**job, deadline_hours=deadline))
    assert not rec.owned_options[0].ok
    best = rec.best
    assert best is not None and best.ok and best.gpu == card and best.owned_gpus == count
    added = best.gpus - count
    assert 0 < added <= count and added % 8 == 0  # whole servers beside whole servers
    assert best.job_hours is not None and best.job_hours <= deadline * (1 - DEADLINE_MARGIN)
    assert rec.action == "rent"  # a job that ends: the added server is rented for the run
