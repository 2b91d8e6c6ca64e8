"""Every part of a message is answered: two options each with its own model ('LoRA on gemma 3 27b or full finetune
gemma 2 9b'), support questions ('is mxfp4 even supported on a100'), 'no nvlink' (the card's PCIe form), a KV-cache
question that names its model, and a literal question left waiting by a clarifying question. Generated over
methods × models × joiners, cards × formats × phrasings, and both languages."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import pytest

from gpu_advisor.assistant.inform import Context
from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.support import beside, card_support
from gpu_advisor.knowledge import find_gpu, pcie_variant
from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory

# ---------------------------------------------------------------- two options, each a method on its own model

METHODS_EN = {"lora": ["LoRA", "lora"], "qlora": ["QLoRA", "q-lora"], "full": ["full finetune", "full fine-tuning"]}
METHODS_ZH = {"lora": ["LoRA", "lora"], "qlora": ["QLoRA"], "full": ["全参", "全量微调"]}
MODELS = {"gemma-3-27b": ["gemma 3 27b", "Gemma-3-27B"], "gemma-2-9b": ["gemma 2 9b", "Gemma 2 9B"],
          "qwen3-32b": ["qwen3 32b", "Qwen3-32B"], "llama-3.1-8b": ["llama 3.1 8b", "Llama-3.1-8B"]}
EN_SHAPES = ["can i do {m1} on {x1} or {m2} on {x2}?", "{m1} on {x1} vs {m2} on {x2}",
             "should we {m1} {x1}, or {m2} {x2}?", "{m1} on {x1} versus {m2} of {x2}: which is better?"]
ZH_SHAPES = ["{x1} 用 {m1} 还是 {x2} {m2}？", "{x1} 做 {m1}，或者 {x2} 做 {m2}，哪个好", "是 {x1} {m1} 还是 {x2} {m2}"]
PAIRS = [(a, b) for a, b in itertools.permutations(METHODS_EN, 2)]
MODEL_PAIRS = [("gemma-3-27b", "gemma-2-9b"), ("qwen3-32b", "llama-3.1-8b")]


def _option_cases():
    for (m1, m2), (x1, x2), i in itertools.product(PAIRS, MODEL_PAIRS, range(2)):
        for shape in EN_SHAPES:
            text = shape.format(m1=METHODS_EN[m1][i % len(METHODS_EN[m1])], m2=METHODS_EN[m2][(i + 1) % len(METHODS_EN[m2])],
                                x1=MODELS[x1][i], x2=MODELS[x2][1 - i])
            yield pytest.param(text, [[m1, x1], [m2, x2]], id=f"en-{text[:40]}")
        for shape in ZH_SHAPES:
            text = shape.format(m1=METHODS_ZH[m1][i % len(METHODS_ZH[m1])], m2=METHODS_ZH[m2][(i + 1) % len(METHODS_ZH[m2])],
                                x1=MODELS[x1][i], x2=MODELS[x2][1 - i])
            yield pytest.param(text, [[m1, x1], [m2, x2]], id=f"zh-{text[:40]}")


@pytest.mark.parametrize("text,options", list(_option_cases()))
def test_each_option_keeps_its_own_model(text, options):
    u = understand(text)
    assert "method_compare" in u.intents
    assert u.ask.get("options") == options
    assert u.updates.get("model") == options[0][1]


@pytest.mark.parametrize("text", ["lora or full finetune on gemma 2 9b?", "gemma 2 9b 用 lora 还是全参？",
                                  "lora vs qlora for qwen3 32b: how much memory?"])
def test_one_model_is_the_methods_compared_on_it(text):
    u = understand(text)
    assert "method_compare" in u.intents
    assert "options" not in u.ask


def _reply(turns):
    from conversation import run_conversation

    return run_conversation(turns)[-1]


def _results(message):
    return (message.additional_kwargs.get("gpu_advisor") or {}).get("results") or {}


@pytest.mark.parametrize("text,lang", [
    ("our lab has 4x v100 32gb, no nvlink. can i do LoRA on gemma 3 27b or full finetune gemma 2 9b?", "en"),
    ("我们实验室有4张V100 32G，没有nvlink。gemma 3 27b 用 LoRA 还是 gemma 2 9b 全参？", "zh"),
])
def test_both_options_sized_on_the_same_cards(text, lang):
    """P1 E5: both options on the user's four V100s, over PCIe (the PCIe card), with the verdict on codes."""
    from gpu_advisor.tools.inference import usable_bytes
    from gpu_advisor.tools.training import TrainingMemoryInput, training_memory

    reply = _reply([text])
    data = _results(reply)["method_options"]
    assert data["gpu"] == "v100-pcie-32gb" and data["gpus"] == 4
    rows = {(r["method"], r["model"]): r for r in data["options"]}
    assert set(rows) == {("lora", "gemma-3-27b"), ("full", "gemma-2-9b")}
    room = usable_bytes(find_gpu("v100-pcie-32gb"))
    for (method, model), row in rows.items():
        want = training_memory(TrainingMemoryInput(model=model, method=method, gpus=4, zero=3)).per_gpu_total_bytes
        assert row["per_gpu_bytes"] == pytest.approx(want)
        assert row["fits"] == (want <= room)
    assert rows[("lora", "gemma-3-27b")]["fits"] and not rows[("full", "gemma-2-9b")]["fits"]
    assert data["verdict"] == "one_fits"
    assert "Gemma 3 27B" in reply.content and "Gemma 2 9B" in reply.content
    assert ("PCIe" in reply.content) and ("serving" not in reply.content.split("\n")[0])


