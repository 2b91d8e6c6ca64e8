"""The reader stays readable: each module of assistant/reading holds one part of the grammar, under about 400 lines
(a module that grows past it is split by what it reads, as quantities.py and names.py were)."""
from __future__ import annotations

from pathlib import Path

import pytest

READING = Path(__file__).resolve().parent.parent / "assistant" / "reading"
LIMIT = 410  # 'about 400': a few lines of slack, not a second module's worth


@pytest.mark.parametrize("module", sorted(p.name for p in READING.glob("*.py")))
def test_reader_module_is_small(module):
    lines = (READING / module).read_text(encoding="utf-8").count("\n")
    assert lines <= LIMIT, f"{module} has {lines} lines: split it by what it reads"
