"""Servers counted with their cards, and the plan's count asked why (review s27, a 信创 company on Qwen3-235B-A22B):
'只用两台服务器（16张910B）够不够？' is 16 cards in two servers (8 in each), not 16 in each (32, '够'); the cards of
'N servers (M GPUs)' / 'M GPUs across N nodes' are all of them unless 'each'/'每台' says otherwise. '为什么要3台服务器？
两台不够吗' is a question about the plan on screen, never a limit of 3 servers ('只用 3 台服务器，在你说的 3 台之内'): the
reply says what makes the plan's count necessary (the weights and the users' cache on each card against what a card
has) and tries the smaller count (two servers of the plan's server size)."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_states

ZH_SERVER_WORDS = ["台服务器", "台机器", "个节点"]
EN_SERVER_WORDS = ["servers", "nodes", "machines"]
ZH_NUM = {1: "一", 2: "两", 3: "三", 4: "四", 8: "八", 16: "十六", 24: "二十四", 32: "三十二"}
EN_NUM = {2: "two", 3: "three", 4: "four", 16: "sixteen", 24: "twenty-four"}
# (servers, cards in all) the reader must split 8 to a server
SPLITS = [(2, 16), (3, 24), (4, 32)]


def _zh_total(servers: int, cards: int, word: str, digits: bool) -> str:
    n, m = (str(servers), str(cards)) if digits else (ZH_NUM[servers], ZH_NUM[cards])
    return f"只用{n}{word}（{m}张910B）够不够？"


@pytest.mark.parametrize(("servers", "cards", "word", "digits"),
                         [(*s, w, d) for s, w, d in itertools.product(SPLITS, ZH_SERVER_WORDS, (True, False))])
def test_zh_servers_with_cards_in_brackets_are_all_the_cards(servers: int, cards: int, word: str, digits: bool) -> None:
    u = understand(_zh_total(servers, cards, word, digits))
    assert u.updates.get("only") == [f"{cards}x ascend-910b"]
    assert u.updates.get("server_gpus") == cards // servers


EN_TOTAL = ["would {n} {w} ({m} 910B) be enough?", "only {n} {w} ({m} 910Bs), enough?",
            "{m} 910Bs across {n} {w}, enough?", "{n} {w} with {m} 910Bs in total, would that work?"]


@pytest.mark.parametrize(("servers", "word", "template", "words"),
                         list(itertools.product([2, 3], EN_SERVER_WORDS, EN_TOTAL, (False, True))))
def test_en_servers_with_cards_are_all_the_cards(servers: int, word: str, template: str, words: bool) -> None:
    total = servers * 8
    n, m = (EN_NUM[servers], EN_NUM[total]) if words else (str(servers), str(total))
    u = understand(template.format(n=n, m=m, w=word))
    said = u.updates.get("only") or ([f"{u.whatif_gpus[0]}x {u.whatif_gpus[1]}"] if u.whatif_gpus else None)
    assert said == [f"{total}x ascend-910b"], template
    assert u.updates.get("server_gpus") == 8


@pytest.mark.parametrize("text", ["只用两台服务器（每台8张910B）够不够？", "只用2台机器，每台8张910B，够吗",
                                  "would 2 servers (8x 910B each) be enough?", "2 servers each with 8 910B, enough?",
                                  "两台服务器（8卡910B）够不够"])
def test_cards_said_per_server_stay_each_servers(text: str) -> None:
    u = understand(text)
    said = u.updates.get("only") or ([f"{u.whatif_gpus[0]}x {u.whatif_gpus[1]}"] if u.whatif_gpus else None)
    assert said == ["16x ascend-910b"], text
    assert u.updates.get("server_gpus") == 8


ZH_WHY = ["为什么要{n}{u}？", "为啥要{n}{u}，", "为什么需要{n}{u}？", "为什么非得{n}{u}，", "为什么是{n}{u}？",
          "{n}{u}是不是太多了，"]
ZH_TRIED = ["", "{m}{t}不够吗", "{m}{t}不行吗", "{m}{t}够用吗", "用{m}{t}行不行", "{m}{t}就够了吧"]
ZH_UNITS = [("台服务器", "台", "servers"), ("台机器", "台", "servers"), ("个节点", "个节点", "servers"),
            ("张卡", "张", "gpus")]


def _zh_why_cases() -> list[tuple[str, str, int, int | None]]:
    out = []
    for why, tried, (unit, tried_unit, kind), digits in itertools.product(ZH_WHY, ZH_TRIED, ZH_UNITS, (True, False)):
        asked, smaller = (3, 2) if kind == "servers" else (24, 16)
        n, m = (str(asked), str(smaller)) if digits else (ZH_NUM[asked], ZH_NUM[smaller])
        out.append((why.format(n=n, u=unit) + tried.format(m=m, t=tried_unit), kind, asked, smaller if tried else None))
    return out


EN_WHY = ["why do I need {n} {u}?", "why {n} {u}?", "why do you recommend {n} {u}?", "why would we need {n} {u},",
          "why the {n} {u},"]
EN_TRIED = ["", " wouldn't {m} be enough?", " isn't {m} enough", " is {m} not enough?", " wouldn't {m} do?",
            " couldn't we get by with {m}?", " can {m} {u} handle it?"]
EN_UNITS = [("servers", "servers"), ("nodes", "servers"), ("machines", "servers"), ("GPUs", "gpus"),
            ("cards", "gpus")]


def _en_why_cases() -> list[tuple[str, str, int, int | None]]:
    out = []
    for why, tried, (unit, kind), words in itertools.product(EN_WHY, EN_TRIED, EN_UNITS, (False, True)):
        asked, smaller = (3, 2) if kind == "servers" else (24, 16)
        n, m = (EN_NUM[asked], EN_NUM[smaller]) if words else (str(asked), str(smaller))
        out.append((why.format(n=n, u=unit) + tried.format(m=m, u=unit), kind, asked, smaller if tried else None))
    return out


@pytest.mark.parametrize(("text", "unit", "asked", "tried"), _zh_why_cases() + _en_why_cases())
def test_why_the_plans_count_is_a_question_not_a_limit(text: str, unit: str, asked: int, tried: int | None) -> None:
    u = understand(text)
    assert u.ask.get("count_why") == {"unit": unit, "asked": asked, "tried": tried}, text
    assert "why" in u.intents
    assert not u.intents & {"servers_limit", "servers_count", "whatif"}
    assert not any(key == "note.servers_without_cards" for key, _v in u.notes)  # the plan's servers, not theirs
    assert "count_fixed" not in u.ask  # "wouldn't 2 be enough" corrects no 3


@pytest.mark.parametrize("text", ["we have 3 servers with 8 A100 each, serve llama 3.1 70b for 200 users",
                                  "只用3台服务器", "what if we only had 2 servers?", "why is the 910B slower?"])
def test_no_count_asked_why(text: str) -> None:
    assert "count_why" not in understand(text).ask


JOB = {"zh": "我们是国企，要求信创国产化，想部署Qwen3-235B-A22B给内部两千人用，只能用昇腾",
       "en": "serve Qwen3-235B-A22B for 2000 internal users, domestic chinese accelerators only (ascend)"}
WHY_TRIED = {"zh": ["为什么要3台服务器？两台不够吗", "为啥要三台机器，2台不行吗"],
             "en": ["why do I need 3 servers? wouldn't 2 be enough?", "why three nodes? couldn't we get by with two?"]}
# what the plan of 3 servers (24 × 910B, TP8 × PP3) holds, in its own figures: weights, each card's cache, per card
EXPLAINED = {"zh": ["236.2 GB", "30.5 GB 缓存", "44.2 GB", "68.0 GB", "要 3 台服务器"],
             "en": ["236.2 GB", "30.5 GB of cache", "44.2 GB", "68.0 GB", "take 3 servers"]}
LIMIT = {"zh": "在你说的", "en": "within the"}


@pytest.fixture(scope="module")
def plan_states() -> dict[str, list[dict]]:
    return {f"{lang}{i}": run_states([JOB[lang], text], thread=f"why-{lang}{i}")
            for lang in ("zh", "en") for i, text in enumerate(WHY_TRIED[lang])}


@pytest.mark.parametrize("key", ["zh0", "zh1", "en0", "en1"])
def test_why_three_servers_explains_and_tries_two(plan_states: dict[str, list[dict]], key: str) -> None:
    lang = key[:2]
    first, second = plan_states[key]
    assert first["profile"]["only"] is None and "24 × Huawei Ascend 910B" in first["messages"][-1].content
    reply = second["messages"][-1].content
    why = reply.split("\n\n")[0]
    for figure in EXPLAINED[lang]:
        assert figure in why, (figure, why)
    assert LIMIT[lang] not in reply  # never 'the plan uses 3 servers, within the 3 you asked about'
    assert second["profile"]["only"] == ["16x ascend-910b"]  # two servers of the plan's eight
    assert second["profile"]["server_gpus"] == 8
    verdict = reply.split("\n\n")[1]
    assert "16 × Huawei Ascend 910B 64GB" in verdict
    # two servers hold it only with the cache in INT8: said, with the other ways (shorter context, fewer users)
    assert "INT8" in reply
    assert ("4,096" in reply and "116" in reply), reply


@pytest.mark.parametrize(("lang", "text"), [("zh", "为什么要3台服务器？"), ("en", "why do I need 3 servers?")])
def test_why_alone_explains_the_plan_on_screen(lang: str, text: str) -> None:
    _first, second = run_states([JOB[lang], text], thread=f"why-alone-{lang}")
    reply = second["messages"][-1].content
    for figure in EXPLAINED[lang]:
        assert figure in reply, (figure, reply)
    assert LIMIT[lang] not in reply
    assert second["profile"].get("only") is None  # nothing tried, the plan kept


def test_review_three_turns_two_servers_of_sixteen_cards() -> None:
    states = run_states([JOB["zh"], "为什么要3台服务器？两台不够吗", "只用两台服务器（16张910B）够不够？"], thread="s27-three")
    third = states[2]
    assert third["profile"]["only"] == ["16x ascend-910b"]  # 16 in all, not 16 in each (32)
    assert third["profile"]["server_gpus"] == 8
    reply = third["messages"][-1].content
    assert "不会改变结果" not in reply  # the same two servers asked again: the verdict again
    assert reply.startswith("**能**") and "16 × Huawei Ascend 910B 64GB" in reply.split("\n\n")[0]
    assert "32 × " not in reply.split("\n\n")[0]
