"""'is fp8 kv cache actually worth it for serving or does it tank quality? just curious how it works' (review S27
worth): a trade-off asked about one technique with nothing to size gets a verdict, not a sizing interview. The reply
says what the technique saves (figures from the tools, with their source), what it costs in quality (the published
source), when it is worth it and how engines turn it on, then how it works; no slot is filled from the question and no
sizing question follows it. Techniques (knowledge/data/trade_offs.yaml) are crossed with question templates in English
and Chinese, with typos and 'just curious' fillers."""

from __future__ import annotations

import itertools
import re

import pytest
from conversation import run_states

from gpu_advisor.assistant.catalog import catalog
from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.worth import KV_CONTEXT, KV_MODEL, TRAIN_MODEL, TRAIN_SEQ, WEIGHTS_MODEL
from gpu_advisor.assistant.writers import gb
from gpu_advisor.knowledge import find_precision, glossary
from gpu_advisor.knowledge.engine_flags import engine_flags
from gpu_advisor.knowledge.trade_offs import find_trade_offs, trade_offs

# technique id -> how people name it, in English and in Chinese
NAMES = {
    "fp8-kv-cache": (["fp8 kv cache", "FP8 KV-cache", "an fp8 kv cache", "kv cache quantization"],
                     ["fp8 kv cache", "KV缓存用FP8", "kv缓存量化"]),
    "int8-kv-cache": (["int8 kv cache", "an INT8 KV cache"], ["int8 kv缓存", "KV 缓存用 int8"]),
    "fp8-weights": (["fp8 quantization", "FP8 weights"], ["fp8量化", "FP8 权重"]),
    "int4-weights": (["int4 quantization", "4-bit quantization"], ["int4量化", "4位量化"]),
    "awq": (["awq", "AWQ quantization"], ["AWQ量化", "awq"]),
    "gptq": (["gptq", "GPTQ 4-bit"], ["GPTQ量化", "gptq"]),
    "qlora": (["qlora", "QLoRA"], ["qlora", "QLoRA微调"]),
    "speculative-decoding": (["speculative decoding", "spec decoding"], ["投机解码", "推测解码"]),
    "prefix-caching": (["prefix caching", "automatic prefix caching"], ["前缀缓存"]),
}
EN = [
    "is {x} actually worth it for serving or does it tank quality? {tail}",
    "is {x} worth it? {tail}",
    "does {x} hurt quality much? {tail}",
    "{tail}, does {x} hurt accuracy",
    "is it worth turning on {x}, or is there a quality hit?",
    "is {x} realy wroth it or does it tank qualtiy? {tail}",  # typos: really, worth, quality
    "hi, quick question: is {x} worthwhile or does it make the model dumber?",
]
ZH = [
    "{x}值得开吗？会掉点吗",
    "{x}值不值得用，{tail}",
    "{x}会掉点吗？{tail}",
    "开{x}划算吗",
    "{x}影响精度吗？{tail}",
    "用{x}会不会变笨，有什么代价",
]
TAILS = {"en": ["just curious how it works", "just curious", "out of curiosity", "just wondering"],
         "zh": ["只是好奇", "纯好奇", "就是想了解一下原理"]}


def _cases() -> list[tuple[str, str, str]]:
    out = []
    for tid, (en, zh) in NAMES.items():
        for lang, names, templates in (("en", en, EN), ("zh", zh, ZH)):
            for i, (name, template) in enumerate(itertools.product(names, templates)):
                out.append((template.format(x=name, tail=TAILS[lang][i % len(TAILS[lang])]), lang, tid))
    return out


@pytest.mark.parametrize("text,lang,tid", _cases())
def test_reader_hears_a_verdict_question_and_fills_no_slot(text, lang, tid):
    u = understand(text, None)
    assert u.ask.get("worth") == tid
    assert u.topic == trade_offs()[tid].topic
    assert "no_sizing" in u.intents and "explain" in u.intents
    assert u.updates == {} and u.also is None and u.aside is None and u.problems == []


# One question per technique and language, through the whole graph: the verdict's sections, no question, no slot.
SECTIONS = {"en": ["What it saves**:", "What it costs in quality**:", "When it is worth it**:", "How to turn it on**:"],
            "zh": ["省下什么**：", "质量代价**：", "什么时候值得**：", "怎么开启**："]}
GRAPH = [(EN[0].format(x=NAMES[t][0][0], tail="just curious how it works"), "en", t) for t in NAMES] + \
        [(ZH[0].format(x=NAMES[t][1][0]), "zh", t) for t in NAMES]


def _figures(tid: str, lang: str) -> list[str]:
    """What the saving section must say, worked out from the tools and the data the verdict names."""
    from gpu_advisor.tools.arch import kv_cache_bytes
    from gpu_advisor.tools.models import resolve_model
    from gpu_advisor.tools.training import TrainingMemoryInput, training_memory

    t = trade_offs()[tid]
    if t.kind == "kv":
        model = resolve_model(KV_MODEL)
        bits = find_precision(t.format).kv_bits
        return [gb(kv_cache_bytes(model, 16, KV_CONTEXT, 1)) + " GB", gb(kv_cache_bytes(model, bits, KV_CONTEXT, 1))
                + " GB", f"{KV_CONTEXT:,}", model.name]
    if t.kind in ("w8", "w4"):
        model, p = resolve_model(WEIGHTS_MODEL), find_precision(t.format)
        shown = [gb(model.total_params_b * 2e9) + " GB", gb(model.total_params_b * 1e9 * p.bits_per_weight / 8) + " GB"]
        if p.accuracy_drop_pct and p.accuracy_drop_pct[1]:
            shown.append(f"{p.accuracy_drop_pct[0]:g}–{p.accuracy_drop_pct[1]:g}%")
        return shown
    if t.kind == "qlora":
        return [gb(training_memory(TrainingMemoryInput(model=TRAIN_MODEL, method=m, seq_len=TRAIN_SEQ))
                   .per_gpu_total_bytes) + " GB" for m in ("lora", "qlora")]
    return []


