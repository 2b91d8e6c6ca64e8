"""Models from the Hugging Face Hub: config.json and the checkpoint's own parameter counts.

Where a repository's facts come from, in order:
1. this tool's summary cache (user cache folder, `hub/models--ORG--NAME.json`), written after a fetch;
2. the Hugging Face cache on this machine (`HF_HUB_CACHE`, else `HF_HOME/hub`, else
   `~/.cache/huggingface/hub`), read as `huggingface_hub` lays it out:
   `models--ORG--NAME/refs/main` names a snapshot, `snapshots/SHA/` holds config.json and, when
   downloaded, the safetensors files (only their headers are read) and GGUF files (their sizes);
3. the Hub itself, through `huggingface_hub` (imported only here, on demand), which honours
   `HF_ENDPOINT` and `HF_TOKEN`. The network is used only when the process allows it
   (`allow_network(True)`, or `GPU_ADVISOR_HUB=online`) and `HF_HUB_OFFLINE` is not set, so that
   library calls, tests and the conversation never wait on a network by surprise.

Failures are typed: `HubGated` (a licence to accept and a token to give), `HubMissing` (the Hub says
there is no such repository), `HubUnreachable` (offline, not allowed, or no answer); the resolver turns
the last into a fallback that says which one it used.
"""

from __future__ import annotations

import json
import os
import re
import stat
import struct
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from gpu_advisor.knowledge.cache_walk import MAX_SNAPSHOT_ENTRIES, inside, snapshot_files, snapshots
from gpu_advisor.knowledge.hf_config import ConfigError, _shown, read_config_json
from gpu_advisor.knowledge.loader import KnowledgeError, read_cache_file, write_cache

REPO_ID = re.compile(r"^[A-Za-z0-9][\w.-]{0,95}/[A-Za-z0-9][\w.-]{0,95}$")
# Bytes per stored value of each safetensors dtype.
DTYPE_BYTES = {
    "F64": 8, "I64": 8, "U64": 8, "F32": 4, "I32": 4, "U32": 4, "F16": 2, "BF16": 2, "I16": 2, "U16": 2,
    "F8_E4M3": 1, "F8_E5M2": 1, "F8_E8M0": 1, "I8": 1, "U8": 1, "BOOL": 1, "F4": 0.5, "F6_E2M3": 0.75,
    "F6_E3M2": 0.75,
}
MAX_HEADER_BYTES = 16_000_000  # a safetensors header larger than this is not one (a big shard's is well under 1 MB)
MAX_TENSORS = 200_000  # tensors in one safetensors file: checked before any is counted
SUMMARY_VERSION = 1

_network_allowed: bool | None = None


class HubError(KnowledgeError):
    """A repository the Hub could not describe; the message is one line a person can act on."""


class HubGated(HubError):
    pass


class HubMissing(HubError):
    pass


class HubUnreachable(HubError):
    pass


class HubNoAnswer(HubUnreachable):
    """The network was allowed and the Hub was asked, but it did not answer (no connection, a timeout, an error)."""


@dataclass(frozen=True)
class HubModel:
    """What the Hub (or a cache of it) says about one repository."""

    repo_id: str
    revision: str | None
    config: dict[str, Any] | None
    params_by_dtype: dict[str, int] = field(default_factory=dict)
    bytes_by_dtype: dict[str, int] = field(default_factory=dict)
    total_size: int | None = None  # model.safetensors.index.json metadata.total_size
    gguf_files: dict[str, int] = field(default_factory=dict)
    origin: str = "hf-cache"  # "hf-cache" | "summary-cache" | "hub"
    fetched: str = ""  # ISO date of the fetch

    @property
    def url(self) -> str:
        endpoint = os.environ.get("HF_ENDPOINT", "https://huggingface.co").rstrip("/")
        return f"{endpoint}/{self.repo_id}"

    @property
    def parameters(self) -> int:
        return sum(self.params_by_dtype.values())

    @property
    def stored_bytes(self) -> int:
        return sum(self.bytes_by_dtype.values())


# --- switches and folders ------------------------------------------------------------------------

def allow_network(allowed: bool = True) -> None:
    """Let this process ask the Hub (the CLI does; tests and embedded callers need not)."""
    global _network_allowed
    _network_allowed = allowed


def offline_by_env() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").strip().upper() in ("1", "ON", "YES", "TRUE")


