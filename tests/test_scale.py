"""Serving beyond one server: replicas of the smallest unit, tensor parallel inside a server, pipeline
stages across servers, and the links each plan needs (tools/scale.py, tools/recommend.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory
from gpu_advisor.tools.recommend import Workload, recommend
from gpu_advisor.tools.scale import MAX_SERVING_GPUS, SERVER_GPUS, plan, servers_for, units
from gpu_advisor.tools.throughput import SpeedInput, speed


def serve(**kw) -> Workload:
    return Workload(phase="serve", **kw)


# --- the three checks ------------------------------------------------------------------------


def test_an_8b_model_for_5000_concurrent_users_is_a_replica_plan():
    rec = recommend(serve(model="llama-3.1-8b", users=5000))
    best = rec.best
    assert best is not None and best.ok and rec.action == "rent"
    assert best.replicas > 1 and best.tp is not None and best.pp == 1
    assert best.gpus == best.replicas * best.tp <= MAX_SERVING_GPUS
    assert best.servers == servers_for(best.gpus) >= 2
    assert best.users_per_replica * best.replicas >= 5000
    assert best.decode_tokens_per_s >= 6  # reading speed for each user
    assert best.link_between is None  # copies work on their own: no InfiniBand needed between them
    assert best.serve_per_gpu_bytes <= best.capacity_bytes


def test_405b_in_bf16_on_two_owned_8_gpu_h100_servers_is_tp8_by_pp2():
    rec = recommend(serve(model="llama-3.1-405b", users=20, serve_precision="bf16", owned=["16x h100-sxm"],
                          server_gpus=8))
    best = rec.best
    assert best is not None and best.owned and best.ok and rec.relaxed is None
    assert (best.gpus, best.tp, best.pp, best.replicas, best.servers) == (16, 8, 2, 1, 2)
    assert (best.link_within, best.link_between) == ("nvlink", "infiniband")
    assert best.precision == "bf16"
    assert best.decode_tokens_per_s == pytest.approx(21.5, rel=0.05)
    assert 0 < best.pipeline_s_per_token < 1e-3


def test_deepseek_v3_in_fp8_on_two_8_card_servers_fits():
    rec = recommend(serve(model="deepseek-v3", users=50, region="china", owned=["16x a800-80gb-sxm"]))
    best = rec.best
    assert best is not None and best.owned and best.ok
    assert best.precision == "fp8"  # the checkpoint's own format, not the 4-bit one server would need
    assert (best.tp, best.pp, best.servers, best.link_between) == (8, 2, 2, "infiniband")
    assert best.decode_tokens_per_s >= 6


def test_deepseek_v3_on_two_atlas_servers_is_w8a8():
    rec = recommend(serve(model="deepseek-v3", users=50, region="china", owned=["16x ascend-910b"]))
    best = rec.best
    assert best is not None and best.owned and best.ok
    assert best.precision == "w8a8-int8"  # Ascend has no FP8 units
    assert (best.pp, best.servers, best.link_within) == (2, 2, "hccs")
    assert best.runtime == "vLLM-Ascend"


def test_a_full_fp8_deepseek_r1_rents_two_servers_in_china():
    rec = recommend(serve(model="deepseek-r1", users=20, region="china", flexible=["utilisation"]))  # format stated
    best = rec.best
    assert best is not None and best.ok and best.precision == "fp8"
    assert (best.gpus, best.pp, best.servers) == (16, 2, 2)


def test_one_server_in_4_bit_beats_a_second_server_when_no_format_was_asked():
    rec = recommend(serve(model="llama-3.1-70b", users=20, min_tokens_per_s=30, candidates=["l40s"],
                          flexible=["precision"]))
    assert rec.best is not None and rec.best.tp is None and rec.relaxed == "int4"


def test_max_gpus_bounds_the_plan():
    rec = recommend(serve(model="llama-3.1-8b", users=5000, max_gpus=16), with_levers=False)
    assert rec.best is None or rec.best.gpus <= 16


# --- the search --------------------------------------------------------------------------------------


def test_units_go_within_a_server_first_then_across_servers():
    from gpu_advisor.tools.models import resolve_model

    got = units(resolve_model("llama-3.1-405b"))
    assert got[:4] == [(1, 1), (2, 1), (4, 1), (8, 1)]
    assert got[4:] == [(8, 2), (8, 3), (8, 4)]


def test_a_layout_that_fits_one_server_needs_no_pipeline():
    layouts = plan("llama-3.1-70b", find_gpu("h100-sxm"), [("vllm", "fp8", None)], 20, 8192, 6.0)
    assert layouts and layouts[0].pp == 1 and layouts[0].gpus <= SERVER_GPUS


def test_llama_cpp_never_spans_servers():
    assert plan("llama-3.1-405b", find_gpu("h100-sxm"), [("llama.cpp", "q4_k_m", None)], 5, 8192, 6.0) == []
    with pytest.raises(ToolError):
        speed(SpeedInput(model="llama-3.1-8b", precision="q4_k_m", gpu="rtx-4090", gpus=1, pp=2, engine="llama.cpp"))


def test_pipeline_stages_keep_per_user_speed_and_add_network_time():
    one = speed(SpeedInput(model="llama-3.1-70b", precision="fp8", gpu="h100-sxm", gpus=8, batch=16, engine="vllm"))
    two = speed(SpeedInput(model="llama-3.1-70b", precision="fp8", gpu="h100-sxm", gpus=8, pp=2, batch=16,
                           engine="vllm"))
    # two stages run 8-sequence micro-batches: a token waits for the whole model over 8 GPUs, plus the hops
    assert two.decode_tokens_per_s == pytest.approx(one.decode_tokens_per_s, rel=0.15)
    assert two.aggregate_decode_tokens_per_s == pytest.approx(two.decode_tokens_per_s * 16)
    assert any("pipeline parallel over 2 servers" in a for a in two.assumptions)


# --- invariants --------------------------------------------------------------------------------------

CARDS = ["h100-sxm", "a100-80gb-sxm", "l40s", "mi300x", "ascend-910b"]
MODELS = ["llama-3.1-8b", "qwen2.5-32b", "llama-3.1-70b"]


def _plan(model: str, card: str, users: int):
    gpu = find_gpu(card)
    fmt = "fp8" if gpu.fp8_tflops else "int8"
    return plan(model, gpu, [("vllm", fmt, None)], users, 8192, 6.0)


@settings(max_examples=25, deadline=None)
@given(model=st.sampled_from(MODELS), card=st.sampled_from(CARDS), a=st.integers(1, 3000), b=st.integers(1, 3000))
def test_more_users_never_need_fewer_gpus(model, card, a, b):
    few, many = sorted((a, b))
    small, large = _plan(model, card, few), _plan(model, card, many)
    if large:
        assert small and small[0].gpus <= large[0].gpus


@settings(max_examples=25, deadline=None)
@given(model=st.sampled_from(MODELS + ["llama-3.1-405b"]), card=st.sampled_from(CARDS), users=st.integers(1, 3000))
def test_replicas_times_unit_is_the_plan_and_each_gpu_holds_its_share(model, card, users):
    for layout in _plan(model, card, users)[:2]:
        assert layout.gpus == layout.replicas * layout.tp * layout.pp <= MAX_SERVING_GPUS
        assert layout.users_per_replica * layout.replicas >= users
        assert layout.tp <= SERVER_GPUS
        mem = inference_memory(InferenceMemoryInput(model=model, precision=layout.precision, context=8192,
                                                    batch=layout.users_per_replica, gpus=layout.tp, pp=layout.pp,
                                                    gpu=card, engine="vllm"))
        assert mem.fits and mem.per_gpu_total_bytes <= mem.gpu_capacity_bytes
