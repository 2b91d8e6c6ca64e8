"""A fine-tuning plan that fills the card is not a plain 'yes, it fits' (review CL: GRPO full on Qwen2.5-72B over 24 A800
said "Yes: 84.3 GB of 85.0 GB per GPU", 1% to spare). The training margin (knowledge rules.yaml training_margin_*,
tools.train_margin) is the memory a run keeps free on each card; a plan that leaves less is said at the edge, with
what gives it room, and a layout that leaves it on the same cards is preferred (tools.rl)."""

from __future__ import annotations

import re

import pytest

from gpu_advisor.knowledge import find_gpu, rules
from gpu_advisor.tools.inference import usable_bytes
from gpu_advisor.tools.recommend import Workload, evaluate, recommend
from gpu_advisor.tools.rl import RlInput, rl_layouts
from gpu_advisor.tools.train_margin import at_edge, margin_bytes, room_worth, roomy
from tests.conversation import run_conversation

GB = 1e9


# ---- the margin itself: defined once, from the card's usable memory and whether NCCL runs ------------------------

@pytest.mark.parametrize("gpu, one, many", [
    ("a800-80gb-sxm", 4.25, 6.25),  # 80 GiB x 0.99 = 85.0 GB usable: 5% alone, plus 2 GB on several cards
    ("h100-sxm", 4.25, 6.25),
    ("rtx-4090", 1.28, 3.28),
    ("h200", 7.49, 9.49),
    ("l40s", 2.39, 4.39),       # GDDR with ECC on: 47.8 GB usable
])
def test_margin_is_a_share_of_the_card_plus_a_fixed_part_on_several_cards(gpu, one, many):
    cap = usable_bytes(find_gpu(gpu))
    r = rules()
    assert margin_bytes(cap, 1) == pytest.approx(r.training_margin_share * cap)
    assert margin_bytes(cap, 1) / GB == pytest.approx(one, abs=0.01)
    assert margin_bytes(cap, 8) / GB == pytest.approx(many, abs=0.01)
    assert margin_bytes(cap, 8) - margin_bytes(cap, 2) == 0  # the fixed part does not grow with the count


@pytest.mark.parametrize("gpu", ["a800-80gb-sxm", "rtx-4090", "h200", "l40s", "rtx-3090"])
@pytest.mark.parametrize("gpus", [1, 2, 8, 24])
@pytest.mark.parametrize("delta_gb, edge", [(-0.05, False), (0.0, False), (0.05, True), (None, True)])
def test_just_below_at_and_just_above_the_margin(gpu, gpus, delta_gb, edge):
    cap = usable_bytes(find_gpu(gpu))
    limit = cap - margin_bytes(cap, gpus)  # the most a plan may take and keep the margin free
    used = cap if delta_gb is None else limit + delta_gb * GB  # None: the card filled to the last byte
    assert at_edge(used, cap, gpus) is edge
    assert roomy(used, cap, gpus) is not edge
    assert not at_edge(cap + GB, cap, gpus) and not roomy(cap + GB, cap, gpus)  # does not fit: neither


# ---- fine-tuning plans around the edge: the finding, its figures and its levers ------------------------------------

# (model, method, card, count, at the edge, levers that give it room)
PLANS = [
    ("qwen2.5-32b", "full", "h200", 4, True, ["more_gpus", "optimizer_8bit", "cpu_offload", "lora"]),
    ("qwen2.5-32b", "full", "a100-80gb-sxm", 8, False, []),      # 6.9 GB left of a 6.3 GB margin: just clear
    ("qwen2.5-32b", "full", "h100-sxm", 8, False, []),
    ("llama-3.1-8b", "full", "rtx-4090", 8, True, ["more_gpus", "chunked_loss", "optimizer_8bit", "cpu_offload", "lora"]),
    ("qwen2.5-7b", "full", "rtx-4090", 8, False, []),             # 3.33 GB left of 3.28: just clear
    ("llama-3.1-8b", "full", "h200", 1, True, ["more_gpus", "chunked_loss", "optimizer_8bit", "cpu_offload", "lora"]),
    ("qwen2.5-32b", "lora", "l40s", 2, True, ["more_gpus", "chunked_loss", "qlora"]),  # no optimizer lever for adapters
    ("qwen2.5-14b", "lora", "rtx-4090", 2, True, ["more_gpus", "chunked_loss", "qlora"]),  # checkpointing on already
    ("llama-3.1-8b", "lora", "rtx-4090", 1, False, []),           # one card: no NCCL, the share alone
    ("qwen2.5-32b", "lora", "a100-80gb-sxm", 1, False, []),
    ("qwen2.5-72b", "qlora", "rtx-4090", 4, False, []),
]