def test_both_fit_verdict_names_the_faster():
    reply = _reply(["qlora on llama 3.1 70b vs lora on qwen3 8b, on one a100 80gb"])
    data = _results(reply)["method_options"]
    assert data["verdict"] in ("both", "both_same")
    hours = {r["model"]: r["hours"] for r in data["options"]}
    assert hours["qwen3-8b"] < hours["llama-3.1-70b"]
    if data["verdict"] == "both":
        assert "LoRA on Qwen3 8B is faster" in reply.content


# ---------------------------------------------------------------- support questions


def _support(cards, formats, lang="en"):
    ctx = Context(lang, SimpleNamespace(ask={"formats": formats}, cards=cards), {}, {}, "global")
    text = card_support(ctx)
    return text, {(r["gpu"], r["format"]): r for r in ctx.data["support"]}


# (card, format) -> code: native (computes it), weight_only (weights kept in it, 16-bit math), none, other_kernels
SUPPORT = {
    ("a100-80gb-sxm", "mxfp4"): "weight_only", ("a100-80gb-sxm", "fp8"): "weight_only",
    ("a100-80gb-sxm", "nvfp4"): "weight_only", ("a100-80gb-sxm", "bf16"): "native",
    ("h100-sxm", "fp8"): "native", ("h100-sxm", "mxfp4"): "weight_only", ("h100-sxm", "nvfp4"): "weight_only",
    ("b200", "nvfp4"): "native", ("b200", "mxfp4"): "native", ("b200", "fp8"): "native",
    ("v100-sxm2-32gb", "bf16"): "none", ("v100-sxm2-32gb", "fp8"): "none", ("v100-sxm2-32gb", "mxfp4"): "weight_only",
    ("rtx-4090", "fp8"): "native", ("rtx-4090", "mxfp4"): "weight_only", ("rtx-3090", "fp8"): "weight_only",
    ("t4", "flash-attention"): "other_kernels", ("v100-sxm2-32gb", "flash-attention"): "other_kernels",
    ("a100-80gb-sxm", "flash-attention"): "native", ("h100-sxm", "flash-attention"): "native",
    ("h100-sxm", "nvlink"): "native", ("rtx-4090", "nvlink"): "pcie", ("rtx-3090", "nvlink"): "bridge",
    ("h100-pcie", "nvlink"): "pcie", ("mi300x", "nvlink"): "other",
}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("card,fmt", list(SUPPORT))
def test_support_code_from_knowledge(card, fmt, lang):
    text, rows = _support([card], [fmt], lang)
    assert rows[(card, fmt)]["code"] == SUPPORT[(card, fmt)]
    assert rows[(card, fmt)]["native"] == (SUPPORT[(card, fmt)] == "native")
    assert find_gpu(card).name in text
    if SUPPORT[(card, fmt)] == "weight_only":
        from gpu_advisor.knowledge import format_support

        kinds = [fmt] if fmt != "fp4" else ["mxfp4"]
        path = next(f for f in format_support() if f.id == kinds[0]).path(find_gpu(card).arch)
        assert path.kernels in text
        assert ("weight-only" in text) if lang == "en" else ("仅权重" in text)


