"""Two-part questions and corrections inside one message (h-twopart): a weight-format comparison gets each
format's published gap, its memory, a speed note and a verdict; two questions in one message each keep their own
model and job and both are answered; a correction in the same message replaces every slot it names."""

from __future__ import annotations

from typing import Any

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import payload, run_conversation, unexplained_numbers


def _results(reply: Any) -> dict[str, Any]:
    data = payload(reply)
    assert unexplained_numbers(reply.content, data.get("results") or {}) == [], reply.content
    return dict(data.get("results") or {})


def _zh(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


# ---------------------------------------------------------------- FP8 against INT4, weighed with no plan

WEIGH = {
    "en": ["fp8 vs int4 for a {m} model — which one loses more quality and why?",
           "when would i pick FP8 vs INT4 for serving a {m} model",
           "int4 or fp8 for a {m}, which is better?",
           "which loses more accuracy on a {m}: int4 or fp8",
           "for a {m} model should i go with fp8 or int4? trade-offs?",
           "fp8 vs int4 which loses more quality"],
    "zh": ["{m}模型用fp8还是int4，选哪个", "FP8和INT4哪个精度损失更大", "{m} 的模型，INT4 和 FP8 哪个掉点更多，为什么",
           "部署{m}模型，什么时候用FP8，什么时候用INT4", "int4 跟 fp8 对 {m} 模型来说哪个更好"],
}


@pytest.mark.parametrize(("lang", "phrase", "size"),
                         [(lang, p, s) for lang, ps in WEIGH.items() for p in ps for s in ("70B", "32B")])
def test_two_formats_weighed_get_gaps_memory_speed_and_a_verdict(lang: str, phrase: str, size: str) -> None:
    text = phrase.format(m=size)
    reply = run_conversation([text])[0]
    data = _results(reply)
    verdict = data["precision_verdict"]
    assert set(verdict["formats"]) == {"fp8", "int4"}, reply.content
    assert verdict["loses_more"] == "int4"
    assert verdict["gaps"] == {"fp8": [0, 0], "int4": [1, 3]}
    assert verdict["sources"]["int4"].startswith("arXiv:")
    assert verdict["gb_per_b_params"]["int4"] < verdict["gb_per_b_params"]["fp8"]
    if "{m}" in phrase:  # the size named: each format's memory for it
        rows = {r["precision"]: r for r in data["precision_compare"]["rows"]}
        assert data["precision_compare"]["model"] == size
        assert rows["int4"]["weights_bytes"] < rows["fp8"]["weights_bytes"]
    assert ("结论" if lang == "zh" else "Verdict") in reply.content
    assert _zh(reply.content) == (lang == "zh")


@pytest.mark.parametrize(("lang", "pair", "loser"), [
    ("en", "bf16 vs int4, which is better", "int4"), ("en", "q8 or q4 which loses more", "int4"),
    ("zh", "BF16和FP8选哪个", "fp8"), ("zh", "8bit和4bit哪个好", "int4")])
def test_any_two_widths_weighed_name_the_narrower_loser(lang: str, pair: str, loser: str) -> None:
    reply = run_conversation([pair])[0]
    assert _results(reply)["precision_verdict"]["loses_more"] == loser, reply.content


def test_a_sizing_with_users_stays_a_sizing() -> None:
    """'serve llama 3.1 70b to 50 users, fp8 or int4?' is a plan to make, not a format comparison alone."""
    u = understand("serve llama 3.1 70b to 50 users, fp8 or int4 which is better?")
    assert not u.ask.get("verdict") or u.updates.get("users")


# ---------------------------------------------------------------- two questions, each its own model and job

def _parts(reply: Any) -> list[dict[str, Any]]:
    return list(payload(reply).get("parts") or [])


def _job(part: dict[str, Any]) -> tuple[str, str, str | None, bool | None]:
    inputs = (part.get("results") or {})["inputs"]
    best = (part["results"]["recommend"] or {}).get("best") or {}
    return str(inputs["model"]), str(inputs["phase"]), inputs["method"] if inputs["phase"] == "fine-tune" else None, \
        best.get("owned")


SERVE_THEN_TUNE = {
    "en": ["i have a 3090 (24gb) at home. can i run qwen2.5 32b on it? and separately could i qlora finetune "
           "llama 3.1 8b on the same card",
           "can my rtx 3090 run qwen2.5 32b? also, can it qlora fine-tune llama 3.1 8b?",
           "got a 3090 at home: can it run qwen2.5 32b? btw could i qlora finetune llama 3.1 8b on it too",
           "i own a 3090. can i run qwen2.5 32b on it? another question: can i qlora fine-tune llama 3.1 8b on that card"],
    "zh": ["我家里有一张3090，能跑qwen2.5 32b吗？另外，同一张卡能用qlora微调llama 3.1 8b吗",
           "我有张3090，能跑qwen2.5 32b吗？还有，能不能用它qlora微调llama 3.1 8b",
           "我有一张3090，想跑qwen2.5 32b，可以吗？顺便问一下，能在这张卡上qlora微调llama 3.1 8b吗"],
}


@pytest.mark.parametrize(("lang", "text"), [(k, t) for k, v in SERVE_THEN_TUNE.items() for t in v])
def test_serve_one_model_and_tune_another_are_both_answered(lang: str, text: str) -> None:
    reply = run_conversation([text])[0]
    parts = _parts(reply)
    assert len(parts) == 2, reply.content
    assert _job(parts[0]) == ("qwen2.5-32b", "serve", None, True), reply.content
    assert _job(parts[1]) == ("llama-3.1-8b", "fine-tune", "qlora", True), reply.content
    served = parts[0]["results"]["recommend"]["best"]
    assert served["gpu"] == "rtx-3090" and served["gpus"] == 1 and served["precision"].startswith("q4")
    assert parts[1]["results"]["recommend"]["best"]["gpu"] == "rtx-3090"
    assert _zh(reply.content) == (lang == "zh")


def test_tune_first_then_serve_keeps_each_model() -> None:
    reply = run_conversation(["could i qlora finetune llama 3.1 8b on my rtx 3090, and separately can i run "
                              "qwen2.5 32b on it"])[0]
    parts = _parts(reply)
    assert [_job(p)[:2] for p in parts] == [("llama-3.1-8b", "fine-tune"), ("qwen2.5-32b", "serve")], reply.content


FORMAT_THEN_KV = {
    "en": ["fp8 vs int4 for a 70b model — which one loses more quality and why? also how much kv cache does llama "
           "3.1 70b need for one user at 32k context",
           "how much kv cache does llama 3.1 70b need for one user at 32k context? also fp8 vs int4, which one loses "
           "more quality"],
    "zh": ["FP8和INT4哪个精度损失更大？另外llama 3.1 70b在32k上下文下一个用户要多少KV缓存",
           "llama 3.1 70b 32k上下文一个用户的kv cache多大？顺便问下fp8和int4选哪个"],
}


@pytest.mark.parametrize(("lang", "text"), [(k, t) for k, v in FORMAT_THEN_KV.items() for t in v])
def test_a_format_question_and_a_kv_question_are_both_answered(lang: str, text: str) -> None:
    reply = run_conversation([text])[0]
    parts = _parts(reply)
    assert len(parts) == 2, reply.content
    results = [p.get("results") or {} for p in parts]
    verdicts = [r["precision_verdict"] for r in results if "precision_verdict" in r]
    assert len(verdicts) == 1 and verdicts[0]["loses_more"] == "int4", reply.content
    assert any("kv_cache" in str(p.get("topic")) or "kv" in str(r.get("kv_cache") or r.get("kv") or "")
               for p, r in zip(parts, results, strict=True)) or "10.7 GB" in reply.content, reply.content
    assert _zh(reply.content) == (lang == "zh")


@pytest.mark.parametrize("text", [
    "serve llama 3.1 70b for 50 users, also 32k context",
    "serve llama 3.1 70b for 50 users and also serve qwen2.5 32b for 10 users",
    "fine-tune llama 3.1 8b with lora, also serve it to 20 users",
    "用lora微调qwen2.5 7b，另外上下文要8k"])
def test_one_request_with_also_is_not_cut(text: str) -> None:
    from langchain_core.messages import HumanMessage

    from gpu_advisor.assistant import two_jobs

    assert two_jobs.split({"messages": [HumanMessage(text)]}) is None


# ---------------------------------------------------------------- a correction inside one message

CORRECTED = {
    "en": ["want to fine tune llama 3 8b with lora on 50k examples, how many gpus? hmm actually wait, make that the "
           "{big} and full fine-tune, not lora. sorry",
           "fine-tune llama 3.1 8b with lora on 50k examples, how many gpus? oh wait, make it the {big} with a full "
           "fine-tune",
           "qlora finetune llama 3.1 8b on 50k samples. actually wait, make that the {big} and full finetuning instead "
           "of qlora"],
    "zh": ["用lora微调llama 3 8b，5万条数据，要几张卡？等等，改成{big}，全量微调，不用lora",
           "想用qlora微调llama 3.1 8b，5万条样本。算了，换成{big}全参微调"],
}


@pytest.mark.parametrize(("lang", "text", "big"),
                         [(k, t, b) for k, v in CORRECTED.items() for t in v for b in ("70B", "llama 3.1 70b")])
def test_a_correction_in_the_same_message_replaces_model_and_method(lang: str, text: str, big: str) -> None:
    u = understand(text.format(big=big))
    assert u.updates["method"] == "full" and u.updates["phase"] == "fine-tune"
    assert str(u.updates["model"]).lower() in ("70b", "llama-3.1-70b")
    assert "methods_weighed" not in u.ask


def test_the_corrected_plan_is_a_full_fine_tune_of_the_70b() -> None:
    reply = run_conversation(["want to fine tune llama 3 8b with lora on 50k examples, how many gpus? hmm actually "
                              "wait, make that the 70B and full fine-tune, not lora. sorry"])[0]
    inputs = payload(reply)["results"]["inputs"]
    assert (inputs["model"], inputs["method"]) == ("70B", "full"), reply.content
    assert "LoRA is likely enough" not in reply.content


CORRECTING_TURN = {
    "en": ["oh wait sorry I meant the 70b distill (DeepSeek-R1-Distill-Llama-70B), not the full one. and on a PC "
           "with 2x 3090 instead of the mac",
           "sorry, i meant DeepSeek-R1-Distill-Llama-70B, not the full r1. and on my pc with 2x 3090 instead of the mac"],
    "zh": ["不好意思我说错了，是DeepSeek-R1-Distill-Llama-70B，不是满血版。另外是在一台2张3090的PC上，不是mac"],
}


@pytest.mark.parametrize(("lang", "text"), [(k, t) for k, v in CORRECTING_TURN.items() for t in v])
def test_a_correcting_turn_is_read_whole(lang: str, text: str) -> None:
    first = "want to run deepseek r1 locally on my mac studio m2 ultra 192gb, doable?" if lang == "en" else \
        "想在我的mac studio m2 ultra 192gb上本地跑deepseek r1，可行吗"
    reply = run_conversation([first, text])[-1]
    data = payload(reply)
    assert not data.get("parts"), reply.content
    inputs = data["results"]["inputs"]
    best = data["results"]["recommend"]["best"]
    assert inputs["model"] == "deepseek-r1-distill-llama-70b", reply.content
    assert (best["gpu"], best["gpus"]) == ("rtx-3090", 2), reply.content
    assert best["precision"].startswith("q4"), reply.content


# ---------------------------------------------------------------- a main job and a side job

MAIN_SIDE = {
    "en": ["mostly lora on the 70b, sometimes full finetune on the 8b",
           "lora on the 70b most of the time, full finetune on the 8b now and then",
           "mainly lora of the 70b and occasionally a full fine-tune of the 8b"],
    "zh": ["主要是70b的lora，偶尔全量微调8b", "大部分时间做70b的lora微调，有时候全量微调8b"],
}


@pytest.mark.parametrize(("lang", "text"), [(k, t) for k, v in MAIN_SIDE.items() for t in v])
def test_the_main_job_is_sized_and_the_side_one_checked(lang: str, text: str) -> None:
    first = ("thinking of buying an 8x H100 server vs renting. we'd keep it busy maybe 60% of the time over 18 "
             "months, mostly finetuning 8B-70B models. budget ~300k usd. which makes more sense?") if lang == "en" else \
        "在考虑买一台8卡H100服务器还是租。18个月里大概60%的时间在用，主要微调8B到70B的模型，预算30万美元，哪个更划算？"
    reply = run_conversation([first, text])[-1]
    data = payload(reply)
    inputs = data["results"]["inputs"]
    assert (inputs["model"], inputs["method"]) == ("70B", "lora"), reply.content
    assert inputs["utilisation"] == 0.6
    side = data["second_job"]
    assert (side["model"], side["method"]) == ("8B", "full")
    assert side["sized"]["fits"] is True and side["sized"]["gpus"] == 8 and side["sized"]["gpu"].startswith("h100")
    assert _zh(reply.content) == (lang == "zh")
