"""Session 19's own mends, each tested over generated combinations of its wording."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

# A plan given up for another model: the model switched to is the one sized, with the figures said beside it, never a
# second service of both models (issue 21 note: 'originally we planned on llama 3.1 70b, now we want to go with qwen2.5
# 32b' kept the 70B and dropped the users).
EARLIER = {
    "en": ["originally we planned on {a}, now we want to go with {b}", "we were going to use {a} but decided to switch "
           "to {b}", "at first we wanted {a}, now we'll go with {b}", "initially {a}, but we switched to {b}"],
    "zh": ["本来想用 {a}，现在决定用 {b}", "原本打算上 {a}，后来还是换成 {b}", "一开始想用 {a}，现在改成 {b}"],
}
PAIRS = [("llama 3.1 70b", "qwen2.5 32b", "qwen2.5-32b"), ("qwen2.5 72b", "llama 3.1 8b", "llama-3.1-8b"),
         ("mistral 7b", "qwen2.5 14b", "qwen2.5-14b")]
TAILS = {"en": (", for 40 users", 40), "zh": ("，40个人用", 40)}


@pytest.mark.parametrize(("lang", "frame", "pair"),
                         [(lang, frame, pair) for lang, frames in EARLIER.items()
                          for frame, pair in itertools.product(frames, PAIRS)])
def test_a_plan_given_up_sizes_the_model_switched_to_with_the_figures_said(lang: str, frame: str,
                                                                           pair: tuple[str, str, str]) -> None:
    a, b, target = pair
    tail, users = TAILS[lang]
    u = understand(frame.format(a=a, b=b) + tail, None)
    assert u.updates.get("model") == target
    assert u.updates.get("users") == users
    assert not u.second