@pytest.mark.parametrize("model, method, gpu, n, edge, levers", PLANS)
def test_a_plan_at_the_edge_is_a_finding_with_levers_that_leave_the_margin(model, method, gpu, n, edge, levers):
    o = evaluate(Workload(phase="fine-tune", model=model, method=method), find_gpu(gpu), n)
    assert o is not None and o.trains
    cap, used = o.capacity_bytes, o.train_per_gpu_bytes
    assert used is not None
    found = [f for f in o.findings if f.code == "training_edge"]
    assert bool(found) is edge is at_edge(used, cap, n)
    if not edge:
        return
    [f] = found
    assert f.values["used_bytes"] == used and f.values["capacity_bytes"] == cap
    assert f.values["margin_bytes"] == pytest.approx(margin_bytes(cap, n))
    assert cap - used < f.values["margin_bytes"]
    assert str(f.values["levers"]).split(",") == levers
    for code in levers:  # each lever is sized and leaves the margin
        assert f.values[f"{code}_bytes"] < used
        gpus = int(f.values["gpus"]) if code == "more_gpus" else n
        assert roomy(float(f.values[f"{code}_bytes"]), cap, gpus)
    if "more_gpus" in levers:
        assert int(f.values["gpus"]) > n


def test_a_plan_with_room_is_preferred_over_cheaper_cards_at_the_edge():
    """H200 only, no count: 4 cards hold it at the edge (148.4 of 149.9 GB), 8 with room; the 8 lead."""
    rec = recommend(Workload(phase="fine-tune", model="qwen2.5-32b", method="full", candidates=["h200"]))
    assert rec.best is not None and rec.best.gpus == 8
    assert not any(f.code == "training_edge" for f in rec.best.findings)
    four = next(o for o in rec.options if o.gpus == 4)
    assert any(f.code == "training_edge" for f in four.findings)
    assert rec.options.index(four) > rec.options.index(rec.best)


# ---- online RL: a split with room on the same cards, unless it is far slower ---------------------------------------

def _grpo(**kw) -> RlInput:
    base = dict(model="qwen2.5-72b", gpu="a800-80gb-sxm", gpus=24, method="full", prompts=10000, region="china")
    return RlInput(**(base | kw))


def test_grpo_72b_on_24_a800_takes_the_split_that_leaves_room():
    lay = rl_layouts(_grpo())
    s = lay.split
    assert lay.pays == "split" and s is not None and s.fits and s.roomy
    assert (s.rollout_gpus, s.train_gpus) == (2, 22)
    assert s.train_per_gpu_bytes / GB == pytest.approx(77.8, abs=0.05)
    fast = s.faster_at_edge
    assert fast is not None and (fast.rollout_gpus, fast.train_gpus) == (4, 20)
    assert fast.hours < s.hours and room_worth(s.hours, fast.hours)
    assert fast.train_per_gpu_bytes / GB == pytest.approx(84.3, abs=0.05) and not fast.roomy


