"""Damage, looked for before use, and what can be read back from a damaged file.

The checks: the file header, the write-ahead log (every frame's checksum, read the way SQLite reads
it) and `PRAGMA quick_check`. Only a file that starts with the 16-byte SQLite header may ever be moved
aside; the rows SQLite can still read are recovered from a damaged file through a repaired image of
it (also those a damaged log frame would hide).
"""

from __future__ import annotations

import sqlite3
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

SQLITE_MAGIC = b"SQLite format 3\x00"
WAL_MAGIC = (0x377F0682, 0x377F0683)
WAL_HEADER_BYTES = 32  # a log this long or shorter holds no frame
# quick_check reads the whole file (about 1 s a GB): up to this size it runs on every open; a larger
# file gets the header, log and schema checks on open, and the full check when a previous run met
# damage in it (see HistoryStore's CHECK_MARK), so a big history still opens in well under 0.2 s.
QUICK_CHECK_MAX_BYTES = 32 << 20
RECOVERED_COLUMNS = {
    "sessions": ("id", "title", "created", "updated", "profile", "state"),
    "messages": ("id", "session_id", "seq", "role", "text", "payload", "created"),
    "tool_calls": ("id", "session_id", "message_id", "tool", "arguments", "result", "duration_ms", "created"),
}



def _names(kept: Path) -> str:
    sides = [side for side in ("-wal", "-shm") if Path(f"{kept}{side}").exists()]
    return f"{kept}" + (f" (with its {' and '.join(sides)} files)" if sides else "")


def looks_like_sqlite(path: Path) -> bool:
    """True for a missing or empty file (SQLite starts a database there) and for a file that begins
    with the SQLite header. Only such a file may ever be moved aside as damaged: anything else is
    somebody's document, named by mistake."""
    try:
        if not path.is_file():
            return True
        with path.open("rb") as f:  # read even when the size is 0: a /proc file says 0 and has text
            start = f.read(len(SQLITE_MAGIC))
        return not start or start == SQLITE_MAGIC
    except OSError:
        return True  # the open that follows reports the real problem


def log_of_another_file(path: Path) -> bool:
    """True when a write-ahead log with frames lies beside a database file that uses none: missing, empty, or in
    rollback mode (header bytes 18-19 are 1). SQLite writes a log only for a file in WAL mode, and empties and
    deletes it when the file leaves that mode, so such a log belongs to another file (the database was restored
    from a copy, or moved away without its log)."""
    wal = Path(f"{path}-wal")
    try:
        if wal.is_symlink() or not wal.is_file() or wal.stat().st_size <= WAL_HEADER_BYTES:
            return False
        if not path.exists():
            return True
        with path.open("rb") as f:
            header = f.read(100)
    except OSError:
        return False
    return not header or (len(header) == 100 and header.startswith(SQLITE_MAGIC) and header[18] == header[19] == 1)


def _header_damage(path: Path) -> str | None:
    """What is wrong with an SQLite file's 100-byte header (None when nothing is, or when the file
    does not even start like an SQLite database: SQLite itself says so)."""
    try:
        with path.open("rb") as f:
            header = f.read(100)
    except OSError:
        return None
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        return None
    page_size = int.from_bytes(header[16:18], "big")
    if page_size != 1 and not (512 <= page_size <= 32768 and page_size & (page_size - 1) == 0):
        return f"damaged header: page size {page_size}"
    if header[18] not in (1, 2) or header[19] not in (1, 2):
        return "damaged header: file format version"
    if header[21:24] != b"\x40\x20\x20":
        return "damaged header: payload fractions"
    if int.from_bytes(header[44:48], "big") not in (0, 1, 2, 3, 4):  # 0: no schema yet
        return "damaged header: schema format number"
    if int.from_bytes(header[56:60], "big") not in (0, 1, 2, 3):
        return "damaged header: text encoding"
    return None


@dataclass
class _Wal:
    page_size: int = 0
    frames: list[tuple[int, int, bytes]] = field(default_factory=list)  # (page, database size if a commit, page)
    damage: str | None = None
    salts: tuple[int, int] = (0, 0)
    committed: int = 0  # frames SQLite uses: the sound prefix, up to its last commit frame


