"""Prefix caching (issue 22 item 3): a prompt prefix every request shares is computed once. The tool's arithmetic
with specific values, the plan sized on the tokens still computed (fewer cards for a request rate, a sooner first
token), the whole prompt and context said back, the launch flag, and bad input refused in one line (exit 2)."""

from __future__ import annotations

from functools import cache

import pytest
from pydantic import ValidationError

from gpu_advisor.tools.launch import check_flags, launch_for
from gpu_advisor.tools.prefix_cache import DEFAULT_HIT_RATE, PrefixCacheInput, prefix_cache
from gpu_advisor.tools.recommend import Recommendation, Workload, recommend
from gpu_advisor.tui.cli.program import main


def test_tokens_read_from_the_cache_are_the_hit_rate_of_whole_blocks():
    # 3,000 shared tokens: vLLM reuses whole blocks of 16, 2,992 of them, at 90 % of requests
    r = prefix_cache(PrefixCacheInput(model="llama-3.1-8b", prompt_tokens=5048, shared_prefix_tokens=3000))
    assert r.hit_rate == DEFAULT_HIT_RATE == 0.9
    assert r.cached_tokens == pytest.approx(0.9 * 2992)
    assert r.prefill_tokens == pytest.approx(5048 - 0.9 * 2992)
    assert r.prefill_saved_share == pytest.approx(2692.8 / 5048)


def test_sglang_caches_token_by_token_and_llamacpp_shares_nothing():
    sg = prefix_cache(PrefixCacheInput(model="llama-3.1-8b", prompt_tokens=4000, shared_prefix_tokens=3000,
                                       hit_rate=1.0, engine="sglang"))
    assert sg.cached_tokens == 3000 and sg.prefill_tokens == 1000
    lc = prefix_cache(PrefixCacheInput(model="llama-3.1-8b", prompt_tokens=4000, shared_prefix_tokens=3000,
                                       engine="llama.cpp"))
    assert lc.cached_tokens == 0 and lc.prefill_saved_share == 0


def test_the_prefix_kv_is_held_once_per_copy():
    # Llama 3.1 8B: 32 layers x 8 KV heads x 128 x 2 (K, V) x 2 bytes = 131,072 bytes per token
    r = prefix_cache(PrefixCacheInput(model="llama-3.1-8b", prompt_tokens=4000, shared_prefix_tokens=3000,
                                      hit_rate=1.0, sequences=50, engine="sglang"))
    assert r.prefix_kv_bytes == pytest.approx(3000 * 131072)
    assert r.kv_saved_bytes == pytest.approx((50 - 1) * 3000 * 131072)
    eight = prefix_cache(PrefixCacheInput(model="llama-3.1-8b", prompt_tokens=4000, shared_prefix_tokens=3000,
                                          hit_rate=1.0, sequences=50, engine="sglang", kv_precision="fp8"))
    assert eight.prefix_kv_bytes == pytest.approx(r.prefix_kv_bytes / 2)


@pytest.mark.parametrize("fields", [dict(hit_rate=1.2), dict(hit_rate=-0.1), dict(shared_prefix_tokens=-5),
                                    dict(shared_prefix_tokens=5000)])
def test_bad_input_is_refused(fields):
    with pytest.raises(ValidationError):
        PrefixCacheInput(**({"model": "llama-3.1-8b", "prompt_tokens": 4000, "shared_prefix_tokens": 3000} | fields))


@cache
def rated(shared: int | None) -> Recommendation:
    return recommend(Workload(model="llama-3.1-70b", phase="serve", requests_per_s=10, prompt_tokens=6000,
                              output_tokens=300, shared_prefix_tokens=shared, flexible=["context"]))


def test_a_request_rate_with_a_shared_prefix_needs_fewer_cards():
    r = rated(4000)
    p = r.prefix_cache
    assert p is not None and p.counted
    assert p.gpus == r.best.gpus < p.gpus_without
    assert p.ttft_s < p.ttft_without_s
    # the plan without the cache is the same job sized as before
    assert p.gpus_without == rated(None).best.gpus and p.gpu_without == rated(None).best.gpu
    # the figures said back are the whole prompt and the whole context held
    assert r.workload.prompt_tokens == 6000 and r.workload.context == 6300


def test_only_the_shared_part_said_takes_the_rest_from_a_chat_prompt():
    r = recommend(Workload(model="llama-3.1-8b", phase="serve", users=50, shared_prefix_tokens=3000))
    p = r.prefix_cache
    assert p.own_tokens_assumed == 2048 and p.cache.prompt_tokens == 5048
    assert any("2,048 tokens assumed" in a for a in p.cache.assumptions)
    assert p.ttft_s < p.ttft_without_s


def test_the_vllm_command_turns_it_on_and_its_flags_exist():
    cmd = launch_for(rated(4000))
    assert cmd.engine == "vllm" and "--enable-prefix-caching" in cmd.argv
    assert check_flags(cmd) == []
    # --max-model-len holds the whole prompt, cached part included (6,300 tokens a request), 4x the mean for the
    # requests longer than it (h-fixa)
    assert cmd.context == 4 * 6300
    assert "--enable-prefix-caching" not in launch_for(rated(None)).argv


def test_cli_prints_what_the_cache_changes(capsys):
    assert main(["recommend", "-m", "llama-3.1-8b", "--phase", "serve", "--users", "50",
                 "--shared-prefix-tokens", "3000", "--prefix-hit-rate", "90%"]) == 0
    out = capsys.readouterr().out
    assert "prefix caching: 2,693 of 5,048 prompt tokens per request read from the cache" in out


@pytest.mark.parametrize("argv", [["--shared-prefix-tokens", "3000", "--prefix-hit-rate", "1.5"],
                                  ["--shared-prefix-tokens", "-3000"],
                                  ["--prefix-hit-rate", "0.5"],
                                  ["--shared-prefix-tokens", "3000", "--prompt-tokens", "1000"]])
def test_cli_bad_input_is_one_line_and_exit_2(argv, capsys):
    try:
        status = main(["recommend", "-m", "llama-3.1-8b", "--phase", "serve", *argv])
    except SystemExit as e:
        status = e.code
    err = capsys.readouterr().err.strip()
    assert status == 2 and len(err.splitlines()) == 1, err
