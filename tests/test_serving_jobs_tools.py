"""Many LoRA adapters on one base, embedding and reranking at a rate, and vLLM's CPU offload: the tools' figures,
their CLI and the launch flags (tools/multi_lora.py, tools/encoder_serving.py, tools/vllm_offload.py)."""

from __future__ import annotations

import json

import pytest

from gpu_advisor.knowledge import find_model
from gpu_advisor.knowledge.engine_flags import engine_flags
from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.encoder_serving import EncoderServingInput, corpus_rate, encoder_serving
from gpu_advisor.tools.launch import check_flags, launch_for
from gpu_advisor.tools.multi_lora import MultiLoraInput, distinct_adapters, multi_lora
from gpu_advisor.tools.recommend import Workload, recommend
from gpu_advisor.tools.vllm_offload import VllmOffloadInput, vllm_offload
from gpu_advisor.tui.cli import main

# ---------------------------------------------------------------- many LoRA adapters

def test_one_llama_8b_rank_16_adapter_on_every_linear_layer_is_42m_parameters():
    r = multi_lora(MultiLoraInput(model="llama-3.1-8b", loras=50, lora_rank=16))
    # 32 layers x 16 x (q 4096+4096, k 4096+1024, v 4096+1024, o 4096+4096, gate/up 4096+14336, down 14336+4096)
    assert r.params_per_adapter == 32 * 16 * (8192 + 5120 + 5120 + 8192 + 3 * 18432) == 41_943_040
    assert r.bytes_per_adapter == pytest.approx(83.9e6, rel=1e-3)
    assert r.cpu_bytes == pytest.approx(50 * 83.886e6, rel=1e-4) and r.max_cpu_loras == 50


def test_attention_only_adapters_are_smaller_by_the_mlp_share():
    a = multi_lora(MultiLoraInput(model="llama-3.1-8b", loras=10, lora_rank=16, targets="attention"))
    assert a.params_per_adapter == 32 * 16 * (8192 + 5120 + 5120 + 8192) == 13_631_488


@pytest.mark.parametrize(("loras", "batch", "expected"), [(50, 16, 13.81), (20, 16, 11.2), (1, 64, 1.0), (1000, 8, 7.97)])
def test_distinct_adapters_in_a_batch_follow_the_even_spread(loras, batch, expected):
    assert distinct_adapters(loras, batch) == pytest.approx(expected, abs=0.01)


def test_slots_follow_the_distinct_adapters_and_the_rank_vllm_accepts():
    r = multi_lora(MultiLoraInput(model="llama-3.1-8b", loras=50, lora_rank=24, concurrency=16, gpu="l40s"))
    assert r.max_loras == 14 and r.max_lora_rank == 32  # 24 is no --max-lora-rank value: the next one up
    assert r.flags == ["--enable-lora", "--max-loras", "14", "--max-lora-rank", "32", "--max-cpu-loras", "50"]
    assert r.gpu_slot_bytes == pytest.approx(14 * 41_943_040 * 2 * 2, rel=1e-9)  # at rank 32: twice rank 16's
    assert r.throughput_cost == (0.05, 0.25)


def test_a_moe_model_gets_attention_adapters_and_says_so():
    r = multi_lora(MultiLoraInput(model="qwen3-30b-a3b", loras=20))
    assert r.targets == "attention" and any("mixture-of-experts" in a for a in r.assumptions)


def test_a_rank_above_the_measured_band_takes_its_high_end():
    assert multi_lora(MultiLoraInput(model="llama-3.1-8b", loras=4, lora_rank=128)).throughput_cost == (0.25, 0.25)


def test_an_encoder_takes_no_lora_adapters():
    with pytest.raises(ToolError, match="embedding or reranking"):
        multi_lora(MultiLoraInput(model="bge-m3", loras=3))


