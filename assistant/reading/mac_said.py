"""A Mac named with its memory and GPU cores, before or after its chip ('m3 max has 36gb', 'M4 Max 48G', 'a 64gb m3
max', '64G内存的M3 Max', '30-core M3 Max 36GB', '16gb macbook air m2'): that configuration from the Apple chip table
(knowledge/apple.py, its own bandwidth); for a memory Apple never sold with the chip ('M3 Max 256GB'), the chip's
figures with the memory as stated, which `unsold_mac` says in a note. GPU cores no GPU of the chip has are a CPU's ('a
12-core m3 pro'), and cores that do not go with the memory said ('30-core m3 max 64gb') give way to the memory: both
are left out. The words: words/hardware.yaml (apple_chip, mac_memory_after, mac_cores_after, mac_memory_before,
mac_cores_before)."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.text import word_pattern
from gpu_advisor.knowledge import BadValue, find_gpu
from gpu_advisor.knowledge.apple import apple_said, configuration, memory_sold

Found = tuple[int, int, str, int]  # (start, end, GPU id, count)


def mac_of(chip_id: str, cores: int | None, memory: int | None) -> str | None:
    """The GPU id (a catalog id, a chip-table id or, for memory never sold with the chip, a custom spec) of the chip
    with those GPU cores and memory; None when no such chip."""
    memory = memory if memory is not None and 8 <= memory <= 512 else None
    for gpu_cores in dict.fromkeys((cores, None)):
        try:
            mac = configuration(chip_id, gpu_cores, memory)
        except BadValue:
            continue
        return mac.id if mac else None
    chip = configuration(chip_id, None, None)  # the chip's largest configuration, sized with the memory as stated
    if chip is None or memory is None:
        return None
    name = f"{_family(chip.name)} {memory}GB"
    return (f"custom:memory={memory}GB,bandwidth={chip.memory_bandwidth_gbps:g}GB/s,bf16={chip.bf16_tflops:g},"
            f"vendor=apple,segment=apple,name={name}")


def mac_named(words: str, memory: bool = True) -> str | None:
    """The Mac that a Mac's words name ('macbook air m3 16gb', 'an m1 with 32gb'): `mac_of` its chip, cores and
    memory (not the memory, where the number is its storage); None when they name no chip."""
    said = apple_said(words)
    return mac_of(said[0], said[1], said[2] if memory else None) if said else None


def macs_named(text: str, found: list[Found], most: int) -> list[Found]:
    """The cards found with the Macs named by a Mac word and their chip, or by a bare chip with its memory
    ('macbook air m3 16gb', 'mac mini m4', 'a 16gb m2'), at most `most` names."""
    for x in word_pattern("apple_chip").finditer(text):
        inside = [f for f in found if f[0] < x.end() and x.start() < f[1]]
        if any(e - s >= x.end() - x.start() for s, e, _, _ in inside) or len(found) >= most:
            continue  # a catalog name as long as the chip's words ('mac mini m4 pro 48g' is longer than its name)
        storage = word_pattern("mac_storage_after").match(text[x.end():x.end() + 16])
        if storage and not word_pattern("mac_product").search(x.group(0)):
            continue  # '512gb m2 ssd': a drive
        mac = mac_named(x.group(0), memory=not storage)  # 'macbook air m2 256gb ssd': its storage, not its memory
        if mac:
            found = [f for f in found if f not in inside] + [(x.start(), x.end(), mac, 1)]
    return found


def _family(name: str) -> str:
    """'Apple M3 Max (40-core GPU, 128GB)' -> 'Apple M3 Max'."""
    return name.split(",")[0].split("(")[0].strip()


def _said_before(text: str, s: int, found: list[Found]) -> tuple[int, int | None, int | None] | None:
    """The memory and GPU cores said just before a Mac's chip ('a 64gb m3 max', '30-core m3 max'): (where those words
    begin, memory, cores), or None; not words another card's name has read ('a100 80gb m3 max')."""
    before = text[max(0, s - 48):s]
    x = word_pattern("mac_memory_before").search(before) or word_pattern("mac_cores_before").search(before)
    if not x:
        return None
    start = s - len(before) + x.start()
    if any(fs < s and start < fe for fs, fe, _g, _n in found):
        return None
    said = x.groupdict()
    cores = said.get("cores") or said.get("cores_after")
    return start, int(said["memory"]) if said.get("memory") else None, int(cores) if cores else None


def _count_before(text: str, start: int) -> tuple[int, int] | None:
    """The Macs counted before the memory said with them ('two 64gb m3 max'): (count, where it begins)."""
    before = text[max(0, start - 40):start]
    m = word_pattern("gpu_count_before").search(before)
    if not m or int(m.group(1)) < 1:
        return None
    return int(m.group(1)), start - (len(before) - m.start(1))


def macs_as_said(text: str, found: list[Found], counted: set[int]) -> list[Found]:
    """Each Mac found with the memory and GPU cores said before or after its chip; its span takes those words in
    (and a count said before them, into `counted`)."""
    out: list[Found] = []
    for s, e, gpu_id, count in found:
        if not gpu_id.startswith("apple-"):
            out.append((s, e, gpu_id, count))
            continue
        after = word_pattern("mac_memory_after").match(text[e:e + 40])
        if after and word_pattern("mac_storage_after").match(text[e + after.end():e + after.end() + 16]):
            after = None  # 'm3 max 1tb ssd', 'm2 512gb ssd': its storage, not its memory
        end = e + (after.end() if after else 0)
        cores_after = word_pattern("mac_cores_after").match(text[end:end + 16])
        before = _said_before(text, s, found)
        inside = apple_said(text[s:e]) or apple_said(_family(find_gpu(gpu_id).name))  # 'macbook air m2 16gb'
        if not (after or cores_after or before) or inside is None:
            out.append((s, e, gpu_id, count))
            continue
        chip_id, cores, memory = inside
        memory = memory or (int(after["memory"]) if after else None) or (before[1] if before else None)
        cores = cores or (int(after["cores"]) if after and after["cores"] else None) \
            or (int(cores_after["cores"]) if cores_after else None) or (before[2] if before else None)
        mac = mac_of(chip_id, cores, memory)
        if mac is None:
            out.append((s, e, gpu_id, count))
            continue
        s1, e1 = (before[0] if before else s), end + (cores_after.end() if cores_after else 0)
        if before and count == 1 and s not in counted and (n := _count_before(text, s1)):
            count, s1 = n
            counted.add(s1)
        elif s in counted:
            counted.discard(s)
            counted.add(s1)
        out.append((s1, e1, mac, count))
    return out


def unsold_mac(spec: str) -> tuple[str, dict[str, str]] | None:
    """A Mac named with memory its chip was never sold with ('m4 max 32gb'): said, then sized as stated."""
    name = spec.split("name=", 1)[-1]
    memory = re.search(r"(\d+(?:\.\d+)?)GB$", name)
    sold = memory_sold(name)
    if not (sold and memory):
        return None
    return ("note.mac_not_sold", {"chip": sold[0], "sizes": ", ".join(map(str, sold[1])), "memory": memory[1]})
