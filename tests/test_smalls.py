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
