"""The third attack: a message naming many cards ('8x h100 8x a100 8x l40s 8x 4090 8x h20') made one vocabulary pattern
(only_after: masked card names joined by 'and' / '、' / '/') backtrack exponentially: 10 cards took over a minute and
blocked `serve`. The pattern now takes each run of masked text whole (possessive), so its work grows with the text.
A regression here hangs these tests rather than failing them slowly."""
from __future__ import annotations

import json

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.reading.text import word_pattern

CARDS = ["h100", "a100", "l40s", "4090", "h20", "h200", "b200", "a800", "l20", "3090"]


@pytest.mark.parametrize("n", [6, 12, 40])
def test_many_cards_in_one_message_are_read(n):
    text = " ".join(f"8x {CARDS[i % len(CARDS)]}" for i in range(n))
    u = understand(text)
    assert u.whatif_gpus or u.compare_gpus or u.updates.get("only")


@pytest.mark.parametrize("joins", [" ", " and ", "、", " / ", ", "])
def test_the_joined_runs_pattern_on_long_masked_text(joins):
    masked = joins.join(["▒▒▒▒▒▒▒"] * 60)
    assert word_pattern("only_after").match(masked + " are all we can get")
    assert not word_pattern("only_after").match(masked + " are cheap")


@pytest.mark.parametrize("text, want", [("L40S和A100都能用", ["a100-80gb-sxm", "l40s"]),
                                        ("a100 / h100 are all we can get", ["a100-80gb-sxm", "h100-sxm"])])
def test_cards_allowed_together_are_still_read(text, want):
    assert understand(text).updates.get("only") == want


# ------------------------------------------------------------------ the third attack's small findings

def test_a_settings_file_linked_to_itself_is_refused_in_one_line(tmp_path, monkeypatch, capsys):
    from gpu_advisor.tui.cli.program import main

    path = tmp_path / "settings.toml"
    path.symlink_to(path)
    monkeypatch.setenv("GPU_ADVISOR_CONFIG", str(path))
    for argv in (["config", "set", "currency", "CNY"], ["config", "unset", "region"]):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert "loop of symbolic links" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("flag", ["--context", "--users"])
def test_a_flag_value_is_never_echoed_with_control_sequences(flag, capsys):
    from gpu_advisor.tui.cli.program import main

    with pytest.raises(SystemExit) as done:
        main(["size", "inference", "-m", "llama-3-8b", "--precision", "bf16", flag, "\x1b]0;PWN\x07\x1b[2J"])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err and flag in err


def test_mcp_stdio_answers_an_id_with_a_lone_surrogate_and_goes_on():
    import anyio
    from mcp_stdio import INIT, mcp_stdio

    lines = [json.dumps(INIT), '{"jsonrpc":"2.0","id":"x\\udc80","method":"tools/list"}',
             '{"jsonrpc":"2.0","id":3,"method":"tools/list"}']
    out = anyio.run(mcp_stdio, lines)
    assert {"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": "Invalid Request: not a JSON-RPC 2.0 "
                                                                               "message"}} in out
    assert any(m.get("id") == 3 and "result" in m for m in out)


def test_serve_refuses_a_lone_surrogate_with_400():
    from gpu_advisor.tui.openai_api import BadRequest, parse_body

    with pytest.raises(BadRequest, match="lone surrogate"):
        parse_body(b'{"model":"\\udc80","messages":[{"role":"user","content":"hi"}]}')
    assert parse_body(b'{"model":"x","messages":[{"role":"user","content":"\\u4e2d"}]}')["messages"][0][
        "content"] == "中"
