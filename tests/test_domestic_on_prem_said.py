"""Domestic-only and on-prem rules said in new ways (review CI #12): '也不让用进口芯片', '禁止进口卡', '进口卡不让用',
'imported chips are not allowed' keep the plan on domestic accelerators; '数据不能出机房', '数据必须留在本地', '不能用公有云',
"data can't leave our building", 'data has to stay in our server room', 'no cloud' rule out renting. Together, on
owned 910B servers short of a deadline, the plan is more 910B servers bought beside them, said in servers, never
rented or imported cards (the review's plan was 52 x RTX 3090, rented)."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.tools.recommend import Workload, recommend
from tests.conversation import payload, run_states

FOREIGN = ["amd", "apple", "intel", "nvidia"]
DOMESTIC_ZH = ["也不让用进口芯片", "不让用进口芯片", "禁止进口卡", "不允许采购国外的显卡", "进口卡不让用", "严禁使用进口GPU",
               "不能用国外的卡", "进口芯片一律禁止使用"]
DOMESTIC_EN = ["imported chips are not allowed", "foreign gpus are off-limits", "no imported chips", "we can't use imported chips",
               "we are barred from using foreign accelerators"]
JOB = {"zh": "，用qwen2.5-72b清洗一亿条短文本", "en": ", clean 100M short texts with qwen2.5-72b"}


@pytest.mark.parametrize(("lang", "said", "where"), [("zh", s, w) for s, w in itertools.product(DOMESTIC_ZH, ("before", "after"))]
                         + [("en", s, w) for s, w in itertools.product(DOMESTIC_EN, ("before", "after"))])
def test_imported_chips_ruled_out_is_a_domestic_only_rule(lang: str, said: str, where: str) -> None:
    text = said + JOB[lang] if where == "before" else JOB[lang].lstrip("，, ") + ("，" if lang == "zh" else ", ") + said
    u = understand(text)
    assert u.updates.get("exclude") == FOREIGN and u.updates.get("region") == "china", (text, u.updates)


PREM_ZH = ["数据不能出机房", "数据不出机房", "数据必须留在本地", "数据不能外传", "不能用公有云", "数据不能离开我们机房", "必须在自己机房部署",
           "只能本地跑", "必须本地部署", "禁止上云"]
PREM_EN = ["data can't leave our building", "the data cannot leave the server room", "data has to stay in our data center",
           "our data must never leave the premises", "no cloud", "no public cloud allowed", "we can't use the cloud",
           "data must stay on-prem"]


@pytest.mark.parametrize(("lang", "said"), [("zh", s) for s in PREM_ZH] + [("en", s) for s in PREM_EN])
def test_data_kept_in_the_building_rules_out_renting(lang: str, said: str) -> None:
    u = understand(said + JOB[lang])
    assert u.updates.get("preference") == "buy", (said, u.updates)


@pytest.mark.parametrize("text", ["the data cannot leave the country", "数据不能出境", "cloud or on-prem, which is cheaper?"])
def test_no_building_said_is_no_on_prem_rule(text: str) -> None:
    assert understand(text).updates.get("preference") != "buy"


@pytest.mark.parametrize("text", ["数据不能出境", "不要求国产化，租卡也行"])
def test_other_policies_keep_their_own_reading(text: str) -> None:
    assert "exclude" not in understand(text).updates


# --- the decision: owned domestic servers short of a deadline grow with the same card, bought ----------------

def _batch(**kw) -> Workload:
    return Workload(phase="batch", model="qwen2.5-72b", batch_items=100_000_000, batch_input_tokens=200,
                    batch_output_tokens=50, deadline_hours=240, region="china", owned=["16x ascend-910b"], server_gpus=8,
                    exclude=FOREIGN, **kw)


def test_owned_910b_servers_under_an_on_prem_rule_grow_by_whole_910b_servers() -> None:
    rec = recommend(_batch(preference="buy"))
    best = rec.best
    assert best is not None and best.ok and best.gpu == "ascend-910b" and best.owned_gpus == 16
    assert best.gpus == 40 and (best.gpus - best.owned_gpus) % 8 == 0  # three more 8-card servers, five in all
    assert rec.action == "buy" and not best.owned
    assert all(o.gpu.startswith("ascend-") for o in rec.options)


def test_without_the_rule_more_than_as_many_again_is_not_grown_on_the_owned_card() -> None:
    rec = recommend(_batch())
    assert not (rec.best is not None and rec.best.owned_gpus)  # (EXTEND_AT_MOST: a new cluster competes on price)


CI12 = {"zh": "{prem} {dom}，手上就两台910B的机器（每台8卡64G），十天之内要用qwen2.5-72b清洗一亿条短文本，每条输入两百token左右"
              "输出五十，够不够 不够还得加几台",
        "en": "{prem} and {dom}. we have two 910B servers (8x 64GB each); within 10 days we need qwen2.5-72b to clean 100M "
              "short texts, ~200 tokens in and 50 out each. enough? if not, how many more servers"}
RULES = {"zh": [("数据不能出机房", "也不让用进口芯片"), ("数据必须留在本地", "禁止进口卡"), ("不能用公有云", "进口卡不让用")],
         "en": [("data can't leave our building", "imported chips are not allowed"),
                ("data has to stay in our server room", "no imported chips")]}


@pytest.mark.parametrize(("lang", "prem", "dom"), [(lang, p, d) for lang, rows in RULES.items() for p, d in rows])
def test_ci12_is_three_more_910b_servers_bought_never_rented_or_imported(lang: str, prem: str, dom: str) -> None:
    state = run_states([CI12[lang].format(prem=prem, dom=dom)])[-1]
    profile, msg = state["profile"], state["messages"][-1]
    assert profile["owned"] == ["16x ascend-910b"] and profile["preference"] == "buy" and profile["exclude"] == FOREIGN
    decision = payload(msg)["decision"]
    assert decision["action"] == "buy" and decision["gpu"] == "ascend-910b" and decision["gpus"] == 40
    text = msg.content
    first = text.splitlines()[0]
    assert ("3 more 8-card servers, 5 in all" in first) if lang == "en" else ("再加 3 台 8 卡服务器，共 5 台" in first)
    plan = text.split("**From what you said")[0].split("**你说的**")[0]  # (what was read back names the cards left out)
    for word in ("RTX", "NVIDIA", "3090", "Rent ", "rent ", "租用"):
        assert word not in plan, word
    assert "only as many of your cards" not in text and "how many in each" not in text
