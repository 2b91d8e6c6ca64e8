"""A context past the model's native one that its model card reaches with YaRN (Qwen2.5 7B: 32,768 native, 131,072
with factor 4): said so with how to turn it on (the launch command carries it), never 'it stops at 32k, switch
models'; and the first token of a prompt that fills the long context is said beside the plan's shorter prompt's
(review BK #18: 232 ms quoted beside 131,072 tokens)."""

from __future__ import annotations

import json

import pytest

from gpu_advisor.knowledge import find_model
from gpu_advisor.tools.yarn_args import yarn_args
from tests.conversation import run_states


@pytest.mark.parametrize(("model", "context", "factor", "native"), [
    ("qwen2.5-7b", 131072, 4.0, 32768), ("qwen2.5-72b", 65536, 4.0, 32768), ("qwen3-8b", 131072, 4.0, 32768),
    ("qwen3-30b-a3b", 100000, 4.0, 32768),
])
def test_yarn_flags_for_each_engine(model: str, context: int, factor: float, native: int) -> None:
    m = find_model(model)
    vllm = yarn_args(m, context, "vllm")
    assert vllm[0] == "--hf-overrides"
    assert json.loads(vllm[1]) == {"rope_scaling": {"rope_type": "yarn", "factor": factor,
                                                    "original_max_position_embeddings": native}}
    assert yarn_args(m, context, "llama.cpp") == ["--rope-scaling", "yarn", "--rope-scale", f"{factor:g}",
                                                  "--yarn-orig-ctx", str(native)]


@pytest.mark.parametrize(("model", "context"), [("qwen2.5-7b", 32768), ("qwen2.5-7b", 262144), ("llama-3-8b", 16384)])
def test_no_yarn_within_native_or_beyond_the_card(model: str, context: int) -> None:
    assert yarn_args(find_model(model), context, "vllm") == []


@pytest.mark.parametrize(("text", "lines"), [
    ("qwen2.5-7b 想开128k上下文 单张l40s够不够",
     ["Qwen2.5 7B 原生读 32,768 个 token；模型卡说明用 YaRN（RoPE 缩放，factor 4）可以读到 131,072",
      "提示词 4,096 token 时，首 token 延迟 232 ms；读满 131,072 token 的提示词时，首 token 延迟约 33.3 s"]),
    ("qwen2.5 7b with 128k context on one l40s, enough?",
     ["Qwen2.5 7B reads 32,768 tokens natively; its model card documents YaRN (RoPE scaling, factor 4) up to 131,072",
      "a prompt that fills the 131,072-token context takes about 33.3 s to its first token"]),
])
def test_review_bk18(text: str, lines: list[str]) -> None:
    reply = run_states([text])[-1]["messages"][-1].content
    assert all(x in reply for x in lines), reply[:1500]
    assert "DeepSeek-R1-Distill" not in reply
    assert '"original_max_position_embeddings": 32768' in reply and "--max-model-len 131072" in reply
