"""Decode/prefill speed, training time and money, with the arithmetic written out."""

from __future__ import annotations

import statistics

import pytest

from gpu_advisor.knowledge import find_gpu, prices, rules
from gpu_advisor.knowledge.loader import residuals
from gpu_advisor.tools.common import ToolError, band_range
from gpu_advisor.tools.cost import CostInput, RentBuyInput, cost, price_quote, rent_vs_buy
from gpu_advisor.tools.throughput import SpeedInput, speed
from gpu_advisor.tools.training_time import TrainingTimeInput, training_time


def sp(**kw):
    kw.setdefault("model", "llama-3-8b")
    kw.setdefault("gpu", "h100-sxm")
    return speed(SpeedInput(**kw))


# --- decode and prefill ---------------------------------------------------------------------------

def test_batch_one_vllm_decode_by_hand():
    # Llama-3-8B BF16 on one H100 SXM (3350 GB/s HBM, vLLM reaches 80% of it), context 2048:
    #   bytes read per step: weights 8.03e9 x 2 + KV 2048 x 131,072 = 16,328,435,456
    #   memory time: 16,328,435,456 / (3350e9 x 0.8) = 6.0927 ms
    #   fixed overhead: 32 layers x 10 us + 3 ms step = 3.32 ms
    #   compute (8.03e9 x 2 + 4 x 32 x 2048 x 4096 FLOPs at 989.4 TFLOPS x 0.55) = 0.03 ms, below memory
    gpu = find_gpu("h100-sxm")
    assert (gpu.memory_bandwidth_gbps, gpu.memory_type) == (3350, "hbm")
    memory = (8.03e9 * 2 + 2048 * 131_072) / (3350e9 * 0.8)
    step = memory + 32 * 10e-6 + 3e-3
    r = sp()
    assert r.engine == "vllm"
    assert r.bound == "memory bandwidth"
    assert r.decode_tokens_per_s == pytest.approx(1 / step, rel=1e-9)
    assert r.aggregate_decode_tokens_per_s == r.decode_tokens_per_s


def test_more_bandwidth_decodes_faster():
    h100, a100 = sp(gpu="h100-sxm"), sp(gpu="a100-80gb-sxm")
    assert find_gpu("h100-sxm").memory_bandwidth_gbps > find_gpu("a100-80gb-sxm").memory_bandwidth_gbps
    assert h100.decode_tokens_per_s > 1.3 * a100.decode_tokens_per_s


def test_int4_decodes_faster_than_bf16():
    bf16, int4 = sp(precision="bf16"), sp(precision="int4")
    assert int4.decode_tokens_per_s > 1.5 * bf16.decode_tokens_per_s


def test_gguf_q4_decodes_faster_than_gguf_f16_on_llama_cpp():
    q4, f16 = sp(precision="q4_k_m"), sp(precision="f16")
    assert q4.engine == f16.engine == "llama.cpp"
    assert q4.decode_tokens_per_s > 1.5 * f16.decode_tokens_per_s


def test_batching_raises_aggregate_but_not_per_sequence_speed():
    speeds = [sp(batch=b) for b in (1, 8, 64)]
    per_seq = [s.decode_tokens_per_s for s in speeds]
    aggregate = [s.aggregate_decode_tokens_per_s for s in speeds]
    assert per_seq[0] > per_seq[1] > per_seq[2]
    assert aggregate[0] < aggregate[1] < aggregate[2]
    for s, b in zip(speeds, (1, 8, 64), strict=True):
        assert s.aggregate_decode_tokens_per_s == pytest.approx(b * s.decode_tokens_per_s)


def test_large_batch_becomes_compute_bound():
    assert sp(batch=1, context=128).bound == "memory bandwidth"
    assert sp(batch=1024, context=128).bound == "compute"


def test_prefill_is_far_faster_than_decode():
    r = sp()
    assert r.prefill_tokens_per_s > 20 * r.decode_tokens_per_s
    # time to first token: the whole prompt at the prefill rate, then one decode step
    assert r.time_to_first_token_s == pytest.approx(2048 / r.prefill_tokens_per_s + 1 / r.decode_tokens_per_s)


def test_tensor_parallel_over_pcie_warns_about_nvlink():
    pcie = sp(gpu="l40s", gpus=2, engine="vllm")
    assert any("no NVLink" in w and "PCIe" in w for w in pcie.warnings)
    assert sp(gpu="h100-sxm", gpus=2, engine="vllm").warnings == []


def test_tensor_parallel_over_nvlink_speeds_up_decode():
    assert sp(gpus=2).decode_tokens_per_s > sp(gpus=1).decode_tokens_per_s


