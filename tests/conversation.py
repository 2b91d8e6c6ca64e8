"""Helpers for conversation tests: run a scripted conversation, and check where numbers came from."""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage
from langgraph.checkpoint.memory import InMemorySaver

from gpu_advisor.assistant import build_graph

_THREADS = itertools.count()
NUMBER = re.compile(r"(?<![\w.])[$¥]?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\w])")


_SAVER = InMemorySaver()
_APP = build_graph().compile(checkpointer=_SAVER)  # compiled once: compiling costs more than a turn


def run_states(turns: list[str], thread: str = "t") -> list[dict[str, Any]]:
    """The graph's whole state after each of `turns`, sent one by one on a fresh thread (its checkpoints are
    dropped after)."""
    thread = f"{thread}-{next(_THREADS)}"
    config = {"configurable": {"thread_id": thread}}
    try:
        return [_APP.invoke({"messages": [HumanMessage(text)]}, config) for text in turns]
    finally:
        _SAVER.delete_thread(thread)


def run_conversation(turns: list[str], thread: str = "t") -> list[AIMessage]:
    """The replies to `turns`, sent one by one on a fresh thread."""
    return [state["messages"][-1] for state in run_states(turns, thread)]


def numbers_in_text(text: str) -> list[tuple[float, int]]:
    """(value, decimals) of every number written in the text, skipping Markdown markers and ids."""
    cleaned = re.sub(r"`[^`]*`", " ", text)
    cleaned = re.sub(r"\b[a-z]+(-[a-z0-9.]+)+\b", " ", cleaned)  # catalog ids such as a100-80gb-sxm
    cleaned = re.sub(r"\b(RTX|A|H|B|L|MI|M)\s?\d+\w*", " ", cleaned)  # card names: RTX 4090, A100, H200
    cleaned = re.sub(r"\d+(\.\d+)?\s*GB\)?\s*(?=\(|HBM|GDDR|SXM|PCIe|\b[A-Z])", " ", cleaned)
    out = []
    for m in NUMBER.finditer(cleaned):
        whole, frac = m.group(1).replace(",", ""), m.group(2) or ""
        out.append((float(whole + frac), len(frac) - 1 if frac else 0))
    return out


def numbers_in_results(obj: Any) -> list[float]:
    found: list[float] = []

    def walk(x: Any) -> None:
        if isinstance(x, bool):
            return
        if isinstance(x, (int, float)):
            found.append(float(x))
        elif isinstance(x, str):
            found.extend(float(v.replace(",", "")) for v in re.findall(r"\d[\d,]*(?:\.\d+)?", x))
        elif isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, (list, tuple)):
            for v in x:
                walk(v)

    walk(obj)
    return found


def unexplained_numbers(text: str, results: Any) -> list[str]:
    """Numbers in an answer that no tool result (in bytes, GB, %, millions, or as written) accounts for."""
    pool = numbers_in_results(results)
    factors = [1, 1e-9, 100, 1e-6, 1e-3, 1e3, 1 / 1024]  # 1e3: seconds shown as ms
    rate = (((results or {}).get("recommend") or {}).get("usd_per_cny") or results.get("usd_per_cny")
            if isinstance(results, dict) else None)
    if rate:
        factors.append(1 / rate)  # yuan shown beside dollars, at the rate the recommendation states
    scaled = {round(v * s, 6) for v in pool for s in factors}
    missing = []
    for value, decimals in numbers_in_text(text):
        tol = 0.5 * 10 ** (-decimals) + 1e-9
        if not any(abs(v - value) <= tol for v in scaled):
            missing.append(f"{value:.{decimals}f}")
    return missing


def payload(message: AIMessage) -> dict[str, Any]:
    return message.additional_kwargs["gpu_advisor"]


def reply_once(text: str, replies: dict[str, tuple[dict[str, Any], str]]) -> tuple[dict[str, Any], str]:
    """One message's last reply as (payload, text), kept in `replies` (a module-scoped fixture's dict) so that tests
    reading the same message run the conversation once."""
    if text not in replies:
        reply = run_conversation([text])[-1]
        replies[text] = (payload(reply), reply.content)
    return replies[text]


def dump(messages: list[AIMessage]) -> str:
    return json.dumps([{"content": m.content, **m.additional_kwargs} for m in messages], sort_keys=True)


def answer_to(message: str, tries: int = 4) -> AIMessage:
    """The answer to one message, the advisor's questions (how busy the cards are, ...) answered 'not sure'
    in the message's language, as a newcomer would. Each 'not sure' goes on the same thread, one turn at a
    time (what a fresh thread replaying the turns so far would answer, without reading them all again)."""
    zh = any("\u4e00" <= ch <= "\u9fff" for ch in message)
    thread = f"answer-{next(_THREADS)}"
    config = {"configurable": {"thread_id": thread}}
    try:
        last = _APP.invoke({"messages": [HumanMessage(message)]}, config)["messages"][-1]
        for _ in range(tries):
            if payload(last).get("kind") != "question":
                break
            last = _APP.invoke({"messages": [HumanMessage("不确定" if zh else "not sure")]}, config)["messages"][-1]
        return last
    finally:
        _SAVER.delete_thread(thread)
