"""Issue 24, start-up: `gpu-advisor size` loads only what sizing needs. The parser is built from every command's
module, so a module a command's parser loads must not load a library at its top that only its own command uses:
the MCP server's asyncio (its HTTP body timeouts), the `gpus` command's price sources and rental prices. Checked
as the modules a fresh interpreter holds after the command (no timings: `make bench SECTIONS=speed` has them)."""

from __future__ import annotations

import pytest

from tests.test_startup import SIZE, _loaded

# what `size` has no use for, though the parser's modules once loaded it at their top
NOT_FOR_SIZE = ("asyncio", "gpu_advisor.tools.price_sources", "gpu_advisor.tools.cost", "mcp", "mcp_types",
                "starlette", "uvicorn", "httpx")


@pytest.mark.slow
@pytest.mark.parametrize("argv", [
    ["size", "inference", "--model", "llama-3-8b", "--gpu", "h100"],
    ["size", "inference", "-m", "qwen2.5-14b", "-p", "fp8", "--json"],
    ["size", "training", "--model", "llama-3-8b", "--method", "qlora"],
    ["speed", "--model", "llama-3.1-8b", "--gpu", "l40s"],
])
def test_size_loads_no_server_or_price_modules(tmp_path, argv):
    loaded = _loaded(SIZE.format(argv=argv), tmp_path, NOT_FOR_SIZE)
    assert loaded == [], f"gpu-advisor {' '.join(argv)} loaded {loaded}"


@pytest.mark.slow
def test_the_modules_still_load_where_they_are_used(tmp_path):
    """The lazy imports are where their commands run: `gpus show` prices a card, the MCP server's HTTP app builds."""
    code = ("import contextlib, io\n"
            "from gpu_advisor.tui.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
            "    assert main(['gpus', 'show', 'h100', '--json']) == 0\n"
            "assert '\"prices\"' in out.getvalue() or 'usd_per_gpu_hour' in out.getvalue()\n"
            "from gpu_advisor.tui.mcp_server import _answer_odd_ids, _until\n"
            "_answer_odd_ids(lambda *a: None); _until(lambda: None, 0.0)\n")
    assert _loaded(code, tmp_path, ("gpu_advisor.tools.price_sources",)) == ["gpu_advisor.tools.price_sources"]
