"""Hugging Face repo ids this machine holds ('ibm-granite/granite-3.3-8b-instruct' in the Hugging Face cache, or in
this tool's summaries of the Hub): the model named is that repository, sized from its own config.json, never the
closest catalog record nor a size read from its name. Read before the catalog's names, with no network (the
conversation never asks the Hub). Grammar only: a repo id is a shape, ORG/NAME."""

from __future__ import annotations

import re

from gpu_advisor.knowledge.resolve import catalog_named, held_model

# ORG/NAME as the Hub allows it, in ASCII only (a Chinese word typed against it is no part of the name), with a
# revision after '@' when one is given (ORG/NAME@v2.0, @refs/pr/1); a sentence's full stop after it is none either.
_REPO_SHAPED = re.compile(r"(?<![A-Za-z0-9_.\-/])[A-Za-z0-9][A-Za-z0-9_.\-]*/[A-Za-z0-9][A-Za-z0-9_.\-]*"
                          r"(?:@[A-Za-z0-9_.\-/]*[A-Za-z0-9_\-])?")


def held_repos(text: str, raw: str) -> list[tuple[int, int, str]]:
    """(start, end, repo id as the cache spells it, with the revision asked) for each repo id in the cleaned text that
    names no catalog model and that this machine holds; positions are the cleaned text's."""
    found = []
    for x in _REPO_SHAPED.finditer(text):
        word = x.group().rstrip(".")
        if catalog_named(word) is not None:
            continue  # 'meta-llama/llama-3.1-8b-instruct', 'mistralai/mistral-nemo-instruct-2407': the catalog's record
        typed = re.search(re.escape(word), raw, re.IGNORECASE)
        model = held_model(typed.group() if typed else word)
        if model is not None:
            found.append((x.start(), x.start() + len(word), model.name))
    return found


def is_repo(model_id: str) -> bool:
    """Whether a name read is a repository held (its repo id), not a catalog record (catalog ids hold no '/')."""
    return "/" in model_id
