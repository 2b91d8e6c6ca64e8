"""An RL run's figures said again in a later turn replace the ones before (review BT #2: 'the rollouts are up to 8k
tokens each' kept 1,024-token completions and became a training sequence length); one function turns a turn's
batch or example reading into the RL run's figures (assistant.rl_turn.as_rl_figures)."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.rl_turn import as_rl_figures
from tests.conversation import run_states

FIRST = {"en": "GRPO on Qwen2.5-7B, 10k prompts, {s} rollouts per prompt, rollouts {k}k tokens, on 8x H100, full",
         "zh": "用GRPO在8张H100上全参训qwen2.5 7b，一万条prompt，每个prompt采样{s}个，回答长度{k}k"}
LENGTH = {"en": ["actually rollouts are {k}k tokens", "to be clear the rollouts are up to {k}k tokens each",
                 "completions of {k}k now", "the responses are more like {k}k"],
          "zh": ["回答其实是{k}k token", "其实每条回答{k}k", "rollout长度改成{k}k", "回答长度改成{k}k"]}
GROUP = {"en": ["group size {s} now", "{s} samples per prompt instead"], "zh": ["每组采样{s}个", "每个prompt采样{s}条"]}


@pytest.mark.parametrize(("lang", "later"), [(lang, t) for lang, ts in LENGTH.items() for t in ts])
@pytest.mark.parametrize(("before", "after"), [(1, 8), (4, 2)])
def test_a_completion_length_said_again_replaces_the_one_before(lang: str, later: str, before: int, after: int):
    states = run_states([FIRST[lang].format(s=8, k=before), later.format(k=after)])
    first, last = states[0]["profile"], states[-1]["profile"]
    assert first["rl_completion_tokens"] == before * 1024  # a token length's 'k' is 1,024 (h-rl3: '8k' responses are 8,192 tokens)
    assert last["rl_completion_tokens"] == after * 1024, last  # a token length's 'k' is 1,024 (h-rl3: '8k' responses are 8,192 tokens)
    assert last["seq_len"] is None and last["context"] is None and last["rl_samples"] == 8
    reply = states[-1]["messages"][-1].content
    assert f"{last['rl_completion_tokens']:,}" in reply and f"{before * 1024:,} token" not in reply


@pytest.mark.parametrize(("lang", "later"), [(lang, t) for lang, ts in GROUP.items() for t in ts])
@pytest.mark.parametrize("group", [4, 16])
def test_a_group_said_again_replaces_the_one_before(lang: str, later: str, group: int):
    states = run_states([FIRST[lang].format(s=8, k=2), later.format(s=group)])
    last = states[-1]["profile"]
    assert (last["rl_samples"], last["rl_completion_tokens"], last["rl_prompts"]) == (group, 2048, 10_000)  # a token length's 'k' is 1,024 (h-rl3: '8k' responses are 8,192 tokens)


@pytest.mark.parametrize("text", ["GRPO RL on Qwen3-30B-A3B with 8k rollouts", "grpo qwen3 8b, 8k responses",
                                  "GRPO on qwen3 8b, rollouts up to 8k tokens"])
def test_a_length_in_thousands_before_or_after_rollouts_is_their_length(text: str):
    u = understand(text)
    assert u.updates.get("rl_completion_tokens") == 8192 and "rl_samples" not in u.updates


def test_a_group_before_rollouts_stays_a_group():
    u = understand("GRPO on qwen3 8b, 8 rollouts per prompt, rollouts are 4k tokens")
    assert (u.updates.get("rl_samples"), u.updates.get("rl_completion_tokens")) == (8, 4096)  # a token length's 'k' is 1,024 (h-rl3: '8k' responses are 8,192 tokens)


@pytest.mark.parametrize(("updates", "notes", "want", "gone"), [
    ({"batch_items": 7500, "batch_input_tokens": 300}, [], {"rl_prompts": 7500}, ["batch_input_tokens"]),
    ({"train_examples": 7500, "train_tokens": 7.5e6}, [("note.example_tokens", {"n": "7,500", "each": "1,000"})],
     {"rl_prompts": 7500}, ["train_tokens", "train_examples"]),
    ({"batch_output_tokens": 8000}, [], {"rl_completion_tokens": 8000}, ["batch_output_tokens"]),
    ({"batch_items": 80000, "phase": "batch"}, [("note.items_from_samples", {"prompts": "10,000", "samples": "8",
                                                                             "items": "80,000"})],
     {"rl_prompts": 10_000, "rl_samples": 8}, ["phase", "batch_items"]),
])
def test_one_function_turns_batch_and_example_readings_into_rl_figures(updates, notes, want, gone):
    dropped = as_rl_figures("rl", updates, notes)
    assert {k: updates.get(k) for k in want} == want
    assert not any(k in updates for k in gone), updates
    assert dropped == notes  # the reader's note on items or example length no longer holds


def test_outside_an_rl_conversation_nothing_moves():
    updates = {"batch_items": 7500, "batch_output_tokens": 200}
    assert as_rl_figures("sft", dict(updates), []) == [] and as_rl_figures(None, updates, []) == []
    assert updates == {"batch_items": 7500, "batch_output_tokens": 200}


def test_a_serving_context_beside_an_rl_run_stays():
    updates = {"objective": "rl", "phase": "train-and-serve", "rl_completion_tokens": 8000, "context": 8192}
    as_rl_figures(None, updates, [])
    assert updates["context"] == 8192
