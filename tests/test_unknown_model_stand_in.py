"""A model the advisor does not know, sized as a generic stand-in of its size, claims no facts of the catalog model its
layout is borrowed from; the cheaper of two layouts that both meet every target is the plan; a card count corrected is
the count sized (review CT E8 'Quokka-34B-Instruct … 120k context and 32 users', C8 '灵犀-32B … 说错了，是四张L20').

- past 32k tokens an unknown model's context limit is said unknown and its config.json asked, never another model's
  native context or YaRN reach, and its launch command sets no rope scaling; its name reads in the reply's language;
- the fewest GPUs among the first layouts that meet every target with the memory to spare a warning asks for;
- 'you rent only' only when the user said so;
- a count named with a card, corrected, is the row in the table, and what those cards carry is said first."""

from __future__ import annotations

import re

import pytest

from gpu_advisor.assistant.advice import workload_for
from gpu_advisor.assistant.policy import Profile
from gpu_advisor.knowledge import find_gpu, rules
from gpu_advisor.knowledge.resolve import model_from_size
from gpu_advisor.tools import recommend as R
from gpu_advisor.tools.context_note import context_warnings
from gpu_advisor.tools.yarn_args import yarn_args
from tests.conversation import payload, run_conversation

SIZES = [7, 8, 13, 14, 20, 32, 34, 40, 70]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("context", [40_960, 65_536, 131_072])
def test_a_stand_in_carries_no_borrowed_context(size: int, context: int) -> None:
    stand_in = model_from_size(size)
    assert stand_in.yarn_context is None and stand_in.yarn_original is None
    for engine in ("vllm", "sglang", "llama.cpp"):
        assert yarn_args(stand_in, context, engine) == []
    said = context_warnings(stand_in, context)
    assert len(said) == 1 and "config.json" in said[0] and "YaRN" not in said[0] and "model card" not in said[0]
    # the borrowed model's limit is no fact of this one (only the context asked is said)
    assert f"{stand_in.max_context:,}" not in said[0].removeprefix(f"{context:,} tokens")
    assert context_warnings(stand_in, rules().unknown_native_context_tokens) == []


EN = "how many H100s for {name}, {k}k context, 20 concurrent users?"
ZH = "{name} 上下文要 {k}k，20 个人同时用，需要几张 H100？"
UNKNOWN = [(EN, "Quokka-{n}B", 7, 64), (EN, "Quokka-{n}B-Instruct", 34, 128), (EN, "quokka-{n}b-instruct", 70, 48),
           (EN, "Zephyrine-{n}B", 14, 128), (ZH, "灵犀-{n}B", 32, 64), (ZH, "灵犀-{n}B-Instruct", 14, 128),
           (ZH, "灵犀-{n}b", 70, 40), (ZH, "青鸟-{n}B-Instruct", 8, 96)]


@pytest.mark.parametrize(("template", "name", "size", "k"), UNKNOWN)
def test_an_unknown_model_past_32k_asks_for_its_config(template: str, name: str, size: int, k: int) -> None:
    text = run_conversation([template.format(name=name.format(n=size), k=k)])[-1].content
    zh = template is ZH
    assert "config.json" in text and "max_position_embeddings" in text, text
    for claim in ("YaRN", "model card", "模型卡", "原生", "natively", "rope_scaling\": {", "--hf-overrides",
                  "--rope-scaling", "--json-model-override-args"):
        assert claim not in text, (claim, text)
    if zh:
        assert "dense model" not in text and f"{size}B 稠密模型" in text, text
        assert "I don't know" not in text


def test_the_e8_swap_claims_nothing_and_plans_the_cheaper_layout() -> None:
    replies = run_conversation(["how many H100s for Quokka-34B-Instruct, 32k context, 120 concurrent users?",
                                "what if its 120k context and 32 users instead"])
    last = replies[-1]
    best = payload(last)["results"]["recommend"]["best"]
    assert (best["gpus"], best["gpu"]) == (16, "h100-sxm"), best
    text = last.content
    assert "YaRN" not in text and "40,960" not in text and "original_max_position_embeddings" not in text
    assert "You rent only" not in text  # the user never said so


def _first_layouts(w: R.Workload, gpu_id: str) -> list[R.Option]:
    gpu = find_gpu(gpu_id)
    model = R.resolve_model(w.model)
    tries = R.serving_tries(w, gpu, False, R.serving_precision(w, model, gpu))
    layouts = R.plan(w.model, gpu, tries, w.users, w.context, w.speed_floor, server_gpus=R._server_gpus(w, gpu),
                     max_gpus=R.MAX_SERVING_GPUS)
    found = [R.evaluate(w, gpu, x.gpus, layout=x) for x in layouts[:R.SCALE_TRIES]]
    return [o for o in found if o is not None and o.ok]