EN_SUPPORT = ["is {f} supported on {c}?", "does the {c} support {f}", "is {f} even supported on {c}",
              "does {c} run {f} natively?"]
ZH_SUPPORT = ["{c}支持{f}吗", "{c} 支不支持 {f}？", "{c}原生支持{f}吗"]
CARDS = {"a100-80gb-sxm": "a100", "h100-sxm": "H100", "v100-sxm2-32gb": "V100", "rtx-4090": "4090"}
FORMATS = {"mxfp4": "mxfp4", "fp8": "FP8", "nvfp4": "nvfp4", "bf16": "bf16"}


@pytest.mark.parametrize("shape", EN_SUPPORT + ZH_SUPPORT)
@pytest.mark.parametrize("card,fmt", list(itertools.product(CARDS, FORMATS)))
def test_support_question_read(shape, card, fmt):
    u = understand(shape.format(c=CARDS[card], f=FORMATS[fmt]))
    assert "card_support" in u.intents
    assert u.cards == [card]
    assert [f.lower() for f in u.ask["formats"]] == [fmt]


@pytest.mark.parametrize("text,card,kind", [
    ("does the T4 support flash attention?", "t4", "flash-attention"),
    ("does flash attention work on v100?", "v100-sxm2-32gb", "flash-attention"),
    ("T4支持flash attention吗", "t4", "flash-attention"),
    ("does the 4090 have nvlink?", "rtx-4090", "nvlink"),
    ("does the 3090 support nvlink", "rtx-3090", "nvlink"),
    ("H100 有没有 nvlink", "h100-sxm", "nvlink"),
])
def test_feature_questions_read(text, card, kind):
    from gpu_advisor.assistant.support import kind_of

    u = understand(text)
    assert "card_support" in u.intents
    assert u.cards == [card]
    assert [kind_of(f) for f in u.ask["formats"]] == [kind]


@pytest.mark.parametrize("text,cards,fmt", [
    ("whats the actual difference between running gpt-oss-120b on one h100 vs 2x a100 80gb? is mxfp4 even "
     "supported on a100", ["a100-80gb-sxm"], "mxfp4"),
    ("用两张A100 80G部署 gpt-oss-120b，A100 支持 mxfp4 吗？", ["a100-80gb-sxm"], "mxfp4"),
    ("serve qwen3 32b on 2x h100 for 50 users. does the h100 support fp8?", ["h100-sxm"], "fp8"),
    ("4张V100微调qwen3 8b，V100支不支持bf16？", ["v100-sxm2-32gb"], "bf16"),
])
def test_support_beside_a_sizing_is_kept(text, cards, fmt):
    u = understand(text)
    assert u.updates.get("model")  # the sizing stays
    assert u.ask["support"]["cards"] == cards
    assert [f.lower() for f in u.ask["support"]["formats"]] == [fmt]


@pytest.mark.parametrize("text", ["serve qwen3 32b in fp8 on 2x h100 for 50 users", "run qwen3 8b in bf16 on a 4090",
                                  "用两张A100部署qwen3 32b，fp8"])
def test_a_format_chosen_is_no_support_question(text):
    assert "support" not in understand(text).ask


@pytest.mark.parametrize("text,lang,words", [
    ("whats the actual difference between running gpt-oss-120b on one h100 vs 2x a100 80gb? is mxfp4 even "
     "supported on a100", "en", ["no FP4 tensor cores", "weight-only"]),
    ("用两张A100 80G部署 gpt-oss-120b，A100 支持 mxfp4 吗？", "zh", ["没有 FP4 张量核心", "仅权重"]),
])
def test_support_beside_a_sizing_is_answered(text, lang, words):
    """P1 E4: the support question is answered in the same reply as the sizing."""
    reply = _reply([text])
    for word in words:
        assert word in reply.content
    assert beside(lang, {"formats": ["mxfp4"], "cards": ["a100-80gb-sxm"]}) in reply.content


