"""`make bench`: accuracy against published measurements, and speed as ratios to a same-run baseline.

Machines here are noisy, so every timing is printed next to a baseline measured in the same run
(`python -c pass` for cold starts) and judged by the ratio.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench import median_seconds, print_readme_table
from bench.accuracy import print_report, run, summary

ROOT = Path(__file__).resolve().parent.parent
RUNS = 9


def cold_start_seconds(argv: list[str], runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def first_screen_seconds(argv: list[str], runs: int = RUNS) -> float:
    """From process start to the child's "ready" line (its first screen drawn)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("ready"):
                times.append(time.perf_counter() - start)
                break
        proc.wait()
    return statistics.median(times)


def cli() -> list[str]:
    exe = shutil.which("gpu-advisor", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "gpu_advisor.tui.cli"]


GOLDEN_TURNS = ["hi", "fine-tune a 27B model and then let my team chat with it", "not sure", "about 15",
                "working hours", "what about int4?", "show the math"]


def turn_report() -> list[tuple[str, float, float, float, str]]:
    """A turn in-process (after import) against a one-node LangGraph graph's invoke."""
    from langchain_core.messages import AIMessage, HumanMessage
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.graph import END, START, MessagesState, StateGraph

    from gpu_advisor.assistant import build_graph

    g = StateGraph(MessagesState)
    g.add_node("reply", lambda state: {"messages": [AIMessage("ok")]})
    g.add_edge(START, "reply")
    g.add_edge("reply", END)
    one_node = g.compile(checkpointer=InMemorySaver())
    app = build_graph().compile(checkpointer=InMemorySaver())
    counter = iter(range(10**9))

    def baseline() -> None:
        one_node.invoke({"messages": [HumanMessage("hi")]}, {"configurable": {"thread_id": str(next(counter))}})

    turn_times: list[float] = []

    def conversation() -> None:
        config = {"configurable": {"thread_id": str(next(counter))}}
        for text in GOLDEN_TURNS:
            start = time.perf_counter()
            app.invoke({"messages": [HumanMessage(text)]}, config)
            turn_times.append(time.perf_counter() - start)

    def answer() -> None:
        app.invoke({"messages": [HumanMessage("fine-tune a 27B model and serve it to 20 users")], "oneshot": True},
                   {"configurable": {"thread_id": str(next(counter))}})

    base = median_seconds(baseline)
    median_seconds(conversation, runs=9)
    turn = statistics.median(turn_times)
    full = median_seconds(answer)
    return [("conversation turn (median of a 7-turn conversation)", turn, base, turn / base, "<= 5x one-node graph"),
            ("answer turn (all tools run)", full, base, full / base, "reported")]


def tui_report(tmp: Path) -> list[tuple[str, float, float, float, str]]:
    """First screen against a bare Textual app; the sessions screen and search with 10,000 sessions."""
    import asyncio

    from gpu_advisor.assistant.history import HistoryStore

    db = tmp / "bench.db"
    first = first_screen_seconds([sys.executable, "-m", "bench.tui_start", "advisor", str(db)])
    bare = first_screen_seconds([sys.executable, "-m", "bench.tui_start", "bare"])

    big = tmp / "10k.db"
    store = HistoryStore(big)
    with store._write():
        for n in range(10_000):
            sid = f"01J{n:023d}"
            stamp = f"2026-{1 + n % 12:02d}-{1 + n % 28:02d}T{n % 24:02d}:00:00.000+00:00"
            store.conn.execute("INSERT INTO sessions (id, title, created, updated, profile, state) VALUES (?,?,?,?,'{}','{}')",
                               (sid, f"session {n} about {('llama', 'qwen', 'mixtral', 'gemma')[n % 4]} serving", stamp, stamp))
            for seq, (role, text) in enumerate((("user", f"serve a {n % 90 + 1}B model to {n % 50 + 1} users"),
                                                ("assistant", f"## Rent {n % 8 + 1} x H100 for serving")), start=1):
                store.conn.execute("INSERT INTO messages (id, session_id, seq, role, text, payload, created) "
                                   "VALUES (?,?,?,?,?,'{}',?)", (f"{sid}{seq}", sid, seq, role, text, stamp))
    empty = HistoryStore(tmp / "empty.db")

    async def open_sessions(s: HistoryStore) -> float:
        from gpu_advisor.tui.app import GPUAdvisorApp
        from gpu_advisor.tui.screens import SessionsScreen

        app = GPUAdvisorApp(store=s, preload=False)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            start = time.perf_counter()
            await app.push_screen(SessionsScreen(s))  # returns once the screen is mounted and filled
            return time.perf_counter() - start

    open_big = statistics.median(asyncio.run(open_sessions(store)) for _ in range(5))
    open_empty = statistics.median(asyncio.run(open_sessions(empty)) for _ in range(5))
    search = median_seconds(lambda: store.search("mixtral serving"), runs=21)
    listing = median_seconds(lambda: store.list_sessions(200), runs=21)
    return [
        ("TUI first screen (cold process)", first, bare, first / bare, "<= 1.5x bare Textual app"),
        ("sessions screen, 10,000 sessions", open_big, open_empty, open_big / open_empty,
         "<= 0.3 s (baseline: empty store)"),
        ("search, 10,000 sessions", search, listing, search / listing, "<= 50 ms (baseline: list newest 200)"),
    ]


