"""A count of staff named by their job, followed by what they will do with the model ('40 nurses to ask questions
about our clinical notes'), is people, never items of a batch job (review Y: '40 nurses' sized as 40 items)."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

STAFF = ["nurses", "doctors", "lawyers", "engineers", "analysts"]
DOING = ["to ask questions about our clinical notes", "who will ask questions about our documents",
         "asking questions about contracts", "to query our records"]


@pytest.mark.parametrize(("staff", "doing"), itertools.product(STAFF, DOING))
def test_staff_said_with_what_they_ask_are_people(staff: str, doing: str) -> None:
    u = understand(f"need a server for 40 {staff} {doing}, thinking llama 3.1 70b", None)
    assert "batch_items" not in u.updates, u.updates
    assert u.updates.get("population") == 40 or u.updates.get("users") == 40, u.updates


@pytest.mark.parametrize("text", ["summarise 200k long customer support tickets with llama 8b",
                                  "classify 40000 questions about our documents with qwen2.5 7b"])
def test_items_said_as_items_stay_items(text: str) -> None:
    assert understand(text, None).updates.get("batch_items") in (200_000, 40_000)
