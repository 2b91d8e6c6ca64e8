"""The llama.cpp plan with part of the model in system RAM says each of its numbers once (review: the text said
`-ngl 99` and the command `-ngl 49`; the RAM share was 4.7 GB, 'needs about 9 GB' and 'about 8 GB of it'; the
'sized on' line named the rented 4090 under a headline on the user's own 5080). For MoE and dense models on 8, 12 and
16 GB cards: one -ngl in the text and the command, one RAM share in the text and the command's note, the RAM needed
is that share plus what the operating system keeps, and the plan's card is the headline's."""

from __future__ import annotations

import math
import re

import pytest
from conversation import run_conversation

from gpu_advisor.assistant.advice import workload_for
from gpu_advisor.assistant.policy import Profile
from gpu_advisor.tools.launch import launch_for
from gpu_advisor.tools.offload import OS_RESERVE_GB
from gpu_advisor.tools.recommend import recommend

CARDS = ["rtx-4060", "rtx-5060-ti-8gb", "rtx-5070", "rtx-3060-12gb", "rtx-5080", "rtx-5060-ti-16gb"]  # 8, 12, 16 GB
MOE = ["qwen3-coder-30b-a3b", "gpt-oss-120b", "qwen3-30b-a3b"]
DENSE = ["qwen2.5-32b", "llama-3.1-70b", "gemma-3-27b"]


def _rec(model: str, card: str, ram: float = 128.0, context: int = 32768):
    return recommend(workload_for(Profile(phase="serve", model=model, owned=[f"1x {card}"], system_ram_gb=ram,
                                          context=context, engine="llama.cpp")))


def _flag(argv: list[str], name: str) -> str | None:
    return argv[argv.index(name) + 1] if name in argv else None


@pytest.mark.parametrize("card", CARDS)
@pytest.mark.parametrize("model", MOE + DENSE)
def test_the_command_carries_the_split_the_answer_says(model: str, card: str) -> None:
    rec = _rec(model, card)
    o = rec.offload
    if o is None or not rec.offload_leads:
        pytest.skip("no split leads here: the answer is a smaller file on the card")
    cmd = launch_for(rec)
    said = dict(re.findall(r"(-ngl|--n-cpu-moe|-ts) (\S+)", o.flags))
    assert _flag(cmd.argv, "-ngl") == said["-ngl"] == str(o.ngl)
    assert _flag(cmd.argv, "--n-cpu-moe") == said.get("--n-cpu-moe")
    note = next(n for n in cmd.notes if n.code == "offload")
    assert note.values["ram_gb"] == f"{o.ram_gb:,.1f}"  # the share the answer says, to the tenth
    assert o.ram_needed_gb == pytest.approx(round(o.ram_gb, 1) + OS_RESERVE_GB)  # the share said, and the reserve
    if o.mode == "experts":
        assert o.ngl > o.layers and o.cpu_moe_layers
    else:
        assert o.ngl == o.gpu_layers < o.layers


TURNS = {
    "en": "got a {card} + {ram} gigs ddr5. can i run {model} at q4 with like 32k ctx for local coding? ollama or llama.cpp?",
    "zh": "我有一张{card}和{ram}G内存，想本地用 {model} q4 写代码，32k 上下文，ollama 还是 llama.cpp？",
}
SAID = [("5080 16gb", "qwen3-coder-30b-a3b", 64, "NVIDIA GeForce RTX 5080 16GB"),
        ("5070 12gb", "qwen3-coder-30b-a3b", 64, "NVIDIA GeForce RTX 5070 12GB"),
        ("4060 8gb", "qwen3-30b-a3b", 32, "NVIDIA GeForce RTX 4060 8GB"),
        ("5060 ti 16gb", "llama 3.1 70b", 64, "NVIDIA GeForce RTX 5060 Ti 16GB")]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("card", "model", "ram", "name"), SAID)
def test_the_reply_says_each_figure_once(lang: str, card: str, model: str, ram: int, name: str) -> None:
    reply = str(run_conversation([TURNS[lang].format(card=card, model=model, ram=ram)])[0].content)
    ngl = set(re.findall(r"-ngl[ \\\n]+(\d+)", reply))
    if not ngl:
        pytest.skip("no split in this answer")
    assert len(ngl) == 1, ngl  # one -ngl in the text and the command
    moe = set(re.findall(r"--n-cpu-moe[ \\\n]+(\d+)", reply))
    assert len(moe) <= 1, moe
    shares = re.findall(r"[（(](\d+(?:\.\d)?) GB[;；] ?`llama-server", reply)
    assert len(shares) == 1, reply
    note = re.findall(r"(?:about|大约) (\d+(?:\.\d)?) GB(?: of it)?\s*$", reply, re.M)
    assert note == shares, (note, shares)  # the command's note says the share the text says
    needed = re.findall(r"(?:it needs about|需要约) (\d+) GB", reply)
    assert needed and {int(n) for n in needed} == {math.ceil(float(shares[0]) + OS_RESERVE_GB)}
    head = next(line for line in reply.split("\n") if line.startswith("## "))
    sized = [line for line in reply.split("\n") if "sized with" in line or "你的方案按" in line]
    assert name in head and all(name in line for line in sized), (head, sized)
