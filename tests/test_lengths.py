"""Output lengths said with a batch job, in any phrasing, and cards named by their cloud names (review AM #4, #20):
'3000 tokens in and similar out' is 3,000 out (not the 200 default), '~500 tokens of text out' is 500 out (not
training tokens), the AWS A10G is a known card, and 'will a single A10G get it done?' is answered no on its hours
against the deadline, first."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge.resolve import find_gpu
from tests.conversation import payload, run_conversation

SAME_OUT = {
    "en": ["each around 3000 tokens in and similar out", "3000 tokens in, about the same out",
           "about the same out, 3000 tokens in each", "each doc 3000 tokens, output about the same as the input",
           "each 3000 tokens, output length similar to input", "3000 tokens per doc, input and output are similar length",
           "um so each is like 3000 tokens in and roughly the same length coming out"],
    "zh": ["每篇输入3000 token左右，输出差不多长", "每篇3000 token，输出和输入差不多", "输出和输入差不多，每篇3000 token",
           "每篇大概3000 token，输入输出差不多长", "每篇3000 token，输出跟原文一样长", "每篇3000个token，输出长度和输入差不多"],
}
JOB = {"en": "need to translate 50k docs, {lengths}, with llama 3.1 8b instruct",
       "zh": "用llama 3.1 8b翻译5万篇文档，{lengths}"}
JOB_LAST = {"en": "{lengths}. translate 50k docs with llama 3.1 8b", "zh": "{lengths}，要用llama 3.1 8b翻译5万篇文档"}


@pytest.mark.parametrize(("lang", "lengths", "order"), [
    (lang, x, order) for lang, xs in SAME_OUT.items() for x, order in itertools.product(xs, ("first", "last"))])
def test_output_said_as_long_as_the_input_is_the_input_length(lang, lengths, order):
    text = (JOB if order == "first" else JOB_LAST)[lang].format(lengths=lengths)
    u = understand(text)
    assert u.updates.get("batch_items") == 50_000
    assert u.updates.get("batch_input_tokens") == 3_000
    assert u.updates.get("batch_output_tokens") == 3_000, (text, u.updates)


@pytest.mark.parametrize("text", [
    "translate 50k docs with llama 3.1 8b, 3000 tokens in, 200 out",
    "summarise 50k docs with llama 3.1 8b, each 3000 tokens, output is the same format as before",
    "用llama 3.1 8b翻译5万篇文档，每篇3000 token，输出300 token",
])
def test_a_said_or_unsaid_output_is_not_taken_as_the_input(text):
    assert understand(text).updates.get("batch_output_tokens") != 3_000


OCR = {
    "en": ["need to OCR about 1 million scanned pages with qwen2.5-vl-7b, each page is ~1500 image tokens and ~500 "
           "tokens of text out. we have 5 days",
           "qwen2.5-vl-7b: 1M pages to OCR within 5 days, image tokens per page ~1500, about 500 output tokens each",
           "we have 5 days to OCR 1 million pages with qwen2.5-vl-7b; ~500 tokens of output per page, ~1500 image "
           "tokens in"],
    "zh": ["需要用qwen2.5-vl-7b OCR大约100万页扫描件，每页约1500个图像token，输出约500 token的文字，5天内完成",
           "100万页扫描件要OCR，5天内完成，每页输出约500 token的文字，图像token每页1500左右，用qwen2.5-vl-7b",
           "用qwen2.5-vl-7b在5天内OCR 100万页扫描件，每页大约1500个图像token，输出500 token左右"],
}


@pytest.mark.parametrize(("lang", "text"), [(lang, t) for lang, ts in OCR.items() for t in ts])
def test_tokens_of_text_out_are_the_output_and_image_tokens_the_input(lang, text):
    u = understand(text)
    assert u.updates.get("batch_items") == 1_000_000, u.updates
    assert u.updates.get("batch_input_tokens") == 1_500, u.updates
    assert u.updates.get("batch_output_tokens") == 500, u.updates
    assert u.updates.get("deadline_hours") == 120
    assert "train_tokens" not in u.updates


@pytest.mark.parametrize("name", ["A10G", "a10g", "NVIDIA A10G", "a10g 24gb"])
def test_the_aws_a10g_is_a_known_card(name):
    card = find_gpu(name)
    assert card.id == "a10g"
    assert (card.memory_gb, card.memory_bandwidth_gbps, card.bf16_tflops) == (24, 600, 70)


ASK_ONE = {
    "en": ["urgent-ish: need to translate 50k docs, each around 3000 tokens in and similar out, with llama 3.1 8b "
           "instruct. deadline is tmrw 9am, so like 14 hrs from now. will a single A10G on AWS get it done?",
           "will one A10G on AWS get it done? 50k docs to translate with llama 3.1 8b in 14 hours, 3000 tokens in and "
           "about the same out"],
    "zh": ["用llama 3.1 8b翻译5万篇文档，每篇输入大约3000 token，输出差不多长，14小时内要完成，AWS上一张A10G够吗？",
           "AWS上一张A10G来得及吗？14小时内要用llama 3.1 8b翻译完5万篇文档，输出和输入差不多，每篇3000 token"],
}


@pytest.mark.parametrize(("lang", "text"), [(lang, t) for lang, ts in ASK_ONE.items() for t in ts])
def test_a_single_card_asked_about_a_batch_deadline_is_no_on_its_hours(lang, text):
    reply = run_conversation([text])[-1]
    data = payload(reply)
    pinned = data["pinned"]
    assert (pinned["gpu"], pinned["gpus"], pinned["fits"]) == ("a10g", 1, True)
    assert pinned["meets_deadline"] is False and pinned["job_hours"] > 14
    best = data["results"]["recommend"]["options"][0]
    assert best["job_hours"] <= 14 and best["gpus"] > 1
    assert reply.content.startswith("**No**" if lang == "en" else "**不能**"), reply.content[:200]
