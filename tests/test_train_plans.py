"""Fine-tuning plans an expert would sign (task h-train; review X E1/E5, review Y 7, review WB C7).

- 'how many H100s to qlora a 70b' is the fewest cards that hold the run (one 80 GB card), with the note that more
  only finish sooner at the same cost; a LoRA of an 8B model is one card; also in a fine-tune-then-serve plan.
- cards you own that are too small for a full fine-tune as planned get ZeRO-3 with the optimizer in CPU memory on
  them, with its time and the system RAM it needs per server (tools.zero_offload).
- 'is that enough or do we need to buy more?' gets one verdict, never a yes and a no about the same cards.
- fine-tune then serve on bought cards: at about the same price the card that trains faster leads (4090 over 3090).
Phrasings are generated over word orders, fillers and both languages; the assertions are on codes and figures."""

from __future__ import annotations

import itertools
import re

import pytest

from gpu_advisor.tools.recommend import Recommendation, Workload
from gpu_advisor.tools.zero_offload import zero_offload_plan
from tests.conversation import payload, run_conversation

GB = 1e9


def _rec(reply) -> Recommendation:
    return Recommendation.model_validate(payload(reply)["results"]["recommend"])


def _train_run(rec: Recommendation):
    return rec.training_run if rec.workload.spec.serves and rec.training_run is not None else rec.best


QLORA_70B = [
    "how many H100s to qlora finetune llama 3.1 70b",
    "qlora llama 3.1 70b, how many h100 do i need?",
    "need to QLoRA fine-tune llama-3.1-70b on H100s. how many cards?",
    "hey, how many h100 80gb would it take to qlora llama 3.1 70b on 20k samples",
    "用QLoRA微调llama 3.1 70b要几张H100？",
    "llama3.1 70b 做 qlora 微调，需要几张 H100",
    "QLoRA 微调 Llama 3.1 70B 大概需要多少张 H100 80G？",
    "想用H100做llama-3.1-70b的QLoRA微调，要几张卡呢",
]


@pytest.mark.parametrize("text", QLORA_70B)
def test_qlora_70b_is_one_80gb_card(text: str) -> None:
    reply = run_conversation([text])[-1]
    run = _train_run(_rec(reply))
    assert run is not None and run.gpus == 1 and run.capacity_bytes >= 80 * GB, reply.content[:300]
    # more cards are said as only finishing sooner, with their time
    assert re.search(r"8 × NVIDIA H100[^\n]*(finish sooner|take about)|多加卡只是更快", reply.content), reply.content[:600]


TWO_PART = [
    "two things: 1) how many H100s to qlora finetune llama 3.1 70b, and 2) what would it cost to serve it afterwards "
    "at 5 req/s?",
    "how many h100s do i need to qlora llama 3.1 70b, and what does serving it at 5 requests per second cost after?",
    "两个问题：1）QLoRA 微调 llama 3.1 70b 要几张 H100？2）微调完按每秒 5 个请求部署要多少钱？",
]


@pytest.mark.parametrize("text", TWO_PART)
def test_qlora_70b_then_serve_trains_on_one_card(text: str) -> None:
    rec = _rec(run_conversation([text])[-1])
    run = _train_run(rec)
    assert run is not None and run.gpus == 1 and run.capacity_bytes >= 80 * GB


LORA_8B = [
    "how many gpus to lora finetune llama 3.1 8b",
    "lora llama 3 8b on 20k samples, how many gpus?",
    "i want to LoRA fine tune llama-3.1-8b, how many GPUs do I need",
    "用LoRA微调llama3.1 8b需要几张卡？",
    "llama 3.1 8b 做 lora 微调，要几张显卡",
]


@pytest.mark.parametrize("text", LORA_8B)
def test_lora_8b_is_one_card(text: str) -> None:
    run = _train_run(_rec(run_conversation([text])[-1]))
    assert run is not None and run.gpus == 1


OWNED_SHORT = [  # (owned, task, question): cards too small for the full fine-tune as planned
    ("our lab has 2 nodes of 8x A100 40GB (the old SXM ones)", "we wanna do full fine tune of qwen2.5 72b on like 30k "
     "instruction samples", "is that enough or do we need to buy more?"),
    ("we have two 8x A100 40GB servers", "full finetune qwen2.5 72b", "enough, or do we have to buy more gpus?"),
    ("我们手上有8张4090", "想全参微调deepseek-r1-distill-qwen-32b", "能行吗？下周三之前要出结果"),
    ("实验室有两台8卡A100 40G", "想全参微调qwen2.5 72b，3万条指令数据", "够不够？还是要再买卡？"),
    ("we own 8 rtx 4090s", "want to full fine-tune deepseek-r1-distill-qwen-32b", "can we do it?"),
]


