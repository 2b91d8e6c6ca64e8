"""The last messages read, kept. The engine reads a message more than once (the whole message, its pieces, a
choice), the clause readers read the same clauses again (reading.multi, reading.corrected, reading.job_models),
and a conversation replayed or resumed reads every message again. Reading is a pure function of the text, the
pending question and the catalogs, so a message read before is given back as a copy of what was read then;
the copy is the caller's to change."""

from __future__ import annotations

import copy
import functools
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from gpu_advisor.knowledge import gpus

MAX_KEPT = 4096  # messages (and clauses) kept, the least recently read dropped first

R = TypeVar("R")


def kept_reads(read: Callable[[str, str | None, bool], R]) -> Callable[..., R]:
    """`read` with its last MAX_KEPT results kept, keyed by its arguments and the GPU catalog it read with (a
    user's gpus.yaml read again is a new catalog: what a message names may change)."""
    memo: OrderedDict[tuple[str, str | None, bool], tuple[Any, R]] = OrderedDict()
    lock = threading.Lock()  # the app reads in worker threads

    @functools.wraps(read)
    def kept(raw: str, pending: str | None = None, whole: bool = True) -> R:
        if pending is not None and not isinstance(pending, str):
            pending = None  # no question's slot name (an empty mapping from a caller): nothing pending
        key, catalog = (raw, pending, whole), gpus()
        with lock:
            held = memo.get(key)
            if held is not None and held[0] is catalog:
                memo.move_to_end(key)
                return copy.deepcopy(held[1])
        result = read(raw, pending, whole)
        with lock:
            memo[key] = (catalog, copy.deepcopy(result))
            while len(memo) > MAX_KEPT:
                memo.popitem(last=False)
        return result

    kept.forget = memo.clear  # type: ignore[attr-defined]
    return kept
