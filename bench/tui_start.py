"""Start an app headless and report when its first screen is drawn: `python -m bench.tui_start bare|advisor DB`.

The child prints "ready" at Textual's Ready event (after the first paint); the parent times the
process from its start to that line.
"""

from __future__ import annotations

import sys

from textual.app import App, ComposeResult
from textual.widgets import Footer, Header, Input, Static


class Bare(App):
    """The baseline: a bare Textual app with a header, some text, an input and a footer."""

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("hello")
        yield Input()
        yield Footer()

    def on_ready(self) -> None:
        print("ready", flush=True)
        self.exit()


def main() -> None:
    if sys.argv[1] == "bare":
        Bare().run(headless=True)
        return
    from gpu_advisor.tui.app import GPUAdvisorApp

    class FirstScreen(GPUAdvisorApp):
        # Ready comes once the first screen has been drawn
        def on_ready(self) -> None:
            print("ready", flush=True)
            self.exit()

    FirstScreen(db=sys.argv[2], preload=False).run(headless=True)


if __name__ == "__main__":
    main()
