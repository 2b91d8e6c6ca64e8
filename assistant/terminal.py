"""Stored text made safe to show: what a terminal would act on is removed.

Text in the history (and in an imported export) is data. Printed raw, an escape sequence in it would
set the terminal's title (OSC 0), write the clipboard (OSC 52), move the cursor or hide what follows.
Every place that shows or exports stored text passes it through `printable`; the database keeps the
original, so nothing the user wrote is lost.
"""

from __future__ import annotations

import re

# Escape sequences and control characters that a terminal would act on: CSI (colours, cursor moves),
# OSC (titles, OSC 8 links, OSC 52 clipboard writes), DCS/SOS/PM/APC strings, their 8-bit forms, and
# every other C0/C1 control except newline and tab, and the bidirectional controls (U+202A-U+202E embeddings and
# overrides, U+2066-U+2069 isolates, U+200E/U+200F/U+061C marks) that make text show in another order than
# it is stored ("Trojan Source"). Linear: no pattern can backtrack.
TERMINAL_CONTROL = re.compile(
    r"\x1b\][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[PX^_][^\x1b\x9c]*(?:\x1b\\|\x9c)?"
    r"|\x1b\[[0-?]*[ -/]*[@-~]?"
    r"|\x9b[0-?]*[ -/]*[@-~]?"
    r"|\x9d[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|[\x90\x98\x9e\x9f][^\x1b\x9c]*(?:\x1b\\|\x9c)?"
    r"|\x1b[ -/]*[0-~]?"
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """Stored or imported text made safe to print on a terminal or write to a report: data, never
    terminal commands (newlines and tabs kept)."""
    return TERMINAL_CONTROL.sub("", text.replace("\r\n", "\n"))