def speed_report() -> list[tuple[str, float, float, float, str]]:
    baseline = cold_start_seconds([sys.executable, "-c", "pass"])
    size_cmd = cli() + ["size", "inference", "--model", "llama-3-8b", "--gpu", "h100"]
    subprocess.run(size_cmd, cwd=ROOT, capture_output=True, check=False)  # warm the data-file cache
    size = cold_start_seconds(size_cmd)
    ask = cold_start_seconds(cli() + ["ask", "fine-tune a 27B model and serve it to 20 users"], runs=5)
    rows = [("cold start: gpu-advisor size inference", size, baseline, size / baseline, "<= 8x `python -c pass`"),
            ("cold start: gpu-advisor ask", ask, baseline, ask / baseline, "<= 25x `python -c pass`")]
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        return rows + turn_report() + tui_report(Path(tmp)) + setup_report(Path(tmp))


def setup_report(tmp: Path) -> list[tuple[str, float, float, float, str]]:
    """A fresh set-up as `make run` does it (a new venv, the app's locked set, the project), then the
    first answer from it; against creating an empty venv. Needs the package registry; skipped offline."""
    venv = tmp / "fresh-venv"
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "venv", str(tmp / "empty-venv")], check=True, capture_output=True)
    empty = time.perf_counter() - start
    uv = shutil.which("uv")
    python = venv / "bin" / "python"
    install = ([uv, "pip", "install", "--quiet", "--python", str(python)] if uv
               else [str(python), "-m", "pip", "install", "--quiet"])
    start = time.perf_counter()
    try:
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
        subprocess.run([*install, "-r", str(ROOT / "requirements.lock")], check=True, capture_output=True, timeout=900)
        subprocess.run([*install, "--no-deps", str(ROOT)], check=True, capture_output=True, timeout=900)
    except (subprocess.SubprocessError, OSError):
        print("fresh set-up not measured: the package registry could not be reached", file=sys.stderr)
        return []
    setup = time.perf_counter() - start
    start = time.perf_counter()
    subprocess.run([str(venv / "bin" / "gpu-advisor"), "ask", "serve llama 3.1 8b to 10 users"], cwd=tmp,
                   capture_output=True, check=False)
    first = time.perf_counter() - start
    tool = "uv" if uv else "pip"
    return [(f"fresh set-up from requirements.lock ({tool})", setup, empty, setup / empty, "reported"),
            ("first answer after it (gpu-advisor ask)", first, empty, first / empty, "reported")]


def print_table(title: str, rows: list[tuple[str, float, float, float, str]], unit: str = "ms") -> None:
    print(title)
    print("| measure | value | baseline | ratio | target |")
    print("|---|---:|---:|---:|---|")
    for name, t, base, ratio, target in rows:
        if unit == "ms" and "(KB)" not in name:
            print(f"| {name} | {t * 1000:.1f} ms | {base * 1000:.1f} ms | {ratio:.1f}x | {target} |")
        else:
            print(f"| {name} | {t:,.1f} | {base:,.1f} | {ratio:.2f}x | {target} |")


def scale_section() -> None:
    """Section "scale": a generated 100,000-session history (open, list, search) and the engine's
    turn cost at turn 500 against turn 5 with a checkpointer, each against a same-run baseline."""
    import tempfile

    from bench.scale import history_report, turn_report

    with tempfile.TemporaryDirectory(prefix="gpu-advisor-scale-") as tmp:
        rows = history_report(Path(tmp))
    print_table("README table (scale: history, median of runs):", rows)
    print()
    print_table("README table (scale: conversation engine):", turn_report())


def main() -> int:
    if sys.argv[1:] == ["residuals"]:  # writes knowledge/data/residuals.yaml: never part of the default run
        from bench.residuals import main as write_residuals

        return write_residuals()
    sections = sys.argv[1:] or ["accuracy", "training-speed", "speed", "scale"]
    unknown = set(sections) - {"accuracy", "training-speed", "speed", "scale"}
    if unknown:
        print(f"unknown bench section {', '.join(sorted(unknown))}; choose from accuracy, training-speed, speed, scale",
              file=sys.stderr)
        return 2
    if "accuracy" in sections:
        accuracy_section()
    if "training-speed" in sections:  # training time against published runs (bench/training_speed.py)
        from bench.training_speed import section as training_speed_section

        print()
        training_speed_section()
    if "speed" in sections:
        print()
        print("README table (speed, median of runs):")
        print("| measure | time | baseline | ratio | target |")
        print("|---|---:|---:|---:|---|")
        for name, t, base, ratio, target in speed_report():
            print(f"| {name} | {t * 1000:.0f} ms | {base * 1000:.0f} ms | {ratio:.1f}x | {target} |")
    if "scale" in sections:
        print()
        scale_section()
    return 0


def accuracy_section() -> None:
    report = run()
    print_report(report)
    print_readme_table("accuracy", "tool", summary(report))


if __name__ == "__main__":
    sys.exit(main())
