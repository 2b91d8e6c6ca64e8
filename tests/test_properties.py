"""Properties that must hold for any input: monotone memory, ordered formats, consistent totals,
ranges around their estimates. Hypothesis runs derandomized (tests/conftest.py)."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from gpu_advisor.knowledge import find_model, models
from gpu_advisor.tools import arch
from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory
from gpu_advisor.tools.throughput import SpeedInput, speed
from gpu_advisor.tools.training import TrainingMemoryInput, training_memory
from gpu_advisor.tools.training_time import TrainingTimeInput, training_time

MODEL_IDS = [m.id for m in models()]
model_ids = st.sampled_from(MODEL_IDS)
engines = st.sampled_from(["vllm", "transformers", "llama.cpp"])
contexts = st.integers(min_value=1, max_value=131_072)
batches = st.integers(min_value=1, max_value=64)
# bare sizes from 0.1B to 2,000B, written the way a person would ("12.5B")
sizes = st.floats(min_value=0.1, max_value=2000, allow_nan=False).map(lambda x: float(f"{x:.3g}"))


def mem(**kw):
    return inference_memory(InferenceMemoryInput(**kw))


# --- inference memory is monotone -----------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(a=sizes, b=sizes, context=st.sampled_from([1024, 4096, 32_768]))
def test_weights_grow_with_bare_size(a, b, context):
    small, large = sorted((a, b))
    assert mem(model=f"{small:g}B", context=context).weights_bytes <= mem(model=f"{large:g}B", context=context).weights_bytes


@settings(max_examples=60, deadline=None)
@given(a=sizes, b=sizes, context=st.sampled_from([1024, 4096, 32_768]), batch=st.integers(1, 8))
def test_inference_memory_grows_with_bare_size_for_the_same_layout(a, b, context, batch):
    small, large = sorted((a, b))
    ms, ml = find_model(f"{small:g}B"), find_model(f"{large:g}B")
    assume(ms.source == ml.source)  # both borrow the same catalog layout
    rs = mem(model=f"{small:g}B", context=context, batch=batch)
    rl = mem(model=f"{large:g}B", context=context, batch=batch)
    assert rs.total_bytes <= rl.total_bytes


def test_inference_memory_grows_with_bare_size_across_layouts():
    smaller = mem(model="5.4B", context=32_768)
    larger = mem(model="5.6B", context=32_768)
    assert larger.total_bytes >= smaller.total_bytes


@settings(max_examples=60, deadline=None)
@given(model=model_ids, engine=engines, c1=contexts, c2=contexts, batch=batches)
def test_inference_memory_grows_with_context(model, engine, c1, c2, batch):
    short, long = sorted((c1, c2))
    rs = mem(model=model, engine=engine, context=short, batch=batch)
    rl = mem(model=model, engine=engine, context=long, batch=batch)
    assert rs.kv_cache_bytes <= rl.kv_cache_bytes
    assert rs.total_bytes <= rl.total_bytes


@settings(max_examples=60, deadline=None)
@given(model=model_ids, engine=engines, context=st.integers(1, 32_768), b1=batches, b2=batches)
def test_inference_memory_grows_with_batch(model, engine, context, b1, b2):
    few, many = sorted((b1, b2))
    rf = mem(model=model, engine=engine, context=context, batch=few)
    rm = mem(model=model, engine=engine, context=context, batch=many)
    assert rf.kv_cache_bytes <= rm.kv_cache_bytes
    assert rf.total_bytes <= rm.total_bytes


@settings(max_examples=60, deadline=None)
@given(model=model_ids, context=contexts, batch=batches, data=st.data())
def test_per_gpu_inference_memory_never_rises_with_more_tensor_parallel_gpus(model, context, batch, data):
    degrees = arch.valid_tensor_parallel(find_model(model))
    n1 = data.draw(st.sampled_from(degrees))
    n2 = data.draw(st.sampled_from([d for d in degrees if d >= n1]))
    r1 = mem(model=model, context=context, batch=batch, gpus=n1)
    r2 = mem(model=model, context=context, batch=batch, gpus=n2)
    # everything but the engine overhead shrinks or stays; vLLM's NCCL/CUDA-graph overhead steps up
    # once, from one GPU to several, and is flat after that
    assert r2.per_gpu_total_bytes - r2.per_gpu_overhead_bytes <= r1.per_gpu_total_bytes - r1.per_gpu_overhead_bytes
    if n1 >= 2:
        assert r2.per_gpu_total_bytes <= r1.per_gpu_total_bytes


# --- formats and MoE ------------------------------------------------------------------------------

@pytest.mark.parametrize("model", MODEL_IDS)
def test_weights_order_int4_int8_bf16(model):
    w = {p: mem(model=model, precision=p).weights_bytes for p in ("int4", "int8", "bf16")}
    assert w["int4"] < w["int8"] < w["bf16"]


@pytest.mark.parametrize("model", MODEL_IDS)
def test_moe_active_parameters_never_exceed_total(model):
    m = find_model(model)
    assert 0 < m.active_params_b <= m.total_params_b
    assert m.is_moe == (m.active_params_b < m.total_params_b)
    shared, per_expert = arch.expert_split(m)
    assert shared >= 0 and per_expert >= 0


@settings(max_examples=60, deadline=None)
@given(model=st.sampled_from([m.id for m in models() if m.is_moe]), b1=st.integers(1, 4096), b2=st.integers(1, 4096))
def test_moe_decode_reads_between_active_and_total_and_more_with_batch(model, b1, b2):
    m = find_model(model)
    few, many = sorted((b1, b2))
    read_few, read_many = arch.params_read_per_step(m, few), arch.params_read_per_step(m, many)
    assert m.active_params_b * 1e9 * (1 - 1e-9) <= read_few <= read_many <= m.total_params_b * 1e9 * (1 + 1e-9)
    assert arch.params_read_per_step(m, 1) == pytest.approx(m.active_params_b * 1e9)


# --- training -------------------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(model=model_ids, g1=st.integers(1, 64), g2=st.integers(1, 64), method=st.sampled_from(["full", "lora", "qlora"]))
def test_more_gpus_never_raise_per_gpu_zero3_memory(model, g1, g2, method):
    few, many = sorted((g1, g2))
    rf = training_memory(TrainingMemoryInput(model=model, method=method, gpus=few, zero=3))
    rm = training_memory(TrainingMemoryInput(model=model, method=method, gpus=many, zero=3))
    assert rm.per_gpu_total_bytes <= rf.per_gpu_total_bytes


@settings(max_examples=60, deadline=None)
@given(model=model_ids, g1=st.integers(2, 64), g2=st.integers(2, 64), method=st.sampled_from(["full", "lora", "qlora"]))
def test_more_gpus_never_raise_per_gpu_zero3_offload_memory(model, g1, g2, method):
    few, many = sorted((g1, g2))
    rf = training_memory(TrainingMemoryInput(model=model, method=method, gpus=few, zero=3, cpu_offload=True))
    rm = training_memory(TrainingMemoryInput(model=model, method=method, gpus=many, zero=3, cpu_offload=True))
    assert rm.per_gpu_total_bytes <= rf.per_gpu_total_bytes


def test_zero3_offload_on_one_gpu_still_holds_the_gathered_layers():
    one = training_memory(TrainingMemoryInput(model="llama-2-7b", method="lora", gpus=1, zero=3, cpu_offload=True))
    two = training_memory(TrainingMemoryInput(model="llama-2-7b", method="lora", gpus=2, zero=3, cpu_offload=True))
    assert one.weights_bytes > 0
    assert two.per_gpu_total_bytes <= one.per_gpu_total_bytes


@settings(max_examples=60, deadline=None)
@given(model=model_ids, s1=st.integers(128, 16_384), s2=st.integers(128, 16_384), ckpt=st.booleans())
def test_training_memory_grows_with_sequence_length(model, s1, s2, ckpt):
    short, long = sorted((s1, s2))
    rs = training_memory(TrainingMemoryInput(model=model, seq_len=short, gradient_checkpointing=ckpt))
    rl = training_memory(TrainingMemoryInput(model=model, seq_len=long, gradient_checkpointing=ckpt))
    assert rs.per_gpu_total_bytes <= rl.per_gpu_total_bytes


# --- totals are the sum of their terms ------------------------------------------------------------

PART_TERMS = {"weights_bytes", "kv_cache_bytes", "activation_bytes", "overhead_bytes", "allocator_slack_bytes"}


@settings(max_examples=60, deadline=None)
@given(model=model_ids, engine=engines, context=contexts, batch=batches, gpus=st.sampled_from([1, 2, 4, 8]),
       pp=st.sampled_from([1, 2]))
def test_inference_total_is_the_sum_of_its_parts(model, engine, context, batch, gpus, pp):
    r = mem(model=model, engine=engine, context=context, batch=batch, gpus=gpus, pp=pp)
    parts = r.weights_bytes + r.kv_cache_bytes + r.activation_bytes + r.overhead_bytes
    assert parts == pytest.approx(r.total_bytes, rel=1e-9)
    per_gpu = r.per_gpu_weights_bytes + r.per_gpu_kv_cache_bytes + r.per_gpu_activation_bytes + r.per_gpu_overhead_bytes
    assert per_gpu == pytest.approx(r.per_gpu_total_bytes, rel=1e-9)
    # every GPU of a stage holds the same share; with pipeline stages the per-GPU figure is the fullest
    # stage's (the embeddings on the first, the head on the last), so it is at least the even share
    if pp == 1:
        assert r.per_gpu_total_bytes * gpus == pytest.approx(r.total_bytes, rel=1e-9)
    else:
        assert r.per_gpu_total_bytes * gpus * pp >= r.total_bytes * (1 - 1e-9)
    if gpus == pp == 1:  # the parts' terms add up (the allocator-peak and device terms are figures of them)
        parts_terms = [t.value for t in r.terms if t.key in PART_TERMS]
        assert sum(parts_terms) == pytest.approx(r.total_bytes, rel=1e-9)


@settings(max_examples=60, deadline=None)
@given(model=model_ids, method=st.sampled_from(["full", "lora", "qlora"]), gpus=st.sampled_from([1, 2, 8]),
       zero=st.sampled_from([0, 1, 2, 3]), offload=st.booleans(), ckpt=st.booleans())
def test_training_total_is_the_sum_of_its_terms(model, method, gpus, zero, offload, ckpt):
    r = training_memory(TrainingMemoryInput(model=model, method=method, gpus=gpus, zero=zero, cpu_offload=offload,
                                            gradient_checkpointing=ckpt))
    assert sum(t.value for t in r.terms) == pytest.approx(r.per_gpu_total_bytes, rel=1e-9)
    fields = r.weights_bytes + r.gradient_bytes + r.optimizer_bytes + r.activation_bytes + r.overhead_bytes
    assert fields == pytest.approx(r.per_gpu_total_bytes, rel=1e-9)
    assert r.total_bytes == pytest.approx(gpus * r.per_gpu_total_bytes, rel=1e-9)


# --- ranges contain their estimates ---------------------------------------------------------------

def _ranges_hold(result):
    for t in result.terms:
        assert t.low <= t.value <= t.high, t.key


@settings(max_examples=60, deadline=None)
@given(model=model_ids, engine=engines, context=contexts, batch=batches, gpus=st.sampled_from([1, 2, 4]),
       gpu=st.sampled_from([None, "h100-sxm", "rtx-4090"]))
def test_inference_ranges_contain_the_estimate(model, engine, context, batch, gpus, gpu):
    r = mem(model=model, engine=engine, context=context, batch=batch, gpus=gpus, gpu=gpu)
    lo, hi = r.per_gpu_total_range_bytes
    assert lo <= r.per_gpu_total_bytes <= hi
    lo, hi = r.total_range_bytes
    assert lo <= r.total_bytes <= hi
    _ranges_hold(r)


@settings(max_examples=60, deadline=None)
@given(model=model_ids, method=st.sampled_from(["full", "lora", "qlora"]), gpus=st.sampled_from([1, 4]),
       zero=st.sampled_from([0, 3]), seq=st.integers(128, 8192))
def test_training_ranges_contain_the_estimate(model, method, gpus, zero, seq):
    r = training_memory(TrainingMemoryInput(model=model, method=method, gpus=gpus, zero=zero, seq_len=seq))
    lo, hi = r.per_gpu_total_range_bytes
    assert lo <= r.per_gpu_total_bytes <= hi
    _ranges_hold(r)


@settings(max_examples=60, deadline=None)
@given(model=model_ids, gpu=st.sampled_from(["h100-sxm", "rtx-4090", "l40s", "a100-80gb-sxm", "apple-m2-ultra-192gb"]),
       precision=st.sampled_from(["bf16", "int4", "q4_k_m", "awq", "fp8"]), gpus=st.sampled_from([1, 2, 4]),
       batch=batches, context=st.integers(1, 32_768))
def test_speed_ranges_contain_the_estimate(model, gpu, precision, gpus, batch, context):
    r = speed(SpeedInput(model=model, gpu=gpu, precision=precision, gpus=gpus, batch=batch, context=context))
    slow, fast = r.decode_tokens_per_s_range
    assert 0 < slow <= r.decode_tokens_per_s <= fast
    lo, hi = r.prefill_tokens_per_s_range
    assert 0 < lo <= r.prefill_tokens_per_s <= hi
    assert r.aggregate_decode_tokens_per_s == pytest.approx(batch * r.decode_tokens_per_s)
    _ranges_hold(r)


@settings(max_examples=60, deadline=None)
@given(model=model_ids, gpu=st.sampled_from(["h100-sxm", "rtx-4090", "l20"]), gpus=st.integers(1, 16),
       tokens=st.floats(1e5, 1e10), method=st.sampled_from(["full", "lora", "qlora"]))
def test_training_time_ranges_contain_the_estimate(model, gpu, gpus, tokens, method):
    r = training_time(TrainingTimeInput(model=model, gpu=gpu, gpus=gpus, tokens=tokens, method=method))
    lo, hi = r.hours_range
    assert 0 < lo <= r.hours <= hi
    if r.usd is not None:
        lo, hi = r.usd_range
        assert lo <= r.usd <= hi
    _ranges_hold(r)
