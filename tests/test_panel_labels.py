"""The profile panel's labels line up by terminal cells and never run into their values (issue 25)."""

from __future__ import annotations

import pytest
from rich.cells import cell_len

from gpu_advisor.assistant.slots import SLOTS
from gpu_advisor.tui.panel import LABEL_CELLS, profile_text

PROFILES = [
    {"phase": "serve", "model": "llama-3.1-8b", "population": 40, "context": 8192},
    {"phase": "serve", "model": "qwen2.5-72b", "population": 300, "users": 30, "utilisation": 0.4},
    {"phase": "fine-tune", "model": "qwen2.5-7b", "method": "lora", "train_examples": 50_000, "seq_len": 2048},
]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("profile", PROFILES)
def test_each_value_starts_at_the_label_column_or_one_space_after_a_long_label(profile, lang):
    labels = sorted({slot.label(lang) for slot in SLOTS.values()}, key=len, reverse=True)
    lines = [line for line in profile_text(profile, lang).plain.splitlines() if line]
    assert len(lines) >= 3, "the panel shows the profile"
    for line in lines:
        label = next(label for label in labels if line.startswith(label + " "))
        value_at = max(LABEL_CELLS, cell_len(label) + 1)
        rest = line[len(label):]
        padding = len(rest) - len(rest.lstrip(" "))
        assert cell_len(label) + padding == value_at, line


def test_a_long_label_keeps_a_space_before_its_value():
    plain = profile_text({"phase": "serve", "model": "llama-3.1-8b", "population": 40}, "en").plain
    assert "people who use it 40" in plain
    assert "people who use it40" not in plain


def test_chinese_labels_align_by_cells():
    plain = profile_text({"phase": "serve", "model": "qwen2.5-72b", "population": 300}, "zh").plain
    line = next(line for line in plain.splitlines() if line.startswith("使用人数"))
    assert line == "使用人数" + " " * (LABEL_CELLS - 8) + "300"
