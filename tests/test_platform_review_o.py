"""Review round O, class 3: advice that fits the user's platform and situation.

- levers and methods offered run on the card's software stack (QLoRA's bitsandbytes base and Unsloth: not on Ascend);
- 'colab' is the T4 it gives, read as the user's own card;
- a QLoRA the owned card does with Unsloth's kernels is planned on that card, and a second one is weighed against it;
- consumer cards weighed to buy for local use are a purchase, decided on what each runs at home;
- a service on data-centre cards grows on the same card, and the headline's numbers add up.
"""

from __future__ import annotations

import re

import pytest
from conversation import run_conversation

from gpu_advisor.assistant.reading import understand
from gpu_advisor.tools.fit import FitInput, fit
from gpu_advisor.tools.recommend import Workload, recommend
from gpu_advisor.tools.training import runs_on

# ------------------------------------------------------------------ one rule: what runs on which stack


@pytest.mark.parametrize(("stack", "method", "framework", "runs"), [
    ("cuda", "qlora", None, True), ("cuda", "qlora", "unsloth", True), ("cuda", "lora", "unsloth", True),
    ("rocm", "qlora", None, True), ("rocm", "lora", "unsloth", False), ("metal", "qlora", None, True),
    ("cann", "qlora", None, False), ("cann", "lora", None, True), ("cann", "lora", "unsloth", False),
    ("cann", "full", "llama-factory", True), ("gaudi", "qlora", None, False), ("gaudi", "lora", None, True),
])
def test_runs_on_follows_the_framework_and_base_format_stacks(stack, method, framework, runs):
    assert runs_on(stack, method, framework) is runs


@pytest.mark.parametrize("method", ["lora", "full"])
@pytest.mark.parametrize(("gpu", "cuda"), [("ascend-910b", False), ("a100-80gb-sxm", True), ("h100-sxm", True)])
def test_one_card_savings_tried_are_those_the_stack_runs(gpu, cuda, method):
    r = fit(FitInput(model="qwen2.5-72b", gpu=gpu, phase="train", method=method, counts=[1]))
    changes = [x.change for x in r.remedies]
    offered = any("QLoRA" in c or "Unsloth" in c for c in changes)
    assert offered is cuda, changes
    if not cuda:
        assert changes  # the savings it does run are still tried (a shorter sequence)


def test_owned_ascend_levers_offer_no_qlora():
    rec = recommend(Workload(phase="fine-tune", model="qwen2.5-72b", method="lora", train_tokens=30e6,
                             owned=["1x ascend-910b"]))
    assert all(not lv.change.startswith("qlora") for lv in rec.levers)


ASCEND = [
    "国产化要求，只能用昇腾，Qwen2.5-72B 做 LoRA 微调，数据 3 万条，910B 要几张",
    "只能用国产卡（昇腾 910B），Qwen2.5 72B LoRA 微调，3万条数据，需要几张？",
    "domestic chips only, ascend 910b: LoRA fine-tune qwen2.5 72b on 30k examples, how many cards",
    "we can only use huawei ascend 910B. lora finetune Qwen2.5-72B with 30000 examples - how many 910Bs?",
]


@pytest.mark.parametrize("text", ASCEND)
def test_ascend_answer_offers_neither_qlora_nor_unsloth(text):
    reply = run_conversation([text])[-1].content
    assert "910B" in reply.split("\n")[0]
    assert "QLoRA" not in reply and "Unsloth" not in reply, reply


def test_a_cuda_card_still_gets_qlora_offered():
    reply = run_conversation(["LoRA fine-tune qwen2.5 72b on 30k examples, how many A100 80GB"])[-1].content
    assert "QLoRA" in reply


# ------------------------------------------------------------------ colab is a T4


