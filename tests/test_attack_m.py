"""Issue 26, "Nothing lost, nothing hangs": each attack of the fresh robustness report kept as a test.

Negative model sizes (reader, engine, MCP advise, serve), a symlinked write-ahead log (no copy through
a link, every copy bounded), crafted quantization_config fields, non-UTF-8 arguments, terminal and
bidirectional controls in shown text, a client gone mid-body, another application's `_migrations`
table, MCP request ids of the wrong type, and `ask --cid ''` / `ask -c` on a missing history.
Everything runs in process, in the test's temporary folder; no network, no sleeping."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from pathlib import Path

import pytest
from mcp_stdio import INIT, mcp_stdio

from gpu_advisor.assistant.session import Conversation

# ------------------------------------------------------------------ 1. negative model sizes

SIZES = ["-5b", "-0.5B", "-70B", "-5B-A3B", "-8b"]
EN = ["serve a {s} model to 10 users", "serve {s} to 10 users", "hi! fine-tune a {s} model please",
      "we want to run {s} for our team"]
ZH = ["部署一个{s}的模型给10个人用", "请问微调{s}模型要什么显卡", "想给团队跑一个{s}模型"]


@pytest.mark.parametrize("template", EN + ZH)
@pytest.mark.parametrize("size", SIZES)
def test_a_negative_size_is_read_as_a_problem_never_raised(template, size):
    from gpu_advisor.assistant.reading import understand

    u = understand(template.format(s=size))
    assert u.problems.count(("size_not_positive", {})) == 1
    model = u.updates.get("model")
    assert model is None or not str(model).startswith("-")


@pytest.mark.parametrize(("first", "said", "lang"), [
    ("serve -5b to 10 users", "a model needs a positive number of parameters", "en"),
    ("serve a -0.5B model", "a model needs a positive number of parameters", "en"),
    ("部署一个-5b的模型给10个人用", "模型参数量必须大于零", "zh"),
    ("请帮我微调-70b模型", "模型参数量必须大于零", "zh"),
])
def test_a_conversation_answers_a_negative_size_politely_and_goes_on(first, said, lang):
    conv = Conversation()
    reply = conv.send(first)
    assert said in str(reply.content)
    assert reply.additional_kwargs["gpu_advisor"]["kind"] == "error"
    nxt = conv.send("serve llama 3 8b to 10 users" if lang == "en" else "部署llama 3 8b给10个人用")
    assert "Llama 3 8B" in str(nxt.content)
    assert conv.state["profile"]["model"] == "llama-3-8b"
    assert len(conv.messages) == 4


@pytest.mark.parametrize(("text", "said"), [("serve a 7b model", "a model needs a positive number of parameters"),
                                            ("部署一个7b的模型", "模型参数量必须大于零")])
def test_a_bad_value_no_reader_caught_is_said_back_in_the_users_language(monkeypatch, text, said):
    """The engine's safety net: a BadValue raised while reading becomes the turn's problem, not a crash."""
    from gpu_advisor.assistant import engine
    from gpu_advisor.knowledge.resolve import BadValue

    def raising(*_a, **_k):
        raise BadValue("a model needs a positive number of parameters", "size_not_positive")

    monkeypatch.setattr(engine, "_understand", raising)
    reply = Conversation().send(text)
    assert said in str(reply.content)
    assert reply.additional_kwargs["gpu_advisor"]["kind"] == "error"


def test_mcp_advise_answers_a_negative_size_and_keeps_the_session():
    from gpu_advisor.tui.mcp_server import Sessions

    sessions = Sessions()
    first = sessions.advise("serve a -5b model to 10 users", "s1")
    assert "positive number of parameters" in first["reply"]
    second = sessions.advise("serve llama 3 8b to 10 users", "s1")
    assert "Llama 3 8B" in second["reply"]


def test_serve_answers_a_negative_size_with_a_reply():
    from starlette.testclient import TestClient

    from gpu_advisor.tui.openai_api import create_app

    with TestClient(create_app(), base_url="http://127.0.0.1") as http:
        for text, said in (("serve -5b to 10 users", "positive number of parameters"),
                           ("部署一个-5b的模型", "模型参数量必须大于零")):
            r = http.post("/v1/chat/completions",
                          json={"model": "gpu-advisor", "messages": [{"role": "user", "content": text}]})
            assert r.status_code == 200
            assert said in r.json()["choices"][0]["message"]["content"]


def test_ask_with_a_negative_size_saves_the_reply_too(tmp_path, capsys):
    from gpu_advisor.assistant.history import HistoryStore
    from gpu_advisor.tui.cli import main

    db = tmp_path / "n.db"
    assert main(["ask", "serve a -5b model", "--db", str(db)]) == 0
    assert "positive number of parameters" in capsys.readouterr().out
    store = HistoryStore(db)
    (session,) = store.list_sessions(5)
    assert [m["role"] for m in store.messages(session.id)] == ["user", "assistant"]
    store.close()


# ------------------------------------------------------------------ 2. a symlinked -wal, bounded copies


def _history(tmp_path: Path) -> Path:
    from gpu_advisor.assistant.history import HistoryStore

    db = tmp_path / "h.db"
    store = HistoryStore(db)
    store.add_message(store.create_session("t"), "user", "serve llama 3 8b")
    store.close()
    return db


@pytest.mark.parametrize("side", ["-wal", "-shm"])
@pytest.mark.parametrize("target", ["/dev/zero", "other.bin"])
def test_a_symlinked_wal_or_shm_is_refused_untouched(tmp_path, side, target):
    from gpu_advisor.assistant.history import HistoryError, HistoryStore

    db = _history(tmp_path)
    if target == "other.bin":
        (tmp_path / target).write_bytes(b"\0" * 4096)
        target = str(tmp_path / target)
    os.symlink(target, f"{db}{side}")
    before = hashlib.md5(db.read_bytes()).hexdigest()
    with pytest.raises(HistoryError, match=f"{side[1:]} file; nothing was read or changed"):
        HistoryStore(db)
    assert hashlib.md5(db.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in tmp_path.iterdir() if ".part" in p.name or "damaged" in p.name) == []


def test_the_cli_says_one_line_for_a_symlinked_wal(tmp_path, capsys):
    from gpu_advisor.tui.cli import main

    db = _history(tmp_path)
    os.symlink("/dev/zero", f"{db}-wal")
    assert main(["sessions", "list", "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "symbolic link" in err


def test_a_copy_is_of_a_regular_file_only_and_bounded_by_its_size(tmp_path):
    from gpu_advisor.assistant.history.common import copy_regular

    src = tmp_path / "a"
    src.write_bytes(b"x" * 300_000)
    assert copy_regular(src, tmp_path / "a.copy") and (tmp_path / "a.copy").read_bytes() == src.read_bytes()
    link = tmp_path / "link"
    link.symlink_to(src)
    assert not copy_regular(link, tmp_path / "l.copy") and not (tmp_path / "l.copy").exists()
    assert copy_regular(link, tmp_path / "l.copy", follow=True)
    assert not copy_regular(Path("/dev/zero"), tmp_path / "z.copy", follow=True)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert not copy_regular(fifo, tmp_path / "f.copy", follow=True)  # no writer: never waits
    assert not (tmp_path / "z.copy").exists() and not (tmp_path / "f.copy").exists()


# ------------------------------------------------------------------ 3. crafted quantization_config

BAD_QUANT = [
    ({"quant_method": "gptq", "bits": "x"}, "'bits'"),
    ({"quant_method": "gptq", "bits": [4]}, "'bits'"),
    ({"quant_method": "gptq", "bits": 0}, "'bits'"),
    ({"quant_method": "gptq", "bits": -4}, "'bits'"),
    ({"quant_method": "gptq", "bits": 1e300}, "'bits'"),
    ({"quant_method": "gptq", "bits": True}, "'bits'"),
    ({"quant_method": "gptq", "group_size": "x"}, "'group_size'"),
    ({"quant_method": "awq", "w_bit": {}}, "'w_bit'"),
    ({"quant_method": "awq", "q_group_size": [128]}, "'q_group_size'"),
    ({"quant_method": "compressed-tensors", "config_groups": {"g": "x"}}, "config_groups entries"),
    ({"quant_method": "compressed-tensors", "config_groups": {"g": {"weights": {"num_bits": "x"}}}}, "'num_bits'"),
    ({"quant_method": "compressed-tensors", "config_groups": {"g": {"weights": {"num_bits": 4, "group_size": "y"}}}},
     "'group_size'"),
    ({"quant_method": "compressed-tensors", "config_groups": {"g": {"weights": "x"}}}, "'weights'"),
    ({"quant_method": "modelopt", "quantization": "x"}, "'quantization'"),
    ({"quant_method": "gptq", "modules_to_not_convert": 5}, "list of names"),
    ({"quant_method": "gptq", "ignore": {"a": 1}}, "list of names"),
]


@pytest.mark.parametrize(("q", "field"), BAD_QUANT, ids=[json.dumps(q)[:60] for q, _f in BAD_QUANT])
def test_a_crafted_quantization_field_is_one_line(q, field):
    from gpu_advisor.knowledge.hf_config import ConfigError
    from gpu_advisor.knowledge.quant import parse_quantization

    with pytest.raises(ConfigError, match=field) as e:
        parse_quantization(q)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize(("q", "precision", "bits"), [
    ({"quant_method": "gptq", "bits": 4, "group_size": 128}, "gptq-int4", 4 + 20 / 128),
    ({"quant_method": "gptq", "bits": 3.0, "group_size": -1}, "gptq-int4", 3 + 19 / 4096),
    ({"quant_method": "awq", "w_bit": 4, "q_group_size": 64}, "awq", 4 + 20 / 64),
    ({"quant_method": "fp8", "weight_block_size": [None, "x"]}, "fp8", 8.0),
    ({"quant_method": "compressed-tensors", "config_groups": {"g": {"weights": {"num_bits": 4, "strategy": "group",
                                                                               "group_size": 128}}}},
     "w4a16", 4 + 16 / 128),
    ({"quant_method": "gptq", "modules_to_not_convert": "lm_head"}, "gptq-int4", 4 + 20 / 128),
])
def test_good_quantization_fields_still_parse(q, precision, bits):
    from gpu_advisor.knowledge.quant import parse_quantization

    info = parse_quantization(q)
    assert info is not None and info.precision == precision
    assert info.bits_per_weight == pytest.approx(bits)


def test_models_show_refuses_a_crafted_config_with_exit_2(tmp_path, capsys):
    from gpu_advisor.tui.cli import main

    cfg = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
           "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32,
           "num_key_value_heads": 8, "vocab_size": 128256, "quantization_config": {"quant_method": "gptq", "bits": "x"}}
    path = tmp_path / "config.json"
    path.write_text(json.dumps(cfg))
    assert main(["models", "show", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'bits'" in err and "internal error" not in err


# ------------------------------------------------------------------ 4. non-UTF-8 arguments


@pytest.mark.parametrize("argv", [
    ["ask", "\udcff", "--db", "{db}"],
    ["ask", "serve llama \udcfe 8b", "--db", "{db}"],
    ["sessions", "search", "\udcff", "--db", "{db}"],
    ["sessions", "backup", "{dir}/\udcfe.db", "--db", "{db}"],
    ["ask", "x", "--db", "{dir}/\udcff.db"],
])
def test_non_utf8_arguments_are_one_line_exit_2_and_nothing_is_written(tmp_path, capsys, argv):
    from gpu_advisor.tui.cli import main

    db = tmp_path / "a.db"
    argv = [a.replace("{db}", str(db)).replace("{dir}", str(tmp_path)) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not UTF-8" in err and "\\x" in err
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------ 5 and 8. controls in shown text


@pytest.mark.parametrize("value", ["\\u001b[2Jchina", "\\u009b2Jchina", "\\u202echina", "\\u001b]0;pwned\\u0007us"])
def test_a_settings_warning_never_carries_terminal_or_bidi_controls(tmp_path, value):
    from gpu_advisor.tui import settings

    path = tmp_path / "settings.toml"
    path.write_text(f'region = "{value}"\n')
    problem = settings.load(path).problem
    assert problem and "(ignored)" in problem
    assert not any(c in problem for c in "\x1b\x9b\u202e\x07")


@pytest.mark.parametrize("control", ["\u202e", "\u202a", "\u2066", "\u2069", "\u200f", "\u061c"])
def test_bidi_controls_are_stripped_from_shown_text(control):
    from gpu_advisor.assistant.terminal import printable

    assert printable(f"gpu{control}-advisor 中文{control}") == "gpu-advisor 中文"


def test_sessions_list_and_show_strip_bidi_overrides(tmp_path, capsys):
    from gpu_advisor.assistant.history import HistoryStore
    from gpu_advisor.tui.cli import main

    db = tmp_path / "b.db"
    store = HistoryStore(db)
    sid = store.create_session("evil\u202etxt.exe title")
    store.add_message(sid, "user", "serve \u202ellama 3 8b\u2066 to 5 users")
    store.close()
    for argv in (["sessions", "list"], ["sessions", "show", sid], ["sessions", "export", sid, "--format", "markdown"]):
        assert main([*argv, "--db", str(db)]) == 0
        out = capsys.readouterr().out
        assert "\u202e" not in out and "\u2066" not in out
        assert "evil" in out or "llama 3 8b" in out


# ------------------------------------------------------------------ 6. a client gone mid-body


async def test_a_client_gone_mid_body_is_answered_quietly():
    from starlette.requests import ClientDisconnect

    from gpu_advisor.tui.openai_api import read_body

    class Request:
        headers = {"content-length": "1000"}

        async def stream(self):
            yield b"{\"mod"
            raise ClientDisconnect()

    answer = await read_body(Request())
    assert not isinstance(answer, bytes) and answer.status_code == 400
    assert json.loads(answer.body)["error"]["code"] == "client_disconnected"


# ------------------------------------------------------------------ 7. another application's _migrations


@pytest.mark.parametrize("schema", [
    ["PRAGMA user_version = 999", "CREATE TABLE _migrations (name TEXT)"],
    ["CREATE TABLE _migrations (name TEXT PRIMARY KEY, applied TEXT)"],
    ["CREATE TABLE _migrations (name TEXT PRIMARY KEY, applied TEXT)",
     "INSERT INTO _migrations VALUES ('their_first_step', '2020')"],
    ["CREATE TABLE _migrations (id INTEGER, name TEXT, applied TEXT)",
     "INSERT INTO _migrations (name, applied) VALUES ('001_initial', 'x')"],
])
def test_another_applications_migrations_table_is_refused_untouched(tmp_path, schema):
    from gpu_advisor.assistant.history import HistoryError, HistoryStore

    db = tmp_path / "ver.db"
    conn = sqlite3.connect(db)
    for statement in schema:
        conn.execute(statement)
    conn.commit()
    conn.close()
    before = db.read_bytes()
    with pytest.raises(HistoryError, match="another application"):
        HistoryStore(db)
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ver.db"]


def test_a_history_written_before_the_application_id_still_opens(tmp_path):
    from gpu_advisor.assistant.history import HistoryStore

    db = _history(tmp_path)
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA application_id = 0")
    conn.commit()
    conn.close()
    store = HistoryStore(db)
    assert len(store.list_sessions(5)) == 1
    store.close()


# ------------------------------------------------------------------ 9. MCP ids of the wrong type




@pytest.mark.parametrize("rid", [{"a": 1}, [1], 1.5, True, None], ids=["object", "list", "fraction", "bool", "null"])
@pytest.mark.parametrize("method", ["tools/list", "ping"])
async def test_a_request_with_an_odd_id_gets_invalid_request(rid, method):
    answers = await mcp_stdio([json.dumps(INIT) + "\n",
                                json.dumps({"jsonrpc": "2.0", "id": rid, "method": method}) + "\n",
                                '{"jsonrpc": "2.0", "id": 2, "method": "ping"}\n'])
    errors = [a for a in answers if "error" in a]
    assert [(e["error"]["code"], e["id"]) for e in errors] == [(-32600, None)]
    assert {a.get("id") for a in answers if "result" in a} == {1, 2}


async def test_a_true_notification_still_gets_no_answer():
    answers = await mcp_stdio([json.dumps(INIT) + "\n",
                                '{"jsonrpc": "2.0", "method": "notifications/initialized"}\n',
                                '{"jsonrpc": "2.0", "id": 2, "method": "ping"}\n'])
    assert answers[0]["id"] == 1  # (the ping after it may be cut by the end of input: the SDK's, as before)
    assert not [a for a in answers if "error" in a or a.get("id") is None]


# ------------------------------------------------------------------ 10. ask --cid '' and -c on nothing


@pytest.mark.parametrize("argv", [["ask", "--cid", "", "x"], ["ask", "--cid", "  ", "serve llama 3 8b"]])
def test_an_empty_cid_is_refused(tmp_path, capsys, argv):
    from gpu_advisor.tui.cli import main

    db = tmp_path / "cid.db"
    assert main([*argv, "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--cid needs a session id" in err
    assert not db.exists()


@pytest.mark.parametrize(("flag", "said"), [(["-c"], "there is no saved session to continue"),
                                            (["--cid", "01ABC"], "no session '01ABC' to continue")])
def test_continuing_a_missing_history_creates_nothing(tmp_path, capsys, flag, said):
    from gpu_advisor.tui.cli import main

    db = tmp_path / "NEW.db"
    assert main(["ask", *flag, "what about int4?", "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and said in err and "does not exist" in err
    assert list(tmp_path.iterdir()) == []
