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
# it is stored ("Trojan Source"). A string sequence (OSC, DCS ...) is removed whole only up to its terminator, its
# body text with no control in it; one left open (or broken by a newline or another control) loses its introducer
# only, and the text after it is kept: a stray ESC ] never hides the rest of a message. Linear: a body stops at the
# first control character, and no pattern can backtrack.
_BODY = r"[^\x00-\x1f\x7f-\x9f]*"
_CONTROL_CHAR = r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
TERMINAL_CONTROL = re.compile(
    rf"\x1b\]{_BODY}(?:\x07|\x1b\\|\x9c)"
    rf"|\x1b[PX^_]{_BODY}(?:\x1b\\|\x9c)"
    r"|\x1b\[[0-?]*[ -/]*[@-~]?"
    r"|\x9b[0-?]*[ -/]*[@-~]?"
    rf"|\x9d{_BODY}(?:\x07|\x1b\\|\x9c)"
    rf"|[\x90\x98\x9e\x9f]{_BODY}(?:\x1b\\|\x9c)"
    r"|\x1b[ -/]*[0-~]?"
    rf"|{_CONTROL_CHAR}")
# Every character a quoted value shows as an escape: the controls above, and tab and newline (a value is one line).
CONTROL_CHAR = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
MAX_QUOTED_CHARS = 200


def printable(text: str) -> str:
    """Stored or imported text made safe to print on a terminal or write to a report: data, never
    terminal commands (newlines and tabs kept)."""
    return TERMINAL_CONTROL.sub("", text.replace("\r\n", "\n"))


def _escape(match: re.Match[str]) -> str:
    return f"\\x{ord(match[0]):02x}" if ord(match[0]) < 0x100 else f"\\u{ord(match[0]):04x}"


def escaped(text: object) -> str:
    """A name (a path, a model) shown whole: each control or bidirectional character written as its escape
    ('/tmp/a\\x1b]0;x\\x07/b.db'), never removed, so that the name shown is the one used and nothing is acted on."""
    return CONTROL_CHAR.sub(_escape, str(text))


def quoted(value: object, most: int = MAX_QUOTED_CHARS) -> str:
    """A value as an error message shows it: in quotes, each control or bidirectional character written as its
    escape ('ctrl+\\x1b', 'eu\\x1b[31m'), so that nothing around it is hidden or acted on; a long one cut ('…')."""
    text = str(value)
    cut = len(text) > most
    text = CONTROL_CHAR.sub(_escape, text[:most])
    return f"'{text}{'…' if cut else ''}'"