@pytest.mark.parametrize("gpu, gpus, rollout, split_room, faster", [
    ("a800-80gb-sxm", 24, None, True, 4),   # 2 + 22 with room; 4 + 20 faster at the edge
    ("a800-80gb-sxm", 32, None, True, 12),  # 10 + 22 with room; 12 + 20 faster at the edge
    ("h200", 16, None, True, 5),            # 4 + 12 with room; 5 + 11 faster at the edge
    ("a800-80gb-sxm", 24, 4, False, None),  # the split named is kept, at the edge
    ("a800-80gb-sxm", 24, 2, True, None),
])
def test_the_split_taken_leaves_room_when_a_split_near_the_fastest_does(gpu, gpus, rollout, split_room, faster):
    lay = rl_layouts(_grpo(gpu=gpu, gpus=gpus, rollout_gpus=rollout))
    s = lay.split
    assert s is not None and s.fits and s.roomy is split_room
    if rollout is not None:  # the split the user named is kept, at the edge or not
        assert s.rollout_gpus == rollout
    assert (s.faster_at_edge.rollout_gpus if s.faster_at_edge else None) == faster
    if s.faster_at_edge is not None:
        assert s.faster_at_edge.hours < s.hours <= s.faster_at_edge.hours * rules().training_room_slowdown_max
        assert not s.faster_at_edge.roomy


def test_room_is_not_bought_at_any_price():
    """PPO's four models on 8 H800: colocated at the edge, 171 h; the split with room takes over 4x as long: colocated
    stays, said at the edge with its levers."""
    inp = RlInput(model="qwen2.5-32b", gpu="h800-sxm", gpus=8, method="lora", algorithm="ppo", prompts=10000,
                  completion_tokens=8192, reward_model="qwen2.5-32b", framework="openrlhf", region="china")
    lay = rl_layouts(inp)
    assert lay.pays == "colocate" and not lay.for_room and lay.colocate.fits and not lay.colocate.roomy
    assert lay.split is not None and lay.split.fits
    assert lay.split.roomy and lay.split.hours > 4 * lay.colocate.hours
    assert not room_worth(lay.split.hours, lay.colocate.hours)


# ---- the verdict, in English and Chinese -------------------------------------------------------------------------

EDGE_ASKED = [
    ("full fine-tune qwen2.5-32b on 4 H200, will it fit?", "en"),
    ("does qwen2.5 32b full finetuning fit on 4x h200?", "en"),
    ("we have 4 h200, full fine tuning qwen 2.5 32b, is it enough?", "en"),
    ("Full-parameter finetune of Qwen 2.5 32B on four H200s - does it fit?", "en"),
    ("4张H200全参微调qwen2.5-32b，放得下吗", "zh"),
    ("我们有4张H200，想全参微调Qwen2.5-32B，够不够", "zh"),
    ("四张h200 全量微调 qwen2.5 32b 能跑吗", "zh"),
]
FIRST = {"en": "**Only just**: on paper it fits on 4 × NVIDIA H200 SXM 141GB, 148.4 GB of the 149.9 GB usable per GPU "
               "(GB are 10⁹ bytes: the card's 141 GiB are 151.4 GB, less what the driver keeps), but that leaves less "
               "than the 9.5 GB a training run keeps free",
         "zh": "**勉强**：纸面上 4 × NVIDIA H200 SXM 141GB 放得下，每张卡用 148.4 GB（每卡可用 149.9 GB；GB 指 10⁹ 字节：卡上 "
               "141 GiB 即 151.4 GB，再减去驱动保留的部分），但剩下的不到训练需要预留的 9.5 GB"}
BODY = {"en": ["⚠ **At the edge of memory:**", "What gives it room: 8 GPUs in all", "8-bit AdamW",
               "LoRA instead of full fine-tuning"],
        "zh": ["⚠ **显存处在边缘：**", "留出余量的办法：总共用 8 张卡", "8-bit AdamW", "改用 LoRA"]}
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("text, lang", EDGE_ASKED)
def test_a_plan_at_the_edge_is_only_just_never_a_plain_yes(text, lang):
    reply = str(run_conversation([text])[-1].content)
    first = reply.split("\n")[0]
    assert first.startswith(FIRST[lang]), first
    assert not first.startswith(("**Yes**", "**能**"))
    for words in BODY[lang]:
        assert words in reply, (words, reply)
    edge_lines = [x for x in reply.split("\n") if "9.5 GB" in x]
    assert edge_lines
    for line in edge_lines:  # nothing English in the Chinese lines, nothing Chinese in the English ones
        assert (CJK.search(line) is None) is (lang == "en"), line
        if lang == "zh":
            assert "At the edge" not in line and "What gives" not in line and "GPUs in all" not in line


