"""Two models asked "on each" on the user's own machine are each sized alone, in turns, not both loaded at once.

Review CJ #1: "have an m2 ultra mac studio w 192gb, wanna run llama 3.3 70b at q8 …, maybe mistral large 2 too …
what kind of tok/s would i get on each" was answered with 2 × M2 Ultra to serve both at once, Mistral Large 2 at
half its Q8_0 size (its bytes on two Macs beside Llama's on one) and no tok/s for it; "no not at the same time lol,
one or the other" then changed nothing. Now: the words that ask each model's figures (words/multi.yaml
multi_each_alone) put the two in turns on the one machine, a correction on the next turn (multi_turns_said) does
the same, the format said once is each model's, and the reply gives each model's format and tok/s.
Generated over machines, model orders, spellings of "each" and of the correction, in English and Chinese.
"""

from __future__ import annotations

import itertools
import re

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.reading.multi import turns_said
from gpu_advisor.assistant.writers import tps
from tests.conversation import run_states

LLAMA, MISTRAL, QWEN = "llama-3.3-70b", "mistral-large-2-123b", "qwen2.5-72b"
NAMES = {LLAMA: "llama 3.3 70b", MISTRAL: "mistral large 2", QWEN: "qwen2.5 72b"}
SHOWN = {LLAMA: "Llama 3.3 70B", MISTRAL: "Mistral Large 2 123B"}
PAIRS = [(LLAMA, MISTRAL), (MISTRAL, LLAMA), (QWEN, LLAMA)]
MACS_EN = ["have an m2 ultra mac studio w 192gb", "i own a mac studio m2 ultra with 192gb",
           "on my m2 ultra 192gb mac studio"]
EACH_EN = ["what kind of tok/s would i get on each", "how fast is each of them", "what speed for each?",
           "tokens/s of each one?", "what would each model do in tok/s", "how fast would either one run"]
FORMS_EN = ["{m}, wanna run {a} at q8, maybe {b} too. {e}", "{m}. want to run {a} and {b} at q8, {e}"]
ZH = ["我有一台192GB的M2 Ultra Mac Studio，想跑{a}和{b}，都用q8，各自能跑多少token/s？",
      "我的Mac Studio M2 Ultra 192G，{a}和{b}分别能跑多快？都用q8",
      "我有台192GB的M2 Ultra，{a}和{b}，每个模型多少token/s？q8"]
HAN = re.compile(r"[\u4e00-\u9fff]")
CJ = ["have an m2 ultra mac studio w 192gb, wanna run llama 3.3 70b at q8 for long form writing, maybe mistral large 2 "
      "too (the 123b one). what kind of tok/s would i get on each",
      "no not at the same time lol, one or the other. just want the speed of each, both q8"]


def _second(text: str) -> dict:
    u = understand(text, None)
    assert u.updates.get("owned") == ["1x apple-m2-ultra-192gb"], text
    return {"first": u.updates.get("model"), "precision": u.updates.get("precision"), **(u.second or {})}


@pytest.mark.parametrize("mac,pair,each,form", list(itertools.product(MACS_EN, PAIRS, EACH_EN, FORMS_EN)))
def test_each_on_own_machine_english_is_in_turns(mac: str, pair: tuple[str, str], each: str, form: str) -> None:
    a, b = pair
    s = _second(form.format(m=mac, a=NAMES[a], b=NAMES[b], e=each))
    assert (s["first"], s.get("model"), s.get("together"), s["precision"]) == (a, b, False, "q8_0")


@pytest.mark.parametrize("form,pair", list(itertools.product(ZH, PAIRS)))
def test_each_on_own_machine_chinese_is_in_turns(form: str, pair: tuple[str, str]) -> None:
    a, b = pair
    s = _second(form.format(a=NAMES[a], b=NAMES[b]))
    assert {s["first"], s.get("model")} == {a, b} and s.get("together") is False and s["precision"] == "q8_0"


@pytest.mark.parametrize("text", [
    "we have 8x h100, serve llama 3.3 70b and qwen2.5 72b, 30 users each",  # a load of people: two services
    "rent gpus to serve llama 3.3 70b and mistral large 2 at q8, what tok/s on each",  # no machine of their own
    "on my m2 ultra 192gb mac studio, run llama 3.3 70b and mistral large 2 at the same time, tok/s of each?",
    "我们有8张H100，部署llama 3.3 70b和qwen2.5 72b，各30个人用",
])
def test_together_stays_when_said_or_served_to_people(text: str) -> None:
    assert (understand(text, None).second or {}).get("together") is True


ALSO = {"phase": "serve", "model": MISTRAL, "users": None, "batch_items": None, "together": True,
        "together_said": False}
TURNS = ["no not at the same time lol, one or the other", "one at a time", "they take turns, never both at once",
         "not simultaneously, just the speed of each", "不是同时，轮流跑", "不会同时用，二选一", "分开跑，一次一个"]


@pytest.mark.parametrize("text", TURNS)
def test_correction_puts_the_pair_in_turns(text: str) -> None:
    assert turns_said(text, ALSO) == {**ALSO, "together": False, "together_said": True}
    assert turns_said(text, None) is None
    assert turns_said(text, {**ALSO, "together": False}) == {**ALSO, "together": False, "together_said": True}
    assert turns_said(text, {**ALSO, "together": False, "together_said": True}) is None  # said so already


