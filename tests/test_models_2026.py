"""Models added for issue 23 (GLM, Kimi K2, Llama 4, MiniMax-M2, DeepSeek-V3.1/3.2, Qwen3-Next, the Qwen
coders, Phi-3.5, Mistral Small 2409, Magistral): each shape reproduces its published total and active
parameter counts, resolves from the spellings people type (English and Chinese), is sized by
`size inference`, and is the model a conversation names, never another one."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import find_model
from gpu_advisor.knowledge.hf_config import shape_params
from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory
from tests.conversation import run_conversation

# (id, published total B, published active B, what the published active figure counts, where it is published)
# The convention differs by vendor: Qwen, Meta and the dense models count everything ("all"); DeepSeek and
# Kimi leave out the input embedding, a table lookup ("no-input-embedding"); Zhipu and MiniMax leave out
# the embeddings and the output head ("no-embeddings"). A figure given in whole billions ("355B", "12B")
# is read as rounded: the shape must land within half a billion of it, or within 2%, whichever is wider.
PUBLISHED: list[tuple[str, float, float, str, str]] = [
    ("glm-4-9b", 9, 9, "all", "name"),
    ("glm-4-32b-0414", 32.6, 32.6, "all", "the shape's own count; the name says 32B (review T2 #8)"),
    ("glm-4.5", 355, 32, "no-embeddings", "GLM-4.5 model card"),
    ("glm-4.5-air", 106, 12, "no-embeddings", "GLM-4.5 model card"),
    ("glm-4.6", 355, 32, "no-embeddings", "GLM-4.5 model card (same layout)"),
    ("kimi-k2", 1040, 32, "no-input-embedding", "Kimi K2 technical report: 1.04T total, 32B activated"),
    ("deepseek-v3.1", 671, 37, "no-input-embedding", "DeepSeek-V3.1 model card"),
    ("deepseek-v3.2", 671, 37, "no-input-embedding", "DeepSeek-V3.2-Exp release"),
    ("llama-4-scout", 109, 17, "all", "Llama 4 model card (109B with the vision encoder)"),
    ("llama-4-maverick", 400, 17, "all", "Llama 4 model card (400B with the vision encoder)"),
    ("minimax-m2", 230, 10, "no-embeddings", "MiniMax-M2 model card"),
    ("qwen3-next-80b-a3b", 80, 3, "all", "Qwen3-Next model card"),
    ("qwen2.5-coder-7b", 7.61, 7.61, "all", "Qwen2.5-Coder-7B-Instruct model card"),
    ("qwen2.5-coder-32b", 32.5, 32.5, "all", "Qwen2.5-Coder-32B-Instruct model card"),
    ("qwen3-coder-30b-a3b", 30.5, 3.3, "all", "Qwen3-Coder-30B-A3B-Instruct model card"),
    ("qwen3-coder-480b-a35b", 480, 35, "all", "Qwen3-Coder model card"),
    ("phi-3.5-mini", 3.8, 3.8, "all", "Phi-3.5-mini-instruct model card"),
    ("mistral-small-2409", 22, 22, "all", "Mistral-Small-Instruct-2409 model card"),
    ("mistral-small-3-24b", 24, 24, "all", "Mistral-Small-24B-Instruct-2501 model card"),
    ("magistral-small-24b", 24, 24, "all", "Magistral-Small-2506 model card"),
]


def _tolerance(published: float, rounded: bool) -> float:
    return max(0.02 * published, 0.5 if rounded else 0.0)


@pytest.mark.parametrize("model_id, total_b, active_b, convention, where", PUBLISHED, ids=[p[0] for p in PUBLISHED])
def test_shape_reproduces_the_published_parameter_counts(model_id, total_b, active_b, convention, where):
    m = find_model(model_id)
    total, active = shape_params(m)
    embed_in = m.vocab_size * m.hidden_size
    head = 0 if m.tied_embeddings else embed_in
    active -= {"all": 0, "no-input-embedding": embed_in, "no-embeddings": embed_in + head}[convention]
    # the record carries the published figure, or the count computed from its shape where only a rounded one is
    assert m.total_params_b in (total_b, round(total / 1e9 + m.vision_params_b, 2))
    assert abs(total / 1e9 + m.vision_params_b - total_b) <= _tolerance(total_b, float(total_b).is_integer())
    assert abs(active / 1e9 - active_b) <= _tolerance(active_b, float(active_b).is_integer())


# (what people type, catalog id): English and Chinese spellings, with and without separators
SPELLINGS: list[tuple[str, str]] = [
    ("GLM-4.5", "glm-4.5"), ("glm4.5", "glm-4.5"), ("智谱GLM-4.5", "glm-4.5"), ("zai-org/GLM-4.5", "glm-4.5"),
    ("GLM-4.5-Air", "glm-4.5-air"), ("glm 4.5 air", "glm-4.5-air"), ("glm4.5-air", "glm-4.5-air"),
    ("GLM-4.6", "glm-4.6"), ("glm4.6", "glm-4.6"), ("glm-4-9b-chat", "glm-4-9b"), ("GLM4 9B", "glm-4-9b"),
    ("THUDM/glm-4-9b-chat", "glm-4-9b"), ("GLM-4-32B-0414", "glm-4-32b-0414"), ("glm4 32b", "glm-4-32b-0414"),
    ("GLM-Z1-32B-0414", "glm-4-32b-0414"), ("智谱GLM-4-32B", "glm-4-32b-0414"),
    ("Kimi K2", "kimi-k2"), ("kimi-k2-instruct", "kimi-k2"), ("moonshotai/Kimi-K2-Instruct", "kimi-k2"),
    ("月之暗面Kimi K2", "kimi-k2"), ("DeepSeek V3.1", "deepseek-v3.1"), ("deepseek-v3.1-terminus", "deepseek-v3.1"),
    ("DeepSeek-V3.2-Exp", "deepseek-v3.2"), ("deepseek v3.2", "deepseek-v3.2"), ("dsv3.2", "deepseek-v3.2"),
    ("Llama 4 Scout", "llama-4-scout"), ("llama4 scout", "llama-4-scout"), ("Llama-4-Scout-17B-16E", "llama-4-scout"),
    ("meta-llama/Llama-4-Scout-17B-16E-Instruct", "llama-4-scout"), ("Llama 4 Maverick", "llama-4-maverick"),
    ("llama4 maverick", "llama-4-maverick"), ("Llama-4-Maverick-17B-128E-Instruct", "llama-4-maverick"),
    ("MiniMax-M2", "minimax-m2"), ("minimax m2", "minimax-m2"), ("MiniMaxAI/MiniMax-M2", "minimax-m2"),
    ("Qwen3-Next", "qwen3-next-80b-a3b"), ("qwen3 next 80b", "qwen3-next-80b-a3b"),
    ("Qwen3-Next-80B-A3B-Instruct", "qwen3-next-80b-a3b"), ("通义千问3-Next", "qwen3-next-80b-a3b"),
    ("Qwen2.5-Coder-7B-Instruct", "qwen2.5-coder-7b"), ("qwen2.5 coder 7b", "qwen2.5-coder-7b"),
    ("千问2.5 coder 32b", "qwen2.5-coder-32b"), ("Qwen2.5-Coder-32B", "qwen2.5-coder-32b"),
    ("qwen3 coder 30b", "qwen3-coder-30b-a3b"), ("Qwen3-Coder-30B-A3B-Instruct", "qwen3-coder-30b-a3b"),
    ("qwen3 coder flash", "qwen3-coder-30b-a3b"), ("千问3 coder", "qwen3-coder-480b-a35b"),
    ("Qwen3-Coder", "qwen3-coder-480b-a35b"), ("qwen3-coder-480b-a35b-instruct", "qwen3-coder-480b-a35b"),
    ("Phi-3.5-mini", "phi-3.5-mini"), ("phi3.5 mini", "phi-3.5-mini"), ("microsoft/Phi-3.5-mini-instruct", "phi-3.5-mini"),
    ("Mistral Small 2409", "mistral-small-2409"), ("Mistral-Small-Instruct-2409", "mistral-small-2409"),
    ("mistral small 22b", "mistral-small-2409"), ("Mistral-Small-24B-Instruct-2501", "mistral-small-3-24b"),
    ("mistral small 3", "mistral-small-3-24b"), ("mistral small 3.1", "mistral-small-3.1-24b"),
    ("Magistral Small", "magistral-small-24b"), ("magistral-small-2506", "magistral-small-24b"),
    ("mistralai/Magistral-Small-2507", "magistral-small-24b"),
]


@pytest.mark.parametrize("typed, model_id", SPELLINGS)
def test_spelling_resolves_to_the_model(typed, model_id):
    assert find_model(typed).id == model_id


@pytest.mark.parametrize("model_id", ["llama-4-scout", "llama-4-maverick"])
def test_llama4_chunked_layers_cap_the_kv_cache(model_id):
    """36 of 48 layers attend within 8,192-token chunks: at 131K tokens the cache is the 12 global layers'
    131K tokens plus 36 layers of 8K, about 31% of a full-attention cache."""
    from gpu_advisor.tools.arch import cached_token_layers

    m = find_model(model_id)
    assert (m.sliding_window, m.sliding_layers, m.is_moe) == (8192, 36, True)
    assert cached_token_layers(m, 131072) == 12 * 131072 + 36 * 8192


def test_config_json_of_llama4_reads_the_catalog_shape():
    """A Llama 4 fine-tune's config.json (read from the Hub or a file) gets the shared expert, the
    interleaved dense layers and the chunked layers of the catalog record."""
    from gpu_advisor.knowledge.hf_config import model_from_config

    text = {"model_type": "llama4_text", "hidden_size": 5120, "num_hidden_layers": 48, "num_attention_heads": 40,
            "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 8192, "intermediate_size_mlp": 16384,
            "interleave_moe_layer_step": 2, "num_local_experts": 128, "num_experts_per_tok": 1,
            "vocab_size": 202048, "max_position_embeddings": 1048576, "attention_chunk_size": 8192}
    got = model_from_config({"model_type": "llama4", "text_config": text}, name="x/maverick-ft", source="test")
    want = find_model("llama-4-maverick")
    fields = ("num_shared_experts", "shared_expert_intermediate_size", "dense_layers", "dense_intermediate_size",
              "sliding_window", "sliding_layers", "attention")
    assert [getattr(got, f) for f in fields] == [getattr(want, f) for f in fields]
    assert got.total_params_b == pytest.approx(400.7, abs=0.05)


@pytest.mark.parametrize("text", ["serve phi 3.5 moe to 10 users", "serve magistral medium to 10 users",
                                  "serve phi-3.5-vision to 10 users"])
def test_siblings_outside_the_catalog_are_not_read_as_the_model_beside_them(text):
    assert understand(text).updates.get("model") not in ("phi-3.5-mini", "magistral-small-24b")


def test_mistral_small_releases_are_told_apart():
    """2409 is the 22B with a 32K vocabulary; 3.x are 24B (3.1 with a vision encoder); Magistral is 3.1's
    language model without it."""
    old, three, three_one, magistral = (find_model(x) for x in ("mistral-small-2409", "mistral-small-3-24b",
                                                                "mistral-small-3.1-24b", "magistral-small-24b"))
    assert (old.num_layers, old.hidden_size, old.vocab_size) == (56, 6144, 32768)
    assert (three.num_layers, three.hidden_size, three.vocab_size) == (40, 5120, 131072)
    text = ("num_layers", "hidden_size", "intermediate_size", "num_attention_heads", "num_kv_heads", "head_dim",
            "vocab_size")
    assert [getattr(magistral, f) for f in text] == [getattr(three_one, f) for f in text] == \
        [getattr(three, f) for f in text]
    assert magistral.total_params_b == pytest.approx(three_one.total_params_b - three_one.vision_params_b, abs=0.02)
    assert find_model("mistral small").id == "mistral-small-3.1-24b"


@pytest.mark.parametrize("model_id", ["deepseek-v3.1", "deepseek-v3.2", "deepseek-r1"])
def test_deepseek_successors_keep_the_v3_shape(model_id):
    fields = ("num_layers", "hidden_size", "intermediate_size", "num_attention_heads", "head_dim", "vocab_size",
              "kv_lora_rank", "qk_rope_head_dim", "q_lora_rank", "v_head_dim", "num_experts", "experts_per_token",
              "num_shared_experts", "dense_layers", "dense_intermediate_size", "native_precision")
    v3, m = find_model("deepseek-v3"), find_model(model_id)
    assert [getattr(m, f) for f in fields] == [getattr(v3, f) for f in fields]


@pytest.mark.parametrize("typed, model_id", SPELLINGS)
@pytest.mark.parametrize("frame", ["serve {} to 10 users", "用{}给10个人提供服务", "can I fine-tune {} with LoRA?"])
def test_reader_finds_the_model_in_a_sentence(typed, model_id, frame):
    assert understand(frame.format(typed)).updates.get("model") == model_id


def _new_ids() -> list[str]:
    return [p[0] for p in PUBLISHED]


@pytest.mark.parametrize("model_id", _new_ids())
def test_size_inference_sizes_the_model_in_its_native_format(model_id):
    m = find_model(model_id)
    precision = m.native_precision or "bf16"
    r = inference_memory(InferenceMemoryInput(model=model_id, precision=precision, gpu="h200", context=4096))
    assert (r.model_id, r.precision) == (model_id, precision)
    bits = 8 if precision == "fp8" else 16
    assert r.weights_bytes == pytest.approx(m.total_params_b * 1e9 * bits / 8, rel=0.01)


@pytest.mark.parametrize("model_id", _new_ids())
def test_a_conversation_names_the_model_asked_about(model_id):
    m = find_model(model_id)
    spoken = m.aliases[0]
    reply = run_conversation([f"serve {spoken} to 10 users"])[-1].content
    assert m.name in reply