def _case(owned: str, task: str, question: str, order: int) -> str:
    lang_zh = bool(re.search(r"[\u4e00-\u9fff]", owned))
    sep = "，" if lang_zh else ", "
    parts = [owned, task, question] if order == 0 else [task, owned, question]
    return sep.join(parts)


VERDICT = re.compile(r"\*\*(Yes|No|No need to buy|能|不能|不够|够|不用买|需要)[^*]{0,12}\*\*")


@pytest.mark.parametrize(("case", "order"), list(itertools.product(OWNED_SHORT, (0, 1))))
def test_owned_short_offers_offload_and_one_verdict(case: tuple[str, str, str], order: int) -> None:
    reply = run_conversation([_case(*case, order)])[-1]
    rec = _rec(reply)
    mine = rec.owned_as_planned or rec.owned_options[0]  # (the offload plan taken on them: the cards as planned)
    assert mine.trains is False
    plan = zero_offload_plan(rec.workload, mine)
    assert plan is not None and plan.fits and plan.hours_high > plan.hours_low >= plan.usual_hours
    assert plan.host_bytes_per_server > 100 * GB  # the FP32 states need the servers' RAM, said per server
    assert "offload_optimizer: cpu" in reply.content
    assert f"{plan.host_bytes_per_server / 1e9:,.0f} GB" in reply.content
    head = reply.content.split("\n## ")[0] + "\n" + reply.content.split("\n\n")[0]
    verdicts = {m.group(1) for m in VERDICT.finditer(head)}
    assert not ({"Yes", "No"} <= verdicts), head
    assert len([m for m in VERDICT.finditer(reply.content.split("## ")[0])]) <= 1, reply.content[:500]


def test_offload_not_offered_when_the_ram_said_is_short() -> None:
    rec = _rec(run_conversation(["we have 8 rtx 4090 in one server, full fine-tune qwen2.5 32b, enough?"])[-1])
    mine = rec.owned_options[0]
    plan = zero_offload_plan(rec.workload.model_copy(update={"system_ram_gb": 128.0}), mine)
    assert plan is not None and plan.ram_ok is False
    plan = zero_offload_plan(rec.workload.model_copy(update={"system_ram_gb": 1024.0}), mine)
    assert plan is not None and plan.ram_ok is True


def test_offload_plan_figures() -> None:
    """Qwen2.5 72B on 16 x A100 40GB: BF16 weight shards ~9 GB per GPU plus activations and gathers; the FP32
    master weights, moments and gradients (~16 B/param, ~1.1 TB) in the two servers' RAM."""
    rec = _rec(run_conversation(["we have two 8x A100 40GB servers, full finetune qwen2.5 72b, enough?"])[-1])
    plan = zero_offload_plan(rec.workload, rec.owned_options[0])
    assert plan is not None and plan.servers == 2 and plan.gpus == 16
    assert 12 * GB < plan.per_gpu_bytes < 40 * GB
    assert 0.8e12 < plan.host_bytes < 1.3e12
    assert zero_offload_plan(Workload(model="qwen2.5-72b", phase="serve"), rec.owned_options[0]) is None


RANK = [
    "想买两张卡，先lora微调qwen2.5 14b再给5个人用，3090还是4090？",
    "买两张卡，lora 微调 qwen2.5-14b 然后部署给组里 5 个人用，选 3090 还是 4090",
    "buying two cards to lora finetune qwen2.5 14b and then serve it to 5 people: 3090 or 4090?",
    "3090 or 4090 to buy, two of them, for lora fine-tuning qwen2.5 14b and serving it to 5 users after",
]


@pytest.mark.parametrize("text", RANK)
def test_faster_trainer_leads_at_about_the_same_price(text: str) -> None:
    rec = _rec(run_conversation([text])[-1])
    # h-zhmarket: a Chinese question is priced on the mainland market, where two 4090s (export-controlled) cost
    # ~1.7x two 3090s (not about the same price), so the cheaper card that meets the need leads there
    # h-rank4: the 3090 is sold used only and priced used everywhere ($800 a card), so two 4090s cost ~1.5x two
    # 3090s outside China too: the cheaper card that meets the need leads in both markets
    lead = "rtx-3090"
    assert rec.best is not None and rec.best.gpu == lead
