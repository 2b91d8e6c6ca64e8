"""A count of items with words between it and the noun ('~30M short product descriptions', '200k long customer support
tickets') is the job's item count (review S2 #7 asked for a count it had been given); a count of people doing
something to items ('40 nurses writing notes', '30 support agents answering tickets') stays people."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

COUNTS = {"30M": 30_000_000, "~200k": 200_000, "1.5 million": 1_500_000, "50,000": 50_000}
MODIFIED = ["short product descriptions", "long customer support tickets", "scanned pdfs", "news articles",
            "old legal contracts", "raw log entries"]
JOBS = ["need to run gpt-oss-20b over {n} {items} to tag them", "summarise {n} {items} with qwen2.5 7b by friday",
        "classify {n} {items} using llama 3.1 8b, cheapest way?"]


@pytest.mark.parametrize(("count", "items", "job"), list(itertools.product(COUNTS, MODIFIED, JOBS)))
def test_a_count_of_modified_items_is_the_item_count(count, items, job):
    u = understand(job.format(n=count, items=items))
    assert u.updates.get("batch_items") == COUNTS[count], u.updates


PEOPLE = ["serve llama 3 8b to {n} support agents answering tickets", "serve qwen 7b for {n} nurses writing notes",
          "{n} lawyers reviewing contracts will use mistral small"]


@pytest.mark.parametrize(("n", "text"), list(itertools.product((30, 40, 120), PEOPLE)))
def test_people_doing_something_to_items_stay_people(n, text):
    u = understand(text.format(n=n))
    assert "batch_items" not in u.updates and n in (u.updates.get("users"), u.updates.get("population")), u.updates
