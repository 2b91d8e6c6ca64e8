"""Two or more models named as the choice for one job ('离线翻译 5000 万 token，Qwen3-32B 还是 Qwen3-30B-A3B 更快更省钱',
'deepseek r1 distill qwen 32b or qwq 32b, which cheaper to serve'): u.ask["models"] holds their ids in the order said;
assistant/model_choice.py sizes each on the same job and says which costs less. The words between the names are
words/compare_verdict.yaml's model_choice."""

from __future__ import annotations

from itertools import pairwise

from gpu_advisor.assistant.reading.alternative import alternative_models
from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.running_job import read_running_job
from gpu_advisor.assistant.reading.text import word_pattern

# Models compared at most.
MOST = 3


def models_weighed(m: Message) -> list[str]:
    """The models the message sets against each other, in the order said; [] when it names fewer than two as a choice."""
    named = [(s, e, model_id) for s, e, model_id in m.names if not negated(m.text, s)]
    chosen: list[str] = []
    same = word_pattern("answers.same_asked.en").search(m.text) or word_pattern("answers.same_asked.zh").search(
        m.raw.lower())  # '显存需求一样吗', 'the same vram?': the two set side by side
    which = word_pattern("model_choice.which").search(m.text) or same
    for (_s, e, a), (s2, _e2, b) in pairwise(named):
        between = m.text[e:s2]
        if a == b:
            continue
        if word_pattern("model_choice.between").search(between) or (
                which and word_pattern("model_choice.between_weak").search(between)) or (
                same and word_pattern("answers.same_between").search(between)):
            chosen += [x for x in (a, b) if x not in chosen]
    return chosen[:MOST] if len(chosen) >= 2 else alternative_models(m, named)  # 'would X be cheaper?'


def read_model_choice(m: Message, u: Understanding) -> None:
    if ("phase" not in u.updates and "model" not in u.updates) or read_running_job(m, u):  # 'A on 8 of them, add B'
        return
    models = models_weighed(m)
    if models and models == alternative_models(m, [(s, e, x) for s, e, x in m.names if not negated(m.text, s)]):
        u.updates["model"] = models[0]  # 'thinking X ... would Y be cheaper?': X is the plan, Y the one weighed
    if models:
        u.ask = {**u.ask, "models": models}
        u.notes = [(key, values) for key, values in u.notes if key != "note.model_other"]  # each is sized now
