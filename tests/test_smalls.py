"""Small gaps of issues 22 and 23 (audits 22/23): the checkpoint's own format by default in every CLI
sizing command, `python -m gpu_advisor`, bad counts and rates refused, price sources in `gpus show`,
and model names never silently replaced by another version."""

from __future__ import annotations

import json

import pytest

from gpu_advisor.tui.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def run_json(capsys, *argv: str) -> dict:
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


# 1. the checkpoint's own format is the default ---------------------------------------------------------

NATIVE = [("gpt-oss-120b", "mxfp4"), ("deepseek-v3.1", "fp8"), ("deepseek-r1", "fp8"), ("kimi-k2", "fp8")]


@pytest.mark.parametrize(("model", "native"), NATIVE)
def test_size_inference_sizes_the_native_format(capsys, model, native):
    data = run_json(capsys, "size", "inference", "-m", model, "--gpu", "h200")
    assert data["precision"] == native
    assert any("the checkpoint's own format" in a for a in data["assumptions"])


def test_gpt_oss_120b_fits_one_h100_by_default(capsys):
    code, out, _ = run(capsys, "size", "inference", "-m", "gpt-oss-120b", "--gpu", "h100")
    assert code == 0
    assert "mxfp4 weights (the checkpoint's own format)" in out
    assert ": fits," in out and "does NOT fit" not in out


@pytest.mark.parametrize(("model", "native"), NATIVE)
def test_speed_sizes_the_native_format(capsys, model, native):
    code, out, _ = run(capsys, "speed", "-m", model, "--gpu", "h200", "--gpus", "8")
    assert code == 0
    assert f"{native}, the checkpoint's own format" in out.splitlines()[0]


@pytest.mark.parametrize(("model", "native", "gpus"), [("gpt-oss-120b", "mxfp4", 1), ("deepseek-r1", "fp8", 8)])
def test_fit_serves_the_native_format(capsys, model, native, gpus):
    data = run_json(capsys, "fit", "-m", model, "--gpu", "h200")
    assert data["smallest_fit"] == gpus
    _code, out, _ = run(capsys, "fit", "-m", model, "--gpu", "h200")
    assert f"{native} weights (the checkpoint's own format)" in out.splitlines()[0]


def test_size_serving_sizes_the_native_format(capsys):
    data = run_json(capsys, "size", "serving", "-m", "gpt-oss-120b", "--rps", "2", "--prompt", "1000",
                    "--output", "200", "--gpu", "h100")
    assert data["precision"] == "mxfp4"


def test_native_fp8_on_ascend_is_served_converted(capsys):
    code, out, _ = run(capsys, "fit", "-m", "deepseek-r1", "--gpu", "ascend-910b")
    assert code == 0
    assert "w8a8-int8 weights (converted from the checkpoint's own fp8)" in out


@pytest.mark.parametrize("argv", [("size", "inference", "-m", "llama-3.1-8b"),
                                  ("speed", "-m", "llama-3.1-8b", "--gpu", "h100"),
                                  ("fit", "-m", "llama-3.1-8b", "--gpu", "h100")])
def test_a_model_without_a_native_format_stays_bf16(capsys, argv):
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert "the checkpoint's own" not in out
    assert "bf16" in out or "Llama 3.1 8B on h100-sxm: serve" in out


def test_an_asked_precision_wins(capsys):
    data = run_json(capsys, "size", "inference", "-m", "gpt-oss-120b", "-p", "bf16", "--gpu", "h100")
    assert data["precision"] == "bf16" and data["fits"] is False
    assert not any("the checkpoint's own" in a for a in data["assumptions"])


def test_fit_for_training_keeps_its_compute_precision(capsys):
    data = run_json(capsys, "fit", "-m", "gpt-oss-20b", "--gpu", "h100", "--phase", "train")
    assert not any("the checkpoint's own" in a for a in data["assumptions"])


# 2. python -m gpu_advisor ----------------------------------------------------------------------------------

