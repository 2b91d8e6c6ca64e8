"""Issue 23's model list, item by item: every open model the issue names resolves to its own catalog record
(with a source and a date), never to a stand-in sized from a bare size in its name. Qwen3-VL 8B, the dense
Qwen3-VL most people run, was missing: its Hugging Face repo id was sized as an 8B with Granite's layout
(40 layers, a 131K context, no vision tower)."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import find_model
from gpu_advisor.knowledge.resolve import resolve_model
from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory

# every model section 1 of issue 23 names, as people spell it -> the catalog record it must be
ISSUE_MODELS: list[tuple[str, str]] = [
    ("GLM-4.5", "glm-4.5"), ("glm 4.5 air", "glm-4.5-air"), ("GLM-4.6", "glm-4.6"),
    ("Kimi K2", "kimi-k2"), ("llama 4 scout", "llama-4-scout"), ("Llama-4-Maverick", "llama-4-maverick"),
    ("MiniMax-M1", "minimax-m1"), ("minimax m2", "minimax-m2"), ("DeepSeek-V3.1", "deepseek-v3.1"),
    ("deepseek v3.2", "deepseek-v3.2"), ("Qwen3-Next", "qwen3-next-80b-a3b"),
    ("Qwen3-VL-30B-A3B", "qwen3-vl-30b-a3b"), ("Qwen3-VL-235B-A22B", "qwen3-vl-235b-a22b"),
    ("Qwen3-VL-8B", "qwen3-vl-8b"), ("qwen3 vl 8b", "qwen3-vl-8b"), ("Qwen2.5-VL-7B", "qwen2.5-vl-7b"),
    ("qwen2.5-vl-72b", "qwen2.5-vl-72b"), ("gemma 3 27b", "gemma-3-27b"), ("gemma-3n-e4b", "gemma-3n-e4b"),
    ("phi-3.5-mini", "phi-3.5-mini"), ("Phi-3.5-MoE", "phi-3.5-moe"), ("phi-4", "phi-4"),
    ("Magistral Small", "magistral-small-24b"), ("mistral small 2409", "mistral-small-2409"),
    ("Mistral Small 3.1", "mistral-small-3.1-24b"), ("mistral-small-3.2", "mistral-small-3.2-24b"),
    ("bge-m3", "bge-m3"), ("Qwen3-Embedding-8B", "qwen3-embedding-8b"), ("qwen3-reranker-0.6b", "qwen3-reranker-0.6b"),
]


@pytest.mark.parametrize("name, model_id", ISSUE_MODELS, ids=[n for n, _ in ISSUE_MODELS])
def test_every_model_the_issue_names_is_on_record_with_source_and_date(name, model_id):
    m = find_model(name)
    assert m.id == model_id
    assert m.source and m.as_of is not None


QWEN3_VL_8B_SPELLINGS = ["Qwen3-VL-8B", "qwen3-vl-8b", "qwen3 vl 8b", "QWEN3VL 8B", "qwen3-vl-8b-instruct",
                         "Qwen/Qwen3-VL-8B-Instruct", "Qwen/Qwen3-VL-8B-Thinking", "qwen3-vl-8b-thinking"]


@pytest.mark.parametrize("spelling", QWEN3_VL_8B_SPELLINGS)
def test_qwen3_vl_8b_resolves_to_its_own_shape_not_a_stand_in(spelling):
    m = resolve_model(spelling)
    assert m.id == "qwen3-vl-8b"
    # the config's text model: 36 layers, 32 query and 8 KV heads of 128, a 256K context, untied head
    assert (m.num_layers, m.num_attention_heads, m.num_kv_heads, m.head_dim) == (36, 32, 8, 128)
    assert m.max_context == 262144 and not m.tied_embeddings
    assert m.modality == "vision-language" and m.vision_params_b == pytest.approx(0.58)
    # 144 KiB of BF16 KV cache a token: 2 x 36 layers x 8 heads x 128 x 2 bytes
    assert 2 * m.num_layers * m.num_kv_heads * m.head_dim * 2 == 147456


def test_qwen3_vl_8b_weights_match_the_published_shards():
    # BF16 shards total 17,534,247,392 bytes (model.safetensors.index.json)
    bf16 = inference_memory(InferenceMemoryInput(model="qwen3-vl-8b", precision="bf16", context=4096))
    assert bf16.weights_bytes / 1e9 == pytest.approx(17.53, abs=0.05)
    # FP8 stores the linear layers in one byte; the untied embedding and output head stay in 16 bits
    fp8 = inference_memory(InferenceMemoryInput(model="qwen3-vl-8b", precision="fp8", context=4096))
    m = find_model("qwen3-vl-8b")
    embed_and_head = 2 * m.vocab_size * m.hidden_size
    assert fp8.weights_bytes == pytest.approx(m.total_params_b * 1e9 + embed_and_head, rel=0.005)


@pytest.mark.parametrize("text", [
    "serve Qwen3-VL-8B for 10 users reading invoices",
    "we want qwen3 vl 8b on one 4090 for our OCR app",
    "用一张4090部署qwen3-vl-8b，10个人识别发票",
    "Qwen3-VL-8B-Instruct 能在 24G 显卡上跑吗",
])
def test_a_message_naming_qwen3_vl_8b_reads_that_model(text):
    assert understand(text).updates.get("model") == "qwen3-vl-8b"
