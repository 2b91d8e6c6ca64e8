"""Servers counted with their cards, then the cards of each said again: '4台Atlas 800T A2（每台8张910B 64G）' (read as
'4 ascend atlas 800t a2( each with 8 910b 64g)'), 'two DGX H100 (8x H100 80GB each)', '4 Atlas 800I A2 servers, each
with 8x 910B', '2 H100 servers (8x H100 80GB each)'. The second card is the same cards, said per server: one span of
servers x cards in each, never the servers' cards plus one more server's worth (review CI #8 read 4 Atlas servers as
'8 × 910B, 8 × 910B'). A count of cards with no card name after the server model ('4台Atlas 800I A2（8卡 64G）') is
the cards in each. The words: words/hardware.yaml (server_restated_between, server_per_after)."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.text import word_pattern

Found = tuple[int, int, str, int]
MAX_SERVER_CARDS = 16


def _base(gpu_id: str) -> str:
    """A catalog card's id without its memory ('a100-80gb-sxm' -> 'a100--sxm'): the same card in another memory."""
    return re.sub(r"\d+gb", "", gpu_id)


def server_per_after(text: str, e0: int) -> tuple[int | None, int]:
    """The cards in each server said right after a server model with no card name ('(8 gpus 64g)', ', 8x each'):
    (the count, the end of the words read), or (None, e0)."""
    x = word_pattern("server_per_after").match(text[e0:e0 + 32])
    if not x or not 0 < int(x["per"]) <= MAX_SERVER_CARDS:
        return None, e0
    return int(x["per"]), e0 + x.end()


def merge_restated(text: str, found: list[Found], per_server: dict[int, int], counted: set[int]) -> list[Found]:
    """The spans with a card restated per server after its servers merged into one (servers x the cards said in
    each; the card as said the second time, its memory included); the others as they were."""
    out: list[Found] = []
    for s, e, gpu_id, count in sorted(found):
        if out and out[-1][0] in per_server and s in counted and not gpu_id.startswith(("apple-", "custom:")):
            ps, pe, pid, pcount = out[-1]
            per = per_server[ps]
            gap = text[pe:s]
            if _base(pid) == _base(gpu_id) and per and pcount % per == 0 \
                    and word_pattern("server_restated_between").fullmatch(gap):
                servers = pcount // per
                each = count if count <= MAX_SERVER_CARDS and count != pcount else per
                per_server.pop(s, None)
                per_server[ps] = each
                counted.discard(s)
                counted.add(ps)
                out[-1] = (ps, e, gpu_id, servers * each)
                continue
        out.append((s, e, gpu_id, count))
    return out