@pytest.mark.slow
def test_python_dash_m_gpu_advisor_runs_the_cli():
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    version = subprocess.run([sys.executable, "-m", "gpu_advisor", "--version"], cwd=root, capture_output=True,
                             text=True, timeout=120)
    assert version.returncode == 0 and version.stdout.startswith("gpu-advisor "), version.stderr
    sized = subprocess.run([sys.executable, "-m", "gpu_advisor", "size", "inference", "-m", "gpt-oss-120b", "--gpu",
                            "h100", "--json"], cwd=root, capture_output=True, text=True, timeout=120)
    assert sized.returncode == 0, sized.stderr
    assert json.loads(sized.stdout)["precision"] == "mxfp4"
    bad = subprocess.run([sys.executable, "-m", "gpu_advisor", "size", "inference", "-m", "no-such-model-xyz"],
                         cwd=root, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "unknown model" in bad.stderr


# 3. bad input: counts of zero or below, negative rates in Chinese, a first-token target below the physics ---

def _understand(text: str):
    from gpu_advisor.assistant.reading import understand

    return understand(text)


ZERO_CARDS = [
    "we have 0 H100s, serve llama 3.1 8b to 20 users",
    "serve llama 3.1 8b to 20 users, we own zero h100s",
    "we have 0x H100 and want to serve llama 3.1 8b",
    "we have -2 h100s, serve llama 3.1 8b to 20 users",
    "serve llama 3.1 8b to 20 users on 0 GPUs",
    "我们有0张H100，部署Llama 3.1 8B给20个人用",
    "部署Llama 3.1 8B给20个人用，我们有零张H100",
    "我们有0块A100，想部署 Llama 3.1 8B",
    "我们有-2张H100，部署Llama 3.1 8B给20个人用",
]


@pytest.mark.parametrize("text", ZERO_CARDS)
def test_a_count_of_zero_cards_is_a_problem_never_one_owned_card(text):
    u = _understand(text)
    assert ("card_count_not_positive" in [code for code, _ in u.problems]), u.problems
    assert not u.updates.get("owned"), u.updates


@pytest.mark.parametrize("text", ["we have 2 H100s, serve llama 3.1 8b to 20 users", "我们有2张H100，部署Llama 3.1 8B给20个人用"])
def test_a_positive_count_of_cards_stays_owned(text):
    u = _understand(text)
    assert not u.problems
    assert u.updates.get("owned")


NEGATIVE_RATES = [
    "部署 Llama 3.1 8B，每秒-5个请求，输入1000 token，输出200 token",
    "部署Llama 3.1 8B，每秒 -5 个请求",
    "部署Llama 3.1 8B，每秒负5个请求",
    "部署Llama 3.1 8B，每秒负五个请求，输出200 token",
    "serve llama 3.1 8b at -5 requests per second",
    "serve llama 3.1 8b, -5 rps",
]


@pytest.mark.parametrize("text", NEGATIVE_RATES)
def test_a_negative_request_rate_is_refused_in_both_languages(text):
    u = _understand(text)
    assert "rate_not_positive" in [code for code, _ in u.problems], (u.problems, u.updates)
    assert "requests_per_s" not in u.updates


@pytest.mark.parametrize("text", ["部署Llama 3.1 8B，每秒5个请求", "部署Llama 3.1 8B，每秒五个请求"])
def test_a_positive_rate_in_chinese_still_reads(text):
    u = _understand(text)
    assert u.updates.get("requests_per_s") == 5


def test_a_range_in_chinese_is_no_negative_number():
    u = _understand("部署Llama 3.1 8B给20个人用，输出200-300个token")
    assert not any(code == "rate_not_positive" for code, _ in u.problems)


@pytest.mark.parametrize("text", ["we have 0 H100s, serve llama 3.1 8b to 20 users", "我们有0张H100，部署Llama 3.1 8B给20个人用"])
def test_the_conversation_says_the_bad_count_politely(text):
    from gpu_advisor.assistant.session import Conversation

    reply = Conversation().send(text)
    body = str(reply.content)
    assert "0" in body and ("at least 1" in body or "至少要是 1" in body)
    assert "Use your 1" not in body and "使用你自己的 1" not in body


@pytest.mark.parametrize("owned", ["0x h100-sxm", "-2x h100-sxm", "0 h100-sxm"])
def test_cli_owned_count_of_zero_is_one_line_exit_2(capsys, owned):
    code, out, err = run(capsys, "recommend", "-m", "llama-3.1-8b", "--owned", owned)
    assert code == 2 and out == ""
    assert "a count of cards must be at least 1" in err and len(err.strip().splitlines()) == 1


def test_cli_gpus_zero_is_refused(capsys):
    with pytest.raises(SystemExit) as e:
        main(["speed", "-m", "llama-3.1-8b", "--gpu", "h100", "--gpus", "0"])
    assert e.value.code == 2
    assert "must be at least 1" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("extra", [("--requests-per-second", "20", "--prompt-tokens", "1000", "--output-tokens", "200"),
                                   ("--users", "20")])
def test_cli_recommend_first_token_below_the_physics_is_one_line(capsys, extra):
    code, out, err = run(capsys, "recommend", "-m", "llama-3.1-8b", "--phase", "serve", *extra, "--ttft-p99-ms", "1")
    assert code == 2 and out == ""
    line = err.strip()
    assert len(line.splitlines()) == 1
    assert "below the physics" in line and "the fastest there is" in line and "ms with no queue" in line


def test_cli_recommend_reachable_first_token_still_plans(capsys):
    code, out, _ = run(capsys, "recommend", "-m", "llama-3.1-8b", "--phase", "serve", "--users", "5",
                       "--ttft-p99-ms", "2000")
    assert code == 0 and out.startswith("Recommendation:")


# 4. price sources in `gpus show`, thin prices marked in the CLI recommend table ---------------------------

def test_gpus_show_prints_each_offer_and_the_region_distribution(capsys):
    code, out, _ = run(capsys, "gpus", "show", "h100")
    assert code == 0
    assert "Rental prices, USD per GPU-hour" in out and "Offers on record:" in out
    region_rows = [line.split() for line in out.splitlines() if line.startswith(("global ", "us "))]
    assert {r[0] for r in region_rows} == {"global", "us"}
    glob = next(r for r in region_rows if r[0] == "global")
    assert glob[1] == "3.99" and glob[2] == "1.85" and glob[4] == "17"  # median, low, offers
    assert "1 (few)" in next(" ".join(r) for r in region_rows if r[0] == "us")
    offers = [line for line in out.splitlines() if line.startswith("  - ") and "source:" in line]
    assert any(line.startswith("  - RunPod (global, on-demand): 2.69 USD/GPU-hour, 2026-") for line in offers)
    assert all("https://" in line for line in offers)


def test_gpus_show_json_has_the_price_sources(capsys):
    data = run_json(capsys, "gpus", "show", "h800")
    prices = data["prices"]
    assert [r["region"] for r in prices["regions"]] == ["china"]  # no offer outside China: no global row
    assert prices["regions"][0]["few_offers"] is True
    assert {o["provider"] for o in prices["offers"]} >= {"AutoDL"}
    assert all(o["source"] and o["as_of"] for o in prices["offers"])
    assert "CNY converted" in prices["currency_note"]


def test_gpus_show_without_prices_says_so(capsys):
    code, out, _ = run(capsys, "gpus", "show", "ascend-910b")
    assert code == 0 and "Rental prices: none on record." in out


def test_cli_recommend_table_marks_a_single_offer_price(capsys):
    code, out, _ = run(capsys, "recommend", "-m", "llama-3.3-70b", "--users", "20")
    assert code == 0
    rows = [line for line in out.splitlines() if line.startswith(("1 x mi300x", "2 x a100-80gb-sxm"))]
    assert any(r.startswith("1 x mi300x") and "(price from 1 offer)" in r for r in rows)
    assert all("price from" not in r for r in rows if r.startswith("2 x a100"))


# 5. names never silently replaced: exact records, or "sized as X, the closest on record" -----------------

EXACT = [
    ("Gemma 3n E4B", "gemma-3n-e4b"), ("gemma-3n-e2b", "gemma-3n-e2b"), ("google/gemma-3n-E4B-it", "gemma-3n-e4b"),
    ("Mistral Small 3.2", "mistral-small-3.2-24b"), ("Mistral-Small-3.2-24B-Instruct-2506", "mistral-small-3.2-24b"),
    ("Phi-3.5-MoE", "phi-3.5-moe"), ("phi 3.5 moe instruct", "phi-3.5-moe"),
    ("Qwen3-VL-30B-A3B", "qwen3-vl-30b-a3b"), ("Qwen/Qwen3-VL-235B-A22B-Instruct", "qwen3-vl-235b-a22b"),
    ("MiniMax-M1", "minimax-m1"), ("minimax m1 80k", "minimax-m1"),
]
FRAMES = ["serve {} to 10 users", "用{}给10个人提供服务", "我想用 {} 在手机上跑", "can I run {} on 8 H100s?"]


@pytest.mark.parametrize(("typed", "model_id"), EXACT)
def test_each_named_version_resolves_to_its_own_record(typed, model_id):
    from gpu_advisor.knowledge import find_model

    assert find_model(typed).id == model_id


@pytest.mark.parametrize(("typed", "model_id"), EXACT)
@pytest.mark.parametrize("frame", FRAMES)
def test_the_conversation_reads_the_exact_version(typed, model_id, frame):
    u = _understand(frame.format(typed))
    model = u.updates.get("model")
    # a vision model asked with no image may be sized as the text model it extends, said by note.text_model
    assert model == model_id or any(k == "note.text_model" for k, _ in u.notes), (model, u.notes)
    assert not any(k == "note.model_closest" for k, _ in u.notes)


def test_gemma_3n_is_not_gemma_3():
    from gpu_advisor.knowledge import find_model

    e4b, g3 = find_model("gemma 3n e4b"), find_model("gemma 3 4b")
    assert (e4b.num_layers, e4b.hidden_size, e4b.sliding_window) == (35, 2048, 512)
    assert (g3.num_layers, g3.hidden_size) == (34, 2560)
    assert find_model("phi 3.5 moe").num_experts == 16 and find_model("phi 3.5 moe").experts_per_token == 2
    m1 = find_model("minimax-m1")
    assert m1.recurrent_layers == 70 and m1.num_layers == 80 and m1.num_experts == 32


CLOSEST = [  # (typed, the record sized, its name said)
    ("Mistral Small 3.3", "mistral-small-3-24b", "Mistral Small 3 24B (2501)"),
    ("Qwen3-235B-A22B-Thinking-2507", "qwen3-235b-a22b", "Qwen3 235B-A22B"),
    ("llama-4-17b-128e", "llama-4-maverick", "Llama 4 Maverick"),
    ("x/foo-17b-16e", "llama-4-scout", "Llama 4 Scout"),
]


@pytest.mark.parametrize(("typed", "model_id", "name"), CLOSEST)
@pytest.mark.parametrize("frame", ["serve {} to 10 users", "用{}给10个人提供服务", "how many h100s for {}?"])
def test_a_version_not_on_record_is_said_as_the_closest(typed, model_id, name, frame):
    u = _understand(frame.format(typed))
    assert u.updates.get("model") == model_id
    said = [v for k, v in u.notes if k == "note.model_closest"]
    assert said and said[0]["base"].startswith(name) and said[0]["typed"].lower() == typed.lower()


@pytest.mark.parametrize("text", ["serve foo-20b-64e to 10 users", "用 bar-12b-48e 给10个人提供服务"])
def test_an_expert_marker_with_no_record_is_never_a_dense_model(text):
    u = _understand(text)
    model = str(u.updates.get("model") or "")
    assert not model.endswith("B") or "-A" in model  # never '20B' dense
    assert u.unknown_model


@pytest.mark.parametrize("text", ["serve llama 3.1 8b to 10 users", "serve lama 3.1 8b to 10 users",
                                  "serve qwen 72b to 20 users", "serve deepseek r1 to 10 users",
                                  "serve mistral small 3.1 to 10 users", "serve Qwen3-30B-A3B-Instruct-2507 to 10 users"])
def test_names_on_record_get_no_closest_note(text):
    assert not any(k == "note.model_closest" for k, _ in _understand(text).notes)


@pytest.mark.parametrize(("lang_text", "marker"), [("serve Mistral Small 3.3 to 10 users", "the closest on record"),
                                                   ("部署 Mistral Small 3.3 给10个人用", "最接近的")])
def test_the_reply_says_the_closest_in_both_languages(lang_text, marker):
    from gpu_advisor.assistant.session import Conversation

    body = str(Conversation().send(lang_text).content)
    assert marker in body and "Mistral Small 3.3" in body


def test_cli_and_mcp_say_the_closest_for_a_name_not_on_record(capsys, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    data = run_json(capsys, "size", "inference", "-m", "Qwen/Qwen3-235B-A22B-Thinking-2507", "--gpu", "h200", "--gpus", "8")
    assert any("sized as Qwen3 235B-A22B, the closest on record" in a for a in data["assumptions"])
    from gpu_advisor.tui.mcp_server import run_tool

    out = run_tool("speed", {"model": "x/foo-17b-16e", "gpu": "h200"})
    assert any("sized as Llama 4 Scout" in a and "the closest on record" in a for a in out["assumptions"])
    code, _out, err = run(capsys, "models", "show", "x/bar-20b-64e")
    assert code == 2 and "no total size" in err


def test_a_size_only_name_inherits_no_native_format(capsys, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    data = run_json(capsys, "models", "show", "x/foo-235b-a22b")
    assert data["native_precision"] is None
