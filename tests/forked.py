"""Work run in a forked child that ends with os._exit: no close, no checkpoint, as an app killed mid-write (the
history's crash tests, tests/test_robust.py and tests/test_attack8.py)."""

from __future__ import annotations

import os


def in_child(work) -> int:
    """Run `work` in a forked child; its exit status: 0 when it returned, 3 when it raised."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        status = 0
        try:
            work()
        except BaseException:  # noqa: BLE001 - the child reports by its exit status only
            status = 3
        os._exit(status)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)
