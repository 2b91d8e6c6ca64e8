"""Copying to the desktop's clipboard, so that the app says "copied" only when it is known to be true."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys


def copy_locally(text: str) -> bool:
    """Copy through the desktop's own clipboard tool, when there is one and it succeeds: only then
    is "copied" known to be true (a terminal gives no answer to an OSC 52 request)."""
    tools = [["pbcopy"]] if sys.platform == "darwin" else [["clip.exe"]] if sys.platform == "win32" else []
    if os.environ.get("WAYLAND_DISPLAY"):
        tools.append(["wl-copy"])
    if os.environ.get("DISPLAY"):
        tools += [["xclip", "-selection", "clipboard"], ["xsel", "--clipboard", "--input"]]
    for tool in tools:
        if shutil.which(tool[0]) is None:
            continue
        try:
            done = subprocess.run(tool, input=text.encode("utf-8"), timeout=2, capture_output=True)
        except (OSError, subprocess.SubprocessError):
            continue
        if done.returncode == 0:
            return True
    return False
