"""Build a Hugging Face cache folder the way huggingface_hub lays one out, for offline tests.

models--ORG--NAME/
  blobs/<sha256 of the content>          the files' bytes
  refs/main                              the snapshot hash
  snapshots/<hash>/<file> -> ../../blobs/<sha256>
Safetensors files are written as their header followed by zero bytes only when asked (`data=True`);
by default only the header is written, which is all the resolver reads.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).parent / "fixtures" / "hf_configs"
NAMED_REPOS = (
    "moonshotai/Kimi-Dev-72B",
    "ibm-granite/granite-3.3-8b-instruct",
    "mistralai/Mistral-Nemo-Instruct-2407",
    "microsoft/Phi-4-mini-instruct",
)
DTYPE_BYTES = {"BF16": 2, "F16": 2, "F32": 4, "I32": 4, "U8": 1, "F8_E4M3": 1, "I8": 1}


def safetensors_bytes(tensors: dict[str, tuple[str, list[int]]]) -> bytes:
    """A safetensors header for {name: (dtype, shape)} with consecutive data offsets (no data)."""
    header: dict[str, Any] = {"__metadata__": {"format": "pt"}}
    offset = 0
    for name, (dtype, shape) in tensors.items():
        n = 1
        for d in shape:
            n *= d
        size = n * DTYPE_BYTES[dtype]
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + size]}
        offset += size
    raw = json.dumps(header).encode()
    return struct.pack("<Q", len(raw)) + raw


def place(cache: Path, repo_id: str, files: dict[str, bytes | str | dict], sha: str | None = None) -> Path:
    """Put files into `cache` as a download of repo_id would; returns the snapshot folder."""
    sha = sha or hashlib.sha1(repo_id.encode()).hexdigest()
    root = cache / ("models--" + repo_id.replace("/", "--"))
    (root / "refs").mkdir(parents=True, exist_ok=True)
    (root / "refs" / "main").write_text(sha)
    snap = root / "snapshots" / sha
    for name, content in files.items():
        data = json.dumps(content).encode() if isinstance(content, dict) else (
            content.encode() if isinstance(content, str) else content)
        blob = root / "blobs" / hashlib.sha256(data).hexdigest()
        blob.parent.mkdir(parents=True, exist_ok=True)
        blob.write_bytes(data)
        target = snap / name
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.symlink(os.path.relpath(blob, target.parent), target)
        except OSError:  # no symlinks (Windows without developer mode): huggingface_hub copies
            target.write_bytes(data)
    return snap


@contextlib.contextmanager
def offline(hf: Path, ours: Path, monkeypatch) -> Iterator[Path]:
    """Resolution reads `hf` as the Hugging Face cache, offline, with its own empty summary cache `ours`."""
    from gpu_advisor.knowledge import hub
    from gpu_advisor.tools.models import resolve_model as tool_resolve

    monkeypatch.setenv("HF_HUB_CACHE", str(hf))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("GPU_ADVISOR_CACHE_DIR", str(ours))
    monkeypatch.setattr(hub, "_network_allowed", None)
    tool_resolve.cache_clear()
    yield hf
    tool_resolve.cache_clear()


def named_cache(cache: Path) -> Path:
    """The four models issue 8 names, each with its config.json."""
    for repo in NAMED_REPOS:
        config = json.loads((FIXTURES / (repo.replace("/", "__") + ".json")).read_text())
        place(cache, repo, {"config.json": config})
    return cache


@pytest.fixture(name="cache")
def empty_offline_cache(tmp_path, monkeypatch):
    """An empty offline Hugging Face cache (and an empty summary cache) for one test: import it where a test module
    needs the `cache` fixture with nothing placed in it yet."""
    hf = tmp_path / "hf"
    hf.mkdir()
    with offline(hf, tmp_path / "ours", monkeypatch):
        yield hf
