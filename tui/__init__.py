"""The terminal app, the command line and the servers (MCP, OpenAI-compatible) built on the assistant."""

# The one place the version is written: pyproject.toml reads it from here (setuptools' dynamic
# version), `gpu-advisor --version` and the MCP server print it. Each release also gets its section
# in CHANGELOG.md (tests/test_packaging.py checks the two agree).
__version__ = "0.2.0"
