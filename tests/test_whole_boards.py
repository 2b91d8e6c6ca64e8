"""Cards sold only on whole boards are bought in whole boards: knowledge.purchase.whole_boards is the one rounding,
used by the price, the buy plan and the headline."""

from hypothesis import given
from hypothesis import strategies as st

from gpu_advisor.knowledge import find_gpu
from gpu_advisor.knowledge.purchase import purchase_usd, whole_boards


def test_rounds_up_to_the_board():
    assert [whole_boards(n, 8) for n in (1, 7, 8, 9, 16, 17)] == [8, 8, 8, 16, 16, 24]
    assert whole_boards(3, 1) == 3


@given(n=st.integers(1, 512), sold_in=st.sampled_from([1, 2, 4, 8, 16]))
def test_whole_boards_is_the_least_multiple_that_holds_n(n, sold_in):
    cards = whole_boards(n, sold_in)
    assert cards % sold_in == 0 and n <= cards < n + sold_in


def test_five_board_cards_cost_as_much_as_eight():
    h100 = find_gpu("h100-sxm")
    assert h100.sold_in == 8
    assert purchase_usd(h100, 5) == purchase_usd(h100, 8)
    assert purchase_usd(h100, 9) > purchase_usd(h100, 8)
