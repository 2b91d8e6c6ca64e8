"""The comparison questions read after the method comparison (reading/method_compare.py), in order: two training
sequence lengths weighed (seq_compare), two forms of a card said alone ('the pcie vs sxm thing', card_forms), and a
price ratio said between two cards compared (price_ratio); one count for every card weighed and a card asked
about only as whether it is sold (fixed_count)."""

from __future__ import annotations

from gpu_advisor.assistant.reading.card_forms import read_forms_alone
from gpu_advisor.assistant.reading.fixed_count import read_card_asked_if_sold, read_either_count
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.price_ratio import read_price_ratio
from gpu_advisor.assistant.reading.seq_compare import read_seq_compare


def read_comparisons(m: Message, u: Understanding) -> None:
    read_seq_compare(m, u)
    read_forms_alone(m, u)
    read_price_ratio(m, u)
    read_either_count(m, u)  # 'MI300X or H100? we'd get 8 of either': 8 of each card weighed
    read_card_asked_if_sold(m, u)  # '国内还能买到H100吗？H20 和 4090D 哪个…': H100 is asked about, not weighed