@pytest.mark.parametrize("text", ["both at the same time", "make it 32k context", "同时跑两个", "what about int4?"])
def test_other_words_are_no_correction(text: str) -> None:
    assert turns_said(text, ALSO) is None


def _each_reply(state: dict, first: str, second: str) -> str:
    """The reply sizes both on the one Mac, each in its format with its own tok/s (from the tool results)."""
    reply = state["messages"][-1].content
    best, pair = state["results"]["recommend"]["best"], state["results"]["pair"]
    assert (best["gpu"], best["gpus"], best["owned"]) == ("apple-m2-ultra-192gb", 1, True)
    assert pair["together"] is False and pair["fits"] is True and pair["second_precision"] == "q8_0"
    assert best["precision"] == "q8_0" and state["also"]["together"] is False
    headline = next(line for line in reply.split("\n") if line.startswith("## "))
    assert "2 × Apple" not in reply and "at once" not in headline and "同时" not in headline
    for name, speed in ((first, best["decode_tokens_per_s"]), (second, pair["second_tokens_per_s"])):
        assert re.search(re.escape(SHOWN[name]) + r"[^\n]*q8_0[^\n]*" + re.escape(tps(speed)), reply), (name, reply)
    return reply


def test_cj1_each_then_correction() -> None:
    one, two = run_states(CJ)
    for state in (one, two):
        reply = _each_reply(state, LLAMA, MISTRAL)
        # Mistral Large 2 at Q8_0 on its own: about 134 GB and 5.3 tok/s; Llama 3.3 70B 8.6 tok/s
        assert "134.0 GB" in reply and "about 5.3 tokens/s" in reply and "at about 8.6 tokens/s" in reply
    assert "nothing that changes" not in two["messages"][-1].content


@pytest.mark.parametrize("first,correction", [
    ("have an m2 ultra mac studio w 192gb, wanna run llama 3.3 70b at q8, maybe mistral large 2 too (the 123b one)",
     "no not at the same time lol, one or the other"),
    ("i own a mac studio m2 ultra with 192gb. want to run mistral large 2 and llama 3.3 70b at q8", "one at a time"),
    ("我有一台192GB的M2 Ultra Mac Studio，想跑Llama 3.3 70B和Mistral Large 2，用q8", "不是同时，轮流跑"),
    ("我有一台192GB的M2 Ultra Mac Studio，想跑Mistral Large 2和Llama 3.3 70B，都用q8", "分开跑，一次一个"),
])
def test_correction_next_turn_sizes_each_alone(first: str, correction: str) -> None:
    one, two = run_states([first, correction])
    # one person's own single machine: in turns from the first turn (h-mac3), the correction says so
    assert one["also"]["together"] is False and not one["also"]["together_said"]
    assert two["also"]["together"] is False and two["also"]["together_said"]
    a, b = one["profile"]["model"], one["also"]["model"]
    reply = _each_reply(two, a, b)
    assert bool(HAN.search(reply)) == bool(HAN.search(first))  # the reply stays in the user's language


@pytest.mark.parametrize("text", [CJ[0].replace("on each", "on each of them"), ZH[1].format(a="llama 3.3 70b",
                                                                                                b="mistral large 2")])
def test_each_first_turn_sizes_each_alone(text: str) -> None:
    state = run_states([text])[0]
    _each_reply(state, state["profile"]["model"], state["also"]["model"])


FORMATS_EN = ["i own a mac studio m2 ultra with 192gb, run {a} at {p} and {b} at {q}, tok/s on each?",
              "on my m2 ultra 192gb mac studio: {a} in {p}, {b} in {q}. what speed for each?"]
FORMATS_ZH = ["我有一台192GB的M2 Ultra，{a}用{p}，{b}用{q}，各自多少token/s", "我的192GB M2 Ultra上，{a}跑{p}、{b}跑{q}，分别多快？"]
SAID = {"q8": "q8_0", "q4": "q4_k_m"}


@pytest.mark.parametrize("form,pair,formats", list(itertools.product(FORMATS_EN + FORMATS_ZH, PAIRS[:2],
                                                                     [("q8", "q4"), ("q4", "q8")])))
def test_each_model_keeps_its_own_format(form: str, pair: tuple[str, str], formats: tuple[str, str]) -> None:
    (a, b), (p, q) = pair, formats
    u = understand(form.format(a=NAMES[a], b=NAMES[b], p=p, q=q), None)
    assert (u.updates["model"], u.updates["precision"]) == (a, SAID[p])
    assert u.second is not None and (u.second["model"], u.second["precision"], u.second["together"]) == (b, SAID[q], False)


def test_own_formats_are_sized_and_said() -> None:
    reply = run_states(["i own a mac studio m2 ultra with 192gb, run llama 3.3 70b at q8 and mistral large 2 at q4, "
                        "tok/s on each?"])[0]["messages"][-1].content
    assert "Llama 3.3 70B in q8_0 at about 8.6 tokens/s" in reply
    assert re.search(r"Mistral Large 2 123B on its own[^\n]*in q4_k_m[^\n]*about 6\.8 tokens/s", reply)
