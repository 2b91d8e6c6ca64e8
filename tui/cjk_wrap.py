"""Line breaks for text with Chinese (or any wide script) in it.

Textual wraps its Content with Rich's `divide_line`, which breaks only at whitespace: a run of Chinese with no
spaces is one "word", so a Chinese reply ended a line half-way ("…KV 缓存用 FP8（显存和每个 token" then the rest
of the sentence) or started a line with its full stop. `divide_line` here has the same contract (the code-point
offsets a line is split at) and breaks between wide characters as well, the way Chinese is set: never before a
closing mark (，。）」 …), never after an opening one (（「 …), and a number stays with what follows it ("20 个用户",
"51.8 GB"). A text with no wide character is wrapped by Rich's own function, unchanged. Nothing is inserted into
the text: what is stored, copied or selected is the text as written.

`install()` makes Textual's Content use it; the app calls it when it starts."""
from __future__ import annotations

import unicodedata
from collections.abc import Iterator

from rich._wrap import divide_line as rich_divide_line
from rich.cells import cell_len, chop_cells, get_character_cell_size

NO_START = frozenset({"Pe", "Pf", "Po"})  # closing brackets, closing quotes, commas and full stops: never at a line's start
NO_END = frozenset({"Ps", "Pi"})  # opening brackets and quotes: never at a line's end


def _wide(char: str) -> bool:
    return get_character_cell_size(char) == 2


def _atoms(text: str) -> Iterator[tuple[int, int, int]]:
    """(start, end of the visible part, end with the spaces after it) of each piece a line may not split:
    one wide character, or a run of narrow non-space ones. Spaces before the first piece belong to it."""
    i, n = 0, len(text)
    start = 0
    while i < n and text[i].isspace():
        i += 1
    while i < n:
        j = i + 1
        if not _wide(text[i]):
            while j < n and not text[j].isspace() and not _wide(text[j]):
                j += 1
        k = j
        while k < n and text[k].isspace():
            k += 1
        yield start, j, k
        start = i = k


def _glued(text: str, before: tuple[int, int, int], after: tuple[int, int, int]) -> bool:
    """Whether a line may not break between two pieces."""
    last, first = text[before[1] - 1], text[after[0]]  # only the first piece starts with spaces
    return (unicodedata.category(first) in NO_START or unicodedata.category(last) in NO_END
            or last.isdigit())  # a number with its unit or its noun: "20 个用户", "51.8 GB", "20个"


def units(text: str) -> list[tuple[int, int, int]]:
    """The pieces a line may break between: atoms joined where `_glued` says so."""
    out: list[tuple[int, int, int]] = []
    for atom in _atoms(text):
        if out and _glued(text, out[-1], atom):
            out[-1] = (out[-1][0], atom[1], atom[2])
        else:
            out.append(atom)
    return out


def divide_line(text: str, width: int, fold: bool = True) -> list[int]:
    """The offsets to split `text` at so that each line fits `width` cells (Rich's `divide_line`, breaking
    between wide characters too)."""
    if not any(_wide(c) for c in text):
        return rich_divide_line(text, width, fold=fold)
    breaks: list[int] = []
    offset = 0  # cells used on the current line
    for start, visible_end, end in units(text):
        visible = cell_len(text[start:visible_end])
        if width - offset >= visible:
            offset += cell_len(text[start:end])
            continue
        if visible > width:  # longer than a line: folded at character boundaries, by cells
            if not fold:
                if start:
                    breaks.append(start)
                offset = cell_len(text[start:end])
                continue
            pieces = chop_cells(text[start:end], width)
            for n, piece in enumerate(pieces):
                if start and (n or offset):
                    breaks.append(start)
                start += len(piece)
            offset = cell_len(pieces[-1])
        else:
            if offset and start:
                breaks.append(start)
            offset = cell_len(text[start:end])
    return breaks


def install() -> None:
    """Make Textual's Content wrap with `divide_line` (it looks the function up in its module)."""
    import textual.content

    textual.content.divide_line = divide_line
