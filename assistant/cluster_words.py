"""Owned servers asked 'how many more' ('不够要加几台'): the cards a rate needs beyond those owned, said as whole servers
of the size owned when each copy fits inside one server (each server its own tensor-parallel copy)."""

from __future__ import annotations

from typing import Any

from gpu_advisor.assistant.catalog import say


def more_servers(rec: Any, t: Any, lang: str) -> str:
    """' That is 4 more servers of 8 × H20, each its own copy.' or '' when the copies span servers or none are
    owned."""
    w = rec.workload
    per = (w.server_gpus if w is not None else None) or 8
    more = (t.needed_gpus or 0) - (t.owned_gpus or 0)
    if not t.owned_gpus or more <= 0 or not t.needed_unit or per % t.needed_unit or t.owned_gpus % per:
        return ""
    name = rec.best.gpu_name if rec.best is not None else ""
    return say(lang, "cluster.more_servers", servers=f"{-(-more // per):,}", per=per, gpu=name)
