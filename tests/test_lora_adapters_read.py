"""Many LoRA adapters on one base, as people say it: the count and rank are read as adapters (never as people or as
a fine-tuning method), in several spellings and both languages, and the serving answer sizes them."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import payload, run_conversation

EN = ["serve {n} customer-specific LoRAs on llama 3.1 8b", "we have {n} LoRA adapters on one llama 3.1 8b base",
      "host {n} fine-tuned loras on llama 3.1 8b, rank {r}", "{n} per-tenant LoRA adapters (r={r}) on llama 3.1 8b"]
ZH = ["一个底座挂{n}个LoRA，底座是llama 3.1 8b", "llama 3.1 8b 上挂{n}个LoRA适配器，秩{r}", "在llama 3.1 8b上部署{n}个客户LoRA"]


@pytest.mark.parametrize(("form", "n", "r"), [*itertools.product(EN, (20, 50, 300), (16, 64)),
                                               *itertools.product(ZH, (20, 50, 300), (16, 64))])
def test_an_adapter_count_is_adapters_not_people_nor_a_fine_tune(form, n, r):
    u = understand(form.format(n=n, r=r), None).updates
    assert u.get("loras") == n and u.get("users") != n, u
    assert u.get("phase") == "serve" and u.get("method") is None, u
    assert u.get("model") == "llama-3.1-8b"
    if "{r}" in form:
        assert u.get("lora_rank") == r


@pytest.mark.parametrize("text", ["fine-tune llama 3.1 8b with lora", "用LoRA微调qwen2.5 7b", "serve 50 users llama 3.1 8b"])
def test_without_a_count_lora_stays_a_method(text):
    assert understand(text, None).updates.get("loras") is None


@pytest.mark.parametrize(("turns", "said", "flag"), [
    (["serve 50 customer-specific LoRAs on llama 3.1 8b, 30 users at once", "around the clock"],
     "**LoRA adapters:** 50 adapters of rank 16", "--max-loras 23"),
    (["一个底座挂20个LoRA，底座是qwen2.5 7b，秩64，10个人同时用", "全天候"], "挂 20 个秩为 64 的适配器", "--max-lora-rank 64"),
])
def test_the_serving_answer_sizes_the_adapters_and_starts_them(turns, said, flag):
    reply = run_conversation(turns)[-1]
    text = reply.content
    assert payload(reply)["kind"] == "answer" and said in text and flag in text and "--enable-lora" in text
    assert "--max-cpu-loras" in text
