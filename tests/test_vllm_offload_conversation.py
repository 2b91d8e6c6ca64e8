"""vLLM's CPU offload (--cpu-offload-gb) and KV offloading in the serving answer (assistant/vllm_offload_reply.py,
tools/vllm_offload.py): offered with the speed it costs, beside llama.cpp's offload, when the engine is vLLM and
the user's own cards do not hold the model in the format tried, or when they ask to offload with vLLM."""

from __future__ import annotations

import re

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.tools.vllm_offload import VllmOffloadInput, vllm_offload
from tests.conversation import run_conversation

ASKS = [("can i offload to cpu with vllm? llama 3.1 70b on my 2x 4090, 128gb ram", "just me", "en"),
        ("with vllm, can part of llama 3.1 70b go to system ram? I have 2x rtx 4090 and 128 GB RAM", "just me", "en"),
        ("vllm能不能把一部分放到内存？我有两张4090，128G内存，想跑llama 3.1 70b", "就我自己用", "zh"),
        ("用vllm的话能不能把llama 3.1 70b的一部分权重放到内存里？两张4090，内存128G", "就我自己", "zh")]


@pytest.mark.parametrize(("first", "second", "lang"), ASKS)
def test_asking_to_offload_with_vllm_reads_a_serving_job_on_vllm_with_offload(first, second, lang):
    u = understand(first).updates
    assert u.get("engine") == "vllm" and u.get("cpu_offload") and u.get("phase") == "serve"


@pytest.mark.parametrize(("first", "second", "lang"), ASKS)
def test_the_answer_gives_vllms_offload_with_the_tools_speed_beside_llama_cpp(first, second, lang):
    reply = run_conversation([first, second])[-1].content
    expected = vllm_offload(VllmOffloadInput(model="llama-3.1-70b", gpu="rtx-4090", gpus=2, precision="fp8",
                                             context=8192, users=1, system_ram_gb=128, kv_offload_conversations=1))
    assert not expected.fits_without and expected.cpu_offload_gb > 0
    assert f"--cpu-offload-gb {expected.cpu_offload_gb}" in reply
    tps = f"{expected.tokens_per_s:,.1f}"
    assert (f"about {tps} tokens/s per user" if lang == "en" else f"每个用户约 {tps} token/s") in reply
    assert "--n-cpu-moe" in reply and "OffloadingConnector" in reply
    reload = f"{expected.kv_reload_s:,.2f}"
    assert reload in reply


@pytest.mark.parametrize(("text", "lang"), [("serve llama 3.1 70b with vllm on my 2 rtx 3090s for 4 users", "en"),
                                            ("用vllm在我的两张3090上部署llama 3.1 70b，4个人用", "zh")])
def test_a_model_too_big_for_own_cards_on_vllm_gets_the_offload_without_asking(text, lang):
    reply = run_conversation([text])[-1].content
    m = re.search(r"--cpu-offload-gb (\d+)", reply)
    assert m and int(m.group(1)) > 0
    assert "OffloadingConnector" not in reply  # KV offloading only when offload was asked about


@pytest.mark.parametrize("text", ["serve llama 3.1 70b on my 2 rtx 3090s for 4 users",
                                  "serve llama 3.1 70b with llama.cpp on my 2 rtx 3090s for 4 users",
                                  "serve llama 3.1 8b with vllm on my rtx 4090 for 4 users"])
def test_no_vllm_offload_block_without_vllm_or_without_need(text):
    assert "--cpu-offload-gb" not in run_conversation([text])[-1].content


@pytest.mark.parametrize(("text", "said"), [
    ("can i offload to cpu with vllm? llama 3.1 8b on my rtx 4090, just me", "nothing needs to go to system memory"),
    ("vllm能不能把一部分放到内存？我有一张4090，跑llama 3.1 8b，就我自己用", "不需要放到内存")])
def test_asked_when_it_fits_says_offload_would_only_slow_it(text, said):
    reply = run_conversation([text])[-1].content
    assert said in reply and "--cpu-offload-gb" in reply
