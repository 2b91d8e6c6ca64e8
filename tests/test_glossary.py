"""The glossary as data: the topics the assistant explains, in English and Chinese, and find_topic,
which names the topic a question is about (longest alias wins, words matched whole)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gpu_advisor.knowledge import KnowledgeError, find_topic, glossary
from gpu_advisor.knowledge.loader import load_records
from gpu_advisor.knowledge.resolve import phrase
from gpu_advisor.knowledge.schema import GlossaryTopic

TOPICS = ["kv-cache", "quantization", "utilisation", "tensor-parallel", "nvlink", "moe", "lora", "qlora",
          "prefill-decode", "ttft", "vram", "fine-tuning", "mfu", "best-gpu", "pipeline-parallel", "data-parallel",
          "sharded-training", "expert-parallel", "speculative-decoding", "continuous-batching", "prefix-caching",
          "paged-attention", "flash-attention", "attention-kinds", "gradient-checkpointing", "memory-bandwidth",
          "tensor-throughput", "fp8-training", "mig", "time-slicing", "mps", "engine-speed", "per-user-speed"]


def test_the_topic_ids_are_exactly_these():
    assert [t.id for t in glossary()] == TOPICS


@pytest.mark.parametrize("topic", glossary(), ids=lambda t: t.id)
def test_every_topic_has_titles_short_explanations_and_provenance(topic: GlossaryTopic):
    assert topic.title_en and topic.title_zh
    assert 2 <= topic.en.count(". ") + 1 <= 5, topic.en  # a few sentences, not an essay
    assert 80 <= len(topic.en) <= 700
    assert 30 <= len(topic.zh) <= 400
    assert any("\u4e00" <= ch <= "\u9fff" for ch in topic.zh)
    assert any("\u4e00" <= ch <= "\u9fff" for a in topic.aliases for ch in a), "needs a Chinese alias"
    assert all(a == a.lower() for a in topic.aliases)
    assert topic.source and "2026-11-01" <= str(topic.as_of) <= "2026-12-07"  # dated when written (fp8-training, per-user-speed later)


def test_no_alias_names_two_topics_even_after_normalising():
    owner: dict[str, str] = {}
    for t in glossary():
        for a in t.aliases:
            assert owner.setdefault(phrase(a), t.id) == t.id, a


def test_every_alias_finds_its_own_topic():
    for t in glossary():
        for a in t.aliases:
            assert find_topic(a) == t.id, a


@pytest.mark.parametrize("text, topic", [
    ("what is a KV cache?", "kv-cache"),
    ("What's the KV-cache", "kv-cache"),
    ("什么是KV缓存", "kv-cache"),
    ("什么是 kv cache？", "kv-cache"),
    ("explain int8", "quantization"),
    ("what is int4?", "quantization"),
    ("is 4-bit worse?", "quantization"),
    ("what does GGUF mean", "quantization"),
    ("量化是什么", "quantization"),
    ("what does utilisation mean?", "utilisation"),
    ("utilization?", "utilisation"),
    ("GPU 利用率是什么意思", "utilisation"),
    ("what is model flops utilization", "mfu"),   # longer alias beats "utilization"
    ("explain MFU", "mfu"),
    ("what is tensor parallelism", "tensor-parallel"),
    ("张量并行", "tensor-parallel"),
    ("do I need NVLink?", "nvlink"),
    ("what is an MoE model", "moe"),
    ("mixture of experts", "moe"),
    ("what is LoRA", "lora"),
    ("what is QLoRA", "qlora"),                     # not "lora" inside "qlora"
    ("explain 4-bit lora", "qlora"),                # longer alias beats "4-bit"
    ("prefill vs decode", "prefill-decode"),
    ("time to first token", "ttft"),
    ("what is TTFT", "ttft"),
    ("首token延迟", "ttft"),
    ("what is VRAM", "vram"),
    ("显存是什么", "vram"),
    ("what is fine-tuning", "fine-tuning"),
    ("what is SFT", "fine-tuning"),
    ("微调是什么", "fine-tuning"),
    ("which gpu is best", "best-gpu"),
    ("Which GPU is the best?", "best-gpu"),
    ("哪个显卡最好", "best-gpu"),
])
def test_find_topic(text, topic):
    assert find_topic(text) == topic


@pytest.mark.parametrize("text", ["hello", "I want to serve llama 3.3 70b", "http server", "explorer", ""])
def test_no_topic_in_ordinary_text(text):
    assert find_topic(text) is None


def test_the_quantization_entry_states_the_quality_cost():
    q = next(t for t in glossary() if t.id == "quantization")
    for alias in ("int8", "int4", "fp8", "8-bit", "4-bit", "gguf", "awq", "gptq", "量化"):
        assert alias in q.aliases
    assert "close to lossless" in q.en and "lose a little" in q.en and "below 4 bits" in q.en
    assert "几乎无损" in q.zh and "低于 4 位" in q.zh


def test_the_best_gpu_entry_gives_the_guides_principle():
    b = next(t for t in glossary() if t.id == "best-gpu")
    for words in ("no universal best GPU", "phase", "model size", "utilisation", "compute", "interconnect",
                  "memory capacity", "memory bandwidth"):
        assert words in b.en, words
    assert "没有" in b.zh and "利用率" in b.zh


def _write(tmp_path: Path, records) -> Path:
    path = tmp_path / "glossary.yaml"
    path.write_text(yaml.safe_dump(records, allow_unicode=True), encoding="utf-8")
    return path


def _record(**changes) -> dict:
    base = dict(id="x", title_en="X", title_zh="某", aliases=["x thing"], en="A plain explanation. " * 3,
                zh="一个简单的解释，用几句话说明它是什么，以及它为什么重要。", source="test", as_of="2026-11-01")
    return {**base, **changes}


def test_upper_case_alias_is_rejected(tmp_path):
    with pytest.raises(KnowledgeError, match=r"record 0 \(id 'x'\).*aliases must be lower-case"):
        load_records(_write(tmp_path, [_record(aliases=["KV Cache"])]), GlossaryTopic)


def test_topic_without_source_is_rejected(tmp_path):
    record = {k: v for k, v in _record().items() if k != "source"}
    with pytest.raises(KnowledgeError, match=r"field 'source'"):
        load_records(_write(tmp_path, [record]), GlossaryTopic)
