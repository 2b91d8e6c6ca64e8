"""Issue 24, start-up: `gpu-advisor size` (and `--version`) loads none of the conversation's modules. Its `--users` default is the
conversation's (`recommend --users`: tools.phases.DEFAULT_USERS, which the `users` slot reads too), so the parser no longer loads the
slot table (assistant.slots) and, through it, the message catalogs (assistant.catalog). Checked as the modules a
fresh interpreter holds after the command (no timings: `make bench SECTIONS=speed` has them)."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.slots import SLOTS
from gpu_advisor.tools.phases import DEFAULT_USERS
from gpu_advisor.tui.cli import build_parser
from tests.test_startup import SIZE, _loaded

CONVERSATION = ("gpu_advisor.assistant.slots", "gpu_advisor.assistant.catalog", "gpu_advisor.assistant.policy",
                "gpu_advisor.assistant.session", "gpu_advisor.assistant.driver", "gpu_advisor.assistant.engine")


@pytest.mark.slow
@pytest.mark.parametrize("argv", [
    ["size", "inference", "--model", "llama-3.1-8b", "--gpu", "h100"],
    ["size", "inference", "-m", "qwen2.5-14b", "-p", "fp8", "--json"],
    ["size", "training", "--model", "llama-3-8b", "--method", "qlora"],
    ["--version"],
])
def test_size_loads_no_conversation_module(tmp_path, argv):
    code = SIZE.format(argv=argv) if argv != ["--version"] else (
        "import contextlib, io\nfrom gpu_advisor.tui.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n    main(['--version'])\n")
    assert _loaded(code, tmp_path, CONVERSATION) == []


def test_size_and_the_conversation_assume_the_same_users():
    args = build_parser().parse_args(["recommend", "--model", "llama-3.1-8b", "--phase", "serve"])
    assert args.users == SLOTS["users"].default == DEFAULT_USERS == 5
    assert build_parser().parse_args(["recommend", "-m", "llama-3.1-8b", "--phase", "serve", "--users", "12"]).users == 12
