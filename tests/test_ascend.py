"""China's domestic-only plans on Ascend at scale (s15 fix B, ascend): a server of counted cards asked 'how many' is
the cards of each server, the plan as many servers as the job needs; the user's model is never swapped."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

ZH_SERVER = ["需要几台atlas 800T A2（8卡910B 64G）？", "8卡910B的服务器需要几台？", "需要多少台昇腾服务器，每台8张910B？",
             "请问要几台 Atlas 800T A2 (8卡 910B 64G) 呢"]
EN_SERVER = ["How many servers with 8 910B 64GB each do we need?", "how many 8x 910B servers do we need?",
             "so how many Atlas 800T A2 servers (8 x 910B 64GB) would that take?"]
ZH_JOB = ["要部署deepseek-v3满血版给各委办局用，估计同时在线500人左右，平均输入3000token输出500。",
          "deepseek-v3 满血版，500人同时在线，输入3000 token，输出500。"]
EN_JOB = ["We need full DeepSeek-V3 for about 500 concurrent users, 3000 tokens in, 500 out.",
          "serving deepseek-v3 (full) to 500 concurrent users, avg 3000 tokens in and 500 out."]


def _cases() -> list[tuple[str, str]]:
    out = []
    for ask, job in itertools.product(ZH_SERVER, ZH_JOB):
        out += [(f"必须全国产化，只能用昇腾。{job}{ask}", "zh"), (f"{ask}只能用昇腾，{job}", "zh")]
    for ask, job in itertools.product(EN_SERVER, EN_JOB):
        out += [(f"Fully domestic, Ascend only. {job} {ask}", "en"), (f"{ask} Ascend only. {job}", "en")]
    return out


@pytest.mark.parametrize("text,lang", _cases())
def test_server_cards_are_each_servers(text: str, lang: str) -> None:
    u = understand(text)
    assert u.lang == lang
    assert u.updates.get("only") == ["ascend-910b"]
    assert u.updates.get("server_gpus") == 8
    assert u.whatif_gpus is None
    assert "owned" not in u.updates
    assert "servers_count" in u.intents


def test_servers_held_stay_owned() -> None:
    u = understand("我们有两台8卡910B服务器，还需要几台？")
    assert u.updates.get("owned") == ["16x ascend-910b"]


@pytest.mark.parametrize("text", [
    "省里政务云项目，必须全国产化，硬件只能用昇腾。要部署deepseek-v3满血版给各委办局用，估计同时在线500人左右，平均输入3000"
    "token输出500。需要几台atlas 800T A2（8卡910B 64G）？",
    "Provincial gov cloud, fully domestic, Ascend only. We need full DeepSeek-V3 for about 500 concurrent users, "
    "3000 tokens in, 500 out. How many servers with 8 910B 64GB each do we need?",
])
def test_deepseek_v3_on_atlas_servers(text: str) -> None:
    state = run_states([text])[-1]
    results = state["results"]
    best = results["recommend"]["options"][0]
    assert results["inputs"]["model"] == "deepseek-v3"  # never swapped
    assert results["inputs"]["server_gpus"] == 8
    assert best["gpu"] == "ascend-910b" and best["ok"] and best["server_gpus"] == 8
    # h-physics (review AP E16): 500 streams of 3,000-token prompts are ~6.8 requests/s of prefill, so the plan is
    # sized for that rate: 4 copies of TP8 x PP3 (12 servers), not the 64 cards memory and decode alone would take
    # (h-facts: 7 copies of TP8 x PP2, 14 servers, before the NPUs' HCCS link was sized as a fast link, not PCIe)
    # h-fixc (review BL #12/#19): data-parallel attention + expert parallel over 3 servers holds each user's MLA cache
    # once, not on every tensor-parallel rank: 3 copies of 24 NPUs (9 servers), not 4 of TP8 x PP3 (12)
    # h-moe: each rank dispatches only its own tokens (was the whole batch on every NPU), so a copy sustains more and
    # the settled rate is higher: 2 copies of 32 NPUs (8 servers), not 3 of 24 (9)
    assert best["gpus"] == 64 and best["servers"] == 8 and best["tp"] == 32 and best["pp"] == 1
    assert best["dp_attention"] == 32


TTFT_ZH = ["我们公司要上一个内部知识库问答，用 Qwen2.5-72B，白天高峰大概 每秒 5 个请求，要求首字延迟 2 秒以内，只能用国产卡（信创要求），"
           "昇腾 910B 要几台？",
           "只能用昇腾910B（信创），知识库问答 qwen2.5-72b，高峰每秒5个请求，首token延迟要在2秒内，需要多少张卡？"]
TTFT_EN = ["Internal knowledge-base Q&A on Qwen2.5-72B, peak about 5 requests per second, first token within 2 seconds, "
           "domestic cards only. How many Ascend 910B servers do we need?",
           "Ascend 910B only (domestic rule). qwen2.5-72b knowledge base, 5 req/s at peak, time to first token under 2s: "
           "how many cards?"]


@pytest.mark.parametrize("text,lang", [(t, "zh") for t in TTFT_ZH] + [(t, "en") for t in TTFT_EN])
def test_first_token_target_without_percentile_is_met(text: str, lang: str) -> None:
    state = run_states([text])[-1]
    rec = state["results"]["recommend"]
    best = rec["options"][0]
    traffic = rec["traffic"]
    assert best["gpu"] == "ascend-910b" and best["ok"]
    assert best["tp"] >= 4  # copies of 2 cards cannot reach it
    assert traffic["ttft_typical"] and traffic["ttft_p99_met"] and not traffic["ttft_unreachable"]
    assert traffic["ttft_q_s"] <= 2.0
    text_out = state["messages"][-1].content
    assert ("中位数" in text_out) if lang == "zh" else ("median" in text_out)
    for faster in ("换更快的卡", "faster card"):
        assert faster not in text_out


@pytest.mark.parametrize("text", [
    "知识库问答 qwen2.5-72b，只能用昇腾910B，高峰每秒5个请求，p99首字延迟2秒内，要几台？",
    "qwen2.5-72b knowledge base, Ascend 910B only, 5 req/s peak, p99 first token under 2 s. How many servers?",
])
def test_unreachable_target_suggests_no_excluded_card(text: str) -> None:
    state = run_states([text])[-1]
    out = state["messages"][-1].content
    assert state["results"]["recommend"]["options"][0]["gpu"] == "ascend-910b"
    for faster in ("换更快的卡", "faster card", "H100", "H200"):
        assert faster not in out


REPLACE_ZH = ["昇腾910B 跟 A800 比，跑 70B 模型推理性能差多少？我们想做国产替代，大概需要多买多少张卡才能顶上原来 8 张 A800 的吞吐",
              "要替换原来的8张A800，需要几张910B？跑70B推理",
              "跑70B推理，想用910B取代现有的 8 张 A800，得要多少张？"]
REPLACE_EN = ["How does the Ascend 910B compare with the A800 for 70B inference? We're doing a domestic replacement: "
              "roughly how many 910B cards would we need to match the throughput of our old 8 A800s?",
              "how many 910B would we need to replace our 8 A800s for serving a 70B model?",
              "Serving a 70B model: to replace 8 A800 with Ascend 910B, how many cards?"]


@pytest.mark.parametrize("text,lang", [(t, "zh") for t in REPLACE_ZH] + [(t, "en") for t in REPLACE_EN])
def test_replacement_count_answered(text: str, lang: str) -> None:
    u = understand(text)
    assert u.lang == lang
    assert u.ask.get("replace") == ["a800-80gb-sxm", 8, "ascend-910b"]
    state = run_states([text])[-1]
    out = state["messages"][-1].content
    best = state["results"]["recommend"]["options"][0]
    assert best["gpu"] == "ascend-910b"  # the plan is on the card moved to
    assert "11 × Huawei Ascend 910B" in out  # 8 x 2039 / 1600 GB/s, rounded up
    assert "16 × Huawei Ascend 910B" in out  # two 8-card servers
    assert "选 NVIDIA A800" not in out and "pick the NVIDIA A800" not in out.lower()


def test_replace_count_tool() -> None:
    from gpu_advisor.tools.replace_count import replace_count

    r = replace_count("a800-80gb-sxm", 8, "ascend-910b", fit_gpus=2)
    assert (r.needed, r.servers) == (11, 2)
    assert r.fewer_share is not None and 0.7 < r.fewer_share < 0.85
    assert replace_count("a800-80gb-sxm", 1, "ascend-910b", fit_gpus=2).needed == 2  # never fewer than fit
