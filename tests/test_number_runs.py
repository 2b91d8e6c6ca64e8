"""A pasted run of digits and separators ('1,1,1,…' 2,000 times took the reader 19 s: the number patterns were tried
at every digit) is cut to MAX_DIGITS characters before any reader sees it; ordinary figures are left whole."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.reading.text import MAX_DIGITS, readable

RUN = re.compile(r"\d[\d,.]{31,}")


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet="0123456789,. abk$万", max_size=600))
def test_no_long_number_run_reaches_the_readers(text):
    assert not RUN.search(readable(text))


def test_pasted_runs_are_cut_and_said_to_be():
    for pasted in ("1," * 2000, "7." * 2000, "7" * 4000, "9,99" * 600):
        cut = readable(pasted)
        assert len(cut) == MAX_DIGITS and pasted.startswith(cut)
        assert "truncated" in understand(pasted).intents


def test_ordinary_figures_are_left_whole():
    for text, slot, value in [("serve llama 3.1 8b to 1,000,000 users", "users", 1_000_000),
                              ("batch sizes 1,2,4,8,16,32 on 100,000,000,000 tokens", None, None)]:
        assert readable(text) == text
        if slot:
            assert understand(text).updates[slot] == value