def network_allowed() -> bool:
    if offline_by_env():
        return False
    if _network_allowed is not None:
        return _network_allowed
    return os.environ.get("GPU_ADVISOR_HUB", "").strip().lower() in ("1", "on", "online", "true", "yes")


def why_offline() -> str:
    if offline_by_env():
        return "HF_HUB_OFFLINE is set"
    return "Hub look-ups are off in this process"


def hf_cache_dir() -> Path:
    for name in ("HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE"):
        if os.environ.get(name):
            return Path(os.environ[name]).expanduser()
    if os.environ.get("HF_HOME"):
        return Path(os.environ["HF_HOME"]).expanduser() / "hub"
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "huggingface" / "hub"


def summary_dir() -> Path | None:
    from gpu_advisor.knowledge.loader import _cache_dir

    base = _cache_dir()
    return base / "hub" if base else None


def _folder(repo_id: str) -> str:
    return "models--" + repo_id.replace("/", "--")


# --- reading files -------------------------------------------------------------------------------

class MalformedCheckpoint(ConfigError):
    """A file of the Hugging Face cache that is no checkpoint a model could have (bad input, exit 2)."""


def _regular(path: Path) -> os.stat_result:
    """The file's status, refusing anything but a regular file before it is opened (a FIFO would block,
    a device would never end)."""
    info = path.stat()
    if not stat.S_ISREG(info.st_mode):
        raise MalformedCheckpoint(f"{path} is not a regular file")
    return info


def safetensors_header(path: Path) -> dict[str, Any]:
    """The JSON header of a safetensors file (8-byte little-endian length, then JSON); no tensor data is
    read. A file too short or cut off inside its header is a partial download (ValueError); a header
    that is no safetensors header (nested deep, not an object) is MalformedCheckpoint."""
    _regular(path)
    with open(path, "rb") as f:
        head = f.read(8)
        if len(head) != 8:
            raise ValueError(f"{path.name}: too short for a safetensors file")
        (n,) = struct.unpack("<Q", head)
        if not 2 <= n <= MAX_HEADER_BYTES:
            raise ValueError(f"{path.name}: header length {n} is not a safetensors header")
        raw = f.read(n)
    try:
        header = json.loads(raw)
    except RecursionError:
        raise MalformedCheckpoint(f"{path}: the safetensors header is nested too deeply") from None
    if not isinstance(header, dict):
        raise MalformedCheckpoint(f"{path}: the safetensors header is not a JSON object")
    if len(header) > MAX_TENSORS:
        raise MalformedCheckpoint(f"{path}: the safetensors header lists over {MAX_TENSORS:,} tensors")
    return header


MAX_DIMS = 8  # dimensions of one tensor
MAX_ELEMENTS = 1 << 50  # elements of one tensor: far past any model
# Parameters of one model, all tensors of all its files together: the largest models are about 2 * 10**12, so
# a header that adds up past this (each tensor under MAX_ELEMENTS) is crafted, not a checkpoint.
MAX_TOTAL_PARAMS = 100 * 10**12


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def count_tensors(header: dict[str, Any], params: dict[str, int], nbytes: dict[str, int],
                  where: str = "safetensors header") -> None:
    """Add each tensor's element count and stored bytes to the per-dtype tallies. Every tensor must
    have a shape of whole numbers from 0 up and, when given, data offsets [start, end] with end >= start."""
    for name, info in header.items():
        if name == "__metadata__":
            continue
        if not isinstance(info, dict):
            raise MalformedCheckpoint(f"{where}: tensor '{str(name)[:60]}' is not described by an object")
        dtype = str(info.get("dtype", "?"))[:20]
        shape = info.get("shape", [])
        if not isinstance(shape, list) or len(shape) > MAX_DIMS or not all(_whole(d) and d >= 0 for d in shape):
            raise MalformedCheckpoint(f"{where}: tensor '{str(name)[:60]}' has no valid shape (a list of at most "
                                      f"{MAX_DIMS} whole numbers from 0 up)")
        n = 1
        for d in shape:
            n *= d
        if n > MAX_ELEMENTS:
            raise MalformedCheckpoint(f"{where}: tensor '{str(name)[:60]}' has more elements than any model")
        params[dtype] = params.get(dtype, 0) + n
        if sum(params.values()) > MAX_TOTAL_PARAMS:
            raise MalformedCheckpoint(f"{where}: the tensors add up to more than {MAX_TOTAL_PARAMS // 10**12:,} "
                                      "trillion parameters, more than any model")
        offsets = info.get("data_offsets")
        if offsets is None and "data_offsets" in info:
            raise MalformedCheckpoint(f"{where}: tensor '{str(name)[:60]}' has null data offsets (a safetensors "
                                      "file gives [start, end] for every tensor)")
        if offsets is None:
            nbytes[dtype] = nbytes.get(dtype, 0) + int(n * DTYPE_BYTES.get(dtype, 2))
            continue
        if not (isinstance(offsets, list) and len(offsets) == 2 and all(_whole(o) for o in offsets)
                and 0 <= offsets[0] <= offsets[1] <= MAX_ELEMENTS * 8):
            raise MalformedCheckpoint(f"{where}: tensor '{str(name)[:60]}' has no valid data offsets")
        nbytes[dtype] = nbytes.get(dtype, 0) + offsets[1] - offsets[0]
        if sum(nbytes.values()) > MAX_TOTAL_PARAMS * 8:
            raise MalformedCheckpoint(f"{where}: the tensors' data adds up to more bytes than any model stores")


