"""Readers of an online reinforcement-learning fine-tune (GRPO, PPO and kin): the algorithm, the prompts, the
completions generated per prompt (the group) and each completion's length."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.quantities import Quantity
from gpu_advisor.assistant.reading.text import word_pattern

# Quantities that are a count of things, not a length or money: a group size is one of them.
COUNT_ROLES = ("", "items", "examples", "rl_group")
# A 'k' in a length of tokens: 1,024 ('8k' responses are 8,192 tokens, as a context's '32k' is 32,768).
TOKENS_K = 1024


def rl_said(m: Message) -> bool:
    """Whether the message names online RL ('GRPO', 'PPO', '8 rollouts', '强化学习')."""
    return bool(m.live("objective.rl"))


def read_rl_algorithm(m: Message) -> str | None:
    """'ppo' when PPO is named (a value model trained beside the policy), else 'grpo' for any other online RL
    (RLOO, DAPO, online DPO have no critic either and are sized as GRPO)."""
    if not rl_said(m):
        return None
    return "ppo" if m.live("objective.ppo") else "grpo"


def _group(m: Message, strong: bool = False) -> Quantity | None:
    """The count of completions per prompt, by the words after or before it; `strong`: only by the words of a
    group before it ('采样8条', 'group size 16'), which say RL even in a message that names no algorithm."""
    for q in m.qty:
        if q.role not in COUNT_ROLES or q.negated or not 1 <= q.value <= 1024:
            continue
        after = m.masked[q.end:q.end + 40]
        before = m.masked[max(0, q.start - 30):q.start]
        if word_pattern("rl_samples_before").search(before) or word_pattern("rl_samples_per_prompt").match(after) \
                or (not strong and word_pattern("rl_samples_after").match(after)):
            return q
    return None


def read_rl_samples(m: Message) -> int | None:
    """Completions generated per prompt: '8 rollouts each', 'group size 16', '每条采样8个' (the last two say RL
    by themselves: a later turn of an RL conversation names no algorithm)."""
    q = _group(m, strong=not rl_said(m))
    if q is None:
        return None
    if q.value < 2:
        m.problems.append(("rl_samples_min", {}))
        return None
    return int(q.value)


def read_rl_prompts(m: Message) -> int | None:
    """Prompts in one pass: '10k prompts', '1万条prompt', '5,000 math problems'."""
    if not rl_said(m):
        return None
    group, step = _group(m), _step_size(m)  # '每步256条': the prompts of a step, not of the run
    counts = [q for q in m.qty if q is not group and q is not step and q.value >= 1 and not q.negated and (
        q.role in ("items", "examples")
        or (q.role == "" and word_pattern("rl_prompt_nouns").match(m.masked[q.end:q.end + 30])))]
    return int(counts[-1].value) if counts else None


def read_rl_completion_tokens(m: Message) -> int | None:
    """Tokens generated per completion: 'completions up to 1k tokens', 'max_completion_length 2048', '回答2k' (said
    in those words, read in any turn of an RL conversation: the slot matters only there; 'k' is 1,024)."""
    said = word_pattern("rl_completion").search(m.text) or word_pattern("rl_completion_before").search(m.text)
    if not said and m.phase not in ("serve", "production"):
        # (in a message that names no RL too: 'completions of 8k now' in a later turn; never a served answer's length)
        group = _group(m)  # 'rollouts 8 per prompt, completions up to 4k': the 8 is the group, not a length
        said = next((x for x in [*word_pattern("rl_completion_loose").finditer(m.text),
                                 *word_pattern("rl_completion_loose_before").finditer(m.text)]
                     if group is None or x.start("n") != group.start), None)
    if said:
        return token_length(said)
    if not rl_said(m):
        return None
    out = m.role("output_tokens")
    return int(out[-1].value) if out and out[-1].value >= 1 else None


def token_length(said: re.Match[str]) -> int:
    """A length of tokens said with its number and its 'k': '4096', '8k' (8,192: a length in tokens is said in
    powers of two, as max_response_length=8192 is written '8k')."""
    return round(float(said.group("n").replace(",", "")) * (TOKENS_K if said.group("k") else 1))


def read_rl_prompt_tokens(m: Message) -> int | None:
    """Tokens in each prompt of an RL run: 'prompt len 1k', 'max_prompt_length=1024', '--prompt_max_len 2048',
    '提示词长度1024', 'prompts of about 2k tokens'. Not in a batch job or a service that names no RL ('每条输入约1500
    token' of a labelling job is its input length, reading.job)."""
    if m.phase in ("batch", "serve") and not rl_said(m):
        return None
    said = word_pattern("rl_prompt_length").search(m.text) or word_pattern("rl_prompt_length_zh").search(m.raw.lower()) \
        or word_pattern("rl_prompt_length_tokens").search(m.text)
    return token_length(said) if said else None


def _steps_said(m: Message) -> tuple[Quantity, bool] | None:
    """A count of policy steps, and whether its time is asked ('how long per 1000 steps', '每1000步要多久', 'how long do
    1k steps take', '1000 training steps?') rather than the run's length said ('~2000 steps', '一共跑2000步')."""
    for q in m.qty:
        if q.role == "" and not q.negated and 1 <= q.value <= 10_000_000 \
                and (unit := word_pattern("rl_steps_after").match(m.masked[q.end:q.end + 20])):
            before, after = m.masked[max(0, q.start - 30):q.start], m.masked[q.end + unit.end():q.end + unit.end() + 25]
            asked = bool(word_pattern("rl_steps_rate_before").search(before[-12:])
                         or word_pattern("rl_steps_asked").search(before) or word_pattern("rl_steps_asked_after").match(after))
            size = _step_size(m) if q.value == 1 else None  # '一步256条prompt要多久': a step of that many, not a run of one
            return q, asked or (size is not None and 0 <= size.start - (q.end + unit.end()) <= 4)
    return None


def read_rl_steps(m: Message) -> int | None:
    """Policy steps whose time is asked: 'how long per 1000 steps', '每1000步要多久' (the answer gives their time from
    one step's, in an RL run; the slot matters only there); one step's with no count ('how long per step at 512
    prompts', '一个step大概多久')."""
    said = _steps_said(m)
    if said is None and word_pattern("rl_step_time_asked").search(m.masked):
        return 1
    return int(said[0].value) if said and said[1] else None


def read_rl_run_steps(m: Message) -> int | None:
    """The run said in steps ('~2000 steps', 'train for 2k steps', '跑2000步'): its time and price are that many
    steps'; a count after 'per' or '每' is a rate asked about ('how long per 1000 steps'), not the run."""
    said = _steps_said(m)
    return int(said[0].value) if said and not said[1] else None


def _step_size(m: Message) -> Quantity | None:
    """The count of prompts a step, by the words before or after it ('batch size' only in an RL message, or with
    'prompts' after the count)."""
    for q in m.qty:
        if q.negated or not 1 <= q.value <= 1_000_000 or q.value != int(q.value):
            continue
        before, after = m.masked[max(0, q.start - 40):q.start], m.masked[q.end:q.end + 30]
        batch = word_pattern("rl_step_size_batch_before").search(before)  # 'batch size 256 prompts', in RL words
        bare = q.role in COUNT_ROLES and rl_said(m) and word_pattern("rl_step_size_bare_after").match(after)
        if word_pattern("rl_step_size_before").search(before) or word_pattern("rl_step_size_after").match(after) \
                or bare or (batch and (rl_said(m) or word_pattern("rl_prompt_nouns").match(after))):
            return q
    return None


def read_rl_prompts_per_step(m: Message) -> int | None:
    """Prompts in one policy step: 'batch size 256 prompts', 'rollout batch 512', 'train_batch_size=256', '256
    prompts per step', '每步256条' (a step's time grows with it; the default is tools.rl's)."""
    q = _step_size(m)
    return int(q.value) if q is not None else None


def read_rl_rollout_gpus(m: Message) -> int | None:
    """Cards set aside for the rollout engine: '4 for rollouts', '4张卡做rollout' (a split layout)."""
    if not rl_said(m):
        return None
    for q in m.qty:
        if not q.negated and 1 <= q.value <= 1024 and q.value == int(q.value) \
                and word_pattern("rl_rollout_count_after").match(m.masked[q.end:q.end + 40]):
            return int(q.value)
    return None


def read_rl_layout(m: Message) -> str | None:
    """'split' when the rollouts get cards of their own (said, or a count of rollout cards given), 'colocate' when
    they share the trainer's ('colocated', 'hybrid engine'); in an RL message only."""
    if not rl_said(m):
        return None
    if word_pattern("rl_split").search(m.text) or read_rl_rollout_gpus(m) is not None:
        return "split"
    return "colocate" if word_pattern("rl_colocate").search(m.text) else None


def read_rl_pipelined(m: Message) -> bool | None:
    """True when the next step's rollouts overlap the update ('async', 'pipelined', '异步'), in an RL message."""
    return True if rl_said(m) and word_pattern("rl_pipelined").search(m.text) else None


def read_rl_reward_model(m: Message) -> str | None:
    """The reward model that scores the rollouts, said with its role ('rm用7b的', 'a 7b reward model'): a catalog id
    or a size (reading.rl_models found it when the message was prepared)."""
    return m.rl_models.get("reward")


def read_rl_critic_model(m: Message) -> str | None:
    """PPO's critic (value model) when said ('critic is llama 3.1 8b', '价值模型7b'); unsaid, PPO's is the policy's size."""
    return m.rl_models.get("critic")
