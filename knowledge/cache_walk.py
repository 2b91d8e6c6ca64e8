"""The files of one snapshot in the local Hugging Face cache, found with bounded work.

A snapshot is a folder of links into the repository's own `blobs/` folder. One that is (or holds) a link out of
the repository's cache folder ('snapshots/<sha> -> /') would send a plain recursive glob over the whole disk, and
a folder of millions of entries would take minutes: both are refused in one line (MalformedCheckpoint, exit 2).
"""

from __future__ import annotations

import os
from pathlib import Path

from gpu_advisor.knowledge.hf_config import ConfigError

MAX_SNAPSHOT_ENTRIES = 20_000  # files and folders in one snapshot: a model has tens, a repo of many GGUFs hundreds
MAX_SNAPSHOTS = 1_000  # commits kept of one repository


class OutsideCache(ConfigError):
    """A snapshot or a file of it that is no part of the repository's cache folder (bad input, exit 2)."""


def _inside(path: Path, home: Path) -> bool:
    return path == home or home in path.parents


def inside(path: Path, root: Path) -> Path:
    """`path` itself when, links followed, it lies in the repository folder `root`; refused otherwise."""
    try:
        real, home = path.resolve(), root.resolve()
    except (OSError, RuntimeError):  # a loop of links
        raise OutsideCache(f"{path} is a loop of links: not a file of the Hugging Face cache") from None
    if not _inside(real, home):
        raise OutsideCache(f"{path} points outside its repository's folder in the Hugging Face cache ({real})")
    return path


def snapshots(folder: Path) -> list[Path]:
    """The snapshot folders under `snapshots/`, sorted; at most MAX_SNAPSHOTS entries are looked at."""
    found: list[Path] = []
    try:
        with os.scandir(folder) as entries:
            for n, entry in enumerate(entries):
                if n >= MAX_SNAPSHOTS:
                    raise OutsideCache(f"{folder} holds over {MAX_SNAPSHOTS:,} entries: not a model's snapshots")
                if entry.is_dir():
                    found.append(Path(entry.path))
    except OSError:
        return []
    return sorted(found)


def snapshot_files(root: Path, snap: Path, suffixes: tuple[str, ...]) -> list[Path]:
    """The files of snapshot `snap` whose names end in one of `suffixes`, sorted by path. Folders that are links
    are not entered; the snapshot and every file found must lie, links followed, in the repository folder `root`;
    at most MAX_SNAPSHOT_ENTRIES entries are looked at."""
    inside(snap, root)
    found: list[Path] = []
    seen = 0
    folders = [snap]
    while folders:
        try:
            with os.scandir(folders.pop()) as entries:
                for entry in entries:
                    seen += 1
                    if seen > MAX_SNAPSHOT_ENTRIES:
                        raise OutsideCache(f"{snap} holds over {MAX_SNAPSHOT_ENTRIES:,} files and folders: "
                                           "not a model's snapshot")
                    if entry.is_dir(follow_symlinks=False):
                        folders.append(Path(entry.path))
                    elif entry.name.endswith(suffixes):
                        found.append(inside(Path(entry.path), root))
        except OSError:
            continue  # a folder that cannot be read holds nothing for us
    return sorted(found)