def test_recommend_with_loras_carries_the_adapters_and_launch_flags_exist():
    rec = recommend(Workload(model="llama-3.1-8b", phase="serve", users=50, loras=50, lora_rank=16))
    assert rec.multi_lora is not None and rec.multi_lora.max_loras == 32  # 50 users at once over 50 adapters
    for engine in ("vllm", "sglang"):
        cmd = launch_for(rec, engine)
        assert check_flags(cmd) == [] and "--enable-lora" in cmd.argv
    vllm = launch_for(rec, "vllm").argv
    assert vllm[vllm.index("--max-loras") + 1] == "32" and vllm[vllm.index("--max-cpu-loras") + 1] == "50"
    assert any(n.code == "adapters_elsewhere" for n in launch_for(rec, "llama.cpp").notes)


# ---------------------------------------------------------------- embedding and reranking at a rate

@pytest.mark.parametrize("name", ["qwen3-reranker-0.6b", "qwen3-reranker-4b", "qwen3-reranker-8b", "Qwen3-Reranker-4B"])
def test_qwen3_rerankers_are_encoder_records(name):
    m = find_model(name)
    assert m.encoder and m.family == "qwen-reranker" and m.hf_ids[0].startswith("Qwen/Qwen3-Reranker-")


def test_bge_m3_at_300_requests_a_second_on_l4():
    r = encoder_serving(EncoderServingInput(model="bge-m3", gpu="l4", requests_per_s=300, tokens_per_input=400))
    assert r.tokens_per_s_needed == 120_000 and not r.reranker
    assert r.gpus == 4 and r.gpus_range == (3, 5) and r.servers == 1
    assert r.gpus == -(-120_000 // int(r.per_gpu_tokens_per_s * 0.7)) and r.utilisation < 0.7
    assert r.vllm_argv[:6] == ["vllm", "serve", "BAAI/bge-m3", "--runner", "pooling", "--convert"]
    assert r.vllm_argv[6] == "embed" and "--data-parallel-size" in r.vllm_argv


def test_a_reranker_reads_every_candidate_with_its_query():
    r = encoder_serving(EncoderServingInput(model="bge-reranker-v2-m3", gpu="l40s", requests_per_s=200,
                                            inputs_per_request=50, tokens_per_input=256))
    assert r.reranker and r.pairs_per_s == 10_000 and r.tokens_per_input == 256 + 32
    assert r.tokens_per_s_needed == 2_880_000 and r.gpus == 24 and r.servers == 3
    assert r.vllm_argv[r.vllm_argv.index("--convert") + 1] == "classify"


def test_a_corpus_by_a_deadline_is_a_rate():
    rate = corpus_rate(10_000_000, 96)
    r = encoder_serving(EncoderServingInput(model="qwen3-embedding-8b", gpu="h100-sxm", requests_per_s=rate,
                                            tokens_per_input=500))
    assert r.requests_per_s == pytest.approx(10_000_000 / (96 * 3600))
    assert r.tokens_per_s_needed == pytest.approx(14_467.6, abs=0.1) and r.gpus == 1


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"model": "llama-3.1-8b", "requests_per_s": 3}, "generates text"),
    ({"model": "bge-m3", "requests_per_s": 3, "tokens_per_input": 9000}, "split the texts"),
])
def test_bad_encoder_input_is_one_clear_line(kwargs, message):
    with pytest.raises(ToolError, match=message):
        encoder_serving(EncoderServingInput(gpu="l4", **kwargs))


def test_every_encoder_command_flag_exists_in_its_engine_version():
    for name in ("bge-m3", "qwen3-reranker-4b"):
        r = encoder_serving(EncoderServingInput(model=name, gpu="h100-sxm", requests_per_s=50))
        for argv, engine in ((r.vllm_argv, "vllm"), (r.tei_argv, "tei")):
            flags = engine_flags()[engine]
            assert [a for a in argv if a.startswith("-") and not flags.accepts(a)] == [], (engine, argv)
    assert "pooling" in engine_flags()["vllm"].values["--runner"]


def test_an_encoder_batch_plan_starts_on_the_pooling_runner():
    rec = recommend(Workload(model="bge-m3", phase="batch", batch_items=1_000_000, batch_input_tokens=500))
    cmd = launch_for(rec)
    assert cmd.argv[cmd.argv.index("--runner") + 1] == "pooling" and check_flags(cmd) == []
    assert "--is-embedding" in launch_for(rec, "sglang").argv


