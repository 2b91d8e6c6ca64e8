"""The comparison questions read after the method comparison (reading/method_compare.py), in order: two training
sequence lengths weighed (seq_compare), two forms of a card said alone ('the pcie vs sxm thing', card_forms), and a
price ratio said between two cards compared (price_ratio)."""

from __future__ import annotations

from gpu_advisor.assistant.reading.card_forms import read_forms_alone
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.price_ratio import read_price_ratio
from gpu_advisor.assistant.reading.seq_compare import read_seq_compare


def read_comparisons(m: Message, u: Understanding) -> None:
    read_seq_compare(m, u)
    read_forms_alone(m, u)
    read_price_ratio(m, u)