# ---------------------------------------------------------------- no NVLink: the card's PCIe form


NO_LINK_EN = ["{n}x {c}, no nvlink", "{n}x {c} without nvlink", "we have {n} {c} (no nvlink i think)",
              "{n}x {c} w/o nvlink", "{n}x {c}, nvlink: no", "{n} {c} cards, we don't have nvlink"]
NO_LINK_ZH = ["{n}张{c}，没有nvlink", "我们的{n}张{c}不带NVLink", "{n}张{c} 没nvlink"]
LINKED = {"v100 32gb": "v100-sxm2-32gb", "a100 80gb": "a100-80gb-sxm", "h100": "h100-sxm", "a100 40gb": "a100-40gb-sxm",
          "h200": "h200"}


@pytest.mark.parametrize("shape", NO_LINK_EN + NO_LINK_ZH)
@pytest.mark.parametrize("said,card", list(LINKED.items()))
@pytest.mark.parametrize("job", [" serve qwen3 32b", " 微调 qwen3 8b"])
def test_no_nvlink_sizes_the_pcie_card(shape, said, card, job):
    text = shape.format(n=4, c=said) + ("，" if shape in NO_LINK_ZH else ", ") + job.strip()
    u = understand(text)
    pcie = pcie_variant(card)
    assert pcie and not find_gpu(pcie).has_nvlink
    cards = (u.updates.get("owned") or []) + (u.updates.get("only") or [])
    assert cards and all(c.endswith(pcie) for c in cards), cards
    assert ("note.no_link_pcie", {"card": find_gpu(card).name, "pcie": find_gpu(pcie).name}) in u.notes


@pytest.mark.parametrize("text", ["4x h20 without nvlink, serve qwen3 32b", "4张H800没有nvlink，部署qwen3 32b"])
def test_no_nvlink_without_a_pcie_form_is_said(text):
    u = understand(text)
    assert any(code == "note.no_link_kept" for code, _v in u.notes)


@pytest.mark.parametrize("text", ["4x h100, serve qwen3 32b", "H100 有没有 nvlink", "do i need nvlink for 4x a100?"])
def test_nvlink_not_denied_keeps_the_card(text):
    u = understand(text)
    assert not any(code.startswith("note.no_link") for code, _v in u.notes)


def test_pcie_variant_same_memory_and_family():
    for gpu_id, pcie in [("v100-sxm2-32gb", "v100-pcie-32gb"), ("v100-sxm2-16gb", "v100-pcie-16gb"),
                         ("a100-80gb-sxm", "a100-80gb-pcie"), ("h100-sxm", "h100-pcie"), ("h200", "h200-nvl")]:
        assert pcie_variant(gpu_id) == pcie
        assert find_gpu(pcie).memory_gb == find_gpu(gpu_id).memory_gb
    for gpu_id in ("a800-80gb-sxm", "h20", "rtx-4090", "rtx-3090", "b200"):
        assert pcie_variant(gpu_id) is None


# ---------------------------------------------------------------- a KV-cache question names its model

KV_CASES = [
    ("what is the kv cache for qwen3 32b at 128k", "qwen3-32b", 131072, 1),
    ("what's the KV cache of llama 3.1 8b at 32k context?", "llama-3.1-8b", 32768, 1),
    ("how much vram does the kv cache take for llama 3.1 70b at 32k for 20 users", "llama-3.1-70b", 32768, 20),
    ("Qwen3-32B 128k 上下文的 KV cache 要多少显存", "qwen3-32b", 131072, 1),
    ("KV cache 是什么？比如 qwen3 32b 128k", "qwen3-32b", 131072, 1),
    ("explain the kv cache for Llama-3.1-70B at 8k", "llama-3.1-70b", 8192, 1),
]


@pytest.mark.parametrize("text,model,context,users", KV_CASES)
def test_kv_question_keeps_the_model(text, model, context, users):
    u = understand(text)
    assert "kv_cache" in u.intents
    assert u.ask.get("model") == model and u.ask.get("context") == context
    assert int(u.ask.get("users") or 1) == users


