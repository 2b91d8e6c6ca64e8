"""What people name is kept (helper s10): an A-not-A question about a card ('能不能用4090', '可不可以用H20', 'can I use
a 4090', 'is an L40S ok for') sizes that card and never rules it out; an unknown model's stated MoE shape ('激活12b',
'A12B', '12b active', 'active 12B') is kept; HBM against GDDR is answered from the catalog's cards; a format or width
comparison naming a model shows that model's memory per format with no plan; the China market's export rule is said
as the plan's card is had (bought or rented). Generated combinations, asserting codes and values, not prose."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.engine import _stated
from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import find_gpu, gpus
from gpu_advisor.tools.recommend import Workload, china_supply
from tests.conversation import run_conversation

GB = 1e9


def _payload(text: str) -> dict:
    return run_conversation([text])[-1].additional_kwargs["gpu_advisor"]


# ---------------------------------------------------------------- "can I use X" / A-not-A questions

CARDS = [("4090", "rtx-4090"), ("h20", "h20"), ("l40s", "l40s"), ("a100", "a100-80gb-sxm"), ("5090", "rtx-5090")]
MODELS = ["qwen2.5 32b", "llama 3.1 8b"]
ASK_ZH = ["能不能用{c}跑{m} 给10个人用", "可不可以用{c}跑{m}，10个人用", "要不要用{c}跑{m} 10人用", "{c}够不够跑{m} 10个人用",
          "用{c}行不行，跑{m} 给10个人用", "{c}可以吗，跑{m} 10个人用", "预算有限 能不能用{c} 跑 {m} 给10个人用"]
ASK_EN = ["can I use {c} to run {m} for 10 users", "could a {c} work for {m} with 10 users", "is a {c} ok for {m}, 10 users",
          "would one {c} be fine for {m} with 10 users", "can we use the {c} for {m}? 10 users"]


@pytest.mark.parametrize(("card", "frame", "model"), list(itertools.product(CARDS, ASK_ZH + ASK_EN, MODELS)))
def test_asking_about_a_card_sizes_that_card(card, frame, model):
    word, gpu_id = card
    u = understand(frame.format(c=word, m=model))
    assert not u.updates.get("exclude"), u.updates
    assert u.updates.get("only") == [gpu_id] and "fit_check" in u.intents, (u.updates, u.intents)


@pytest.mark.parametrize("text", ["不能用4090跑qwen2.5 32b 给10个人用", "不要4090，跑qwen2.5 32b 给10个人用",
                                  "no 4090s, serve qwen2.5 32b to 10 users"])
def test_a_real_refusal_still_rules_the_card_out(text):
    assert "rtx-4090" in (understand(text).updates.get("exclude") or [])


@pytest.mark.parametrize("frame", ["能不能用{v}的卡跑qwen2.5 32b", "可不可以用{v}跑qwen2.5 32b"])
@pytest.mark.parametrize("vendor", ["英伟达", "nvidia", "n卡"])
def test_asking_about_a_vendor_is_no_domestic_policy(frame, vendor):
    u = understand(frame.format(v=vendor))
    assert not u.updates.get("exclude") and not u.updates.get("only"), u.updates


def test_rent_or_buy_a_not_a_stays_that_question():
    assert "rent_buy" in understand("要不要直接租").intents


@pytest.mark.parametrize(("frame", "lang_yes"), [*((f, "**能**") for f in ASK_ZH[:2] + ASK_ZH[4:]),
                                                 *((f, "**Yes**") for f in ASK_EN[:3])])
def test_the_card_asked_about_is_the_answer_head_on(frame, lang_yes):
    reply = run_conversation([frame.format(c="4090", m="qwen2.5 32b")])[-1]
    rec = reply.additional_kwargs["gpu_advisor"]["results"]["recommend"]
    assert rec["best"]["gpu"] == "rtx-4090"
    assert reply.content.startswith(lang_yes)
    assert "只用 。" not in reply.content and "不用 NVIDIA GeForce RTX 4090" not in reply.content


@pytest.mark.parametrize(("value", "said"), [([], False), (None, False), (["rtx-4090"], True), (0, True), ("x", True)])
def test_an_emptied_list_is_never_said_back(value, said):
    assert _stated(value) is said


# ---------------------------------------------------------------- unknown models with a stated MoE shape

NAMES = ["Zhipu-Flux-90B-MoE", "Acme-Nova-90B", "zhipu-flux-90b"]
ACTIVE = ["激活12b", "激活12B", "12B激活参数", "激活参数12B", "A12B", "12b active", "active 12B", "12B active params",
          "with 12b active"]
ORDERS = ["{n} {a} 想上线 给100人用", "给100人用，{n}，{a}", "serve {n} ({a}) for 100 users", "{n}, {a}, 100 users at once"]


@pytest.mark.parametrize(("name", "active", "order"), list(itertools.product(NAMES, ACTIVE, ORDERS)))
def test_an_unknown_moe_keeps_its_total_and_active(name, active, order):
    u = understand(order.format(n=name, a=active))
    assert u.updates.get("model") == "90B-A12B", (u.updates, u.unknown_model)
    assert u.unknown_model and u.unknown_model.lower().startswith(name.lower()[:5])


@pytest.mark.parametrize(("text", "spec"), [("Falcon-H9, a 300B MoE with 20B active, serve 50 users", "300B-A20B"),
                                            ("some 90b moe model, 12b active, 100 users", "90B-A12B"),
                                            ("a 90b moe with active params of 12b, 30 users", "90B-A12B"),
                                            ("部署一个 300B 的 MoE，20B激活参数，50人用", "300B-A20B")])
def test_a_moe_said_by_its_sizes(text, spec):
    assert understand(text).updates.get("model") == spec


def test_a_name_that_says_moe_gets_an_assumed_stated_active_share():
    u = understand("Zhipu-Flux-90B-MoE 想上线 给200人用")
    spec = u.updates.get("model")
    assert spec and spec.startswith("90B-A") and spec != "90B-A90B"
    assert any(code == "note.moe_active_assumed" for code, _v in u.notes)


@pytest.mark.parametrize("frame", ["有个新模型叫 {n} 激活12b 想上线 给公司200个员工用", "{n}, 12b active, for our 200 employees"])
@pytest.mark.parametrize("name", NAMES[:2])
def test_staff_are_people_not_all_at_once(frame, name):
    u = understand(frame.format(n=name))
    assert u.updates.get("model") == "90B-A12B"
    assert u.updates.get("population") == 200 and "users" not in u.updates


@pytest.mark.parametrize("text", ["有个新模型叫 Zhipu-Flux-90B-MoE 激活12b 想上线 给200人用 32k上下文",
                                  "serve Zhipu-Flux-90B-MoE (12b active) to 200 users, 32k context"])
def test_the_unknown_moe_is_sized_with_its_shape(text):
    reply = run_conversation([text])[-1]
    assert "90B-A12B" in reply.content and "Zhipu-Flux-90B-MoE" in reply.content  # sized as said, the name said back
    assert ("12B active" if reply.content.isascii() else "激活 12B") in reply.content


# ---------------------------------------------------------------- HBM against GDDR

MEMORY_PAIRS = ["HBM3 vs GDDR7 what's the difference for llm inference", "HBM和GDDR有什么区别", "hbm3e or gddr6x for inference?",
                "HBM跟GDDR7对推理有什么影响", "gddr7 vs hbm3, which is better for serving", "HBM和GDDR显存区别大吗",
                "difference between GDDR6X and HBM2e?"]


@pytest.mark.parametrize("text", MEMORY_PAIRS)
def test_hbm_against_gddr_is_the_memory_question(text):
    u = understand(text)
    assert "memory_types" in u.intents and set(u.ask["memory_types"]) == {"hbm", "gddr"}, u.intents


@pytest.mark.parametrize("text", ["what is hbm", "HBM是什么", "how much memory bandwidth does an h100 have"])
def test_one_kind_alone_stays_the_glossary(text):
    assert "memory_types" not in understand(text).intents


@pytest.mark.parametrize("text", [MEMORY_PAIRS[0], MEMORY_PAIRS[1]])
def test_memory_kinds_answered_from_the_catalog(text):
    data = _payload(text)["results"]["memory_types"]
    for kind in ("hbm", "gddr"):
        cards = [g for g in gpus() if g.memory_type == kind and not g.laptop]
        assert data[kind]["cards"] == len(cards)
        assert data[kind]["bandwidth_gbps"] == [min(g.memory_bandwidth_gbps for g in cards),
                                                max(g.memory_bandwidth_gbps for g in cards)]
    assert data["hbm"]["bandwidth_gbps"][1] == find_gpu("b200").memory_bandwidth_gbps
    assert data["gddr"]["bandwidth_gbps"][1] == find_gpu("rtx-5090").memory_bandwidth_gbps
    speed = data["speed"]["tokens_per_s"]
    assert speed["h100-sxm"] > speed["rtx-5090"] > 0


# ---------------------------------------------------------------- formats and widths named with a model, no plan

FORMAT_QUESTIONS = ["AWQ、GPTQ、GGUF、FP8这几种量化到底啥区别，我用vLLM部署{m}该选哪个",
                    "awq vs gptq vs gguf vs fp8 for vllm serving {m}, which one?"]


@pytest.mark.parametrize(("frame", "model"), list(itertools.product(FORMAT_QUESTIONS, [("Qwen3-32B", "qwen3-32b"),
                                                                                        ("qwen2.5 72b", "qwen2.5-72b")])))
def test_a_format_question_keeps_the_model_and_takes_no_format(frame, model):
    word, model_id = model
    u = understand(frame.format(m=word))
    assert "formats" in u.intents and u.ask.get("model") == model_id
    assert "precision" not in u.updates and "precision_compare" not in u.intents


@pytest.mark.parametrize("frame", FORMAT_QUESTIONS)
def test_each_format_memory_for_the_model(frame):
    data = _payload(frame.format(m="Qwen3-32B"))["results"]["model_memory"]
    weights = {r["precision"]: r["weights_bytes"] / GB for r in data["rows"]}
    assert data["model"] == "qwen3-32b" and set(weights) >= {"awq", "fp8"}
    assert 17 < weights["awq"] < 22 and 30 < weights["fp8"] < 37


WIDTH_QUESTIONS = ["is int4 awq quality good enough vs fp8 for {m}? and how much memory does each take",
                   "{m} 用 fp8 和 int4 awq 各要多少显存，质量差多少", "fp8 vs awq for {m}: how much vram each?"]
WIDTH_MODELS = [("deepseek r1 distill llama 70b", "deepseek-r1-distill-llama-70b"), ("qwen2.5 72b", "qwen2.5-72b"),
                ("llama 3.1 8b", "llama-3.1-8b")]


@pytest.mark.parametrize(("frame", "model"), list(itertools.product(WIDTH_QUESTIONS, WIDTH_MODELS)))
def test_a_width_comparison_keeps_the_model(frame, model):
    word, model_id = model
    u = understand(frame.format(m=word))
    assert "precision_compare" in u.intents and u.ask.get("model") == model_id


@pytest.mark.parametrize("frame", WIDTH_QUESTIONS[:2])
def test_each_width_memory_with_no_plan(frame):
    data = _payload(frame.format(m="deepseek r1 distill llama 70b"))["results"]["precision_compare"]
    assert data["plan"] is False and data["model"] == "deepseek-r1-distill-llama-70b"
    rows = {r["precision"]: r for r in data["rows"]}
    assert set(rows) == {"awq", "fp8"}
    assert 36 < rows["awq"]["weights_bytes"] / GB < 44 and 66 < rows["fp8"]["weights_bytes"] / GB < 78
    for r in rows.values():
        assert r["kv_cache_bytes"] > 0 and r["total_bytes"] > r["weights_bytes"] + r["kv_cache_bytes"] * 0.99


# ---------------------------------------------------------------- China market: export-restricted cards as had

RESTRICTED = [g.id for g in gpus() if g.export_limited and not g.china_specific]


@pytest.mark.parametrize("gpu_id", RESTRICTED[:8])
@pytest.mark.parametrize(("action", "words"), [("buy", "cannot be bought new in China"),
                                               ("rent", "depends on the provider"), (None, "depends on channels")])
def test_the_one_export_policy(gpu_id, action, words):
    china = Workload(phase="serve", model="qwen2.5-7b", region="china")
    said = china_supply(china, find_gpu(gpu_id), action)
    assert said and words in said
    assert china_supply(china.model_copy(update={"region": "global"}), find_gpu(gpu_id), action) is None


@pytest.mark.parametrize("gpu_id", [g.id for g in gpus() if not g.export_limited][:6])
def test_unrestricted_cards_carry_no_export_note(gpu_id):
    assert china_supply(Workload(phase="serve", model="qwen2.5-7b", region="china"), find_gpu(gpu_id), "buy") is None


@pytest.mark.parametrize(("text", "words", "shown"), [
    ("买卡 跑 qwen2.5 32b 给10个人用，只用4090", "cannot be bought new in China", "国内买不到正规渠道的新卡"),
    ("租卡 跑 qwen2.5 72b 给30个人同时用，用h100", "whether a provider in China rents it", "国内能否租到取决于云服务商"),
])
def test_the_plans_restricted_card_is_said_as_had(text, words, shown):
    reply = run_conversation([text])[-1]
    best = reply.additional_kwargs["gpu_advisor"]["results"]["recommend"]["best"]
    assert any(words in w for w in best["warnings"]), best["warnings"]
    assert reply.content.count(shown) == 1
    assert f"{best['gpu_name']} 受出口管制：在国内能否买到取决于渠道" not in reply.content  # said once, as had


def test_outside_china_no_export_note():
    best = _payload("buy cards to serve qwen2.5 32b to 10 users, only 4090s")["results"]["recommend"]["best"]
    assert not any("export-restricted" in w for w in best["warnings"])
