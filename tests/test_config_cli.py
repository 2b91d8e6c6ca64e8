"""`gpu-advisor config get / unset / edit`: read one setting, put one back, edit the file in $EDITOR and
have it checked when the editor closes."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gpu_advisor.tui.cli.program import main


@pytest.fixture(autouse=True)
def settings_file(tmp_path: Path, monkeypatch) -> Path:
    path = tmp_path / "config" / "settings.toml"
    monkeypatch.setenv("GPU_ADVISOR_CONFIG", str(path))
    for name in ("VISUAL", "EDITOR"):
        monkeypatch.delenv(name, raising=False)
    return path


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out.strip(), err.strip()


@pytest.mark.parametrize(("key", "default", "value"), [
    ("region", "global", "china"), ("currency", "USD", "CNY"), ("theme", "textual-dark", "nord"),
    ("keys.chat.math", "ctrl+e", "f5"), ("keys.replay.faster", "plus,equals_sign", "f6"),
])
def test_get_shows_what_is_in_effect_and_unset_puts_the_default_back(capsys, settings_file, key, default, value):
    assert run(capsys, "config", "get", key) == (0, default, "")
    assert not settings_file.exists()  # reading writes nothing
    assert run(capsys, "config", "set", key, value)[0] == 0
    assert run(capsys, "config", "get", key) == (0, value, "")
    status, out, _ = run(capsys, "config", "unset", key)
    assert status == 0 and "back to its default" in out
    assert run(capsys, "config", "get", key) == (0, default, "")


def test_unset_leaves_the_other_settings_alone(capsys, settings_file):
    for key, value in [("region", "china"), ("currency", "CNY"), ("keys.chat.math", "f5")]:
        run(capsys, "config", "set", key, value)
    run(capsys, "config", "unset", "currency")
    assert [run(capsys, "config", "get", k)[1] for k in ("region", "currency", "keys.chat.math")] == \
        ["china", "USD", "f5"]


@pytest.mark.parametrize("action", ["get", "unset"])
@pytest.mark.parametrize(("key", "words"), [("nope", "unknown setting 'nope'"),
                                            ("keys.chat.nothing", "no key binding 'chat.nothing'")])
def test_an_unknown_key_is_one_line_and_exit_2_and_changes_nothing(capsys, settings_file, action, key, words):
    run(capsys, "config", "set", "region", "eu")
    before = settings_file.read_bytes()
    status, out, err = run(capsys, "config", action, key)
    assert status == 2 and out == "" and words in err and len(err.splitlines()) == 1
    assert settings_file.read_bytes() == before


def editor(tmp_path: Path, body: str, status: int = 0) -> str:
    """An editor that runs `body` (Python, with the file's path as `path`) and exits with `status`."""
    script = tmp_path / "editor.py"
    script.write_text(f"import sys\npath = sys.argv[1]\n{body}\nsys.exit({status})\n", encoding="utf-8")
    return f"{sys.executable} {script}"


def test_edit_writes_the_defaults_first_and_checks_the_result(capsys, tmp_path, monkeypatch, settings_file):
    seen = tmp_path / "seen.txt"
    monkeypatch.setenv("EDITOR", editor(tmp_path, f"""
open({str(seen)!r}, 'w').write(open(path).read())
text = open(path).read().replace('"global"', '"china"')
open(path, 'w').write(text)"""))
    status, out, err = run(capsys, "config", "edit")
    assert status == 0 and out.endswith("is valid") and err == ""
    assert 'region = "global"' in seen.read_text()  # the editor opened a file holding the defaults
    assert run(capsys, "config", "get", "region") == (0, "china", "")


def test_visual_wins_over_editor(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("EDITOR", "false")
    monkeypatch.setenv("VISUAL", editor(tmp_path, "pass"))
    assert run(capsys, "config", "edit")[0] == 0


@pytest.mark.parametrize(("body", "status", "words"), [
    ("text = open(path).read(); open(path, 'w').write(text.replace('global', 'mars'))", 0, "region must be one of"),
    ("open(path, 'w').write('theme = [not toml')", 0, "could not be read"),
    ("pass", 3, "exited with status 3"),
])
def test_edit_says_what_is_wrong_after_the_editor(capsys, tmp_path, monkeypatch, body, status, words):
    monkeypatch.setenv("EDITOR", editor(tmp_path, body, status))
    code, _, err = run(capsys, "config", "edit")
    assert code == 2 and words in err and len(err.splitlines()) == 1


def test_an_editor_that_cannot_start_is_one_line(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("EDITOR", str(tmp_path / "no-such-editor"))
    code, _, err = run(capsys, "config", "edit")
    assert code == 2 and "could not start the editor" in err and len(err.splitlines()) == 1


# Key bindings written the usual TOML ways: a quoted id, a dotted key inside [keys], a [keys.chat] table
# and a dotted key at the top. Each is read as binding chat.math, and `config set`/`unset` change the
# user's own line, never adding a second entry for the same binding.
KEY_SHAPES = {
    "quoted": '[keys]\n"chat.math" = "f6"\n',
    "dotted in [keys]": "[keys]\nchat.math = \"f6\"\n",
    "[keys.chat] table": "[keys.chat]\nmath = \"f6\"\n",
    "dotted at the top": 'keys.chat.math = "f6"\n',
}


@pytest.mark.parametrize("shape", sorted(KEY_SHAPES))
def test_every_toml_spelling_of_a_key_binding_is_read_and_edited_in_place(capsys, settings_file, shape):
    import tomllib

    settings_file.parent.mkdir(parents=True)
    settings_file.write_text("# mine\n" + KEY_SHAPES[shape], encoding="utf-8")
    assert run(capsys, "config", "get", "keys.chat.math") == (0, "f6", "")
    assert run(capsys, "config", "set", "keys.chat.math", "f7")[0] == 0
    text = settings_file.read_text(encoding="utf-8")
    assert text.count("f7") == 1 and "f6" not in text and text.startswith("# mine\n")
    assert tomllib.loads(text) in ({"keys": {"chat.math": "f7"}}, {"keys": {"chat": {"math": "f7"}}})
    assert run(capsys, "config", "get", "keys.chat.math") == (0, "f7", "")
    assert run(capsys, "config", "unset", "keys.chat.math")[0] == 0
    assert "f7" not in settings_file.read_text(encoding="utf-8")
    assert run(capsys, "config", "get", "keys.chat.math") == (0, "ctrl+e", "")


def test_an_unknown_table_is_named_as_an_unknown_setting_and_kept(capsys, settings_file):
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text('region = "china"\n[extra]\nmine = 1\n', encoding="utf-8")
    status, out, err = run(capsys, "config", "get", "region")
    assert (status, out) == (0, "china")
    assert "unknown setting 'extra'" in err and "text value" not in err
    assert run(capsys, "config", "set", "currency", "CNY")[0] == 0
    assert "[extra]\nmine = 1" in settings_file.read_text(encoding="utf-8")


def test_a_settings_file_saved_with_a_byte_order_mark_is_read(capsys, settings_file):
    settings_file.parent.mkdir(parents=True)
    settings_file.write_bytes('\ufeffregion = "china"\n'.encode())
    assert run(capsys, "config", "get", "region") == (0, "china", "")
    assert run(capsys, "config", "set", "currency", "CNY")[0] == 0
    assert run(capsys, "config", "get", "region") == (0, "china", "")