@pytest.mark.parametrize("text,model,context,users", [KV_CASES[0], KV_CASES[2], KV_CASES[3]])
def test_kv_figure_is_the_tools(text, model, context, users):
    from gpu_advisor.assistant.writers import gb

    data = _results(_reply([text]))["kv_cache"]
    want = inference_memory(InferenceMemoryInput(model=model, precision="bf16", context=context, batch=1)).kv_cache_bytes
    assert data["model"] == model and data["context"] == context
    assert data["per_user_bytes"] == pytest.approx(want)
    assert data["total_bytes"] == pytest.approx(want * users)
    assert gb(want) in _reply([text]).content


def test_kv_concept_without_a_model_stays_the_glossary():
    u = understand("what is the kv cache")
    assert u.topic == "kv-cache" and "kv_cache" not in u.intents


# ---------------------------------------------------------------- a literal question left waiting by a question


@pytest.mark.parametrize("turns,word", [
    (["serve qwen3 32b to 50 users: which card and how much per month?", "working hours"], "a month**"),
    (["qwen3 32b 部署给50个人用，用什么卡，每个月多少钱？", "工作时间"], "**每月"),
])
def test_monthly_cost_asked_before_a_question_is_answered(turns, word):
    # h-price: a monthly cost asked now plans a rental at once (billed every hour), so no usage question waits
    reply = _reply(turns[:1])
    assert reply.content.lstrip().startswith("**")
    assert word in reply.content.split("\n")[0]


# ---------------------------------------------------------------- two literal questions in one message

FITS = {"en": ["does qwen3 32b fit on 2x 4090?", "will qwen3 32b run on 2x 4090?", "can we run qwen3 32b on 2x 4090?"],
        "zh": ["qwen3 32b 两张4090能跑吗？", "两张4090放得下qwen3 32b吗？"]}
SECOND = {"en": {"monthly": ["and what would it cost per month?", "how much a month?"],
                 "speed": ["and how fast?", "how many tokens per second?"]},
          "zh": {"monthly": ["每个月多少钱？", "一个月多少？"], "speed": ["速度多少？", "每秒能出多少token？"]}}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("second", ["monthly", "speed"])
def test_both_literal_questions_read(lang, second):
    from gpu_advisor.assistant.reading.literal import literal_kinds

    for first, then in itertools.product(FITS[lang], SECOND[lang][second]):
        kinds = literal_kinds(f"{first} {then}")
        assert "fits" in kinds and second in kinds, (first, then, kinds)
        assert "versus" not in kinds


@pytest.mark.parametrize("text,lang", [("does qwen3 32b fit on 2x 4090? and what would it cost per month?", "en"),
                                       ("qwen3 32b 两张4090能跑吗？每个月多少钱？", "zh")])
def test_fit_and_monthly_both_answered_first(text, lang):
    reply = _reply([text])
    head = reply.content.split("## ")[0]
    assert head.startswith("**Yes**" if lang == "en" else "**能**")
    assert ("a month**" in head) if lang == "en" else ("**每月" in head)


@pytest.mark.parametrize("text,card", [("8张A100 PCIe版 部署 qwen3 32b", "a100-80gb-pcie"),
                                       ("4x h100, pcie only, serve qwen3 32b", "h100-pcie"),
                                       ("4x v100 32gb pcie, full finetune qwen3 8b", "v100-pcie-32gb")])
def test_pcie_said_by_name_is_the_pcie_card(text, card):
    u = understand(text)
    cards = (u.updates.get("owned") or []) + (u.updates.get("only") or [])
    assert cards and all(c.endswith(card) for c in cards), cards


@pytest.mark.parametrize("turns", [
    ["our lab has 4x v100 32gb, no nvlink. can i do LoRA on gemma 3 27b or full finetune gemma 2 9b?",
     "ok and v100 doesnt do bf16 right? does that change anything"],
    ["我们有4张V100 32G，没有nvlink，gemma 3 27b 用 LoRA 还是 gemma 2 9b 全参？", "V100支持bf16吗"],
])
def test_support_follow_up_is_about_their_pcie_card(turns):
    rows = _results(_reply(turns))["support"]
    assert [(r["gpu"], r["format"], r["code"]) for r in rows] == [("v100-pcie-32gb", "bf16", "none")]
