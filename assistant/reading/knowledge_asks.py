"""Questions answered from knowledge beside (or instead of) a sizing, read once the message's question is known:
a support question beside a sizing ('… is mxfp4 even supported on a100', reading/support.py) and why a card cannot
be bought in China or how two cards differ (reading/export_asked.py)."""

from __future__ import annotations

from gpu_advisor.assistant.reading.export_asked import read_export_asked
from gpu_advisor.assistant.reading.legal_buy import read_legal_buy
from gpu_advisor.assistant.reading.licence import read_licence
from gpu_advisor.assistant.reading.message import Message, Understanding
from gpu_advisor.assistant.reading.support import read_support_beside


def read_knowledge_asks(m: Message, u: Understanding) -> None:
    read_support_beside(m, u)  # '… on 2x a100. is mxfp4 even supported on a100': answered beside the sizing
    read_export_asked(m, u)  # '为啥国内买不到H100': the export rules; 'X和Y有啥区别': the spec table without prices
    read_legal_buy(m, u)  # 'can my team in shanghai legally buy h100s?': the export rules, never 'only H100'
    read_licence(m, u)  # 'can we legally use llama 3.1 70b commercially?': the licence, and the plan if a load is said
