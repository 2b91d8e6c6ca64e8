"""A card sold only in whole servers (SXM/OAM boards) shows, in a buying table, what its price buys: one A100 SXM
to buy is a $200,000 eight-card server, and the row says so instead of reading as the price of one card."""

from __future__ import annotations

import re

import pytest

from gpu_advisor.knowledge.resolve import find_gpu
from tests.conversation import run_conversation

ASKS = [
    ("we want to buy hardware to serve qwen2.5 14b to 30 users in our office", "(a whole 8-card server)"),
    ("we want to buy GPUs to serve qwen2.5 14b to our 30 colleagues, not all at once", "(a whole 8-card server)"),
    # a Chinese reply outside mainland China: the global buying table (in mainland China the table leads with cards
    # sold there one at a time, so no board card shows; tests/test_zhmarket.py covers that market)
    ("我们公司在新加坡，想买卡部署qwen2.5 14b，30个同事用，不是同时在线", "（整台 8 卡服务器）"),
]
BOARD = re.compile(r"SXM|H20|MI3\d\dX|B200|B300|HGX")  # the catalog's cards sold only on 8-card boards
ROW = re.compile(r"^\| (\d+) × ([^|(]+?)(?: \([^|]*\))? \|.*\| ([^|]+) \|$")


@pytest.mark.parametrize(("ask", "marker"), ASKS)
def test_a_board_card_row_in_a_buying_table_names_the_whole_server(ask: str, marker: str) -> None:
    reply = run_conversation([ask])[-1].content
    rows = [m for m in map(ROW.match, reply.splitlines()) if m]
    assert rows, reply
    board = [m for m in rows if int(m.group(1)) % 8 and BOARD.search(m.group(2))]
    assert board, "expected a board-only card (SXM) at a count under 8 among the options"
    for m in rows:
        whole = int(m.group(1)) % 8 != 0 and bool(BOARD.search(m.group(2)))
        assert (marker in m.group(3)) == whole, m.group(0)


def test_the_cards_the_rows_name_are_sold_in_eights() -> None:
    assert find_gpu("a100-80gb-sxm").sold_in == 8
    assert find_gpu("h20").sold_in == 8
    assert find_gpu("rtx-5090").sold_in == 1
