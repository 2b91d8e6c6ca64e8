"""Prefill/decode disaggregation (issue 22 item 3): two pools sized for a request rate, offered beside the plan
only when prompts take a large share of each copy's time and a per-token speed is held; never the plan itself;
both pools' commands use flag names the engine version has."""

from __future__ import annotations

from functools import cache

import pytest

from gpu_advisor.tools.disagg import PAYS_SHARE, disaggregation
from gpu_advisor.tools.launch import check_flags, launch_for
from gpu_advisor.tools.launch_levers import pool_commands
from gpu_advisor.tools.recommend import Recommendation, Workload, recommend
from gpu_advisor.tui.cli.program import main


@cache
def long_prompts() -> Recommendation:
    return recommend(Workload(model="llama-3.1-70b", phase="serve", requests_per_s=20, prompt_tokens=8000,
                              output_tokens=300, min_tokens_per_s=40, flexible=["context"]))


def test_long_prompts_with_a_tight_tpot_pay():
    r = long_prompts()
    d = r.disaggregation
    assert d is not None and d.pays and d.prefill_share >= PAYS_SHARE
    assert (d.prefill_copies, d.decode_copies, d.copy_gpus) == (9, 3, 2)
    assert d.gpus == 24 < d.colocated_gpus == r.best.gpus == 32
    assert d.tpot_s < d.tpot_colocated_s
    assert 0 < d.kv_transfer_s < 0.1  # 8,000 tokens of FP8 Llama 70B KV over 2 x 50 GB/s


def test_short_prompts_do_not():
    r = recommend(Workload(model="llama-3.1-8b", phase="serve", requests_per_s=20, prompt_tokens=500,
                           output_tokens=300, flexible=["context"]))
    assert r.disaggregation is not None and not r.disaggregation.pays


def test_no_per_token_target_no_offer():
    d = disaggregation("llama-3.1-70b", "h100-sxm", "fp8", None, 2, 8, 10, 8000, 300, None)
    assert d.prefill_share >= PAYS_SHARE and not d.pays


def test_the_prefill_pool_follows_the_prompt_work():
    one = disaggregation("llama-3.1-70b", "h100-sxm", "fp8", None, 2, 8, 10, 8000, 300, 0.025)
    two = disaggregation("llama-3.1-70b", "h100-sxm", "fp8", None, 2, 8, 20, 8000, 300, 0.025)
    assert two.prefill_copies >= 2 * one.prefill_copies - 1


@pytest.mark.parametrize("engine", ["vllm", "sglang"])
def test_both_pools_commands_have_real_flags(engine):
    cmd = launch_for(long_prompts(), engine)
    prefill, decode = pool_commands(cmd)
    for argv in (prefill, decode):
        assert check_flags(cmd.model_copy(update={"argv": argv})) == []
    if engine == "sglang":
        assert prefill[-2:] == ["--disaggregation-mode", "prefill"] and decode[-2:] == ["--disaggregation-mode", "decode"]
    else:
        assert "--kv-transfer-config" in prefill


def test_cli_offers_it_as_an_option(capsys):
    assert main(["recommend", "-m", "llama-3.1-70b", "--phase", "serve", "--requests-per-second", "20",
                 "--prompt-tokens", "8000", "--output-tokens", "300", "--tpot-p99-ms", "25"]) == 0
    out = capsys.readouterr().out
    assert "option beyond one server: prefill/decode disaggregation" in out
