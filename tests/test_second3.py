"""The second question asked in a turn is answered (h-second3): a layout asked of a model on machines ("怎么切",
"how should I split it across two nodes") gets the layout verdict from the tools, not "tell me the model"."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conversation import payload, run_conversation


def _results(reply: Any) -> dict[str, Any]:
    return dict(payload(reply).get("results") or {})


# ---------------------------------------------------------------- 1. a layout asked of a model on machines

SPLIT_ONE_NODE = {  # a 70B dense fits one 8-card server: TP inside each, the servers copies side by side
    "en": ["how should I split llama 3 70b across two 8-gpu nodes",
           "TP vs PP, what's the difference? and how do we split a 70B for inference on 2 servers with 8 H100 each",
           "um so we got 2 machines each with 8 h100, how should we split llama 3.1 70b for serving?"],
    "zh": ["TP和PP到底有啥区别啊，我两台8卡机器跑70B推理应该怎么切",
           "两台8卡H100机器跑Llama 3 70B推理应该怎么切",
           "Llama 3.1 70B 推理，2台服务器每台8张H100，怎么切分比较好"],
}
SPLIT_CROSS = {  # a 405B in BF16 does not fit one 8 x A100 server: TP8 inside, PP2 across
    "en": ["we have 2 servers with 8 A100 80GB each. how do we split Llama 3.1 405B for serving?",
           "how should i shard llama 3.1 405b over two nodes of 8 a100 80gb"],
    "zh": ["两台8卡A100 80GB服务器，Llama 3.1 405B 推理怎么切", "Llama 3.1 405B 在2台服务器每台8张A100 80GB上怎么切分"],
}


@pytest.mark.parametrize(("lang", "text"), [(k, t) for k, v in SPLIT_ONE_NODE.items() for t in v])
def test_split_question_gets_layout_in_one_node(lang: str, text: str) -> None:
    reply = run_conversation([text])[0]
    verdict = _results(reply).get("par_choice")
    assert verdict, reply.content
    assert (verdict["code"], verdict["pp"], verdict["per_node"], verdict["servers"]) == ("one_node", 1, 8, 2), reply.content
    assert verdict["copies"] >= 2
    assert ("结论" in reply.content) == (lang == "zh"), reply.content


@pytest.mark.parametrize(("lang", "text"), [(k, t) for k, v in SPLIT_CROSS.items() for t in v])
def test_split_question_spans_nodes_only_when_one_does_not_hold_it(lang: str, text: str) -> None:
    reply = run_conversation([text])[0]
    verdict = _results(reply).get("par_choice")
    assert verdict, reply.content
    assert (verdict["code"], verdict["tp"], verdict["pp"]) == ("cross_node", 8, 2), reply.content
    assert ("结论" in reply.content) == (lang == "zh"), reply.content


# ---------------------------------------------------------------- 2. a later switch to another model asked beside the plan

SWITCH = {  # V3 deployed now, R1 later: the plan stays V3; same weights, same cards; R1's longer answers said
    "en": ["we're deploying deepseek v3 on 16 H100 for 200 devs. if we later switch to R1, does the hardware need to change?",
           "deepseek v3 on h100s for 200 internal users, buying. also, if we move to r1 later, same hardware?",
           "Serving DeepSeek-V3 to 200 engineers on H200. Would switching to DeepSeek R1 later mean more hardware?"],
    "zh": ["公司要在内网部署deepseek-v3，给研发200人用，要求国产卡，现在看的是昇腾。另外老板还问了一句：要是后面换成r1，硬件需要改吗",
           "用H100部署deepseek v3给200人用，买卡。以后改用r1的话硬件要改吗",
           "H200 上部署 DeepSeek-V3，200 个研发同时用；要是以后换成 R1，需要换硬件吗"],
}


@pytest.mark.parametrize(("lang", "text"), [(k, t) for k, v in SWITCH.items() for t in v])
def test_switch_asked_beside_plan_keeps_current_model_and_answers(lang: str, text: str) -> None:
    reply = run_conversation([text])[0]
    data = payload(reply)
    switch = data.get("model_switch")
    assert switch, reply.content
    assert (switch["code"], switch["from"], switch["to"]) == ("same_weights", "deepseek-v3", "deepseek-r1"), switch
    assert switch["new_out"] > switch["old_out"]
    assert data["results"]["recommend"]["model_id"] == "deepseek-v3", reply.content
    assert switch["gpus"] == data["results"]["recommend"]["best"]["gpus"]
    assert ("硬件不用改" in reply.content) == (lang == "zh"), reply.content