# ---------------------------------------------------------------- vLLM CPU offload

def test_70b_fp8_on_one_l40s_offloads_38_gb_and_crawls():
    r = vllm_offload(VllmOffloadInput(model="llama-3.1-70b", gpu="l40s", precision="fp8", users=4, system_ram_gb=128))
    assert r.cpu_offload_gb == 38 and r.flags == ["--cpu-offload-gb", "38"] and not r.fits_without
    # 38 GB over PCIe 4.0 x16 (25 GB/s central) each step: 1.5 s a token on top of the card's own
    assert r.tokens_per_s == pytest.approx(1 / (1 / r.all_on_card_tokens_per_s + 38e9 / 25.2e9), rel=0.02)
    assert r.slowdown > 10 and r.ram_ok and r.ram_needed_gb == 38 + 4


def test_kv_offload_reloads_a_conversation_faster_than_recomputing_it():
    r = vllm_offload(VllmOffloadInput(model="llama-3.1-8b", gpu="h100-sxm", users=8, kv_offload_conversations=200))
    assert r.cpu_offload_gb == 0 and r.fits_without
    assert r.kv_offload_gb == pytest.approx(200 * 8192 * 131072 / 1e9, rel=1e-3)  # 128 KiB of KV per token
    assert r.kv_reload_s < r.kv_recompute_s / 5
    assert r.flags[0] == "--kv-transfer-config" and '"num_cpu_blocks":102400' in r.flags[1]


# ---------------------------------------------------------------- the CLI

@pytest.mark.parametrize(("argv", "said"), [
    (["size", "embedding", "-m", "bge-m3", "--gpu", "l4", "--rps", "300", "--tokens", "400"], "Plan: 4 GPU(s)"),
    (["size", "embedding", "-m", "bge-reranker-v2-m3", "--gpu", "l40s", "--rps", "200", "--inputs", "50",
      "--tokens", "256"], "2,880,000 tokens/s"),
    (["size", "lora", "-m", "llama-3.1-8b", "--loras", "50", "--gpu", "l40s"], "--max-loras 14"),
    (["size", "offload", "-m", "qwen3-235b-a22b", "--gpu", "rtx-4090", "--ram-gb", "128"], "--n-cpu-moe 83"),
    (["size", "offload", "-m", "llama-3.1-70b", "--gpu", "l40s", "--engine", "vllm", "-p", "fp8", "--users", "4"],
     "--cpu-offload-gb 38"),
    (["recommend", "-m", "llama-3.1-8b", "--phase", "serve", "--users", "50", "--loras", "50", "--launch"],
     "--max-cpu-loras 50"),
])
def test_cli_prints_the_figures_and_flags(argv, said, capsys):
    assert main(argv) == 0
    assert said in capsys.readouterr().out


def test_cli_json_is_the_typed_result(capsys):
    assert main(["size", "lora", "-m", "llama-3.1-8b", "--loras", "20", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["max_cpu_loras"] == 20 and data["params_per_adapter"] == 41_943_040


@pytest.mark.parametrize(("argv", "message"), [
    (["size", "embedding", "-m", "bge-m3", "--gpu", "l4"], "give --rps"),
    (["size", "embedding", "-m", "bge-m3", "--gpu", "l4", "--rps", "-3"], "must be positive"),
    (["size", "embedding", "-m", "bge-m3", "--gpu", "l4", "--documents", "100"], "--within-hours"),
    (["size", "embedding", "-m", "llama-3.1-8b", "--gpu", "l4", "--rps", "3"], "generates text"),
    (["size", "lora", "-m", "llama-3.1-8b", "--loras", "0"], "at least 1"),
    (["size", "offload", "-m", "llama-3.1-8b", "--gpu", "l4", "--engine", "vllm", "--gpus", "16"], "up to 8"),
])
def test_cli_bad_input_is_one_line_and_exit_2(argv, message, capsys):
    try:
        status = main(argv)
    except SystemExit as e:  # argparse refuses a value before the command runs
        status = e.code
    assert status == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
