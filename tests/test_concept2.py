"""TP/PP and format concept questions asked WITH a setup get the verdict for that setup (h-concept2): a short
explanation first when the difference is asked, never a utilisation question, a purchase headline or a plan."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import payload, run_conversation, unexplained_numbers


def _results(reply: Any) -> dict[str, Any]:
    """The tool results the reply was written from; every number in it is one of them."""
    data = payload(reply)
    assert data["kind"] == "info", reply.content
    assert unexplained_numbers(reply.content, data["results"]) == [], reply.content
    return dict(data["results"])


# ---------------------------------------------------------------- tensor or pipeline parallel, a job stated

CROSS = {  # 405B in BF16 spans two 8 x H100 servers: TP8 inside, PP2 across; FP8 brings it into one
    "en": ["whats the difference between tensor parallel and pipeline parallel? when would I use PP for serving "
           "instead of TP, e.g. llama 3.1 405b on two nodes of 8 h100",
           "TP vs PP for serving llama 3.1 405b on 2 nodes of 8 h100, which one?",
           "explain tensor parallel vs pipeline parallel - we want to deploy llama 3.1 405b across 2 servers with 8x H100 each"],
    "zh": ["张量并行和流水线并行有什么区别？两台8卡H100部署Llama 3.1 405B该用哪个",
           "部署Llama 3.1 405B，2台服务器每台8张H100，TP还是PP？"],
}
ONE_BOX = {  # 70B dense in one box of 4 cards: TP inside it, nothing across
    "en": ["whats the actual difference between tensor parallel and pipeline parallel? and for serving a 70b on 4 gpus "
           "which one should i use", "tp or pp for serving a 70b model on 4 gpus?"],
    "zh": ["张量并行和流水线并行有什么区别？部署70B用4张卡该选哪个", "4张卡部署70B模型，张量并行还是流水线并行？"],
}
L40S = {  # 70B on two servers of 4 L40S: one copy per server (TP4), the servers side by side
    "en": ["TP vs PP - whats the actual difference, and which one should i use for serving llama 3.3 70b on 2 servers "
           "with 4x L40S each? no nvlink", "serving llama 3.3 70b on 2 servers with 4x L40S each: tensor parallel or "
                                          "pipeline parallel?"],
    "zh": ["两台4卡L40S服务器部署Llama 3.3 70B，张量并行还是流水线并行？",
           "TP和PP有什么区别？我们要在2台服务器（每台4张L40S）上部署Llama 3.3 70B，该选哪个"],
}


def _par(text: str) -> tuple[str, dict[str, Any]]:
    reply = run_conversation([text])[0]
    content = reply.content
    assert "How busy" not in content and "GPU 的使用" not in content and "Buy " not in content, content
    return content, _results(reply)["par_choice"]


@pytest.mark.parametrize(("lang", "text"), [(k, t) for k, v in CROSS.items() for t in v])
def test_405b_on_two_nodes_is_tp_inside_pp_across(lang: str, text: str) -> None:
    content, verdict = _par(text)
    assert (verdict["code"], verdict["tp"], verdict["pp"], verdict["per_node"]) == ("cross_node", 8, 2, 8), content
    assert verdict["fp8_tp"] == 8  # FP8 fits one 8 x H100 server
    assert ("Verdict" in content) if lang == "en" else ("结论" in content and "Verdict" not in content)


@pytest.mark.parametrize(("lang", "text"), [(k, t) for k, v in ONE_BOX.items() for t in v])
def test_70b_on_four_cards_is_tensor_parallel_in_the_box(lang: str, text: str) -> None:
    content, verdict = _par(text)
    assert verdict["code"] == "one_node" and verdict["pp"] == 1 and verdict["per_node"] == 4, content
    assert verdict["per_gpu_bytes"] <= verdict["capacity_bytes"]
    assert "Tell me the model" not in content and "告诉我模型" not in content


@pytest.mark.parametrize(("lang", "text"), [(k, t) for k, v in L40S.items() for t in v])
def test_70b_on_two_l40s_servers_is_a_copy_per_server(lang: str, text: str) -> None:
    content, verdict = _par(text)
    assert (verdict["code"], verdict["gpu"], verdict["tp"], verdict["pp"], verdict["servers"]) == \
        ("one_node", "l40s", 4, 1, 2), content
    assert "per hour" not in content and "每小时" not in content  # owned servers, no rental table


@pytest.mark.parametrize(("text", "lang"), [
    ("whats the difference between tensor parallel and pipeline parallel? for 70b on 4 gpus which one", "en"),
    ("张量并行和流水线并行有什么区别？部署70B用4张卡该选哪个", "zh")])
def test_the_difference_asked_is_explained_before_the_verdict(text: str, lang: str) -> None:
    content, _verdict = _par(text)
    head = content.split("\n\n")[0]
    assert ("**tensor parallelism**" in head and "**pipeline parallelism**" in head) if lang == "en" else \
        ("**张量并行**" in head and "**流水线并行**" in head), head


@pytest.mark.parametrize("text", ["70b on 4 x 3090, tp or pp?", "4张3090跑70B，张量并行还是流水线并行？",
                                  "tensor parallel or pipeline parallel for a 70b on 4x rtx 3090"])
def test_a_fixed_box_too_small_in_bf16_gets_the_format_that_fits_at_tp_over_all(text: str) -> None:
    content, verdict = _par(text)
    assert (verdict["code"], verdict["tp"], verdict["pp"], verdict["gpu"]) == ("fixed_format", 4, 1, "rtx-3090"), content
    assert verdict["precision"] in ("int8", "int4") and verdict["per_gpu_bytes"] <= verdict["capacity_bytes"]


@pytest.mark.parametrize("text", ["should i use tensor parallel or pipeline parallel to serve llama 3.3 70b on 4x L40S?",
                                  "张量并行和流水线并行区别？两台×8 A100 部署 R1 满血"])
def test_a_job_on_cards_in_one_box_or_a_moe_keeps_the_plan(text: str) -> None:
    assert "par_choice" not in understand(text).ask


# ---------------------------------------------------------------- FP8 against INT4 for a size

FMT = {
    "en": ["whats the difference between fp8 and int4? which loses more accuracy for a {m}, and how much memory does each need",
           "fp8 vs int4 for a {m} model: what's the difference, and how much vram each?"],
    "zh": ["FP8和INT4量化有啥区别？对{m}模型来说精度损失哪个大？显存分别要多少", "{m}模型用INT4和FP8有什么区别，显存各要多少"],
}


@pytest.mark.parametrize(("lang", "phrase", "size"), list(itertools.product(["en"], FMT["en"], ["70B", "32B"]))
                         + list(itertools.product(["zh"], FMT["zh"], ["70B", "32B"])))
def test_fp8_and_int4_for_a_size_are_explained_with_each_memory(lang: str, phrase: str, size: str) -> None:
    reply = run_conversation([phrase.format(m=size)])[0]
    data = _results(reply)["precision_compare"]
    rows = {r["precision"]: r for r in data["rows"]}
    assert set(rows) == {"fp8", "int4"} and data["model"] == size, reply.content
    assert rows["int4"]["weights_bytes"] < rows["fp8"]["weights_bytes"]
    assert ("**8-bit" in reply.content and "**4-bit" in reply.content) if lang == "en" else \
        ("**8 位" in reply.content and "**4 位" in reply.content), reply.content