@pytest.mark.parametrize(("text", "card"), [
    ("i only have a macbook m2 16gb and colab free", "1x t4"),
    ("all i have is free colab", "1x t4"),
    ("i have google colab", "1x t4"),
    ("i only have kaggle notebooks", "1x t4"),
    ("i have colab pro", "1x l4"),
    ("i have colab pro+", "1x a100 40gb"),
    ("我有 colab 免费版", "1x t4"),
    ("手上有 Colab Pro", "1x l4"),
])
def test_colab_is_read_as_the_card_it_gives(text, card):
    owned = understand(text).updates.get("owned") or []
    assert any(o.startswith("1x ") and o.split("x ", 1)[1].startswith(card.split(" ")[1].split()[0])
               for o in owned), owned


@pytest.mark.parametrize("second", ["not sure, whatever works on colab", "no idea, whatever runs on colab",
                                    "不确定，colab 上能跑就行"])
def test_thesis_on_colab_is_planned_on_the_t4(second):
    first = ("hi im doing my thesis, want to fine tune llama 3.2 3b on 1000 examples. i only have a macbook m2 "
             "16gb and colab free. what should i do")
    replies = run_conversation([first, second])
    assert "T4" in replies[0].content  # read as owned on the first turn
    # the plan comes at once (QLoRA assumed on one's own card, h-ask) or after the method answer: on the T4
    head = next(line for r in replies for line in r.content.split("\n") if line.startswith("## "))
    assert "T4" in head, head


# ------------------------------------------------------------------ the owned card leads when it does the job


OWN_3090 = [
    ("i want to qlora gemma 2 27b on my 3090, dataset is like 5k examples. possible?", "## Use your 1 × NVIDIA GeForce RTX 3090"),
    ("can i QLoRA Gemma 2 27B on my RTX 3090? about 5000 examples", "## Use your 1 × NVIDIA GeForce RTX 3090"),
    ("我有一张 3090，想用 QLoRA 微调 Gemma 2 27B，5000 条数据，能行吗", "## 使用你自己的 1 × NVIDIA GeForce RTX 3090"),
]


@pytest.mark.parametrize(("text", "head"), OWN_3090)
def test_qlora_that_fits_the_owned_card_with_unsloth_is_planned_on_it(text, head):
    reply = run_conversation([text])[-1].content
    first = next(line for line in reply.split("\n") if line.startswith("## "))
    assert first.startswith(head), first
    assert "Unsloth" in reply and "Rent" not in first and "租" not in first


def test_a_second_3090_is_weighed_against_the_one_owned():
    replies = run_conversation([OWN_3090[0][0], "what if i get a second 3090, does that help"])
    text = replies[-1].content
    m = re.search(r"\*\*Yes, it helps\*\*: 2 × NVIDIA GeForce RTX 3090 24GB does a run in ([\d.]+) h against "
                  r"([\d.]+) h on 1 × NVIDIA GeForce RTX 3090 24GB", text)
    assert m, text
    assert float(m.group(1)) < float(m.group(2))
    assert "4090" not in text.split("\n")[0]


# ------------------------------------------------------------------ a purchase for local use


LOCAL = [
    ["4090 和 5090 选哪个，主要是本地跑大模型+偶尔微调 7B", "LoRA 吧"],
    ["4090 和 5090 选哪个，主要是本地跑大模型+偶尔 LoRA 微调 7B"],
    ["4090 and 5090 which one should i buy, mostly local llms and the occasional 7b lora finetune"],
    ["4090 or 5090 for local llms and occasional lora finetuning of 7b, which should i buy"],
]


@pytest.mark.parametrize("turns", LOCAL)
def test_cards_bought_for_local_use_are_weighed_on_what_they_run(turns):
    reply = run_conversation(turns)[-1].content
    head = next(line for line in reply.split("\n") if line.startswith("## "))
    assert "5090" in head and ("Buy" in head or "购买" in head), head
    assert "Rent" not in head and "租用" not in head
    assert "5%" not in reply  # 'occasionally' is no utilisation figure for a card bought to keep
    verdict = reply[reply.index("**Verdict**" if "**Verdict**" in reply else "**结论**"):]
    assert "5090" in verdict.split("4090")[0], verdict  # the pick comes first: the 5090
    assert "Qwen2.5" in reply  # the models each holds, from the fit tool


