"""Issue 24, start-up: a cold `ask` reads every data file it needs from the parsed-file cache and never imports
PyYAML once the cache is warm. Four word files keyed by numbers (words/changes.yaml's factors, hardware.yaml's
memory sizes, the GGUF bit widths) were parsed from YAML at every start, because JSON keys are text: the cache now
keeps such a mapping as [key, value] pairs (knowledge/yaml_files.PAIRS) and gives back the same keys, of the same
types. The clouds (knowledge/data/clouds.yaml, dates in it) load through the records' cache like the other data."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gpu_advisor.knowledge import yaml_files
from gpu_advisor.knowledge.yaml_files import PAIRS, load_yaml, load_yaml_file
from tests.test_startup import WORDS, _loaded, _same

NUMBER_KEYED = ("changes", "format_pair", "hardware", "precision_compare")


@pytest.mark.parametrize("path", WORDS, ids=lambda p: p.name)
def test_every_word_file_is_cached_and_given_back_exactly(tmp_path, monkeypatch, path):
    monkeypatch.setenv("GPU_ADVISOR_CACHE_DIR", str(tmp_path))
    parsed = load_yaml(path.read_text(encoding="utf-8"))
    assert _same(load_yaml_file(path), parsed)
    assert len(list(tmp_path.glob(f"words.{path.stem}-*.json"))) == 1  # every word file has its JSON copy now
    monkeypatch.setattr(yaml_files, "load_yaml", lambda text: pytest.fail("parsed again"))
    assert _same(load_yaml_file(path), parsed)


@pytest.mark.parametrize("stem", NUMBER_KEYED)
def test_the_number_keyed_word_files_keep_their_number_keys(tmp_path, monkeypatch, stem):
    monkeypatch.setenv("GPU_ADVISOR_CACHE_DIR", str(tmp_path))
    path = next(p for p in WORDS if p.stem == stem)
    load_yaml_file(path)
    again = load_yaml_file(path)

    def number_keys(value):
        if isinstance(value, dict):
            return [k for k in value if not isinstance(k, str)] + [k for v in value.values() for k in number_keys(v)]
        return [k for v in value for k in number_keys(v)] if isinstance(value, list) else []

    keys = number_keys(again)
    assert keys and all(type(k) in (int, float) for k in keys)
    assert keys == number_keys(load_yaml(path.read_text(encoding="utf-8")))


SCALAR_KEYS = st.one_of(st.integers(-10**6, 10**6), st.floats(allow_nan=False, allow_infinity=False),
                        st.booleans(), st.none(), st.text(max_size=6).filter(lambda k: k != PAIRS))
VALUES = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8),
                                st.floats(allow_nan=False, allow_infinity=False)),
                      lambda inner: st.lists(inner, max_size=4) | st.dictionaries(SCALAR_KEYS, inner, max_size=4),
                      max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(VALUES)
def test_any_mapping_of_scalar_keys_comes_back_with_the_same_keys_and_types(value):
    assert yaml_files._json_exact(value)
    text = json.dumps(yaml_files._to_json(value), ensure_ascii=False).encode()
    assert _same(yaml_files._from_json(text), value)


@pytest.mark.parametrize("value", [{PAIRS: 1}, [{PAIRS: [[1, 2]]}], {"a": {float("nan"): 1}}, {(1, 2): "tuple"},
                                   {math.inf: "inf"}])
def test_a_mapping_the_cache_could_not_give_back_is_not_cached(value):
    assert not yaml_files._json_exact(value)


@pytest.mark.parametrize("damage", ['{"\\u0000pairs": 5}', '{"\\u0000pairs": [[1]]}', '{"\\u0000pairs": [[[1], 2]]}'])
def test_a_damaged_pairs_copy_is_parsed_again(tmp_path, monkeypatch, damage):
    monkeypatch.setenv("GPU_ADVISOR_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "words" / "sizes.yaml"
    path.parent.mkdir()
    path.write_text("sizes:\n  8: small\n  80: large\n", encoding="utf-8")
    assert _same(load_yaml_file(path), {"sizes": {8: "small", 80: "large"}})
    (copy,) = (tmp_path / "cache").glob("words.sizes-*.json")
    copy.write_text(damage, encoding="utf-8")
    assert _same(load_yaml_file(path), {"sizes": {8: "small", 80: "large"}})
    assert json.loads(copy.read_text(encoding="utf-8")) != json.loads(damage)  # written anew


def test_the_clouds_from_the_cache_are_the_clouds_from_yaml(tmp_path, monkeypatch):
    from gpu_advisor.knowledge import clouds as clouds_module

    monkeypatch.setenv("GPU_ADVISOR_CACHE_DIR", str(tmp_path))
    from_yaml = {c.id: c for c in (clouds_module.Cloud.model_validate(r) for r in
                                   load_yaml((clouds_module.DATA_DIR / "clouds.yaml").read_text(encoding="utf-8")))}
    for _ in range(2):  # the second from the cached copy
        clouds_module.clouds.cache_clear()
        assert clouds_module.clouds() == from_yaml
    assert list(tmp_path.glob("clouds-*.json"))


ASK = ("import contextlib, io\n"
       "from gpu_advisor.tui.cli import main\n"
       "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
       "    status = main(['ask', '--no-save', {text!r}])\n"
       "assert status == 0 and out.getvalue().strip(), (status, out.getvalue())\n")


@pytest.mark.slow
@pytest.mark.parametrize("text", ["serve llama 3.1 8b to 10 users", "给200个客服用Qwen2.5-32B，预算每月两万人民币",
                                  "double the users and use spot h100s on aws"])
def test_a_warm_ask_imports_no_yaml(tmp_path, text):
    assert _loaded(ASK.format(text=text), tmp_path, ("yaml",), runs=2) == []