@pytest.mark.parametrize("text,lang,tid", GRAPH)
def test_reply_is_a_verdict_with_figures_and_no_sizing_question(text, lang, tid):
    state = run_states([text])[-1]
    reply = state["messages"][-1]
    content = reply.content
    t = trade_offs()[tid]
    assert content.startswith(f"**{t.name_zh if lang == 'zh' else t.name_en}")
    assert content.splitlines()[2].startswith("**") and content.splitlines()[2] == catalog(lang)[f"worth.{t.kind}.verdict"]
    for section in SECTIONS[lang]:
        assert section in content, section
    for figure in _figures(tid, lang):
        assert figure in content, figure
    for engine, flag in t.flags.items():
        assert f"{engine} `{flag}`" in content
    assert reply.additional_kwargs["gpu_advisor"].get("worth") == tid
    # no slot filled, no question asked, no choices offered; the offer to size a model closes it
    assert {k: v for k, v in (state.get("profile") or {}).items() if v} == {}
    assert not state.get("pending")
    assert "question" not in reply.additional_kwargs["gpu_advisor"]
    assert not re.search(r"\[[^\]]+\]\s+\[", content)  # no row of choice buttons
    offer = "worth.offer.train" if t.kind == "qlora" else "worth.offer"
    assert content.rstrip().endswith(catalog(lang)[offer])
    other = "zh" if lang == "en" else "en"
    for section in SECTIONS[other]:
        assert section not in content


def test_the_reviewed_turn_says_halving_quality_and_the_vllm_flag():
    reply = run_states(["is fp8 kv cache actually worth it for serving or does it tank quality? just curious how it "
                        "works"])[-1]
    content = reply["messages"][-1].content
    assert "4.3 GB of KV cache per user in 16 bits and 2.1 GB in FP8" in content  # Llama 3.1 8B at 32,768 tokens
    assert "2× the context or 2× the users" in content
    assert "usually negligible" in content and "vLLM documentation, Quantized KV Cache" in content
    assert "vLLM `--kv-cache-dtype fp8`" in content
    assert "Which model" not in content and "[8B]" not in content
    assert {k: v for k, v in (reply.get("profile") or {}).items() if v} == {}


def test_with_a_plan_on_screen_the_verdict_uses_its_model_and_keeps_the_plan():
    states = run_states(["serve llama 3.1 70b for 40 users at 32k context, around the clock",
                         "is fp8 kv cache worth it or does it hurt quality?"])
    before, after = states[0]["profile"], states[1]["profile"]
    content = states[1]["messages"][-1].content
    assert after == before and not after.get("kv_cache")
    assert "Llama 3.1 70B at 32,768 tokens holds 10.7 GB of KV cache per user in 16 bits and 5.4 GB in FP8" in content
    assert "For your 40 users at once that is 214.7 GB instead of 429.5 GB." in content
    assert catalog("en")["worth.offer"] not in content


@pytest.mark.parametrize("text", [
    "is fp8 kv cache worth it for llama 3.1 70b with 50 users?",  # a model and a load: sized
    "serve qwen2.5 32b on an h100, is awq worth it?",
    "fp8 vs int4: which one is worth it?",  # two formats weighed against each other: precision_verdict's question
    "what is a kv cache?",  # no trade-off asked: the glossary
    "is an h100 worth it over an a100?",  # no technique
    "LoRA or QLoRA: what's the trade-off?",  # two concepts weighed: both glossary entries
    "llama 3.1 8b 用 int4 量化值得吗，32k 上下文 20 个人用",
])
def test_a_question_with_something_to_size_or_no_single_technique_is_not_a_verdict(text):
    assert "worth" not in understand(text, None).ask


def test_data_is_consistent_with_the_glossary_precisions_engines_and_catalogs():
    topics = {g.id for g in glossary()}
    accepted = {r.name: r for r in engine_flags().values()}
    for t in trade_offs().values():
        assert t.topic in topics, t.id
        if t.format:
            find_precision(t.format)
        for engine, flag in t.flags.items():
            if engine in accepted:  # each flag named for a recorded engine is one its parser accepts
                assert accepted[engine].accepts(flag.split()[0]), (t.id, flag)
        for lang in ("en", "zh"):
            for part in ("verdict", "saves", "quality", "when"):
                assert f"worth.{t.kind}.{part}" in catalog(lang), (lang, t.kind, part)
            if t.how:
                assert f"worth.how.{t.how}" in catalog(lang)
        assert find_trade_offs(t.aliases[0]) == [t.id]  # each technique found by its first name


def test_longest_alias_wins_and_two_techniques_are_both_found():
    assert find_trade_offs("is fp8 kv cache worth it") == ["fp8-kv-cache"]
    assert find_trade_offs("fp8-kv-cache") == ["fp8-kv-cache"]
    assert sorted(find_trade_offs("fp8 or awq?")) == ["awq", "fp8-weights"]
    assert find_trade_offs("the fp80 card") == []  # never inside a longer word
