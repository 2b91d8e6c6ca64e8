"""The `gpu-advisor` command line, run as a separate process: the contract in README.md.

Every command runs with GPU_ADVISOR_DB and GPU_ADVISOR_CACHE_DIR inside the test's temporary folders.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = Path(sys.executable).parent / "gpu-advisor"
QWEN3_8B = "knowledge/data/configs/Qwen__Qwen3-8B.json"
TURNS = ["fine-tune a 27B model and then let my team chat with it", "not sure", "about 15", "working hours"]
TITLE = "Fine-tune and serve a 27B model to 15 users"  # the saved title: what was understood from TURNS
INFERENCE_KEYS = {"weights_bytes", "kv_cache_bytes", "activation_bytes", "overhead_bytes", "total_bytes",
                  "total_range_bytes", "per_gpu_weights_bytes", "per_gpu_kv_cache_bytes",
                  "per_gpu_activation_bytes", "per_gpu_overhead_bytes", "per_gpu_total_bytes",
                  "per_gpu_total_range_bytes"}


class Cli:
    def __init__(self, db: Path, cache: Path):
        self.db = db
        self.env = {**os.environ, "GPU_ADVISOR_DB": str(db), "GPU_ADVISOR_CACHE_DIR": str(cache),
                    "GPU_ADVISOR_CONFIG": str(db.parent / "config" / "settings.toml")}

    def __call__(self, *args: str, input: str | None = None, python: tuple[str, ...] = (),
                 script: bool = False) -> subprocess.CompletedProcess:
        cmd = [str(SCRIPT)] if script else [sys.executable, *python, "-m", "gpu_advisor.tui.cli"]
        return subprocess.run([*cmd, *args], cwd=ROOT, env=self.env, input=input,
                              stdin=None if input is not None else subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=120)

    def ok(self, *args: str, **kw) -> str:
        r = self(*args, **kw)
        assert r.returncode == 0, (r.returncode, r.stdout[-2000:], r.stderr[-2000:])
        assert "Traceback" not in r.stderr
        return r.stdout

    def json(self, *args: str, **kw):
        return json.loads(self.ok(*args, "--json", **kw))


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.fixture
def cli(tmp_path, cache_dir) -> Cli:
    return Cli(tmp_path / "data" / "history.db", cache_dir)


@pytest.fixture(scope="module")
def chatted_db(tmp_path_factory, cache_dir) -> tuple[Path, str]:
    """A database holding one four-turn conversation saved by `chat --plain` (copied for each test)."""
    folder = tmp_path_factory.mktemp("chatted")
    cli = Cli(folder / "history.db", cache_dir)
    cli.ok("chat", "--plain", input="\n".join(TURNS) + "\n")
    [row] = cli.json("sessions", "list")
    return cli.db, row["id"]


@pytest.fixture
def chatted(cli, chatted_db) -> tuple[Cli, str]:
    source, session_id = chatted_db
    cli.db.parent.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal", "-shm"):
        if Path(str(source) + suffix).exists():
            shutil.copy(str(source) + suffix, str(cli.db) + suffix)
    return cli, session_id


def assert_bad_input(r: subprocess.CompletedProcess, *words: str, one_line: bool = True) -> str:
    """Exit status 2, no traceback, and a reason on stderr naming the problem. Argument-parser errors
    (one_line=False) print a usage block first; their reason is the last line."""
    assert r.returncode == 2, (r.returncode, r.stdout[-2000:], r.stderr[-2000:])
    assert "Traceback" not in r.stderr + r.stdout
    lines = r.stderr.strip().splitlines()
    assert lines, "the reason is printed on stderr"
    if one_line:
        assert len(lines) == 1, r.stderr
    message = lines[-1]
    assert message.startswith("gpu-advisor"), message
    for w in words:
        assert w.lower() in message.lower(), (w, message)
    return message


# ---------------------------------------------------------------- size inference


def test_size_inference_json_reports_bytes(cli):
    d = cli.json("size", "inference", "--model", "llama-3-8b", "--precision", "bf16")
    assert set(d) >= INFERENCE_KEYS
    assert d["weights_bytes"] == pytest.approx(16.06e9, rel=1e-9)
    assert d["per_gpu_weights_bytes"] == pytest.approx(d["weights_bytes"])
    parts = d["weights_bytes"] + d["kv_cache_bytes"] + d["activation_bytes"] + d["overhead_bytes"]
    assert d["total_bytes"] == pytest.approx(parts)
    lo, hi = d["total_range_bytes"]
    assert lo <= d["total_bytes"] <= hi
    # tokens x layers x (K and V) x KV heads x head size x 2 bytes
    assert d["kv_cache_bytes"] == 4096 * 32 * 2 * 8 * 128 * 2
    assert list(d)[-3:] == ["assumptions", "warnings", "terms"]  # figures first


def test_size_inference_splits_weights_over_gpus(cli):
    one = cli.json("size", "inference", "--model", "llama-3-8b")
    two = cli.json("size", "inference", "--model", "llama-3-8b", "--gpus", "2")
    assert two["weights_bytes"] == pytest.approx(one["weights_bytes"])
    assert two["per_gpu_weights_bytes"] == pytest.approx(one["weights_bytes"] / 2)
    assert two["per_gpu_total_bytes"] < one["per_gpu_total_bytes"]


def test_size_inference_vllm_on_a_gpu_reports_kv_capacity(cli):
    d = cli.json("size", "inference", "--model", "llama-3-8b", "--engine", "vllm", "--gpu", "h100")
    assert d["gpu"] == "h100-sxm" and d["fits"] is True
    assert isinstance(d["kv_cache_capacity_tokens"], int) and d["kv_cache_capacity_tokens"] > 4096
    assert d["max_concurrent_sequences"] == pytest.approx(d["kv_cache_capacity_tokens"] / 4096, rel=0.01)
    assert d["gpu_capacity_bytes"] > d["per_gpu_total_bytes"]


def test_size_inference_human_output_is_in_gb(cli):
    out = cli.ok("size", "inference", "--model", "llama-3-8b", "--gpu", "h100", "--engine", "vllm")
    assert "GB (10^9 bytes)" in out
    weights = next(line for line in out.splitlines() if line.startswith("Weights"))
    assert "16.1" in weights.split()
    assert "vLLM KV cache capacity" in out and "fits" in out
    assert "--explain" in out


def test_size_inference_explain_shows_formulas(cli):
    out = cli.ok("size", "inference", "--model", "llama-3-8b", "--explain")
    assert "parameters x effective bits per weight / 8" in out


def test_console_script_matches_the_module(cli):
    assert SCRIPT.exists(), SCRIPT
    a = cli.json("size", "inference", "--model", "llama-3-8b", script=True)
    b = cli.json("size", "inference", "--model", "llama-3-8b")
    assert a == b


@pytest.mark.parametrize("spec, model_id, weights", [
    ("llama-3-8b", "llama-3-8b", 16.06e9),
    ("META-LLAMA/Meta-Llama-3-8B-Instruct", "llama-3-8b", 16.06e9),
    (QWEN3_8B, "qwen/qwen3-8b", None),
    ("27B", "generic-27b", 54e9),
    ("26B-A3.8B", "generic-26b-a3.8b", 52e9),
])
def test_model_spec_forms(cli, spec, model_id, weights):
    d = cli.json("size", "inference", "--model", spec)
    assert d["model_id"] == model_id
    if weights is not None:
        assert d["weights_bytes"] == pytest.approx(weights, rel=1e-9)
    else:  # from config.json: hidden 4096, 36 layers, ~8.2B parameters
        assert 15e9 < d["weights_bytes"] < 17.5e9
    assert d["total_bytes"] > d["weights_bytes"]


def test_config_json_anywhere_on_disk(cli, tmp_path):
    folder = tmp_path / "Qwen3-8B"
    folder.mkdir()
    shutil.copy(ROOT / QWEN3_8B, folder / "config.json")
    by_path = cli.json("size", "inference", "--model", str(folder / "config.json"))
    in_repo = cli.json("size", "inference", "--model", QWEN3_8B)
    assert by_path["weights_bytes"] == pytest.approx(in_repo["weights_bytes"])
    assert by_path["kv_cache_bytes"] == pytest.approx(in_repo["kv_cache_bytes"])


def test_moe_weights_count_every_expert_but_speed_uses_the_active_ones(cli):
    moe = cli.json("size", "inference", "--model", "26B-A3.8B")
    dense = cli.json("size", "inference", "--model", "26B")
    assert moe["weights_bytes"] == pytest.approx(dense["weights_bytes"])
    fast = cli.json("speed", "--model", "26B-A3.8B", "--gpu", "h100")
    slow = cli.json("speed", "--model", "26B", "--gpu", "h100")
    assert fast["decode_tokens_per_s"] > 2 * slow["decode_tokens_per_s"]


def test_context_beyond_the_model_maximum_is_warned(cli):
    d = cli.json("size", "inference", "--model", "llama-3-8b", "--context", "1000000")
    assert any("beyond" in w and "maximum context of 8,192" in w for w in d["warnings"]), d["warnings"]
    out = cli.ok("size", "inference", "--model", "llama-3-8b", "--context", "1000000")
    assert "Warnings:" in out and "1,000,000 tokens is beyond Llama 3 8B's maximum context of 8,192" in out


def test_invalid_tensor_parallel_degree_is_warned_without_a_gpu(cli):
    with_gpu = cli.json("size", "inference", "--model", "llama-3-8b", "--gpus", "3", "--gpu", "h100")
    assert any("tensor parallel degree 3" in w for w in with_gpu["warnings"])
    alone = cli.json("size", "inference", "--model", "llama-3-8b", "--gpus", "3")
    assert any("tensor parallel degree 3" in w for w in alone["warnings"]), alone["warnings"]


def test_size_does_not_import_langgraph_or_textual(cli):
    r = cli("size", "inference", "--model", "llama-3-8b", python=("-X", "importtime"))
    assert r.returncode == 0, r.stderr
    imported = r.stderr
    assert "import time:" in imported and "gpu_advisor.tools.inference" in imported
    for heavy in ("langgraph", "langchain", "textual"):
        assert heavy not in imported, heavy


# ---------------------------------------------------------------- the other sizing commands


@pytest.mark.parametrize("method", ["full", "lora", "qlora"])
def test_size_training_json(cli, method):
    d = cli.json("size", "training", "--model", "llama-3-8b", "--method", method)
    assert d["method"] == method
    for key in ("weights_bytes", "gradient_bytes", "optimizer_bytes", "activation_bytes", "overhead_bytes",
                "per_gpu_total_bytes", "per_gpu_total_range_bytes", "trainable_params"):
        assert key in d
    lo, hi = d["per_gpu_total_range_bytes"]
    assert lo <= d["per_gpu_total_bytes"] <= hi
    if method == "full":
        assert d["trainable_params"] == pytest.approx(8.03e9, rel=0.01)
    else:
        assert d["trainable_params"] < 0.01 * 8.03e9


def test_size_training_methods_order(cli):
    total = {m: cli.json("size", "training", "--model", "llama-3-8b", "--method", m)["per_gpu_total_bytes"]
             for m in ("full", "lora", "qlora")}
    assert total["full"] > total["lora"] > total["qlora"]
    out = cli.ok("size", "training", "--model", "llama-3-8b", "--method", "qlora")
    assert "Memory in GB (10^9 bytes)" in out and "Total per GPU" in out


def test_speed_json(cli):
    d = cli.json("speed", "--model", "llama-3-8b", "--gpu", "h100")
    assert d["decode_tokens_per_s"] > 0 and d["prefill_tokens_per_s"] > d["decode_tokens_per_s"]
    lo, hi = d["decode_tokens_per_s_range"]
    assert lo <= d["decode_tokens_per_s"] <= hi
    lo, hi = d["prefill_tokens_per_s_range"]
    assert lo <= d["prefill_tokens_per_s"] <= hi


@pytest.mark.parametrize("args, keys", [
    (["fit", "--model", "llama-3-8b", "--gpu", "a100"], {"options", "smallest_fit", "valid_tensor_parallel"}),
    (["fit", "--model", "qwen2.5-14b", "--gpu", "a100", "--phase", "train", "--method", "full"],
     {"remedies"}),
    (["cost", "--gpu", "h100", "--hours", "10", "--rent-vs-buy"], {"cost", "rent_vs_buy"}),
    (["train-time", "--model", "llama-3-8b", "--gpu", "h100", "--tokens", "20M"],
     {"hours", "hours_range", "usd"}),
    (["recommend", "--model", "27B", "--users", "15", "--utilisation", "40%"], {"best", "options"}),
    (["speed", "--model", "llama-3-8b", "--gpu", "rtx-4090", "--engine", "llama.cpp", "-p", "q4_k_m"],
     {"decode_tokens_per_s"}),
])
def test_commands_json_and_human(cli, args, keys):
    d = cli.json(*args)
    assert keys <= set(d)
    out = cli.ok(*args)
    assert out.strip()
    assert not out.lstrip().startswith("{")


def test_fit_train_full_needs_several_cards_or_a_remedy(cli):
    d = cli.json("fit", "--model", "qwen2.5-14b", "--gpu", "a100", "--phase", "train", "--method", "full")
    assert d["options"][0]["gpus"] == 1 and d["options"][0]["fits"] is False
    assert d["smallest_fit"] and d["smallest_fit"] > 1
    assert any(r["fits"] for r in d["remedies"])


def test_cost_rent_vs_buy(cli):
    d = cli.json("cost", "--gpu", "h100", "--rent-vs-buy", "--utilisation", "40%", "--hours", "10")
    assert d["cost"]["run_usd"] == pytest.approx(d["cost"]["usd_per_hour"] * 10)
    rb = d["rent_vs_buy"]
    assert rb["cheaper"] in ("rent", "buy") and rb["utilisation"] == pytest.approx(0.4)
    assert cli.json("cost", "--gpu", "h100")["rent_vs_buy"] is None
    out = cli.ok("cost", "--gpu", "h100", "--rent-vs-buy")
    assert "Rent or buy" in out


def test_train_time_json(cli):
    d = cli.json("train-time", "--model", "llama-3-8b", "--gpu", "h100", "--tokens", "20M")
    lo, hi = d["hours_range"]
    assert 0 < lo <= d["hours"] <= hi
    twice = cli.json("train-time", "--model", "llama-3-8b", "--gpu", "h100", "--tokens", "20M",
                     "--epochs", "2")
    assert twice["hours"] == pytest.approx(2 * d["hours"])


def test_recommend_json(cli):
    d = cli.json("recommend", "--model", "27B", "--users", "15")
    assert d["best"] and d["options"]
    assert d["best"]["gpu"] in {o["gpu"] for o in d["options"]}
    out = cli.ok("recommend", "--model", "27B", "--users", "15", "--top", "2")
    assert out.startswith("Recommendation:")


@pytest.mark.parametrize("command, known", [("gpus", "h100-sxm"), ("models", "llama-3-8b")])
def test_catalogs(cli, command, known):
    records = cli.json(command)
    assert isinstance(records, list) and len(records) > 10
    assert known in {r["id"] for r in records}
    assert all(r.get("source") for r in records)
    out = cli.ok(command)
    assert known in out and len(out.splitlines()) > 10


# ---------------------------------------------------------------- bad input


@pytest.fixture
def bad_configs(tmp_path) -> dict[str, Path]:
    good = json.loads((ROOT / QWEN3_8B).read_text())
    missing = dict(good)
    del missing["num_hidden_layers"]
    paths = {"missing": tmp_path / "missing" / "config.json", "invalid": tmp_path / "invalid" / "config.json"}
    for p in paths.values():
        p.parent.mkdir()
    paths["missing"].write_text(json.dumps(missing))
    paths["invalid"].write_text('{"hidden_size": 4096, "num_hidden_layers": ')
    return paths


@pytest.mark.parametrize("args, words", [
    (["size", "inference", "--model", "lama-3-8b"], ["unknown model", "llama-3-8b", "did you mean"]),
    (["size", "inference", "--model", "llama-3-8b", "--gpu", "h1000"], ["unknown gpu", "h100-sxm"]),
    (["size", "inference", "--model", "llama-3-8b", "--precision", "fp3"], ["unknown precision", "fp8"]),
    (["size", "inference", "--model", "0B"], ["positive"]),
    (["size", "inference", "--model=-5B"], ["positive"]),
    (["size", "inference", "--model", "1000000000B"], ["beyond"]),
    (["size", "inference", "--model", "26B-A30B"], ["cannot exceed"]),
    (["size", "inference", "--model", "/no/such/folder/config.json"], ["/no/such/folder/config.json"]),
    (["size", "inference", "--model", "llama-3-8b", "--kv-precision", "q4_k_m"], ["kv cache"]),
    (["size", "training", "--model", "llama-3-8b", "--method", "qlora", "--base-precision", "bf16"],
     ["qlora"]),
    (["speed", "--model", "nosuchmodel", "--gpu", "h100"], ["unknown model"]),
    (["fit", "--model", "llama-3-8b", "--gpu", "nosuchgpu"], ["unknown gpu"]),
    (["recommend", "--model", "27B", "--owned", "2x nosuchgpu"], ["unknown gpu"]),
    (["cost", "--gpu", "h1000"], ["unknown gpu", "h100-sxm"]),
    (["sessions", "show", "01NOSUCHSESSION"], ["no session"]),
])
def test_bad_input_exits_2_with_one_line(cli, args, words):
    assert_bad_input(cli(*args), *words)


@pytest.mark.parametrize("which, words", [("missing", ["num_hidden_layers"]), ("invalid", ["json"])])
def test_bad_config_json(cli, bad_configs, which, words):
    assert_bad_input(cli("size", "inference", "--model", str(bad_configs[which])), *words)


ARGPARSE_ERRORS = [
    (["size", "inference", "--model", "llama-3-8b", "--context", "0"], ["--context", "at least 1"]),
    (["size", "inference", "--model", "llama-3-8b", "--batch", "-1"], ["--batch"]),
    (["size", "inference", "--model", "llama-3-8b", "--gpus", "0"], ["--gpus", "at least 1"]),
    (["size", "inference", "--model", "llama-3-8b", "--context", "99999999999"], ["--context", "beyond"]),
    (["size", "inference", "--model", "-5B"], ["--model"]),
    (["size", "inference", "--model", "llama-3-8b", "--gpu-memory-utilization", "0"], ["between 0 and 1"]),
    (["cost", "--gpu", "h100", "--utilisation", "150%"], ["--utilisation", "between 0 and 1"]),
    (["train-time", "--model", "llama-3-8b", "--gpu", "h100", "--tokens", "0"], ["--tokens"]),
    (["size", "training", "--model", "llama-3-8b", "--method", "sideways"], ["--method"]),
]


@pytest.mark.parametrize("args, words", ARGPARSE_ERRORS)
def test_bad_arguments_exit_2(cli, args, words):
    assert_bad_input(cli(*args), *words, one_line=False)


@pytest.mark.parametrize("args", [ARGPARSE_ERRORS[0][0], ARGPARSE_ERRORS[6][0]])
def test_bad_arguments_are_reported_on_one_line(cli, args):
    assert_bad_input(cli(*args), one_line=True)


@pytest.mark.parametrize("args", [["train-time", "--model", "llama-3-8b", "--gpu", "h100", "--tokens", "inf"],
                                  ["cost", "--gpu", "h100", "--hours", "inf"]])
def test_infinite_amounts_are_bad_input(cli, args):
    assert_bad_input(cli(*args, "--json"), one_line=False)


# ---------------------------------------------------------------- ask and chat


def test_ask_answers_in_markdown_with_assumptions(cli):
    out = cli.ok("ask", "fine-tune a 27B model and serve it to 20 users")
    assert out.startswith("## ")
    assert "**Assumptions**" in out
    after = out.split("**Assumptions**", 1)[1]
    assert sum(line.startswith("- ") for line in after.splitlines()) >= 3
    d = cli.json("ask", "fine-tune a 27B model and serve it to 20 users")
    assert d["role"] == "assistant"
    assert d["gpu_advisor"]["kind"] == "answer"
    assert d["gpu_advisor"]["assumptions"]
    assert d["content"] + "\n" == out  # the same answer either way


def test_chat_plain_three_lines_three_replies_one_session(cli):
    out = cli.ok("chat", "--plain", input="\n".join(TURNS[:3]) + "\n")
    [row] = cli.json("sessions", "list")
    assert row["messages"] == 6 and row["title"] == TITLE
    shown = cli.json("sessions", "show", row["id"])
    replies = [m["text"] for m in shown["messages"] if m["role"] == "assistant"]
    assert len(replies) == 3 and all(replies)
    assert out == "".join(reply + "\n\n" for reply in replies)
    assert [m["text"] for m in shown["messages"] if m["role"] == "user"] == TURNS[:3]


def test_chat_plain_json_prints_one_reply_per_line(cli):
    out = cli.ok("chat", "--plain", "--json", input="\n".join(TURNS) + "\n")
    lines = [json.loads(line) for line in out.splitlines()]
    assert [d["gpu_advisor"]["kind"] for d in lines] == ["question", "question", "question", "answer"]


def test_chat_plain_resume_continues_the_session(chatted):
    cli, sid = chatted
    out = cli.ok("chat", "--plain", "--resume", sid, input="make it 32k context\n")
    assert out.strip()
    [row] = cli.json("sessions", "list")
    assert row["id"] == sid and row["messages"] == 10


def test_chat_plain_no_save_saves_nothing(cli):
    out = cli.ok("chat", "--plain", "--no-save", input="\n".join(TURNS[:3]) + "\n")
    assert out.count("\n\n") >= 3
    assert cli.json("sessions", "list") == []


# ---------------------------------------------------------------- sessions


def test_sessions_list(chatted):
    cli, sid = chatted
    [row] = cli.json("sessions", "list")
    assert row["id"] == sid and row["messages"] == 8 and row["title"] == TITLE
    out = cli.ok("sessions", "list")
    assert sid[:8] in out and sid not in out and "messages" in out  # the short id (full ids: --json, --ids)


def test_sessions_list_empty(cli):
    assert cli.ok("sessions", "list").strip().startswith("No saved sessions yet: ask a question with `gpu-advisor ask")


def test_sessions_search(chatted):
    cli, sid = chatted
    [hit] = cli.json("sessions", "search", "team")
    assert hit["id"] == sid and "[team]" in hit["snippet"]
    assert sid[:8] in cli.ok("sessions", "search", "team")
    assert cli.json("sessions", "search", "xylophone") == []
    assert cli.ok("sessions", "search", "xylophone").strip() == "No session matches."
    assert cli.json("sessions", "search", '"(team', "AND", "c++") == []  # raw text is not FTS syntax


def test_sessions_show(chatted):
    cli, sid = chatted
    md = cli.ok("sessions", "show", sid)
    assert md.startswith(f"# {TITLE}\n")
    assert md.count("**You:**") == 4 and md.count("**Advisor:**") == 4
    d = cli.json("sessions", "show", sid[:18])
    assert d["format"] == "gpu-advisor-session" and d["session"]["id"] == sid
    assert [m["role"] for m in d["messages"]] == ["user", "assistant"] * 4
    assert any(c["tool"] == "recommend" for c in d["tool_calls"])


def test_sessions_export_markdown_and_json(chatted, tmp_path):
    cli, sid = chatted
    assert cli.ok("sessions", "export", sid) == cli.ok("sessions", "show", sid)
    exported = json.loads(cli.ok("sessions", "export", sid, "--format", "json"))
    assert exported == cli.json("sessions", "show", sid)
    target = tmp_path / "report.md"
    assert "Wrote" in cli.ok("sessions", "export", sid, "-o", str(target))
    assert target.read_text() == cli.ok("sessions", "show", sid)


def test_sessions_export_never_overwrites_without_force(chatted, tmp_path):
    cli, sid = chatted
    target = tmp_path / "existing.md"
    target.write_text("precious notes")
    assert_bad_input(cli("sessions", "export", sid, "-o", str(target)), "exists", "--force")
    assert target.read_text() == "precious notes"
    cli.ok("sessions", "export", sid, "-o", str(target), "--force")
    assert target.read_text().startswith("# ")


def test_sessions_import_round_trip(chatted, tmp_path):
    cli, sid = chatted
    target = tmp_path / "export.json"
    cli.ok("sessions", "export", sid, "--format", "json", "-o", str(target))
    new_id = cli.json("sessions", "import", str(target))["id"]
    assert new_id != sid
    original, copy = cli.json("sessions", "show", sid), cli.json("sessions", "show", new_id)
    strip = lambda d: [(m["seq"], m["role"], m["text"], m["payload"]) for m in d["messages"]]  # noqa: E731
    assert strip(copy) == strip(original)
    assert copy["session"]["title"] == original["session"]["title"]
    assert {r["id"] for r in cli.json("sessions", "list")} == {sid, new_id}
    assert "Imported as session" in cli.ok("sessions", "import", str(target))


@pytest.mark.parametrize("content, words", [
    ('{"hello": "world"}', ["not a gpu advisor session export"]),
    ("[1, 2, 3]", ["not a gpu advisor session export"]),
    ("this is not json", ["cannot read"]),
    ('{"format": "gpu-advisor-session", "version": 9, "messages": []}', ["newer"]),
])
def test_sessions_import_rejects_what_is_not_an_export(cli, tmp_path, content, words):
    f = tmp_path / "file.json"
    f.write_text(content)
    assert_bad_input(cli("sessions", "import", str(f)), *words)
    assert cli.json("sessions", "list") == []


def test_sessions_import_missing_file(cli, tmp_path):
    assert_bad_input(cli("sessions", "import", str(tmp_path / "nope.json")), "cannot read")


@pytest.mark.parametrize("content", [
    '{"format": "gpu-advisor-session", "version": "abc", "messages": []}',
    '{"format": "gpu-advisor-session", "version": null, "messages": []}',
    '{"format": "gpu-advisor-session", "version": 1, "session": "x", "messages": []}',
    '{"format": "gpu-advisor-session", "version": 1, "messages": [{"role": "user", "text": null}]}',
])
def test_sessions_import_malformed_export_is_bad_input(cli, tmp_path, content):
    f = tmp_path / "file.json"
    f.write_text(content)
    assert_bad_input(cli("sessions", "import", str(f)))


def test_sessions_replay(cli):
    # recorded here rather than taken from the shared fixture: replay compares with today's engine
    cli.ok("chat", "--plain", input="\n".join(TURNS) + "\n")
    [row] = cli.json("sessions", "list")
    sid = row["id"]
    r = cli("sessions", "replay", sid, "--check")
    assert r.returncode == 0, r.stderr
    assert "same replies" in r.stdout
    assert cli.json("sessions", "replay", sid) == []

    raw = sqlite3.connect(cli.db)
    with raw:
        raw.execute("UPDATE messages SET text = 'An older engine said this.' "
                    "WHERE session_id = ? AND seq = 4", (sid,))
    raw.close()
    r = cli("sessions", "replay", sid, "--check")
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    assert "--- saved (turn 2)" in r.stdout and "+++ today (turn 2)" in r.stdout
    assert "-An older engine said this." in r.stdout
    assert "1 reply differs" in r.stdout
    assert cli("sessions", "replay", sid).returncode == 0  # without --check it only reports
    [d] = cli.json("sessions", "replay", sid)
    assert d["turn"] == 2 and d["saved"] == "An older engine said this." and d["user"] == TURNS[1]


def test_sessions_delete(chatted):
    cli, sid = chatted
    assert_bad_input(cli("sessions", "delete", sid), "--yes")  # stdin is not a terminal
    assert len(cli.json("sessions", "list")) == 1
    assert sid in cli.ok("sessions", "delete", sid, "--yes")
    assert cli.json("sessions", "list") == []
    assert_bad_input(cli("sessions", "show", sid), "no session")


def test_sessions_backup(chatted, tmp_path):
    cli, sid = chatted
    target = tmp_path / "backups" / "copy.db"
    assert str(target) in cli.ok("sessions", "backup", str(target))
    assert target.exists()
    [row] = cli.json("sessions", "list", "--db", str(target))
    assert row["id"] == sid and row["messages"] == 8
    before = target.read_bytes()
    assert_bad_input(cli("sessions", "backup", str(target)), "exists")
    assert target.read_bytes() == before


def test_sessions_path(cli, tmp_path):
    assert cli.ok("sessions", "path").strip() == str(cli.db)
    assert cli.json("sessions", "path") == {"path": str(cli.db)}
    other = tmp_path / "elsewhere.db"
    assert cli.ok("sessions", "path", "--db", str(other)).strip() == str(other)


def test_corrupt_database_is_moved_aside_with_a_notice(cli):
    cli.db.parent.mkdir(parents=True)
    damaged = b"SQLite format 3\x00" + b"not a database " * 200
    cli.db.write_bytes(damaged)
    r = cli("sessions", "list")
    assert r.returncode == 0, r.stderr
    assert "moved to" in r.stderr and "Traceback" not in r.stderr
    assert r.stdout.startswith("No saved sessions yet")
    [moved] = [p for p in cli.db.parent.glob("history.db.damaged-*") if not p.name.endswith(("-wal", "-shm"))]
    assert moved.read_bytes() == damaged


@pytest.mark.parametrize("args", [("sessions", "list", "--db"), ("chat", "--plain", "--db"), ("--db",)])
def test_a_db_that_is_not_sqlite_is_refused_and_left_alone(cli, tmp_path, args):
    notes = tmp_path / "notes.json"
    notes.write_text('{"my": "notes"}\n', encoding="utf-8")
    r = cli(*args, str(notes), input="serve llama 3 8b\n")
    assert_bad_input(r, "not a GPU Advisor history database") if args != ("--db",) else None
    assert r.returncode == 2
    assert notes.read_text(encoding="utf-8") == '{"my": "notes"}\n'
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("notes")) == ["notes.json"]


def test_database_from_a_newer_version_is_refused(chatted):
    cli, _ = chatted
    raw = sqlite3.connect(cli.db)
    with raw:
        raw.execute("INSERT INTO _migrations (name, applied) VALUES ('999_future', 'x')")
    raw.close()
    before = cli.db.read_bytes()
    assert_bad_input(cli("sessions", "list"), "newer")
    assert cli.db.read_bytes() == before


def test_environment_failures_exit_1_and_bad_input_exits_2(chatted, tmp_path):
    cli, sid = chatted
    r = cli("sessions", "export", sid, "-o", str(tmp_path / "missing" / "report.md"))
    assert r.returncode == 1 and "no export was written" in r.stderr and "internal error" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert_bad_input(cli("sessions", "list", "--db", ""), "empty", one_line=False)
    assert_bad_input(cli("--db", ""), "empty", one_line=False)
    assert_bad_input(cli("cost", "--gpu", "h100", "--hours", "1e308"), "beyond", one_line=False)
    for special in ("/dev/zero", "/dev/stdin"):
        assert_bad_input(cli("size", "inference", "--model", special), "regular file", one_line=False)


def test_invalid_utf8_on_stdin_is_read_not_an_internal_error(cli):
    r = subprocess.run([sys.executable, "-m", "gpu_advisor.tui.cli", "chat", "--plain"], cwd=ROOT, env=cli.env,
                       input=b"\xff\xfe fine-tune a 27B model\n", capture_output=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert b"internal error" not in r.stderr


# ---------------------------------------------------------------- conventions


@pytest.mark.parametrize("args", [(), ("chat",)])
def test_without_a_terminal_the_app_explains_chat_plain_and_exits_2(cli, args):
    r = cli(*args)  # stdin and stdout are not terminals here
    assert r.returncode == 2 and "chat --plain" in r.stderr and "\x1b[" not in r.stdout + r.stderr


def test_ask_reads_the_question_from_a_pipe_or_from_dash(cli):
    piped = cli.ok("ask", input="serve llama 3 8b to 3 users 24/7\n")
    dashed = cli.ok("ask", "-", input="serve llama 3 8b to 3 users 24/7\n")
    assert piped == dashed == cli.ok("ask", "serve llama 3 8b to 3 users 24/7")
    assert_bad_input(cli("ask", input=""), "no question")


def test_version(cli):
    assert cli.ok("--version").startswith("gpu-advisor ")


def test_help_shows_defaults_and_examples_for_every_command(cli):
    from gpu_advisor.tui.cli import build_parser, subcommands

    for path, parser in subcommands(build_parser()):
        assert parser.epilog and "examples:" in parser.epilog, path or "gpu-advisor"
    text = cli.ok("size", "inference", "--help")
    assert "(default: 4096)" in text and "examples:" in text


def test_with_json_errors_are_json_too(cli):
    r = cli("size", "inference", "--model", "no-such-model-xyz", "--json")
    assert r.returncode == 2
    assert json.loads(r.stdout)["error"]["exit_status"] == 2
    r = cli("size", "inference", "--json")  # an argument error
    assert r.returncode == 2 and "model" in json.loads(r.stdout)["error"]["message"]


def test_sessions_backup_and_delete_honour_json(chatted, tmp_path):
    cli, sid = chatted
    target = tmp_path / "copy.db"
    assert cli.json("sessions", "backup", str(target)) == {"path": str(target)}
    assert cli.json("sessions", "delete", sid, "--yes") == {"deleted": sid}


def test_config_path_show_and_set(cli):
    path = Path(cli.env["GPU_ADVISOR_CONFIG"])
    assert cli.ok("config", "path").strip() == str(path)
    assert cli.json("config", "show")["region"] == "global"
    cli.ok("config", "set", "region", "china")
    cli.ok("config", "set", "keys.chat.math", "f5")
    shown = cli.json("config", "show")
    assert shown["region"] == "china" and shown["keys"] == {"chat.math": "f5"}
    assert_bad_input(cli("config", "set", "region", "mars"), "region")
    assert_bad_input(cli("config", "set", "keys.no.such", "f5"), "no key binding")
    assert cli.json("config", "show")["region"] == "china"  # a refused value changed nothing
    assert "(default: china)" in " ".join(cli.ok("cost", "--help").split())  # the new --region default


def test_completion_scripts_name_the_commands(cli):
    bash = cli.ok("completion", "bash")
    assert "complete -o default -F _gpu_advisor gpu-advisor" in bash and "sessions" in bash and "--precision" in bash
    assert cli.ok("completion", "zsh").startswith("#compdef gpu-advisor")
    assert "complete -c gpu-advisor" in cli.ok("completion", "fish")
    r = subprocess.run(["bash", "-c", 'source /dev/stdin; COMP_WORDS=(gpu-advisor sessions ""); COMP_CWORD=2; '
                        '_gpu_advisor; echo "${COMPREPLY[@]}"'], input=bash, capture_output=True, text=True,
                       timeout=30)
    assert "list" in r.stdout.split() and "backup" in r.stdout.split()


def bash_complete(script: str, line: str, env: dict[str, str]) -> list[str]:
    """What bash offers for `line` (the word being completed is the last one, empty after a space)."""
    words = line.split() + ([""] if line.endswith(" ") else [])
    quoted = " ".join(f"'{w}'" for w in ["gpu-advisor", *words])
    r = subprocess.run(["bash", "-c", f'source /dev/stdin; COMP_WORDS=({quoted}); COMP_CWORD={len(words)}; '
                        '_gpu_advisor; printf "%s\\n" "${COMPREPLY[@]}"'], input=script, capture_output=True,
                       text=True, timeout=30, env=env)
    assert r.returncode == 0 and not r.stderr, r.stderr
    return r.stdout.split()


def test_completion_offers_the_values_of_each_flag_and_the_saved_session_ids(chatted):
    from gpu_advisor.knowledge import gpus

    cli, session_id = chatted
    script = cli.ok("completion", "bash")
    path = {**cli.env, "PATH": f"{SCRIPT.parent}:{os.environ['PATH']}"}  # (where `gpu-advisor` is installed)
    assert bash_complete(script, "recommend --region ", path) == ["global", "us", "eu", "china"]
    assert bash_complete(script, "size inference --engine ", path) == ["transformers", "vllm", "sglang", "llama.cpp"]
    assert bash_complete(script, "size inference --gpu h100-", path) == ["h100-pcie", "h100-sxm", "h100-nvl"]
    assert {g.id for g in gpus()} <= set(bash_complete(script, "gpus show ", path))
    assert {"bf16", "fp8", "int4", "q4_k_m"} <= set(bash_complete(script, "size inference -p ", path))
    assert "llama-3.1-70b" in bash_complete(script, "recommend --model llama-3.1-", path)
    assert bash_complete(script, "config get keys.chat.ma", path) == ["keys.chat.math"]
    assert {"theme", "region", "currency"} <= set(bash_complete(script, "config set ", path))
    assert session_id in bash_complete(script, "sessions show ", path)  # asked of the database at Tab time
    assert session_id in bash_complete(script, "ask --cid ", path)
    assert bash_complete(script, "size inference --gp", path) == ["--gpus", "--gpu", "--gpu-memory-utilization"]
    assert cli.ok("sessions", "list", "--ids").split() == [session_id]


def top_level_commands() -> set[str]:
    from gpu_advisor.tui.cli import build_parser, subcommands

    return {path for path, _parser in subcommands(build_parser()) if path and " " not in path}


def completion_file(cli, shell: str, folder: Path) -> Path:
    script = folder / f"gpu-advisor.{shell}"
    script.write_text(cli.ok("completion", shell), encoding="utf-8")
    return script


# zsh runs the bash function through bashcompinit, which calls it with ksharrays set (0-based arrays)
ZSH_COMPLETE = """autoload -U compinit && compinit -D -u
source {script}
setopt ksharrays
COMP_WORDS=(gpu-advisor ""); COMP_CWORD=1; _gpu_advisor; print -r -- "${{COMPREPLY[@]}}"
COMP_WORDS=(gpu-advisor sessions ""); COMP_CWORD=2; _gpu_advisor; print -r -- "${{COMPREPLY[@]}}"
print -r -- "$PATH"
"""


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_the_zsh_completion_script_is_valid_zsh_and_completes_the_real_commands(cli, tmp_path):
    script = completion_file(cli, "zsh", tmp_path)
    checked = subprocess.run(["zsh", "-n", str(script)], capture_output=True, text=True, timeout=30)
    assert checked.returncode == 0, checked.stderr
    env = {**os.environ, "HOME": str(tmp_path)}  # compinit -D writes no dump file, but keep ~ private
    r = subprocess.run(["zsh", "-f", "-c", ZSH_COMPLETE.format(script=script)], capture_output=True, text=True,
                       timeout=30, env=env)
    assert r.returncode == 0 and not r.stderr, r.stderr
    commands, actions, path = r.stdout.splitlines()
    assert top_level_commands() <= set(commands.split())
    assert {"list", "search", "show", "export", "import", "replay", "delete", "backup"} <= set(actions.split())
    assert path == os.environ["PATH"]  # the function leaves zsh's $path (tied to $PATH) alone


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
def test_the_fish_completion_script_is_valid_fish_and_completes_the_real_commands(cli, tmp_path):
    script = completion_file(cli, "fish", tmp_path)
    checked = subprocess.run(["fish", "--no-config", "-n", str(script)], capture_output=True, text=True, timeout=30)
    assert checked.returncode == 0, checked.stderr
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)}

    def complete(line: str) -> set[str]:
        r = subprocess.run(["fish", "--no-config", "-c", f"source {script}; complete -C '{line}'"],
                           capture_output=True, text=True, timeout=30, env=env)
        assert r.returncode == 0 and not r.stderr, r.stderr
        return {row.split("\t")[0] for row in r.stdout.splitlines()}

    assert top_level_commands() <= complete("gpu-advisor ")
    assert complete("gpu-advisor sess") == {"sessions"}
    assert {"list", "search", "replay", "backup"} <= complete("gpu-advisor sessions ")
    assert {"--precision", "--gpu", "--json"} <= complete("gpu-advisor size inference --")


def test_the_currency_setting_prices_the_sizing_commands(cli):
    from gpu_advisor.knowledge import rules

    usd = cli.ok("cost", "--gpu", "h100", "--hours", "10")
    assert " USD/hour typical" in usd and "CNY" not in usd
    cli.ok("config", "set", "currency", "cny")
    assert cli.json("config", "show")["currency"] == "CNY"
    cny = cli.ok("cost", "--gpu", "h100", "--hours", "10")
    dollars = float(usd.split(": ", 1)[1].split(" USD/hour")[0].replace(",", ""))
    yuan = float(cny.split(": ", 1)[1].split(" CNY/hour")[0].replace(",", ""))
    assert yuan == pytest.approx(dollars / rules().usd_per_cny, abs=0.01)
    assert "USD per CNY" in cny  # says the rate it used
    assert cli.ok("cost", "--gpu", "h100", "--hours", "10", "--currency", "usd") == usd  # a flag still wins
    assert cli.json("cost", "--gpu", "h100")["cost"]["usd_per_hour"] == pytest.approx(dollars)  # JSON stays in USD
    assert "job CNY" in cli.ok("recommend", "--model", "27B", "--top", "2")
    assert "(default: CNY)" in " ".join(cli.ok("train-time", "--help").split())
    assert_bad_input(cli("config", "set", "currency", "EUR"), "currency")


def test_models_show_prints_the_resolved_shape_of_a_model(cli):
    shape = cli.json("models", "show", "Qwen/Qwen2.5-72B-Instruct")
    assert shape["id"] == "qwen2.5-72b" and shape["kv_heads"] == 8 and shape["layers"] == 80
    assert "kv_heads" in cli.ok("models", "show", QWEN3_8B)
    r = cli("models", "show")
    assert r.returncode == 2 and "models show needs a model" in r.stderr


def test_gpus_path_says_where_your_own_cards_go(cli):
    paths = cli.json("gpus", "--path")
    assert paths["gpus"].endswith("gpus.yaml") and paths["prices"].endswith("prices.yaml")


def test_an_unknown_repo_offline_says_why_in_one_line(cli):
    r = cli("size", "inference", "-m", "someorg/foo-bar", "--precision", "bf16")
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert "HF_HUB_OFFLINE" in r.stderr and "give a size" in r.stderr


# ---------------------------------------------------------------- ask, saved like a conversation


def test_ask_is_saved_and_continued_with_c_and_cid(cli):
    first = cli.json("ask", "serve llama 3.1 70b to 50 users")
    sid = first["session_id"]
    [row] = cli.json("sessions", "list")
    assert row["id"] == sid and row["title"] == "Serve Llama 3.1 70B to 50 users"
    follow = cli.json("ask", "-c", "what about int4?")
    assert follow["session_id"] == sid and follow["gpu_advisor"]["kind"] == "answer"
    assert "int4" in follow["content"].lower()
    other = cli.json("ask", "fine-tune qwen2.5 7b")["session_id"]
    again = cli.json("ask", "--cid", sid[:10], "make it 32k context")
    assert again["session_id"] == sid
    texts = [m["text"] for m in cli.json("sessions", "show", sid)["messages"] if m["role"] == "user"]
    assert texts == ["serve llama 3.1 70b to 50 users", "what about int4?", "make it 32k context"]
    assert cli.json("ask", "-c", "with lora")["session_id"] == sid  # the latest: the one just continued
    assert other != sid


def test_ask_no_save_saves_nothing_and_answers_the_same(cli):
    saved = cli.ok("ask", "serve llama 3 8b to 3 users 24/7")
    assert cli.ok("ask", "--no-save", "serve llama 3 8b to 3 users 24/7") == saved
    assert len(cli.json("sessions", "list")) == 1


@pytest.mark.parametrize(("args", "words"), [
    (["ask", "-c", "what about int4?"], "no saved session"),
    (["ask", "--cid", "01ZZZZ", "what about int4?"], "no session"),
    (["ask", "-c", "--cid", "01J", "x"], "either -c"),
    (["ask", "--no-save", "-c", "x"], "--no-save"),
])
def test_ask_continuing_what_cannot_be_continued_is_one_line(cli, args, words):
    assert_bad_input(cli(*args), words)