@pytest.mark.parametrize(("model", "users", "context", "gpu", "gpus"), [
    ("34B", 32, 122_880, "h100-sxm", 16), ("34B", 120, 32_768, "h100-sxm", 16), ("32B", 64, 32_768, "h100-sxm", 12),
    ("qwen3-32b", 64, 65_536, "h100-sxm", 16), ("llama-3.3-70b", 120, 32_768, "h100-sxm", 24),
    ("70B", 120, 122_880, "h200", 44), ("qwen3-32b", 120, 65_536, "h200", 20)])
def test_the_cheaper_of_layouts_that_both_meet_every_target(model: str, users: int, context: int, gpu: str,
                                                             gpus: int) -> None:
    w = workload_for(Profile(phase="serve", model=model, users=users, context=context, region="global", only=[gpu]))
    best = R.scaled_option(w, find_gpu(gpu))
    assert best is not None and best.ok and best.gpus == gpus, (best and (best.gpus, best.tp))
    roomy = [o for o in _first_layouts(w, gpu) if o.headroom_fraction >= R.TIGHT_HEADROOM]
    assert roomy and best.gpus <= min(o.gpus for o in roomy)
    assert best.headroom_fraction >= R.TIGHT_HEADROOM


@pytest.mark.parametrize("turns", [
    ["我们用 H100 跑 灵犀-32B，32k 上下文，120 个人同时用，要几张？", "那如果上下文 120k、32 个人呢"],
    ["how many H100s for a 34B model, 32k context, 120 concurrent users?", "what about 120k context and 32 users"]])
def test_kept_rented_is_not_said_as_the_users_wish(turns: list[str]) -> None:
    text = run_conversation(turns)[-1].content
    assert "You rent only" not in text and "你说只租不买" not in text


NAMED = [  # (first turn, correction, the count corrected to, chinese)
    ("想在两张 L20 上部署 灵犀-32B 给八十个人用", "说错了，是四张L20，上下文要64k", 4, True),
    ("I want to deploy Lingxi-32B on two L20s for 80 people", "sorry, it's four L20s, and 64k context", 4, False),
    ("想在四张 L20 上部署 灵犀-70B 给一百个人用，上下文32k，全天候运行", "不对，是八张L20", 8, True),
    ("we plan to serve Quokka-70B on 4 L20 cards to 100 users at 32k context, 24/7", "correction: 8 L20s", 8,
     False),
]


@pytest.mark.parametrize(("first", "again", "count", "zh"), NAMED)
def test_a_corrected_count_is_the_count_sized(first: str, again: str, count: int, zh: bool) -> None:
    last = run_conversation([first, again])[-1]
    data = payload(last)["results"]["recommend"]
    rows = [r for r in data["options"] if r["gpu"] == "l20"]
    text = last.content
    table = [line for line in text.splitlines() if line.startswith("| ") and "L20" in line]
    assert table and all(re.match(rf"\| {count} × NVIDIA L20", line) for line in table[:1]), table
    if data["best"] is None or not data["best"]["ok"]:
        held = data["named_limit"]
        assert held is not None and held["gpus"] == count, held
        head = f"**{count} × NVIDIA L20 48GB 能承载的：**" if zh else f"**What {count} × NVIDIA L20 48GB carry:**"
        assert head in text, text
        assert text.index(head) < text.index("| ")  # said before the closest plans
        assert f"{held['users'] or held['users_kv8']:,}" in text
    else:
        assert data["best"]["gpus"] <= count and any(r["gpus"] == count for r in rows)
    if zh:
        assert "dense model" not in text


OWNED = [("we have 2 A100 80GB and want to serve qwen2.5-72b to 60 users at 32k context", "sorry, we have 4 of them",
          4, "a100-80gb-sxm"),
         ("我们有4张L20，想给一百个人部署 灵犀-32B，上下文32k", "说错了，是八张L20", 8, "l20"),
         ("我们有两张A100 80G，想给60个人部署 qwen2.5-72b，上下文32k", "说错了，我们有四张", 4, "a100-80gb-sxm"),
         ("we own 4 L20 cards, serving Quokka-32B to 100 people at 32k context", "sorry, we own 8 of them", 8, "l20")]


@pytest.mark.parametrize(("first", "again", "count", "gpu"), OWNED)
def test_an_owned_count_corrected_is_the_count_sized(first: str, again: str, count: int, gpu: str) -> None:
    last = run_conversation([first, again])[-1]
    data = payload(last)["results"]["recommend"]
    assert any(r["gpus"] == count and r["gpu"] == gpu for r in data["owned_options"]), data["owned_options"]
    assert not any(r["gpus"] != count and r["gpu"] == gpu for r in data["owned_options"])