def test_llama_cpp_layer_split_does_not_speed_up_decode():
    one, two = sp(precision="q4_k_m", gpus=1), sp(precision="q4_k_m", gpus=2)
    assert two.decode_tokens_per_s < one.decode_tokens_per_s
    assert any("splits layers" in a for a in two.assumptions)


def test_fp8_weights_on_a_card_without_fp8_units_say_so():
    r = sp(precision="fp8", gpu="a100-80gb-sxm")
    assert any("no FP8 tensor cores" in a for a in r.assumptions)


def test_weight_format_on_the_wrong_engine_is_rejected():
    with pytest.raises(ToolError, match=r"do not run on llama\.cpp"):
        sp(precision="awq", engine="llama.cpp")


# --- training time --------------------------------------------------------------------------------

def tt(**kw):
    kw.setdefault("model", "llama-3-8b")
    kw.setdefault("gpu", "h100-sxm")
    return training_time(TrainingTimeInput(**kw))


def test_lora_training_hours_by_hand():
    # 4 FLOPs x 8.03e9 active x 1e8 tokens / (2 GPUs x 989.4e12 x 0.4) / 3600 = 1.12723 h
    r = tt(gpus=2, method="lora", tokens=1e8, mfu=0.4, gradient_checkpointing=False)
    expected = 4 * 8.03e9 * 1e8 / (2 * 989.4e12 * 0.4) / 3600
    assert r.hours == pytest.approx(expected)
    assert r.hours == pytest.approx(1.12723, rel=1e-4)
    # the range: the measured error of published fine-tuning runs (bench residuals), 10th to 90th percentile
    band = residuals()["training time (fine-tune)"]
    assert band.rows >= 40
    assert r.hours_range == pytest.approx(band_range(expected, band.p10, band.p90))
    assert r.mfu == 0.4


def test_full_training_and_checkpointing_add_flops():
    # checkpointing now defaults to the framework's (on, as training memory assumes), so the
    # no-recompute baseline says gradient_checkpointing=False
    lora = tt(method="lora", tokens=1e8, mfu=0.4, gradient_checkpointing=False).hours
    assert tt(method="full", tokens=1e8, mfu=0.4, gradient_checkpointing=False).hours == pytest.approx(lora * 6 / 4)
    assert tt(method="lora", tokens=1e8, mfu=0.4).hours == pytest.approx(lora * 6 / 4)
    assert tt(method="lora", tokens=1e8, mfu=0.4, gradient_checkpointing=True).hours == pytest.approx(lora * 6 / 4)
    assert tt(method="full", tokens=1e8, mfu=0.4, gradient_checkpointing=True).hours == pytest.approx(lora * 8 / 4)
    assert tt(method="lora", tokens=1e8, mfu=0.4, epochs=3, gradient_checkpointing=False).hours == pytest.approx(lora * 3)


def test_qlora_runs_at_three_quarters_of_lora_speed():
    # the weight matmuls only (no sequence length given here: no attention FLOPs, so the whole step)
    r = tt(method="qlora", tokens=1e8, mfu=0.4)
    assert r.mfu == pytest.approx(0.4)
    assert r.hours == pytest.approx(tt(method="lora", tokens=1e8, mfu=0.4).hours / 0.75)


def test_qlora_attention_matmuls_are_not_slowed_by_dequantization():
    # with a sequence length, attention's own matmuls read no quantized weight: QLoRA costs LoRA's attention
    # time plus its weight matmuls / 0.75, so never more than full fine-tuning (review L1 c15)
    q, lo, full = (tt(method=m, tokens=1e8, mfu=0.4, seq_len=8192) for m in ("qlora", "lora", "full"))
    att = next(t for t in lo.terms if t.key == "training_hours").inputs["attention_flops_per_token"]
    assert att > 0
    weights_h = lambda r: r.hours - att * 1e8 / (989.4e12 * 0.4) / 3600  # noqa: E731
    assert weights_h(q) == pytest.approx(weights_h(lo) / 0.75)
    assert lo.hours < q.hours <= full.hours


def test_default_mfu_comes_from_the_gpu_class():
    # was one 35 % for every card; now the Hopper-and-later HBM figure of knowledge/data/training_mfu.yaml
    # (39.5 %), and LoRA counts the recompute its memory assumes: 6 FLOPs per parameter-token, not 4
    r = tt(tokens=1e8)
    assert r.mfu == 0.395
    assert r.hours == pytest.approx(6 * 8.03e9 * 1e8 / (989.4e12 * 0.395) / 3600)


