"""DeepSeek-R1's distills by size, however people name them: Ollama's tags ('deepseek-r1:8b'), the size then
'distill' or '蒸馏版' after it, or 'distill' before the size. Each is the distill of that size, never R1 itself
(671B), which is what 'deepseek r1 32b 蒸馏版' and 'deepseek r1 8b' were read as."""

from __future__ import annotations

import itertools

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import find_model

DISTILLS = {"1.5b": "deepseek-r1-distill-qwen-1.5b", "7b": "deepseek-r1-distill-qwen-7b",
            "8b": "deepseek-r1-distill-llama-8b", "14b": "deepseek-r1-distill-qwen-14b",
            "32b": "deepseek-r1-distill-qwen-32b", "70b": "deepseek-r1-distill-llama-70b"}
NAMES = ["deepseek r1 {s}", "deepseek-r1:{s}", "DeepSeek-R1 {S}", "deepseek r1 {s} distill", "deepseek r1 {s} distilled",
         "deepseek r1 distill {s}", "r1 {s}", "deepseek r1 {s} 蒸馏版", "deepseek r1 {s}蒸馏", "r1 {s} 蒸馏版"]
FRAMES = ["run {m} on my 3090", "can i serve {m} to 5 users", "想本地跑 {m}，能行不", "用 {m} 给 10 个人用，租什么卡"]


def test_every_spelling_of_a_distill_by_size_is_that_distill():
    failures = []
    texts = list(itertools.product(DISTILLS.items(), NAMES, FRAMES))
    for (size, want), name, frame in texts:
        text = frame.format(m=name.format(s=size, S=size.upper()))
        got = understand(text).updates.get("model")
        if got != want:
            failures.append(f"{text!r}: {got}")
    assert len(texts) == 6 * 10 * 4
    assert not failures, f"{len(failures)} of {len(texts)}:\n" + "\n".join(failures[:20])


def test_the_small_distills_carry_their_base_models_shapes():
    # (layers, hidden, kv heads, vocabulary, parameters) from each checkpoint's config.json
    shapes = {"deepseek-r1-distill-qwen-1.5b": (28, 1536, 2, 151936, 1.78),
              "deepseek-r1-distill-qwen-7b": (28, 3584, 4, 152064, 7.62),
              "deepseek-r1-distill-llama-8b": (32, 4096, 8, 128256, 8.03)}
    for model_id, (layers, hidden, kv, vocab, params) in shapes.items():
        m = find_model(model_id)
        assert (m.num_layers, m.hidden_size, m.num_kv_heads, m.vocab_size, m.total_params_b) == (layers, hidden, kv, vocab, params)
        # the parameters the shape gives (untied embeddings, gated MLP, GQA) agree with the stated total within 1%
        per_layer = 2 * hidden * hidden + 2 * hidden * kv * m.head_dim + 3 * hidden * m.intermediate_size
        assert abs((m.num_layers * per_layer + 2 * vocab * hidden) / 1e9 - params) / params < 0.01


def test_r1_itself_and_the_bare_distill_stay_what_they_were():
    assert understand("serve deepseek r1 to 50 users on h200s").updates.get("model") == "deepseek-r1"
    assert "model" not in understand("deepseek r1 distill on my 3090").updates  # which one: asked, not guessed
