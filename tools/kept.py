"""The last results of a slow tool kept by their input. A tool's result is a pure function of its input (all of it
in the input model's JSON) and the catalogs, and one conversation asks the same sizing more than once: each card
compared, the advice's cheaper and asked-for cards, a follow-up that changes something else; the tests ask it in
every spelling of one job. A result computed before is given back as a copy, the caller's to change; a user's
gpus.yaml read again is a new catalog and computes afresh. Bounded: the least recently used goes first."""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import TypeVar

from pydantic import BaseModel

from gpu_advisor.knowledge import gpus

In = TypeVar("In", bound=BaseModel)
R = TypeVar("R", bound=BaseModel)


def kept_results(most: int) -> Callable[[Callable[[In], R]], Callable[[In], R]]:
    """`tool` with its last `most` results kept, keyed by its input's JSON and the GPU catalog it ran with.
    Errors are not kept (raised again each time)."""

    def wrap(tool: Callable[[In], R]) -> Callable[[In], R]:
        memo: OrderedDict[str, tuple[object, R]] = OrderedDict()
        lock = threading.Lock()  # the app sizes in worker threads

        @functools.wraps(tool)
        def kept(inp: In) -> R:
            key, catalog = inp.model_dump_json(), gpus()
            with lock:
                held = memo.get(key)
                if held is not None and held[0] is catalog:
                    memo.move_to_end(key)
                    return held[1].model_copy(deep=True)
            result = tool(inp)
            with lock:
                memo[key] = (catalog, result.model_copy(deep=True))
                while len(memo) > most:
                    memo.popitem(last=False)
            return result

        kept.forget = memo.clear  # type: ignore[attr-defined]
        return kept

    return wrap
