"""One verdict per answer on a home card (review CG #9, CE #6): '家里有张4090 24g，内存64g，想跑deepseek r1 蒸馏的32b' was
headed 'fits at Q4_K_M + Q8 KV, 32 tok/s' while a paragraph below split the same file between card and RAM (-ngl 55,
7 tok/s, sized with a 16-bit KV cache). When the plan on the user's own card holds the model asked in the file the split
would use, there is no split: the headline, the plan's figures and the command say the same thing. Generated over both
languages, three home cards and two 32B models at a 32k context."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.writers import tps
from gpu_advisor.tools.models import resolve_model
from tests.conversation import payload, run_conversation

ASK = {"en": ["i have a {card} at home and 64gb ram, want to run {model} with 32k context, can it run and how fast",
              "got a single {card} {memory}g + 64g ram. can {model} run on it at 32k ctx? speed?"],
       "zh": ["家里有张{card}，内存64g，想跑{model}，上下文32k，能跑不 速度咋样",
              "我自己有张{card} {memory}g，想本地跑{model}，上下文想开到32k，速度大概多少"]}
MODELS = {"en": {"deepseek r1 distill 32b": "deepseek-r1-distill-qwen-32b", "qwen3 32b": "qwen3-32b"},
          "zh": {"deepseek r1 蒸馏的32b": "deepseek-r1-distill-qwen-32b", "qwen3 32b": "qwen3-32b"}}
CARDS = {"4090": "rtx-4090", "3090": "rtx-3090", "5090": "rtx-5090"}
MEMORY = {"4090": 24, "3090": 24, "5090": 32}
SPLIT = {"en": "With part in system RAM", "zh": "部分放进内存"}
CASES = [(lang, text, model, card) for lang in ("en", "zh") for text, (said, model), card
         in itertools.product(ASK[lang], MODELS[lang].items(), CARDS) for text in [text.format(card=card, memory=MEMORY[card], model=said)]]


def _heading(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("## "))


@pytest.mark.parametrize(("lang", "text", "model", "card"), CASES)
def test_a_model_that_fits_the_home_card_has_one_verdict(lang: str, text: str, model: str, card: str) -> None:
    reply = run_conversation([text])[0]
    data = payload(reply)
    decision, rec = data["decision"], data["results"]["recommend"]
    # the verdict: the model asked, in 4 bits, all on the user's own card
    assert decision["owned"] and decision["fits"] and decision["gpu"] == CARDS[card] and decision["model"] == model
    assert decision["precision"] == "q4_k_m"
    # no split of the same file beside it: no offload figures, no -ngl below the layer count
    assert rec["offload"] is None and SPLIT[lang] not in reply.content
    best = rec["best"]
    speed = tps(best["decode_tokens_per_s"])
    assert speed in _heading(reply.content)  # the headline's speed is the plan's
    command = reply.content.split("```bash")[1].split("```")[0]
    assert f"-ngl {resolve_model(model).num_layers + 1}" in command  # every layer on the card, the output layer too
    assert ("-ctk q8_0" in command) == (best["kv_precision"] == "q8_0")  # the KV cache the plan was sized with
    assert "-m " in command and "Q4_K_M.gguf" in command


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_split_stays_where_the_card_cannot_hold_the_file(lang: str) -> None:
    """The same 4090 and RAM with a 70B: the card cannot hold the file, so the split is the answer's figure, sized with
    the plan's cache type."""
    text = ASK[lang][0].format(card="4090", model="llama 3.1 70b")
    data = payload(run_conversation([text])[0])
    off = data["results"]["recommend"]["offload"]
    assert off is not None and off["precision"] == "q4_k_m" and off["gpu_layers"] < off["layers"]
