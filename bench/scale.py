"""`make bench` section "scale": the history store with 100,000 sessions, and the engine's turn cost
late in a long conversation. Every figure is printed beside a baseline measured in the same run.

The store is generated in one transaction into a temporary folder: 100,000 sessions of two turns
each (a question and an answer that ends with the usual suggestion line), one tool call per answer,
one session in twenty in Chinese, titles and texts drawn from a seeded generator so every run
builds the same file.
"""

from __future__ import annotations

import functools
import json
import random
import time
from pathlib import Path
from typing import Any

from bench import median_seconds

SESSIONS = 100_000
MODELS = ("llama 3.1 8b", "llama 3.3 70b", "qwen2.5 32b", "mixtral 8x7b", "gemma 2 27b", "mistral small",
          "deepseek r1 distill", "phi-4", "qwen3 235b", "command r")
CARDS = ("A100 80GB", "H100 SXM", "H200", "L40S", "RTX 4090", "L4", "MI300X", "B200", "RTX 3090", "A10G")
VERBS = ("serve", "fine-tune", "run", "host", "train a lora of", "deploy", "chat with", "benchmark")
RARE = [f"{a}{b}" for a in ("zor", "vel", "quin", "mab", "tesh", "kor", "lum", "dra") for b in
        ("ax", "eth", "ion", "ul", "ora", "ix", "und", "em", "ar", "ost")]  # 80 rare words, a few sessions each
CHINESE = ("我想微调一个{m}模型，然后给团队{u}个人用", "用{c}跑{m}推理需要多少显存？", "租还是买{c}更划算")
Row = tuple[Any, ...]


def _stamp(n: int) -> str:
    """Increasing timestamps over about three years, as a real history has them."""
    seconds = 1_700_000_000 + n * 900
    return time.strftime("%Y-%m-%dT%H:%M:%S.000+00:00", time.gmtime(seconds))


def _session_rows(n: int, rng: random.Random, footer: str) -> tuple[Row, list[Row], list[Row]]:
    from gpu_advisor.assistant.history import search_text

    sid = f"01J{n:023d}"
    stamp = _stamp(n)
    model, card, verb = rng.choice(MODELS), rng.choice(CARDS), rng.choice(VERBS)
    users, gpus = rng.randint(1, 200), rng.randint(1, 8)
    rare = rng.choice(RARE) if rng.random() < 0.02 else ""
    if n % 20 == 0:
        question = rng.choice(CHINESE).format(m=model, u=users, c=card)
        title = question[:40]
    else:
        question = f"I want to {verb} {model} for {users} users {rare}".strip()
        title = f"{verb.capitalize()} {model} for {users} users"
    answer = (f"## Rent {gpus} × NVIDIA {card} for the job\n\n**Serving** ({model}, int8, {users} users × 8,192 "
              f"tokens): {rng.uniform(10, 80):.1f} GB of 80.0 GB per GPU; {rng.randint(5, 90)} tokens/s per user.\n\n"
              f"| option | fits | memory to spare | tokens/s per user | per hour |\n|---|---|---|---|---|\n"
              + "".join(f"| {k} × {rng.choice(CARDS)} | yes | {rng.randint(5, 70)}% | {rng.randint(5, 90)} | "
                        f"${rng.uniform(0.5, 9):.2f} |\n" for k in range(1, 3))
              + f"\n**Rent or buy:** at {rng.randint(5, 95)}% utilisation, renting costs ${rng.randint(900, 90_000):,} "
              f"over 36 months and buying ${rng.randint(9_000, 400_000):,}; the GPU pays off in "
              f"{rng.randint(4, 60)} months.\n\n**Assumptions**: QLoRA for the fine-tune, the KV cache in 16 bits."
              f"\n\n{footer}")
    follow = rng.choice(("what about int4?", "and for twice as many users", "is buying cheaper",
                         "show the math", "what if I use qlora", "rent or buy?"))
    messages = []
    for seq, (role, text) in enumerate((("user", question), ("assistant", answer), ("user", follow),
                                        ("assistant", f"Still {gpus} × {card}: {rng.choice(('the', 'a'))} "
                                                      f"{rng.choice(('cheaper', 'faster', 'same'))} plan.\n\n{footer}")), start=1):
        messages.append((f"{sid}{seq}", sid, seq, role, text, "{}", stamp, search_text(role, text)))
    calls = [(f"{sid}T{seq}", sid, f"{sid}{seq}", "recommend", json.dumps({"model": model}),
              json.dumps({"best": card, "gpus": gpus}), 1.5, stamp) for seq in (2, 4)]
    return (sid, title, stamp, stamp, "{}", "{}"), messages, calls


def generate(path: Path, sessions: int = SESSIONS, seed: int = 12) -> None:
    """A store of `sessions` sessions at `path`, built with bulk inserts in one transaction."""
    from gpu_advisor.assistant.catalog import say
    from gpu_advisor.assistant.history import HistoryStore

    rng = random.Random(seed)
    footer = say("en", "answer.footer")
    store = HistoryStore(path)
    with store._write():
        for start in range(0, sessions, 5000):
            chunk = [_session_rows(n, rng, footer) for n in range(start, min(sessions, start + 5000))]
            store.conn.executemany("INSERT INTO sessions (id, title, created, updated, profile, state) "
                                   "VALUES (?,?,?,?,?,?)", [c[0] for c in chunk])
            store.conn.executemany("INSERT INTO messages (id, session_id, seq, role, text, payload, created, "
                                   "search_text) VALUES (?,?,?,?,?,?,?,?)", [m for c in chunk for m in c[1]])
            store.conn.executemany("INSERT INTO tool_calls (id, session_id, message_id, tool, arguments, result, "
                                   "duration_ms, created) VALUES (?,?,?,?,?,?,?,?)", [t for c in chunk for t in c[2]])
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()