def _wal_checksum(data: bytes, s0: int, s1: int, big_endian: bool) -> tuple[int, int]:
    words = struct.unpack(f"{'>' if big_endian else '<'}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def _read_wal(data: bytes, page_size_hint: int = 0) -> _Wal:
    """Read a write-ahead log as SQLite does, and say what SQLite would silently drop. Each frame is
    checked on its own (its checksum is chained to the previous frame's stored one), so the frames
    after a damaged one are found too: `frames` holds every sound frame of the current log. With a
    damaged log header, the frames are still read, with the page size of the database (the hint)."""
    wal = _Wal(frames=[])
    if len(data) < 32:
        wal.damage = f"the log is {len(data)} bytes, shorter than its header"
        return wal
    magic, version, page_size, _seq, salt1, salt2, c0, c1 = struct.unpack(">8I", data[:32])
    sane = 512 <= page_size <= 65536 and not page_size & (page_size - 1)
    if magic in WAL_MAGIC and version == 3007000 and sane and \
            _wal_checksum(data[:24], 0, 0, magic & 1 == 1) == (c0, c1):
        return _read_frames(data, wal, page_size, (salt1, salt2), (c0, c1), magic & 1 == 1)
    wal.damage = "the log header is damaged"
    page_size = page_size if sane else page_size_hint
    if not page_size or len(data) < 32 + 24 + page_size:
        return wal
    salts = struct.unpack(">2I", data[40:48])  # those of the first frame
    for big_endian in (False, True):
        found = _read_frames(data, _Wal(frames=[]), page_size, salts, (c0, c1), big_endian)
        if found.frames:
            wal.page_size, wal.frames = page_size, found.frames
            break
    return wal


def _read_frames(data: bytes, wal: _Wal, page_size: int, salts: tuple[int, int], seed: tuple[int, int],
                 big_endian: bool) -> _Wal:
    wal.page_size, wal.salts = page_size, salts
    size = 24 + page_size
    previous = seed
    bad = 0
    sound_prefix = True
    for offset in range(32, len(data) - size + 1, size):
        frame = data[offset: offset + size]
        page, _commit, f_salt1, f_salt2, f0, f1 = struct.unpack(">6I", frame[:24])
        if (f_salt1, f_salt2) != salts:
            sound_prefix = False  # a frame of an earlier log generation, or one whose header is damaged
            continue
        ok = page > 0 and _wal_checksum(frame[:8] + frame[24:], *previous, big_endian) == (f0, f1)
        previous = (f0, f1)
        if ok:
            wal.frames.append((page, _commit, frame[24:]))
            if sound_prefix and _commit:
                wal.committed = len(wal.frames)
            if not sound_prefix:
                wal.damage = wal.damage or "a frame of the log is damaged; SQLite would drop every later one"
        else:
            bad += 1
            sound_prefix = False
    if bad and not wal.damage:
        wal.damage = f"{bad} frame{'s' if bad != 1 else ''} of the log {'are' if bad != 1 else 'is'} damaged"
    if (len(data) - 32) % size:
        wal.damage = wal.damage or "the log ends in the middle of a frame (it was cut short)"
    return wal


def _indexed_frames(shm: bytes) -> tuple[int, tuple[int, int]] | None:
    """(frames, salts) of the log as its last writer left them in the -shm index, if it is sound."""
    if len(shm) < 96 or shm[:48] != shm[48:96] or not shm[12]:
        return None
    (frames,) = struct.unpack("=I", shm[16:20])  # native byte order; the salts are the log's own bytes
    return frames, struct.unpack(">2I", shm[32:40])


def _only_uncommitted(wal: _Wal, shm: bytes) -> bool:
    """True when whatever is wrong in the log lies only in frames no commit reached, going by the
    -shm index, whose header a writer updates only when a transaction commits. A large write killed
    before its commit leaves such a tail: frames spilled from the page cache, some rewritten in place
    with their checksums fixed only at commit. SQLite drops that tail, rightly: it is not damage."""
    if any(commit for _page, commit, _data in wal.frames[wal.committed:]):
        # A sound commit frame after the damage: a transaction committed there, so this is damage,
        # whatever the index says (any process that opened the file since rebuilt the index, from the
        # log, only up to the damaged frame: after that the index cannot tell a killed write from it).
        return False
    indexed = _indexed_frames(shm[:96])
    if indexed is None:
        return False
    frames, salts = indexed
    if salts == wal.salts:
        return frames <= wal.committed  # every committed frame is in the sound prefix
    # The log was restarted (new salts) and no transaction has committed in it since, as the index
    # would carry the new salts: sound if the old log had been copied into the database in full.
    return _unbackfilled_frames(shm) == 0


def _unbackfilled_frames(shm: bytes) -> int:
    """How many frames of the log its -shm index counts beyond those already copied into the
    database (the checkpoint's nBackfill, just after the two header copies): lost if the log is gone."""
    indexed = _indexed_frames(shm[:96])
    if indexed is None or len(shm) < 100:
        return 0
    (backfilled,) = struct.unpack("=I", shm[96:100])
    return max(indexed[0] - backfilled, 0)


PAGE_SIZES = (4096, 1024, 2048, 8192, 16384, 32768, 65536, 512)  # SQLite's page sizes, its default first
PROBE_PAGES = 256  # pages of the file a page size is tried on (the schema is in the first ones)


def _patched(pages: bytes, page_size: int) -> bytes:
    """`pages` (the start of a database file) with its header made readable for `page_size`."""
    image = bytearray(pages)
    image[:16] = SQLITE_MAGIC
    image[16:18] = (1 if page_size == 65536 else page_size).to_bytes(2, "big")
    image[18:20] = b"\x01\x01"  # rollback journal: the image has no log of its own
    image[21:24] = b"\x40\x20\x20"
    if int.from_bytes(image[44:48], "big") not in (1, 2, 3, 4):
        image[44:48] = (4).to_bytes(4, "big")
    image[56:60] = (1).to_bytes(4, "big")  # UTF-8, the only encoding this store writes
    # The page count as the image has it: a file cut short keeps its old, larger count in the header, and SQLite
    # would call the whole image malformed before reading a row (the count is trusted only while bytes 92-95
    # equal the change counter at 24-27, so both are set).
    image[28:32] = (len(image) // page_size).to_bytes(4, "big")
    image[92:96] = image[24:28]
    return bytes(image)


def _schema_reads(db: bytes, page_size: int) -> bool:
    """Whether the schema (page 1 on) reads at this page size, each stored table's root page inside the file."""
    probe = db[: page_size * PROBE_PAGES]
    if len(probe) < page_size:
        return False
    conn = sqlite3.connect(":memory:")
    try:
        conn.deserialize(_patched(probe[: len(probe) // page_size * page_size], page_size))
        # (a virtual table, such as the search index, has root page 0: its own tables carry its pages)
        roots = [r[0] for r in conn.execute("SELECT rootpage FROM sqlite_master WHERE type = 'table' AND rootpage != 0")]
    except sqlite3.Error:
        return False
    finally:
        conn.close()
    return bool(roots) and all(isinstance(r, int) and 0 < r <= len(db) // page_size for r in roots)


def _page_size(db: bytes, header_size: int) -> int:
    """The page size to read `db` with: the header's when the schema reads with it, else the first of SQLite's
    sizes it reads with (two damaged bytes of the header must not hide every row), else the header's."""
    valid = header_size >= 512 and not header_size & (header_size - 1) and header_size <= 65536
    if valid and _schema_reads(db, header_size):
        return header_size
    found = next((size for size in PAGE_SIZES if size != header_size and _schema_reads(db, size)), None)
    return found or (header_size if valid else 0)


def _database_image(db: bytes, wal_bytes: bytes) -> bytes:
    """A database file to read rows from: `db` with every sound committed frame of the log applied
    (also those after a damaged frame), its header repaired, and marked as not using a log."""
    header_size = int.from_bytes(db[16:18], "big") if db.startswith(SQLITE_MAGIC) else 0
    header_size = 65536 if header_size == 1 else header_size
    wal = _read_wal(wal_bytes, header_size) if wal_bytes else _Wal(frames=[])
    page_size = wal.page_size or _page_size(db, header_size)
    if not page_size or page_size & (page_size - 1):
        raise ValueError("no page size")
    pages = {n: db[n * page_size:(n + 1) * page_size] for n in range(len(db) // page_size)}
    last_commit = max((i for i, (_p, commit, _d) in enumerate(wal.frames or []) if commit), default=-1)
    size = len(pages)
    for page, commit, data in (wal.frames or [])[: last_commit + 1]:
        pages[page - 1] = data
        if commit:
            size = commit
    if 0 not in pages:
        raise ValueError("no first page")
    return _patched(b"".join(pages.get(n, bytes(page_size)) for n in range(max(size, 1))), page_size)


def _readable_rows(conn: sqlite3.Connection, table: str, columns: tuple[str, ...]) -> Iterator[tuple]:
    """Every row of `table` SQLite can still read, in rowid order: a damaged part of the table is
    stepped over (by ever larger jumps, so a badly damaged table costs a bounded number of tries)."""
    last, step, failures = -(1 << 63), 1, 0
    while failures < 64:
        try:
            for row in conn.execute(f"SELECT rowid, {', '.join(columns)} FROM {table} WHERE rowid > ? "
                                    "ORDER BY rowid", (last,)):
                last, step = row[0], 1
                yield row[1:]
            return
        except sqlite3.DatabaseError as exc:
            if "no such table" in str(exc):
                return
            failures += 1
            last = max(last, 0) + step
            step *= 2
            if last >= (1 << 63) - 1:  # past the largest rowid SQLite has
                return