def test_multi_gpu_training_over_pcie_loses_efficiency():
    # L40S: 362.05 TFLOPS BF16, no NVLink: full fine-tuning exchanges every gradient, MFU 0.4 x 0.7
    r = tt(gpu="l40s", gpus=2, tokens=1e8, mfu=0.4, method="full")
    assert r.mfu == pytest.approx(0.28)
    assert r.hours == pytest.approx(8 * 8.03e9 * 1e8 / (2 * 362.05e12 * 0.28) / 3600)  # 8: full + recompute
    assert any("no NVLink" in w for w in r.warnings)


def test_multi_gpu_lora_over_pcie_pays_nothing_for_its_adapter_gradients():
    # LoRA exchanges only its adapters' gradients (megabytes a step): the MFU stays 0.4
    r = tt(gpu="l40s", gpus=2, tokens=1e8, mfu=0.4)
    assert r.mfu == pytest.approx(0.4)
    assert r.hours == pytest.approx(6 * 8.03e9 * 1e8 / (2 * 362.05e12 * 0.4) / 3600)  # 6: LoRA + recompute
    assert not any("NVLink" in w for w in r.warnings)


def test_weak_china_card_warns_for_training():
    assert any("cut-down compute" in w for w in tt(gpu="h20", tokens=1e8).warnings)


def test_training_run_cost_is_hours_times_typical_price():
    r = tt(gpus=2, tokens=1e8, mfu=0.4)
    q = price_quote("h100-sxm")
    assert r.usd == pytest.approx(r.hours * 2 * q.usd_per_gpu_hour_typical)
    assert r.usd_range == pytest.approx((q.usd_per_gpu_hour_low * 2 * r.hours_range[0],
                                         q.usd_per_gpu_hour_high * 2 * r.hours_range[1]))


def test_training_run_cost_is_explained_in_a_term():
    r = tt(gpus=2, tokens=1e8, mfu=0.4)
    assert r.term("training_usd").value == pytest.approx(r.usd)
    assert any(a.startswith("rented at") for a in r.assumptions)


# --- cost -----------------------------------------------------------------------------------------

def test_cost_per_hour_and_per_million_tokens_by_hand():
    # 4 GPUs x 2.00 $/GPU-h = 8 $/h; 1000 tokens/s -> 3.6e6 tokens/h -> 8 / 3.6e6 x 1e6 = 2.2222 $/M
    r = cost(CostInput(gpu="h100-sxm", gpus=4, usd_per_gpu_hour=2.0, tokens_per_s=1000, hours=10))
    assert r.usd_per_hour == 8.0
    assert r.usd_per_hour_range == (8.0, 8.0)
    assert r.run_usd == pytest.approx(80.0)
    assert r.usd_per_million_tokens == pytest.approx(8.0 / (1000 * 3600) * 1e6)
    assert r.usd_per_million_tokens == pytest.approx(2.2222, rel=1e-4)


def test_idle_hours_raise_the_cost_per_token():
    busy = cost(CostInput(gpu="h100-sxm", usd_per_gpu_hour=2.0, tokens_per_s=1000))
    half = cost(CostInput(gpu="h100-sxm", usd_per_gpu_hour=2.0, tokens_per_s=1000, utilisation=0.5))
    assert half.usd_per_million_tokens == pytest.approx(2 * busy.usd_per_million_tokens)


def test_cost_uses_the_typical_price_on_record_times_gpus():
    q = price_quote("h100-sxm")
    r = cost(CostInput(gpu="h100-sxm", gpus=8))
    assert r.usd_per_hour == pytest.approx(8 * q.usd_per_gpu_hour_typical)
    assert r.usd_per_hour_range == pytest.approx((8 * q.usd_per_gpu_hour_low, 8 * q.usd_per_gpu_hour_high))


def test_cost_explains_run_and_token_cost_in_terms():
    r = cost(CostInput(gpu="h100-sxm", gpus=4, usd_per_gpu_hour=2.0, tokens_per_s=1000, hours=10))
    assert [t.key for t in r.terms] == ["usd_per_hour", "run_usd", "usd_per_million_tokens"]


def test_price_quote_is_the_median_of_on_demand_midpoints_outside_china():
    # the rule, applied by hand to the price records: non-China offers, on-demand or marketplace,
    # typical = median of (low + high) / 2, low = min of lows, high = max of highs
    offers = [p for p in prices() if p.gpu == "l40s" and p.region != "china"
              and p.kind in ("on-demand", "marketplace")]
    assert offers and all(p.currency == "USD" for p in offers)
    q = price_quote("l40s")
    assert q.usd_per_gpu_hour_typical == pytest.approx(statistics.median((p.price_low + p.price_high) / 2 for p in offers))
    assert q.usd_per_gpu_hour_low == min(p.price_low for p in offers)
    assert q.usd_per_gpu_hour_high == max(p.price_high for p in offers)
    assert q.samples == len(offers)


