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
    assert best["gpus"] % 8 == 0 and 16 <= best["gpus"] <= 64  # 2-8 servers: two servers at least per copy