@pytest.mark.parametrize("text, lang", [
    ("full fine-tune qwen2.5 7b on 8 4090s, does it fit?", "en"),
    ("8张4090全参微调qwen2.5-7b能跑吗", "zh"),
])
def test_a_plan_just_clear_of_the_margin_is_a_yes(text, lang):
    first = str(run_conversation([text])[-1].content).split("\n")[0]
    assert first.startswith({"en": "**Yes**: it fits on 8 × NVIDIA GeForce RTX 4090 24GB, 22.2 GB of the 25.5 GB usable",
                             "zh": "**能**：8 × NVIDIA GeForce RTX 4090 24GB 放得下，每张 GPU 占用 22.2 GB（每卡可用 25.5 GB"}[lang])


GRPO_ASKED = {
    "en": ["GRPO full-parameter on Qwen2.5-72B, we have 3 servers of 8x A800 80GB. does it fit?",
           "we own 24 A800 80G (three 8-gpu boxes). full param GRPO of qwen 2.5 72b - will it fit?"],
    "zh": ["用Qwen2.5-72B做GRPO全参训练，我们有3台8卡A800 80G服务器，能跑吗？",
           "三台8卡A800，GRPO全参数训练qwen2.5-72b，显存够吗"],
}
GRPO_SAYS = {
    "en": ["**Yes**: it fits on 24 × NVIDIA A800 SXM4 80GB, 77.8 GB of the 85.0 GB usable per GPU (GB are 10⁹ bytes: "
           "the card's 80 GiB are 85.9 GB",
           "2 GPUs run the rollout engine", "22 GPUs train",
           "The faster layout on these cards, 4 GPUs for rollouts and 20 for training, would take 22.6 h against 37.3 h, "
           "but its training cards take 84.3 GB of the 85.0 GB each can use, less than the 6.3 GB a training run keeps "
           "free", "What lets the faster layout keep that room:", "8-bit AdamW (bitsandbytes; 60.7 GB per GPU)"],
    "zh": ["**能**：24 × NVIDIA A800 SXM4 80GB 放得下，每张 GPU 占用 77.8 GB（每卡可用 85.0 GB；GB 指 10⁹ 字节：卡上 80 GiB "
           "即 85.9 GB", "2 张 GPU 跑生成引擎", "22 张 GPU 训练",
           "这些卡上更快的布局是 4 张卡生成、20 张卡训练，要 22.6 小时（现方案 37.3 小时），但训练卡每张用 84.3 GB（每卡可用 "
           "85.0 GB），剩下的不到训练需要预留的 6.3 GB", "要让更快的布局也留出余量：", "8-bit AdamW（bitsandbytes；每卡 60.7 GB）"],
}


@pytest.mark.parametrize("lang, text", [(lang, t) for lang, texts in GRPO_ASKED.items() for t in texts])
def test_grpo_72b_on_24_a800_is_planned_with_room_and_says_the_faster_split(lang, text):
    reply = str(run_conversation([text])[-1].content)
    for words in GRPO_SAYS[lang]:
        assert words in reply, (words, reply)
    assert "1% to spare" not in reply and "84.3 GB of 85.0 GB per GPU." not in reply.split("\n")[0]
    row = next(x for x in reply.split("\n") if x.startswith("| 24 × NVIDIA A800"))
    assert "| 8% |" in row


def test_grpo_with_the_rollout_cards_named_is_said_at_the_edge_both_languages():
    for lang, (first, then, says) in {
        "en": ("GRPO full-parameter on Qwen2.5-72B, we have 3 servers of 8x A800 80GB. does it fit?",
               "make it 4 GPUs for rollouts", "⚠ **At the edge of memory:** this plan takes 84.3 GB of the 85.0 GB"),
        "zh": ("用Qwen2.5-72B做GRPO全参训练，我们有3台8卡A800 80G服务器，能跑吗？", "4张卡做rollout，其余训练",
               "⚠ **显存处在边缘：** 这个方案每张卡用 84.3 GB"),
    }.items():
        reply = str(run_conversation([first, then])[-1].content)
        assert says in reply, (lang, reply)
        assert "little room for longer chats" not in reply  # the serving warning is not a training plan's