def test_china_prices_are_converted_from_cny():
    # L20 is quoted only in China, in CNY: 3.87 CNY x 0.14 USD/CNY = 0.5418 USD
    q = price_quote("l20", "china")
    assert q.usd_per_gpu_hour_typical == pytest.approx(3.87 * rules().usd_per_cny)
    assert "CNY converted" in q.currency_note


def test_gpu_without_prices_raises_tool_error():
    with pytest.raises(ToolError, match="no rental prices on record"):
        price_quote("apple-m2-ultra-192gb")


# --- rent versus buy ------------------------------------------------------------------------------

def rvb(**kw):
    base = dict(gpu="h100-sxm", rent_usd_per_gpu_hour=2.0, purchase_usd_per_gpu=30_000, power_w=1000,
                electricity_usd_per_kwh=0.2, hosting_usd_per_gpu_month=100, horizon_months=36, utilisation=0.5)
    base.update(kw)
    return rent_vs_buy(RentBuyInput(**base))


def test_rent_vs_buy_by_hand():
    # hours = 36 x 730 = 26,280; busy = 13,140
    # rent = 2.00 x 13,140 = 26,280 $
    # buy  = 30,000 + 100 x 36 + 1.0 kW x 0.20 $/kWh x 13,140 h = 33,600 + 2,628 = 36,228 $
    # break-even u* = 33,600 / (26,280 x (2.00 - 0.20)) = 0.71030
    r = rvb()
    assert r.rent_total_usd == pytest.approx(26_280)
    assert r.buy_total_usd == pytest.approx(36_228)
    assert r.break_even_utilisation == pytest.approx(33_600 / (26_280 * 1.8))
    assert r.break_even_utilisation == pytest.approx(0.71030, abs=1e-5)
    assert r.cheaper == "rent"
    # 71% lies outside the guide's 60-70%: the tool says so
    assert any("rule of thumb" in w for w in r.warnings)


def test_rent_vs_buy_scales_with_gpus_and_resale():
    two = rvb(gpus=2)
    assert two.rent_total_usd == pytest.approx(2 * 26_280)
    assert two.buy_total_usd == pytest.approx(2 * 36_228)
    assert two.break_even_utilisation == pytest.approx(33_600 / (26_280 * 1.8))
    # 20% resale: fixed = 30,000 x 0.8 + 3,600 = 27,600; u* = 27,600 / (26,280 x 1.8) = 0.5835
    assert rvb(resale_fraction=0.2).break_even_utilisation == pytest.approx(27_600 / (26_280 * 1.8))


def test_buying_wins_above_break_even():
    r = rvb(utilisation=0.9)
    # rent 2 x 23,652 = 47,304; buy 33,600 + 0.2 x 23,652 = 38,330.4
    assert r.rent_total_usd == pytest.approx(47_304)
    assert r.buy_total_usd == pytest.approx(38_330.4)
    assert r.cheaper == "buy"


def test_buying_never_pays_off_when_rent_is_below_the_power_bill():
    # 0.10 $/h rent < 1 kW x 0.20 $/kWh = 0.20 $/h of electricity
    r = rvb(rent_usd_per_gpu_hour=0.1)
    assert r.break_even_utilisation is None
    assert any("never pays off" in w for w in r.warnings)
    assert r.cheaper == "rent"


def test_buying_never_pays_off_when_break_even_exceeds_full_use():
    # margin 0.25 - 0.20 = 0.05 $/h: u* = 33,600 / (26,280 x 0.05) = 25.6 > 1
    r = rvb(rent_usd_per_gpu_hour=0.25)
    assert r.break_even_utilisation is None
    assert any("never pays off" in w for w in r.warnings)


def test_default_power_is_board_power_times_host_share():
    # H100 SXM: TDP x 1.3 at the wall, 0.15 $/kWh default electricity, 100 $ hosting a month
    gpu = find_gpu("h100-sxm")
    r = rent_vs_buy(RentBuyInput(gpu="h100-sxm", rent_usd_per_gpu_hour=2.0, purchase_usd_per_gpu=30_000))
    kw = gpu.tdp_w * 1.3 / 1000
    busy = 36 * 730 * 0.5
    assert r.buy_total_usd == pytest.approx(30_000 + 100 * 36 + kw * 0.15 * busy)


def test_purchase_price_defaults_to_the_catalog():
    gpu = find_gpu("rtx-4090")
    r = rent_vs_buy(RentBuyInput(gpu="rtx-4090", rent_usd_per_gpu_hour=0.5, power_w=500, electricity_usd_per_kwh=0.1))
    assert r.buy_total_usd == pytest.approx(gpu.buy_price_usd + 3600 + 0.5 * 0.1 * 36 * 730 * 0.5)
