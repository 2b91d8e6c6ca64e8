"""The models of an RL run besides the policy, said with their role (review CA #7: '用openrlhf跑ppo，actor是qwen2.5-32b，
rm用7b的' sized serving the 7B reward model and deferred the 32B actor): a reward model that scores each rollout and a
critic (PPO's value model). Each is found when the message is prepared (reading.message), its words masked and its
name taken out of the names found, so the model reader sees only the policy (the actor) and no 'use' makes a serving
job; the readers then give them their slots (rl_reward_model, rl_critic_model). A reward model named with no size is
POLICY_SIZED. The words are words/rl_models.yaml."""

from __future__ import annotations

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.text import MASK, word_pattern

# A reward model said with no size ('actor critic reward ref 四个模型都要放', 'plus a reward model'): taken as the
# policy's size when the profile is known (assistant/rl_reward.py), said as an assumption.
POLICY_SIZED = "policy-sized"
Span = tuple[int, int, str]  # (start, end, model: a catalog id or a size such as '7B')


def _models(text: str, masked: str, names: list[tuple[int, int, str]]) -> list[Span]:
    """The models named in the message: catalog names, and sizes said alone ('7b') outside them."""
    sizes = [(x.start(), x.end(), f"{float(x['n']):g}B") for x in word_pattern("rl_model_bare_size").finditer(masked)]
    return sorted([*names, *sizes])


def _near(role: tuple[int, int], models: list[Span], text: str) -> Span | None:
    """The model said right after the role word ('rm use 7b') or right before it ('a 7b reward model')."""
    start, end = role
    after = [x for x in models if x[0] >= end and word_pattern("rl_model_link_after").match(text[end:x[0]])]
    if after:
        return after[0]
    before = [x for x in models if x[1] <= start and word_pattern("rl_model_link_before").match(text[x[1]:start])]
    return before[-1] if before else None


def find_rl_models(text: str, masked: str, names: list[tuple[int, int, str]]
                   ) -> tuple[str, list[tuple[int, int, str]], dict[str, str]]:
    """(the masked text with each role's words and model masked, the names left for the policy, {role: model})."""
    found: dict[str, str] = {}
    models = _models(text, masked, names)
    for role, pattern in (("reward", "rl_model_roles.reward"), ("critic", "rl_model_roles.critic")):
        for x in word_pattern(pattern).finditer(masked):
            if negated(masked, x.start()):
                continue
            model = _near((x.start(), x.end()), models, masked)
            if model is None:
                continue
            found[role] = model[2]
            lo, hi = min(x.start(), model[0]), max(x.end(), model[1])
            masked = masked[:lo] + MASK * (hi - lo) + masked[hi:]
            names = [n for n in names if not (lo <= n[0] < hi)]
            models = [m for m in models if not (lo <= m[0] < hi)]
            break
    if "reward" not in found and any(not negated(masked, x.start())
                                     for x in word_pattern("rl_model_unsized_reward").finditer(masked)):
        found["reward"] = POLICY_SIZED  # 'actor critic reward ref 四个模型都要放': a reward model, its size unsaid
    return masked, names, found
