"""'All day' said of the use ('add 40 customer success reps who'll use it all day', '整天都在用', 'used all day long'):
the working day or more, read as the utilisation table's working hours (words/time.yaml) rather than asked again
(review CUA #2: 'How busy will the GPUs be?' right after 'all day'). That is an assumption, said as one
(note.all_day, assistant/inferred_busy.py). Grammar only: the words are in words/traffic_shape.yaml."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.day_window import WORKING
from gpu_advisor.assistant.reading.text import pattern_rows, word_pattern

if TYPE_CHECKING:
    from gpu_advisor.assistant.reading.message import Message, Understanding


def read_all_day(m: Message, u: Understanding) -> None:
    """The note that says 'all day' was read as the working day, when only those words gave the share read."""
    for pattern, (value, label) in pattern_rows("utilisation"):
        said = [x.group(0) for x in pattern.finditer(m.masked) if not negated(m.masked, x.start())] if label == WORKING else []
        if said and u.updates.get("utilisation") == value \
                and all(word_pattern("utilisation_all_day").fullmatch(w) for w in said):
            u.notes.append(("note.all_day", {}))