def history_report(tmp: Path, sessions: int = SESSIONS) -> list[tuple[str, float, float, float, str]]:
    from gpu_advisor.assistant.history import HistoryStore

    big = tmp / "scale.db"
    start = time.perf_counter()
    generate(big, sessions)
    built = time.perf_counter() - start
    empty = tmp / "scale-empty.db"
    HistoryStore(empty).close()

    open_big = median_seconds(lambda: HistoryStore(big).close(), runs=9)
    open_empty = median_seconds(lambda: HistoryStore(empty).close(), runs=9)
    store = HistoryStore(big)
    first_page = median_seconds(lambda: store.list_sessions(200), runs=21)
    count = store.count_sessions()
    deepest = median_seconds(lambda: store.list_sessions(200, offset=max(0, count - 200)), runs=21)
    rows = [(f"generate a {count:,}-session store (one transaction)", built, open_empty, built / open_empty,
             "reported (baseline: open an empty store)"),
            (f"open, {count:,} sessions ({big.stat().st_size / 1e6:,.0f} MB)", open_big, open_empty,
             open_big / open_empty, "<= 0.2 s (baseline: open an empty store)"),
            (f"deepest page of the list (offset {max(0, count - 200):,})", deepest, first_page, deepest / first_page,
             "<= 20 ms (baseline: first page)")]
    for query in ("GPU", "the", "qlora", "rent buy", "int4", RARE[3], "微调", "微调一个"):
        found = len(store.search(query))
        took = median_seconds(functools.partial(store.search, query), runs=11)
        rows.append((f"search '{query}' ({found} results)", took, first_page, took / first_page,
                     "<= 50 ms (baseline: first page)"))
    store.close()
    return rows


TURNS = ["fine-tune a 27B model and then let my team chat with it", "not sure", "about 15", "working hours",
         "what about int4?", "and for 30 users", "show the math", "what if we use llama 3.3 70b instead",
         "rent or buy?", "serve qwen2.5 32b to 50 users"]


def _stored_bytes(saver: Any) -> int:
    """Every byte an InMemorySaver holds: the checkpoints, their metadata and the channel blobs."""
    total = sum(len(blob[1]) for blob in saver.blobs.values())
    for namespaces in saver.storage.values():
        for checkpoints in namespaces.values():
            total += sum(len(c[1]) + len(m[1]) for c, m, _parent in checkpoints.values())
    return total


def turn_report(last: int = 500) -> list[tuple[str, float, float, float, str]]:
    """Turn cost at turn 5 and at turn `last` of one conversation compiled with a checkpointer (as
    LangGraph Server runs it), and the checkpoint bytes each turn adds. Measured only."""
    from langchain_core.messages import HumanMessage
    from langgraph.checkpoint.memory import InMemorySaver

    from gpu_advisor.assistant import build_graph
    from gpu_advisor.assistant.engine import WINDOW_TURNS

    saver = InMemorySaver()
    app = build_graph().compile(checkpointer=saver)
    config = {"configurable": {"thread_id": "scale"}}
    times: list[float] = []
    added: list[int] = []
    before = 0
    for n in range(last + 3):
        start = time.perf_counter()
        app.invoke({"messages": [HumanMessage(TURNS[n % len(TURNS)])]}, config)
        times.append(time.perf_counter() - start)
        stored = _stored_bytes(saver)
        added.append(stored - before)
        before = stored
    # The same ten utterances at the same places of the cycle: turns 1-10 (the first of them sets the
    # job up), 11-20 around turn 5 of a settled conversation, and the ten that end at turn `last`.
    cycle = len(TURNS)
    early, late = sum(times[cycle: 2 * cycle]), sum(times[last - cycle: last])
    early_bytes = sum(added[cycle: 2 * cycle]) / cycle
    full = WINDOW_TURNS + cycle  # past the thread's window: from here on a checkpoint holds the same turns
    full_bytes = sum(added[full: full + cycle]) / cycle
    late_bytes = sum(added[last - cycle: last]) / cycle
    state_bytes = len(saver.serde.dumps_typed(app.get_state(config).values)[1])
    return [(f"turns {last - cycle + 1}-{last} against turns {cycle + 1}-{2 * cycle} (same utterances, checkpointer)",
             late / cycle, early / cycle, late / early, "<= 1.2x"),
            (f"checkpoint bytes per turn, turns {last - cycle + 1}-{last} against {full + 1}-{full + cycle} (KB)",
             late_bytes / 1000, full_bytes / 1000, late_bytes / max(full_bytes, 1),
             f"no growth once the thread holds its {WINDOW_TURNS}-turn window"),
            (f"state after {last + 3} turns (KB)", state_bytes / 1000, early_bytes / 1000,
             state_bytes / max(early_bytes, 1), "reported (baseline: bytes per turn near turn 15)")]