MAX_INDEX_BYTES = 64 << 20  # a model.safetensors.index.json lists tensors: a few MB


def _read_json(path: Path, max_bytes: int = MAX_INDEX_BYTES) -> Any:
    """A JSON file of the cache, read with bounded work: a regular file of at most `max_bytes`."""
    try:
        if _regular(path).st_size > max_bytes:
            raise MalformedCheckpoint(f"{path} is over {max_bytes >> 20} MB: not a file of a model")
        with open(path, "rb") as f:
            raw = f.read(max_bytes + 1)
        return json.loads(raw.decode("utf-8"))
    except OSError as e:
        raise HubError(f"cannot read {path}: {e.strerror or e}") from None
    except RecursionError:
        raise MalformedCheckpoint(f"{path} is nested too deeply: not a file of a model") from None
    except MalformedCheckpoint:
        raise
    except ValueError as e:  # (UnicodeDecodeError, JSONDecodeError, a number past int()'s digit limit)
        raise ConfigError(f"{path} is not valid JSON: {' '.join(str(e).split())[:200]}") from None


def _safe_revision(name: str) -> bool:
    """A revision as the Hub names one ('main', 'v1.0', 'refs/pr/1', a commit hash): path parts with no '..',
    so that a name never reaches outside the repository's folder in the cache."""
    parts = name.split("/")
    return 0 < len(name) <= 200 and all(part not in ("", ".", "..") and "\\" not in part for part in parts)


def _read_ref(ref: Path) -> str:
    """The commit a `refs/NAME` file names: 40 hexadecimal digits, as huggingface_hub writes it. Anything else
    (a crafted '../../..' that would send the reader over the whole disk) is refused in one line."""
    try:
        with ref.open("rb") as f:
            text = f.read(128).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        text = ""
    if not re.fullmatch(r"[0-9a-f]{40}", text):
        raise MalformedCheckpoint(f"{ref} does not hold a commit hash (40 hexadecimal digits)")
    return text


def check_revision(revision: str) -> str:
    """The revision, when it is one a repository can have; else MalformedCheckpoint (bad input, one line)."""
    if not _safe_revision(revision):
        raise MalformedCheckpoint(f"{_shown(revision)} is not a revision: a branch, tag or commit name, no '..'")
    return revision


def split_revision(spec: str) -> tuple[str, str | None]:
    """'ORG/NAME@REVISION' -> ('ORG/NAME', 'REVISION'); anything else (no '@', or no repo id before it) -> (spec,
    None). A repo id holds no '@', so the one after it is the revision: a branch, tag or commit ('refs/pr/1' too)."""
    repo, at, revision = spec.partition("@")
    if not at or not REPO_ID.match(repo):
        return spec, None
    return repo, revision


def with_revision(repo_id: str, revision: str | None) -> str:
    """The model spec of a repository at a revision ('ORG/NAME@REVISION'); the repo id alone for none."""
    return f"{repo_id}@{revision}" if revision else repo_id


