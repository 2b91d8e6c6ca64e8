"""Speculative decoding (issue 22 item 3): tokens per step from the acceptance rate, the decode speed-up range that
fades as the batch grows, the draft's memory, the methods a model runs (MTP only where it ships the layers), the
launch flags of each engine's version, and bad input refused in one line (exit 2)."""

from __future__ import annotations

import json

import pytest

from gpu_advisor.knowledge.speculative import speculative_methods
from gpu_advisor.tools.common import ToolError
from gpu_advisor.tools.launch import check_flags, launch_for
from gpu_advisor.tools.recommend import Workload, recommend
from gpu_advisor.tools.speculative import SpeculativeInput, speculative
from gpu_advisor.tui.cli.program import main


def test_tokens_per_step_follow_the_acceptance_rate():
    r = speculative(SpeculativeInput(model="llama-3.1-8b", method="eagle3", gpu="h100-sxm"))
    assert r.tokens == 3 and r.acceptance == (0.7, 0.85)
    assert r.tokens_per_step[0] == pytest.approx((1 - 0.7 ** 4) / 0.3)  # 2.533
    assert r.tokens_per_step[1] == pytest.approx((1 - 0.85 ** 4) / 0.15)  # 3.187
    one = speculative(SpeculativeInput(model="llama-3.1-8b", method="eagle3", gpu="h100-sxm", acceptance=0.5,
                                       tokens=2))
    assert one.tokens_per_step == pytest.approx((1.75, 1.75))


def test_eagle3_at_batch_one_is_near_the_measured_speed_up():
    # SGLang's docs: Llama 3.1 8B on one H100, 158 -> 373 tokens/s with EAGLE-3 (2.36x)
    r = speculative(SpeculativeInput(model="llama-3.1-8b", method="eagle3", gpu="h100-sxm"))
    assert r.speedup[0] < 2.36 < r.speedup[1]
    assert r.draft_repo == "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"


def test_the_gain_fades_at_high_concurrency():
    # short contexts: at 128 requests the verify pass's multiply-adds outweigh the weight reads
    r = speculative(SpeculativeInput(model="llama-3.1-70b", method="draft", gpu="h100-sxm", gpus=2, batch=128,
                                     context=1024))
    by = {b: (lo, hi) for b, lo, hi in r.speedup_by_batch}
    assert by[1][0] > 1.5 and by[128][0] < 1 < by[128][1] < by[1][1]
    assert r.speedup == by[128]
    assert r.faded and any("compute-bound" in x for x in r.warnings)


def test_the_draft_memory_is_counted():
    d = speculative(SpeculativeInput(model="llama-3.1-70b", method="draft", gpu="h100-sxm", gpus=2, batch=1,
                                     context=1024))
    assert d.draft == "Llama 3.2 1B"
    assert 2.4e9 < d.draft_bytes < 2.7e9  # 1.24B parameters in 16 bits, plus a small KV cache
    assert d.draft_bytes_per_gpu == pytest.approx(d.draft_bytes / 2)
    m = speculative(SpeculativeInput(model="deepseek-v3", method="mtp", gpu="h200", gpus=8, precision="fp8"))
    assert m.vllm_method == "deepseek_mtp" and m.draft_bytes > 28e9  # the 14B MTP module in 16 bits


@pytest.mark.parametrize("model,method", [("llama-3.1-8b", "mtp"), ("gemma-3-27b", "draft")])
def test_a_method_the_model_cannot_run_is_refused_with_the_reason(model, method):
    with pytest.raises(ToolError, match=r"MTP layers|draft model"):
        speculative(SpeculativeInput(model=model, method=method, gpu="h100-sxm"))


def test_the_plan_says_the_speed_with_it_on_its_own_batch():
    r = recommend(Workload(model="llama-3.3-70b", phase="serve", users=8, speculative="eagle3"))
    s = r.speculative
    assert s is not None and s.result is not None and s.fits
    lo, hi = s.tokens_per_s_with
    assert lo == pytest.approx(s.tokens_per_s * s.result.speedup[0])
    assert hi == pytest.approx(s.tokens_per_s * s.result.speedup[1])
    plain = recommend(Workload(model="llama-3.3-70b", phase="serve", users=8))
    assert (r.best.gpus, r.best.gpu) == (plain.best.gpus, plain.best.gpu)  # the cards are sized without it


@pytest.mark.parametrize("engine", ["vllm", "sglang"])
@pytest.mark.parametrize("model,method", [("llama-3.3-70b", "eagle3"), ("deepseek-v3", "mtp"),
                                          ("qwen3-30b-a3b", "eagle3"), ("llama-3.1-70b", "draft")])
def test_launch_flags_exist_in_the_engine_version(engine, model, method):
    rec = recommend(Workload(model=model, phase="serve", users=8, speculative=method))
    cmd = launch_for(rec, engine)
    assert check_flags(cmd) == []
    row = speculative_methods()[method]
    if engine == "vllm" and method != "draft":
        config = json.loads(cmd.argv[cmd.argv.index("--speculative-config") + 1])
        assert config["num_speculative_tokens"] == row.tokens
        assert config["method"] == ("deepseek_mtp" if method == "mtp" else "eagle3")
    elif engine == "vllm":
        assert "--speculative-config" not in cmd.argv and any(n.code == "spec_draft_sglang" for n in cmd.notes)
    else:
        algorithm = cmd.argv[cmd.argv.index("--speculative-algorithm") + 1]
        assert algorithm == {"eagle3": "EAGLE3", "mtp": "EAGLE", "draft": "STANDALONE"}[method]
        assert cmd.argv[cmd.argv.index("--speculative-num-draft-tokens") + 1] == str(row.tokens + 1)


def test_cli_flag_and_bad_choice(capsys):
    assert main(["recommend", "-m", "llama-3.1-8b", "--phase", "serve", "--users", "4", "--speculative",
                 "eagle3"]) == 0
    assert "speculative decoding (eagle3, yuhuili/EAGLE3-LLaMA3.1-Instruct-8B)" in capsys.readouterr().out
    try:
        status = main(["recommend", "-m", "llama-3.1-8b", "--phase", "serve", "--speculative", "medusa"])
    except SystemExit as e:
        status = e.code
    assert status == 2 and len(capsys.readouterr().err.strip().splitlines()) == 1
