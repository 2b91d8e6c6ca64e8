"""The terminal app, the command line and the servers (MCP, OpenAI-compatible) built on the assistant."""