# ------------------------------------------------------------------ a fleet grows on its own card


FLEET = [
    "we run llama 3.3 70b in prod on 8x H100, need p99 latency under 2s for 500 rps, avg prompt 1k output 200. "
    "is 8 gpus enough or do we need more",
    "llama 3.3 70b in prod on 8x H100, need p99 latency under 2s for 500 rps, avg prompt 1k output 200. is 8 gpus enough",
    "我们线上用 8 张 H100 跑 Llama 3.3 70B，每秒 500 个请求，p99 延迟 2 秒以内，平均输入 1k 输出 200，8 张卡够吗",
]


@pytest.mark.parametrize("text", FLEET)
def test_a_fleet_of_h100_grows_on_h100_and_the_headline_adds_up(text):
    reply = run_conversation([text])[-1].content
    head = next(line for line in reply.split("\n") if line.startswith("## "))
    assert "H100" in head and "MI300X" not in head, head
    # a service up around the clock rents the added cards, as the English headline says ('Rent 128 more')
    said = re.search(r"(\d+) more × NVIDIA H100", head) or re.search(r"再租用 (\d+) × NVIDIA H100", head)
    assert said, head
    added = int(said.group(1))
    first = reply.split("\n")[0]
    if "enough" in text or "够吗" in text:
        m = re.search(r"about (\d+) × NVIDIA H100 SXM 80GB in fp8 are needed, (\d+) more beside the (\d+)", first) or \
            re.search(r"大约需要 (\d+) 张 NVIDIA H100 SXM 80GB，即在你现有的 (\d+) 张之外再加 (\d+) 张", first)
        assert m, first
        nums = [int(x) for x in m.groups()]
        total, a, b = nums
        assert total == a + b and added in (a, b) and 8 in (a, b)


@pytest.mark.parametrize("text", [
    "we have 8x 4090, serve qwen2.5 32b at 100 requests per second, prompts 1k output 200, p99 first token under 2s",
    "we have 2x 4090, serve llama 3.1 8b at 200 rps, prompts 1k output 200",
])
def test_the_gap_headline_counts_add_up_to_the_requests_in_flight(text):
    reply = run_conversation([text])[-1].content
    m = re.search(r"for ([\d,]+) users; \w+ .* for the other ([\d,]+)", reply)
    assert m, reply.split("\n")[0]
    mine, rest = (int(x.replace(",", "")) for x in m.groups())
    held = int(re.search(r"([\d,]+) at the 99th percentile", reply).group(1).replace(",", ""))
    assert mine + rest == held


@pytest.mark.parametrize(("text", "said"), [
    ("用一张昇腾 910B 做 Qwen2.5 7B 的 QLoRA 微调，1 万条数据", "16 位基座的 LoRA"),
    ("QLoRA fine-tune qwen2.5 7b on one ascend 910B, 10k examples", "plan LoRA with a 16-bit base"),
])
def test_qlora_asked_on_ascend_is_said_not_to_run_there(text, said):
    assert said in run_conversation([text])[-1].content


@pytest.mark.parametrize("gpu", ["a100-80gb-sxm", "rtx-4090", "mi300x"])
def test_qlora_on_a_stack_that_runs_it_has_no_such_finding(gpu):
    rec = recommend(Workload(phase="fine-tune", model="qwen2.5-7b", method="qlora", train_tokens=10e6,
                             candidates=[f"1x {gpu}"]))
    codes = {f.code for o in rec.options for f in o.findings}
    assert "qlora_not_on_stack" not in codes and rec.best is not None


def test_qlora_on_ascend_has_the_finding():
    rec = recommend(Workload(phase="fine-tune", model="qwen2.5-7b", method="qlora", train_tokens=10e6,
                             candidates=["1x ascend-910b"]))
    assert any(f.code == "qlora_not_on_stack" for f in rec.best.findings)