def _snapshot(root: Path, revision: str | None) -> tuple[Path, str] | None:
    """The snapshot folder of a revision in a repository's cache folder and its commit: the one `refs/REVISION`
    names, or the revision itself when it is a commit. With no revision asked: `refs/main`'s, else the only
    snapshot there is; a revision asked is never answered with another one's snapshot."""
    asked = revision
    revision = check_revision(revision if revision is not None else "main")
    ref = root / "refs" / revision
    sha = _read_ref(ref) if ref.is_file() else revision
    snap = root / "snapshots" / sha
    if "/" not in sha and snap.is_dir():
        return snap, sha
    if asked is not None:
        return None
    snaps = snapshots(root / "snapshots")
    return (snaps[0], snaps[0].name) if len(snaps) == 1 else None


MAX_SNAPSHOT_HEADER_BYTES = 32_000_000  # the safetensors headers of one snapshot together: the largest models' are
# about 20 MB; past this (hundreds of links to one crafted header) reading them would take minutes


def _header_length(path: Path) -> int:
    """The length a safetensors file gives its header (its first 8 bytes), read before the header itself."""
    _regular(path)
    with open(path, "rb") as f:
        head = f.read(8)
    if len(head) != 8:
        raise ValueError(f"{path.name}: too short for a safetensors file")
    return int(struct.unpack("<Q", head)[0])


def _counted(shards: Iterable[Path]) -> tuple[dict[str, int], dict[str, int]]:
    """Parameters and stored bytes by dtype from the safetensors headers of a snapshot's files, with bounded work:
    a file linked twice (one blob) is counted once, and the headers together are read up to
    MAX_SNAPSHOT_HEADER_BYTES. A partial download, or headers past that bound, give empty tallies (the count then
    comes from config.json)."""
    params: dict[str, int] = {}
    nbytes: dict[str, int] = {}
    seen: set[tuple[int, int]] = set()
    left = MAX_SNAPSHOT_HEADER_BYTES
    for st in shards:
        try:
            info = st.stat()
            if (info.st_dev, info.st_ino) in seen:
                continue  # the same blob under a second name: its tensors are counted once
            seen.add((info.st_dev, info.st_ino))
            left -= _header_length(st)
            if left < 0:
                return {}, {}
            count_tensors(safetensors_header(st), params, nbytes, str(st))
        except MalformedCheckpoint:
            raise
        except (OSError, ValueError):
            return {}, {}  # a partial download: trust none of it
    return params, nbytes


def from_hf_cache(repo_id: str, revision: str | None = None, cache: Path | None = None) -> HubModel | None:
    """The repository as the local Hugging Face cache holds it at `revision` (a branch, tag or commit; none: main),
    or None when it holds no snapshot of it."""
    base = cache or hf_cache_dir()
    root = base / _folder(repo_id)
    if not root.is_dir():
        wanted = _folder(repo_id).lower()
        try:
            root = next((p for p in base.iterdir() if p.name.lower() == wanted and p.is_dir()), root)
        except OSError:
            return None
        if not root.is_dir():
            return None
        repo_id = root.name[len("models--"):].replace("--", "/", 1)
    found = _snapshot(root, revision)
    if found is None:
        return None
    snap, sha = found
    files = snapshot_files(root, snap, (".safetensors", ".gguf"))  # bounded; nothing outside `root`
    config_path = snap / "config.json"
    if config_path.is_symlink() and not config_path.exists():  # a loop, or a blob that is gone: not "no config"
        raise MalformedCheckpoint(f"{config_path} is a symbolic link that leads to no file (a loop, or its blob "
                                  "was deleted); download the model again")
    config = read_config_json(inside(config_path, root)) if config_path.exists() else None
    params, nbytes = _counted(p for p in files if p.name.endswith(".safetensors"))
    total_size = None
    index = snap / "model.safetensors.index.json"
    if index.is_file():
        data = _read_json(inside(index, root))
        meta = data.get("metadata") if isinstance(data, dict) else None
        if not isinstance(data, dict) or not isinstance(meta or {}, dict):
            raise MalformedCheckpoint(f"{index} is not a safetensors index (a JSON object with 'metadata')")
        size = (meta or {}).get("total_size")
        if isinstance(size, int) and _whole(size) and 0 <= size <= MAX_ELEMENTS * 8:
            total_size = size
        elif size is not None:
            raise MalformedCheckpoint(f"{index}: total_size must be a whole number of bytes, got {_shown(size)}")
    gguf = {p.relative_to(snap).as_posix(): p.stat().st_size for p in files if p.name.endswith(".gguf") and p.exists()}
    if config is None and not gguf:
        return None
    return HubModel(repo_id=repo_id, revision=sha, config=config, params_by_dtype=params, bytes_by_dtype=nbytes,
                    total_size=total_size, gguf_files=gguf, origin="hf-cache")


