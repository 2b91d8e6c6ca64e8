"""Questions with their own replies, read from any phrasing: templates x fillers, generated.

Each template is one way people ask one kind of question (a concept, two cards, an engine, stock, a
forecast, a model's quality, a job the tools do not size, does it fit, rent or buy at given prices);
it is filled with every filler of its kind (card pairs, engines, concepts, models, tasks, jobs), then
dressed deterministically with a greeting or a polite word and a typo or a change of case. For each
utterance the reader must return the template's intent code, the language it is written in, and no
slot value beyond the ones the template states: a question never becomes a made-up workload.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

import pytest

from gpu_advisor.assistant.reading import understand

# ---------------------------------------------------------------- fillers

CARD_PAIRS = [("H100", "A100"), ("L40S", "A100"), ("RTX 4090", "RTX 5090"), ("H200", "B200"), ("MI300X", "H100"),
              ("RTX A6000", "L40S"), ("3090", "4090"), ("H20", "A800"), ("L4", "A10"), ("RTX 6000 Ada", "L40S")]
ONE_CARD = ["H100", "A100", "B200", "H200", "L40S", "RTX 4090", "RTX 5090", "MI300X", "H20", "A800"]
ZH_ONE_CARD = ["H100", "A100", "B200", "H20", "4090", "昇腾910B", "L40S", "H800"]
ENGINE_PAIRS = [("vLLM", "SGLang"), ("TensorRT-LLM", "vLLM"), ("llama.cpp", "vLLM"), ("ollama", "vLLM"),
                ("SGLang", "TensorRT-LLM"), ("MLX", "llama.cpp"), ("vllm", "trt-llm"), ("LM Studio", "vLLM")]
# (English name, Chinese name, glossary topic)
CONCEPTS = [("tensor parallelism", "张量并行", "tensor-parallel"), ("pipeline parallelism", "流水线并行", "pipeline-parallel"),
            ("LoRA", "LoRA", "lora"), ("QLoRA", "QLoRA", "qlora"), ("the KV cache", "KV缓存", "kv-cache"),
            ("speculative decoding", "投机解码", "speculative-decoding"), ("continuous batching", "连续批处理", "continuous-batching"),
            ("FSDP", "FSDP", "sharded-training"), ("FlashAttention", "FlashAttention", "flash-attention"),
            ("prefix caching", "前缀缓存", "prefix-caching"), ("PagedAttention", "分页注意力", "paged-attention"),
            ("GQA", "分组查询注意力", "attention-kinds"), ("gradient checkpointing", "梯度检查点", "gradient-checkpointing"),
            ("memory bandwidth", "显存带宽", "memory-bandwidth"), ("data parallelism", "数据并行", "data-parallel"),
            ("expert parallelism", "专家并行", "expert-parallel"), ("NVLink", "NVLink", "nvlink"), ("MoE", "混合专家", "moe")]
CONCEPT_PAIRS = [(CONCEPTS[0], CONCEPTS[1]), (CONCEPTS[2], CONCEPTS[3]), (CONCEPTS[5], CONCEPTS[6]),
                 (CONCEPTS[7], CONCEPTS[14]), (CONCEPTS[9], CONCEPTS[10]), (CONCEPTS[8], CONCEPTS[12]),
                 (CONCEPTS[0], CONCEPTS[15]), (CONCEPTS[13], CONCEPTS[4])]
MODELS = ["the 8B", "llama 3.1 8b", "qwen2.5 7b", "a 14B model", "gemma 3 27b", "mistral small", "the 70b", "qwen3 32b"]
ZH_MODELS = ["8B模型", "qwen2.5 7b", "llama 3.1 8b", "14B的模型", "gemma 3 27b", "千问32b"]
TASKS = ["legal drafting", "medical notes", "customer support", "coding", "math", "translation", "chinese"]
ZH_TASKS = ["写法律文书", "做客服", "写代码", "做翻译", "写病历", "做数学题"]
FIT_MODELS = ["llama 3.1 70b", "qwen2.5 32b", "gemma 3 27b", "mistral small", "llama 3.1 8b", "qwen2.5 72b"]
FIT_CARDS = ["H100", "4090", "L40S", "A100", "RTX 5090", "3090"]


# ---------------------------------------------------------------- templates


@dataclass(frozen=True)
class Template:
    intent: str
    lang: str
    text: str
    fillers: str  # which filler list fills {a}, {b} (and {m}, {t})
    said: frozenset[str] = frozenset()  # slots the template itself states; nothing else may be read


def t(intent: str, lang: str, fillers: str, *texts: str, said: tuple[str, ...] = ()) -> list[Template]:
    return [Template(intent, lang, x, fillers, frozenset(said)) for x in texts]


TEMPLATES: list[Template] = [
    *t("concept", "en", "concept_pairs",
       "what does {a} buy me over {b}?", "what's the difference between {a} and {b}?", "{a} vs {b}?",
       "how is {a} different from {b}?", "when should I use {a} instead of {b}?", "explain {a} and {b}",
       "pros and cons of {a} versus {b}?", "{a} or {b}: what's the trade-off?"),
    *t("concept", "en", "concepts",
       "what is {a}?", "explain {a}", "what's {a} for?", "why would I use {a}?", "is {a} worth it?",
       "how does {a} work?", "what does {a} mean?", "in plain words, what is {a}?", "when should I turn on {a}?",
       "tell me about {a}", "what's the point of {a}?", "does {a} hurt quality?"),
    *t("concept", "zh", "concept_pairs",
       "{a}和{b}有什么区别", "{a}跟{b}比好在哪里", "{a}还是{b}？有什么不同", "{a}与{b}的区别是什么",
       "{a}和{b}有啥区别？"),
    *t("concept", "zh", "concepts",
       "什么是{a}", "{a}是什么意思", "{a}有什么用", "解释一下{a}", "为什么要用{a}", "{a}是干什么的", "{a}的优缺点",
       "介绍一下{a}", "{a}会影响效果吗"),
    *t("compare_cards", "en", "card_pairs",
       "{a} or {b}: which is faster for this?", "{a} vs {b}?", "which is better, {a} or {b}?",
       "is the {a} faster than the {b}?", "compare {a} and {b}", "{a} versus {b}",
       "how does the {a} compare to the {b}?", "what's the difference between the {a} and the {b}?",
       "should I go with {a} or {b}?", "{a} or {b}, which one is cheaper to run?", "{a} vs {b} memory bandwidth?",
       "{a} against {b}, which has more memory?"),
    *t("compare_cards", "en", "card_pairs", "which is better for training, {a} or {b}?", said=("phase",)),
    *t("compare_cards", "zh", "card_pairs",
       "{a}和{b}哪个更快", "{a}还是{b}？", "对比一下{a}和{b}", "{a}跟{b}有什么区别", "{a}和{b}比哪个好", "选{a}还是{b}",
       "{a}与{b}的显存带宽对比"),
    *t("why_not", "en", "one_card",
       "why not two {a} instead?", "what about an {a}?", "why not the {a}?", "how about 4 {a}s?",
       "why not use {a}s instead?"),
    *t("why_not", "zh", "zh_one_card", "为什么不用{a}", "换成两张{a}怎么样", "为啥不用{a}？"),
    *t("engine_choice", "en", "engine_pairs",
       "{a} or {b} here?", "{a} vs {b}?", "should I use {a} or {b}?", "which is faster, {a} or {b}?",
       "{a} or {b} on an H100?", "is {a} better than {b}?", "what's the difference between {a} and {b}?",
       "would you pick {a} over {b}?"),
    *t("engine_choice", "en", "engine_pairs", "is {a} better than {b} for serving?"),
    *t("engine_choice", "en", "none",
       "which serving engine should I use?", "what inference engine do you recommend?", "which engine should we pick?",
       "what's the best inference engine?"),
    *t("engine_choice", "zh", "engine_pairs",
       "用{a}还是{b}", "{a}和{b}哪个好", "{a}跟{b}有什么区别", "推理用{a}还是{b}？", "{a}和{b}选哪个"),
    *t("engine_choice", "zh", "none", "推理引擎用哪个", "部署用什么框架好", "推理框架选哪个好？"),
    *t("availability", "en", "one_card",
       "is the {a} in stock anywhere?", "where can I rent an {a}?", "can I still buy an {a}?", "are {a}s sold out?",
       "who rents {a}s?", "what's the lead time on {a}s?", "how hard is it to get an {a} right now?",
       "how much does an {a} cost to rent?", "which clouds have {a}s available?", "is there a shortage of {a}s?"),
    *t("availability", "en", "one_card", "is the {a} available in China?", "what are the rental prices for the {a} in the US?",
       said=("region",)),
    *t("availability", "zh", "zh_one_card",
       "{a}现在有货吗", "哪里能租到{a}", "{a}还能买到吗", "{a}缺货吗", "{a}租一小时多少钱", "在哪买{a}"),
    *t("availability", "zh", "zh_one_card", "国内能买到{a}吗", said=("region",)),
    *t("forecast", "en", "none",
       "will rental prices fall after the next launch?", "are GPU prices going to drop next year?",
       "should we wait before buying?", "what's the price trend for GPUs?"),
    *t("forecast", "en", "card_pairs",
       "will the {a} get cheaper next year?", "should I wait for the {b} before buying?",
       "are {a} prices going to drop?", "is now a good time to buy {a}s?", "will {a} rental rates go down when the {b} ships?",
       "do you expect {a} prices to fall?"),
    *t("forecast", "zh", "zh_one_card",
       "{a}明年会降价吗", "{a}价格会跌吗", "要不要等{a}出来再买", "现在买{a}合适吗", "{a}以后会便宜吗", "{a}的价格走势怎么样"),
    *t("forecast", "zh", "none", "租金会降吗", "显卡明年会降价吗"),
    *t("quality", "en", "models",
       "is {m} good enough for {t}?", "how good is {m} at {t}?", "will {m} hallucinate on {t}?",
       "is {m} smart enough for {t}?", "is {m} any good for {t}?", "is {m} accurate enough for {t}?"),
    *t("quality", "en", "tasks", "which model is best for {t}?", "what's the best model for {t}?"),
    *t("quality", "zh", "zh_models",
       "{m}{t}够用吗", "{m}{t}效果怎么样", "{m}会不会有幻觉", "{m}适合{t}吗", "{m}{t}靠谱吗"),
    *t("quality", "zh", "tasks", "哪个模型{t}最好", "{t}用什么模型好"),
    *t("out_of_scope", "en", "none",
       "I want to generate images with stable diffusion", "how many GPUs to run SDXL for 1000 images a day?",
       "train a vision model from scratch on images", "fine-tune whisper for speech recognition",
       "run a text-to-speech model for our call center", "train YOLO for object detection on 50k photos",
       "best GPU for FLUX image generation?", "can a 4090 run stable diffusion XL?",
       "GPU for video generation with Hunyuan video", "train a resnet classifier on 1 million images",
       "GPU for gaming and 3d rendering", "train an xgboost model on tabular data",
       "we need to transcribe 10,000 hours of audio", "which card for ComfyUI?", "text-to-image for our marketing team",
       "build a recommendation system for 2 million users"),
    *t("out_of_scope", "zh", "none",
       "用stable diffusion生成图片需要什么显卡", "训练一个图像分类模型", "部署whisper语音识别", "从头训练视觉模型",
       "文生视频用什么卡", "做语音合成需要多少显存", "训练YOLO目标检测", "文生图要几张4090", "我们要做推荐系统"),
    *t("fit_check", "en", "fit", "does {m} fit on an {a}?", "how fast is {m} on a {a}?", "can I run {m} on two {a}s?",
       "how many tokens per second does {m} get on an {a}?", "will {m} run on an {a}?",
       said=("model", "only", "phase")),
    *t("fit_check", "en", "fit", "will {m} run on my {a}?", said=("model", "owned", "phase")),
    *t("fit_check", "zh", "fit", "{m}能在{a}上跑吗", "{a}跑得动{m}吗", "{m}在{a}上速度怎么样",
       said=("model", "only", "phase")),
    *t("rent_buy", "en", "one_card",
       "rent or buy? an {a} costs $30000 or $2.5 an hour", "should I buy or rent an {a}? it's $25k to buy and $2.20/h to rent",
       "rent or buy an {a}: $1.80 per hour, or $15,000 to buy?", said=("only",)),
    *t("rent_buy", "zh", "zh_one_card", "租还是买？{a}售价25万元，租一小时15元", "{a}买还是租？买一张20万，租每小时12元",
       said=("only",)),
]


def fills(tpl: Template) -> list[dict[str, str]]:
    lang_zh = tpl.lang == "zh"
    if tpl.fillers == "card_pairs":
        return [{"a": a, "b": b} for a, b in CARD_PAIRS]
    if tpl.fillers == "one_card":
        return [{"a": a} for a in ONE_CARD]
    if tpl.fillers == "zh_one_card":
        return [{"a": a} for a in ZH_ONE_CARD]
    if tpl.fillers == "engine_pairs":
        return [{"a": a, "b": b} for a, b in ENGINE_PAIRS]
    if tpl.fillers == "concepts":
        return [{"a": zh if lang_zh else en, "topics": topic} for en, zh, topic in CONCEPTS]
    if tpl.fillers == "concept_pairs":
        return [{"a": a[1] if lang_zh else a[0], "b": b[1] if lang_zh else b[0], "topics": f"{a[2]}+{b[2]}"}
                for a, b in CONCEPT_PAIRS]
    if tpl.fillers == "models":
        return [{"m": m, "t": task} for m, task in zip(itertools.cycle(MODELS), TASKS * 2, strict=False)][:14]
    if tpl.fillers == "zh_models":
        return [{"m": m, "t": task} for m, task in zip(ZH_MODELS * 2, itertools.cycle(ZH_TASKS), strict=False)]
    if tpl.fillers == "tasks":
        return [{"t": task} for task in (ZH_TASKS if lang_zh else TASKS)]
    if tpl.fillers == "fit":
        return [{"m": m, "a": a} for m, a in zip(FIT_MODELS * 2, itertools.cycle(FIT_CARDS), strict=False)]
    return [{}]


# ---------------------------------------------------------------- dressing: politeness, case, typos

EN_BEFORE = ["", "hi, ", "hey! ", "please tell me: ", "quick question: ", "sorry, ", "ok so ", "Hello there. "]
EN_AFTER = ["", " thanks", " please", " thx!", " :)", " — just curious"]
ZH_BEFORE = ["", "请问", "你好，", "麻烦问一下，", "老师好，", "想问下，"]
ZH_AFTER = ["", "谢谢", "？", "呢", "，谢谢！"]
TYPOS = {"which": "wich", "difference": "diffrence", "available": "availible", "recommend": "recomend",
         "what's": "whats", "it's": "its", "compare": "comapre", "between": "betwen"}


def dress(text: str, lang: str, i: int) -> list[str]:
    """Three deterministic variants of an utterance: polite words around it, a change of case or a
    dropped question mark, and the usual typos."""
    if lang == "zh":
        before, after = ZH_BEFORE, ZH_AFTER
        return [text, before[i % len(before)] + text + after[i % len(after)],
                before[(i + 2) % len(before)] + text.rstrip("？?") + after[(i + 3) % len(after)]]
    polite = EN_BEFORE[i % len(EN_BEFORE)] + text + EN_AFTER[i % len(EN_AFTER)]
    cased = [text.lower(), text.upper() if i % 5 == 0 else text.capitalize(), text.rstrip("?")][i % 3]
    typo = text
    for right, wrong in TYPOS.items():
        typo = re.sub(rf"\b{re.escape(right)}\b", wrong, typo, flags=re.IGNORECASE)
    return [text, polite, cased if cased.strip() else text, typo]


def utterances(tpl: Template) -> list[tuple[str, dict[str, str]]]:
    out = []
    for i, fill in enumerate(fills(tpl)):
        text = tpl.text.format(**{k: v for k, v in fill.items() if k in ("a", "b", "m", "t")})
        for variant in dict.fromkeys(dress(text, tpl.lang, i + len(tpl.text))):
            out.append((variant, fill))
    return out


ALL = [(tpl, u) for tpl in TEMPLATES for u in utterances(tpl)]


def test_there_are_a_few_thousand_utterances_in_both_languages():
    assert len(ALL) >= 2000, len(ALL)
    assert sum(tpl.lang == "zh" for tpl, _ in ALL) >= 600
    intents = {tpl.intent for tpl in TEMPLATES}
    assert intents == {"concept", "compare_cards", "why_not", "engine_choice", "availability", "forecast", "quality",
                       "out_of_scope", "fit_check", "rent_buy"}
    for intent in intents:
        assert {tpl.lang for tpl in TEMPLATES if tpl.intent == intent} == {"en", "zh"}, intent


def _problems(tpl: Template, text: str, fill: dict[str, str]) -> list[str]:
    u = understand(text)
    got = f"{text!r} -> intents={sorted(u.intents)} updates={u.updates} topic={u.topic} lang={u.lang}"
    if fill.get("topics") == "nvlink" and "worth it" in text and u.intents == {"interconnect", "no_sizing"}:
        return []  # 'is NVLink worth it?' asks whether one needs it: answered as such (tests/test_concept_saving_link_value.py)
    problems = []
    if tpl.intent not in u.intents:
        problems.append(f"no {tpl.intent}: {got}")
    extra = set(u.updates) - tpl.said
    if extra:
        problems.append(f"made up {sorted(extra)}: {got}")
    if u.lang != tpl.lang:
        problems.append(f"language {u.lang}: {got}")
    if tpl.intent == "concept" and "topics" in fill and set(fill["topics"].split("+")) - set((u.topic or "").split("+")):
        problems.append(f"topic {u.topic}, expected {fill['topics']}: {got}")
    if tpl.intent == "compare_cards" and len(u.cards) < 2:
        problems.append(f"cards {u.cards}: {got}")
    if tpl.intent == "engine_choice" and tpl.fillers == "engine_pairs" and len(u.engines) < 2 \
            and fill.get("a", "").lower() not in ("ollama", "lm studio"):
        problems.append(f"engines {u.engines}: {got}")
    if tpl.intent == "rent_buy" and set(u.prices) != {"rent_usd_per_hour", "buy_usd"}:
        problems.append(f"prices {u.prices}: {got}")
    if tpl.intent == "why_not" and not (u.compare_gpus or u.whatif_gpus):
        problems.append(f"no card to put beside the plan: {got}")
    return problems


@pytest.mark.parametrize("tpl", TEMPLATES, ids=[f"{x.intent}-{x.lang}-{x.text[:40]}" for x in TEMPLATES])
def test_every_phrasing_is_read_as_its_question(tpl: Template):
    problems = [p for text, fill in utterances(tpl) for p in _problems(tpl, text, fill)]
    assert not problems, f"{len(problems)} of {len(utterances(tpl))}:\n" + "\n".join(problems[:12])
