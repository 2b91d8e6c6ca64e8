"""A model too big for the one card a person has at home is answered about that model on that card (review CG #9 and
its D note; CG's 'i have a 4090, want to run qwen2.5 72b locally', which opened with the 32B):
- the headline is the model asked on the user's own card with part of it in system RAM, at that split's speed;
- the smallest change that runs it all on cards follows (a second card like theirs, in the same 4-bit file), then a
  smaller model of its family on their card, marked as the fallback;
- a switch to it after a plan ('那换成70b的呢') keeps the 4-bit file the plan had, never rents 4 cards in Q8_0, quotes no
  vLLM limits for a llama.cpp home card, and names the line without a dangling hyphen.
Generated over both languages, the 4090 and the 3090, a 70B and a 72B; the 5090 keeps the model on the card."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.writers import tps
from gpu_advisor.tools.models import resolve_model
from tests.conversation import payload, run_conversation

FIRST = {"en": ["i have a {card}, want to run {model} locally", "got a single rtx {card} at home, can i run {model} on it?"],
         "zh": ["我有一张{card}，想本地跑{model}", "家里有张{card}，想跑{model}，能跑不"]}
# (the model asked, the fallback: its own line's largest smaller size that runs on the card, tools.models)
MODELS = {"qwen2.5 72b": ("qwen2.5-72b", "Qwen2.5 32B"),
          "deepseek r1 distill llama 70b": ("deepseek-r1-distill-llama-70b", "DeepSeek-R1-Distill-Llama-8B")}
CARDS = {"4090": ("rtx-4090", "NVIDIA GeForce RTX 4090 24GB"), "3090": ("rtx-3090", "NVIDIA GeForce RTX 3090 24GB")}
FALLBACK = {"en": "as a fallback", "zh": "备选"}
SPLIT = {"en": "With part in system RAM", "zh": "部分放进内存"}
SHORT = [(lang, text.format(card=card, model=model), card, model) for lang in ("en", "zh")
         for text, card, model in itertools.product(FIRST[lang], CARDS, MODELS)]


def _heading(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("## "))


@pytest.mark.parametrize(("lang", "text", "card", "model"), SHORT)
def test_the_model_asked_leads_on_the_card_the_smaller_one_is_the_fallback(lang, text, card, model) -> None:
    reply = run_conversation([text])[0]
    data, content = payload(reply), reply.content
    rec = data["results"]["recommend"]
    asked, smaller = MODELS[model]
    gpu_id, gpu_name = CARDS[card]
    off = rec["offload"]
    # the verdict: the model asked, on the user's card, part of it in RAM, in Q4_K_M, at the split's speed
    assert data["decision"]["model"] == asked and rec["offload_leads"]
    assert off["gpu"] == gpu_name and off["precision"] == "q4_k_m" and 0 < off["gpu_layers"] < off["layers"]
    heading = _heading(content)
    assert gpu_name in heading and resolve_model(asked).name in heading and tps(off["decode_tokens_per_s"]) in heading
    assert "32B" not in heading
    # the smallest change: one more card like theirs, the same file, all on the cards
    more = rec["home_more"]
    assert more["gpu"] == gpu_id and more["gpus"] == 2 and more["precision"] == "q4_k_m" and more["ok"]
    assert f"2 × {gpu_name}" in content and tps(more["decode_tokens_per_s"]) in content
    # the smaller model, marked as the fallback, after the split
    fallback = content.index(FALLBACK[lang])
    assert smaller in content[fallback:fallback + 200] and fallback > content.index(SPLIT[lang]) > content.index(heading)
    # the rented alternative in the same file (never Q8_0 on 4 cards), the command the split's
    assert data["decision"]["precision"] == "q4_k_m"
    command = content.split("```bash")[1].split("```")[0]
    assert f"-ngl {off['gpu_layers']}" in command and "Q4_K_M.gguf" in command
    assert "vLLM" not in content.split("|")[0]  # no vLLM limit quoted for a llama.cpp home card


@pytest.mark.parametrize(("lang", "text"), [(lang, t.format(card="5090", model="qwen2.5 72b"))
                                            for lang in ("en", "zh") for t in FIRST[lang]])
def test_a_card_that_holds_the_model_in_fewer_bits_keeps_it(lang, text) -> None:
    """The 5090's 32 GB hold the 72B in a 2-bit file: the model asked on the card, no split, no fallback."""
    data = payload(run_conversation([text])[0])
    d = data["decision"]
    assert d["model"] == "qwen2.5-72b" and d["owned"] and d["gpu"] == "rtx-5090" and d["precision"].startswith("iq2")
    assert not data["results"]["recommend"]["offload_leads"]


SWITCH_FIRST = {"en": ["i have a {card} 24g and 64g ram at home, want to run deepseek r1 distill 32b, can it run, how fast",
                       "got a {card} + 64gb ram, how fast is deepseek r1 distill qwen 32b on it"],
                "zh": ["家里有张{card} 24g，内存64g，想跑deepseek r1 蒸馏的32b，能跑不 速度咋样",
                       "我有张{card}，64g内存，deepseek r1 distill 32b 能跑多快"]}
SWITCH = {"en": ["what about the 70b", "and the 70b one?"], "zh": ["那换成70b的呢", "70b的呢"]}
SWITCHES = [(lang, first.format(card=card), then, card) for lang in ("en", "zh") for first, then, card
            in itertools.product(SWITCH_FIRST[lang], SWITCH[lang], CARDS)]


@pytest.mark.parametrize(("lang", "first", "then", "card"), SWITCHES)
def test_a_switch_to_the_70b_keeps_the_file_and_answers_on_the_card(lang, first, then, card) -> None:
    before, after = run_conversation([first, then])
    assert payload(before)["decision"]["precision"] == "q4_k_m" and payload(before)["decision"]["owned"]
    data, content = payload(after), after.content
    rec = data["results"]["recommend"]
    gpu_name = CARDS[card][1]
    assert data["decision"]["model"] == "deepseek-r1-distill-llama-70b"
    # the file the user had, kept: the split, the added card and the rented rows all in Q4_K_M
    assert data["decision"]["precision"] == "q4_k_m" and rec["offload"]["precision"] == "q4_k_m"
    assert rec["home_more"]["gpus"] == 2 and rec["home_more"]["precision"] == "q4_k_m"
    heading = _heading(content)
    assert gpu_name in heading and "DeepSeek-R1-Distill-Llama-70B" in heading
    assert not any(w in heading for w in ("Rent", "租用", "q8_0"))
    assert "vLLM" not in content.split("|")[0]  # a llama.cpp home card: no vLLM memory limits
    assert "DeepSeek-R1-Distill-Qwen-32B" in content[content.index(FALLBACK[lang]):]  # the 32B: the fallback
    assert "Qwen- " not in content and "DeepSeek-R1-Distill-Qwen " in content  # the line named whole