def _summary_path(repo_id: str, revision: str | None = None) -> Path | None:
    """The summary of a repository at a revision: `models--ORG--NAME.json` for main (none asked), else
    `models--ORG--NAME@REVISION.json` with the revision's '/' written %2F ('refs/pr/1')."""
    from urllib.parse import quote

    d = summary_dir()
    at = f"@{quote(revision, safe='')}" if revision not in (None, "main") else ""
    return d / f"{_folder(repo_id)}{at}.json" if d else None


def from_summary(repo_id: str, revision: str | None = None) -> HubModel | None:
    path = _summary_path(repo_id, revision)
    if path is None or not path.is_file():
        return None
    try:
        text = read_cache_file(path, 8 << 20)  # (a plain file of a sane size: never a FIFO or /dev/zero)
        data = json.loads(text.decode("utf-8")) if text is not None else None
        if not isinstance(data, dict) or data.get("version") != SUMMARY_VERSION or data.get("repo_id") != repo_id \
                or data.get("asked", None) != (revision if revision != "main" else None):
            return None
        params = _counts(data.get("params_by_dtype"), MAX_TOTAL_PARAMS)
        nbytes = _counts(data.get("bytes_by_dtype"), MAX_TOTAL_PARAMS * 8)
        gguf = _counts(data.get("gguf_files"), MAX_TOTAL_PARAMS * 8, MAX_SNAPSHOT_ENTRIES)
        total_size = data.get("total_size")
        if total_size is not None and not (_whole(total_size) and 0 <= total_size <= MAX_ELEMENTS * 8):
            return None
        return HubModel(repo_id=repo_id, revision=data.get("revision"), config=data.get("config"),
                        params_by_dtype=params, bytes_by_dtype=nbytes, total_size=total_size, gguf_files=gguf,
                        origin="summary-cache", fetched=str(data.get("fetched", "")))
    except (OSError, ValueError, TypeError, AttributeError, RecursionError):
        return None  # a damaged summary is fetched again


def _counts(value: Any, most: int, entries: int = 256) -> dict[str, int]:
    """A summary's tallies by name (parameters or bytes by dtype, bytes by GGUF file), held to what a model
    can have, as the HF cache's own files are (count_tensors): whole numbers from 0 up, at most `most`
    together, at most `entries` names. Anything else is a damaged summary (ValueError): fetched again."""
    if value is None:
        return {}
    if not isinstance(value, dict) or len(value) > entries:
        raise ValueError("not a tally")
    if not all(isinstance(k, str) and _whole(v) and v >= 0 for k, v in value.items()) or sum(value.values()) > most:
        raise ValueError("a tally past any model")
    return dict(value)


def _save_summary(m: HubModel, asked: str | None = None) -> None:
    """Keep what the Hub said, under the revision asked (none: main)."""
    asked = asked if asked != "main" else None
    path = _summary_path(m.repo_id, asked)
    if path is None:
        return
    data = {"version": SUMMARY_VERSION, "repo_id": m.repo_id, "asked": asked, "revision": m.revision, "config": m.config,
            "params_by_dtype": m.params_by_dtype, "bytes_by_dtype": m.bytes_by_dtype, "total_size": m.total_size,
            "gguf_files": m.gguf_files, "fetched": m.fetched}
    write_cache(path, json.dumps(data, sort_keys=True))  # a read-only cache folder costs a fetch next time


# --- the Hub -------------------------------------------------------------------------------------

def _token_given() -> bool:
    """Whether huggingface_hub has a token to send: HF_TOKEN, or the one `hf auth login` stored
    (`huggingface_hub.get_token()`, which HfApi sends by itself)."""
    if os.environ.get("HF_TOKEN"):
        return True
    try:
        from huggingface_hub import get_token
    except ImportError:
        return False
    try:
        return bool(get_token())
    except Exception:  # noqa: BLE001 - an unreadable token file is no token
        return False


def gated_message(repo_id: str) -> str:
    token = "a token was sent but it has no access" if _token_given() else "no token was given"
    return (f"{repo_id} is a gated model ({token}): accept its licence at https://huggingface.co/{repo_id}, then "
            "log in with `hf auth login` or set HF_TOKEN")


def fetch(repo_id: str, revision: str | None = None) -> HubModel:  # pragma: no cover - the opt-in network test
    """Ask the Hub about the repository at `revision` (none: main): config.json (into the Hugging Face cache), the
    safetensors headers (parameter count and bytes per dtype, read with HTTP range requests), and the sizes of
    GGUF files."""
    try:
        import huggingface_hub as hf
        from huggingface_hub import errors
    except ImportError:
        raise HubUnreachable("huggingface_hub is not installed") from None
    api = hf.HfApi(token=hf.get_token())  # HF_TOKEN, else the token `hf auth login` stored
    try:
        info = api.model_info(repo_id, revision=revision, files_metadata=True)
        files = {s.rfilename: (s.size or 0) for s in (info.siblings or [])}
        config = None
        if "config.json" in files:
            path = hf.hf_hub_download(repo_id, "config.json", revision=info.sha)
            config = json.loads(Path(path).read_text(encoding="utf-8"))
        params: dict[str, int] = {}
        nbytes: dict[str, int] = {}
        if any(f.endswith(".safetensors") for f in files):
            meta = api.get_safetensors_metadata(repo_id, revision=info.sha)
            for file_meta in meta.files_metadata.values():
                for t in file_meta.tensors.values():
                    n = 1
                    for d in t.shape:
                        n *= int(d)
                    params[t.dtype] = params.get(t.dtype, 0) + n
                    start, end = t.data_offsets
                    nbytes[t.dtype] = nbytes.get(t.dtype, 0) + int(end) - int(start)
    except errors.GatedRepoError:
        raise HubGated(gated_message(repo_id)) from None
    except errors.RevisionNotFoundError:
        raise HubMissing(f"{repo_id} has no revision {_shown(revision)} on the Hub (a branch, tag or commit of it)") \
            from None
    except errors.RepositoryNotFoundError:
        raise HubMissing(f"there is no model '{repo_id}' on the Hub (or it is private: log in with `hf auth login`)") from None
    except errors.OfflineModeIsEnabled:
        raise HubUnreachable("HF_HUB_OFFLINE is set") from None
    except (errors.HfHubHTTPError, OSError, ValueError) as e:
        raise HubNoAnswer(f"the Hub did not answer ({type(e).__name__})") from None
    except Exception as e:  # noqa: BLE001 - httpx/requests transport errors differ between huggingface_hub versions
        raise HubNoAnswer(f"the Hub did not answer ({type(e).__name__})") from None
    gguf = {f: s for f, s in files.items() if f.endswith(".gguf")}
    model = HubModel(repo_id=repo_id, revision=info.sha, config=config, params_by_dtype=params, bytes_by_dtype=nbytes,
                     gguf_files=gguf, origin="hub", fetched=date.today().isoformat())
    _save_summary(model, revision)
    return model


def held(repo_id: str, revision: str | None = None) -> HubModel | None:
    """The repository at a revision (none: main) as this machine holds it, from the summary cache or the local
    Hugging Face cache, with no network; None when neither holds a config.json or GGUF files of it."""
    if revision is not None:
        check_revision(revision)
    for found in (from_summary(repo_id, revision), from_hf_cache(repo_id, revision)):
        if found is not None and (found.config is not None or found.gguf_files):
            return found
    return None


def lookup(repo_id: str, revision: str | None = None, *, refresh: bool = False) -> HubModel:
    """The repository at `revision` (a branch, tag or commit; none: main) from the summary cache, the local Hugging
    Face cache, or the Hub (in that order, the Hub only when allowed). Raises HubUnreachable when none of them has
    it."""
    if not REPO_ID.match(repo_id):
        raise HubMissing(f"'{repo_id}' is not a Hugging Face repository id (ORG/NAME)")
    if not refresh:
        found = held(repo_id, revision)
        if found is not None:
            return found
    elif revision is not None:
        check_revision(revision)
    if not network_allowed():
        raise HubUnreachable(why_offline())
    return fetch(repo_id, revision) if revision is not None else fetch(repo_id)


__all__ = [
    "REPO_ID",
    "HubError",
    "HubGated",
    "HubMissing",
    "HubModel",
    "HubNoAnswer",
    "HubUnreachable",
    "allow_network",
    "check_revision",
    "count_tensors",
    "fetch",
    "from_hf_cache",
    "gated_message",
    "held",
    "hf_cache_dir",
    "lookup",
    "network_allowed",
    "safetensors_header",
    "split_revision",
    "with_revision",
]
