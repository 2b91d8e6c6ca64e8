"""The cards and memory of the machine this runs on, read from the tools its vendor ships.

NVIDIA: `nvidia-smi --query-gpu=name,memory.total --format=csv,noheader,nounits` (one line per card, MiB).
AMD: `rocm-smi --showproductname --showmeminfo vram --json` (a record per card; the keys changed between
ROCm releases, so every known spelling is tried). Apple: `sysctl -n machdep.cpu.brand_string hw.memsize`
(chip and unified memory) and `system_profiler SPDisplaysDataType -json` (GPU cores). System memory:
/proc/meminfo on Linux, hw.memsize on a Mac.

Each card is matched to the catalog by its name, then checked on its memory: a name that matches a sibling
with another memory size (A100 40 GB for an 80 GB card) takes the sibling with the memory it reports, and a
card the catalog does not hold is listed with its name and memory, never replaced by another. The parsers
take text, so tests run on recorded outputs; `detect` takes the command runner for the same reason.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Callable
from functools import cache
from pathlib import Path

from pydantic import BaseModel

from gpu_advisor.knowledge.resolve import BadValue, NotFound, find_gpu
from gpu_advisor.knowledge.schema import Gpu

Runner = Callable[[list[str]], str | None]

NVIDIA_SMI = ["nvidia-smi", "--query-gpu=name,memory.total", "--format=csv,noheader,nounits"]
ROCM_SMI = ["rocm-smi", "--showproductname", "--showmeminfo", "vram", "--json"]
MAC_CHIP = ["sysctl", "-n", "machdep.cpu.brand_string", "hw.memsize"]
MAC_GPU = ["system_profiler", "SPDisplaysDataType", "-json"]
MEMINFO = Path("/proc/meminfo")
# Reported memory within this share of a catalog card's is the same card: drivers reserve a little (an
# H100 80GB shows 81,559 MiB; an L40S with ECC on 46,068 of 49,152 MiB).
SAME_MEMORY = 0.1
# rocm-smi's keys for the card's name and its memory in bytes, newest releases first.
ROCM_NAME_KEYS = ("Card Series", "Card series", "Marketing Name", "Card SKU", "Card model")
ROCM_MEMORY_KEYS = ("VRAM Total Memory (B)", "vram Total Memory (B)")
GIB = 2**30  # card memory is sold in GiB and called GB: a 4090's 24,564 MiB is its "24GB"
# The parts of a card's name that say which card it is: 'a100', '4090', 'mi300x' (not '80gb' or 'nvidia').
_MODEL_PART = re.compile(r"[a-z]*\d+[a-z]*")


class LocalCard(BaseModel):
    """Cards of one kind in this machine: as the vendor tool names them, and the catalog's record."""

    count: int
    name: str  # as the vendor tool reports it
    memory_gb: float  # as reported, in GiB (what the card is sold as: "24GB")
    gpu_id: str | None = None  # the catalog record; None: the catalog does not hold this card
    gpu_name: str | None = None


class LocalMachine(BaseModel):
    cards: list[LocalCard] = []
    ram_gb: float | None = None  # system memory (unified memory on a Mac)
    sources: list[str] = []  # the commands or files that answered

    @property
    def known(self) -> list[LocalCard]:
        return [c for c in self.cards if c.gpu_id]


def _run(command: list[str]) -> str | None:
    """A command's output, or None when it is not installed, fails or hangs."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def parse_nvidia_smi(text: str) -> list[tuple[str, float]]:
    """(name, memory in GB) per card from nvidia-smi's CSV."""
    cards = []
    for line in text.splitlines():
        name, _, mib = line.rpartition(",")
        try:
            cards.append((name.strip(), round(float(mib) * 2**20 / GIB, 1)))
        except ValueError:
            continue  # a header or "[N/A]"
    return [c for c in cards if c[0]]


def parse_rocm_smi(text: str) -> list[tuple[str, float]]:
    """(name, memory in GB) per card from rocm-smi's JSON."""
    try:
        data = json.loads(text)
    except ValueError:
        return []
    cards = []
    for key, record in sorted(data.items()) if isinstance(data, dict) else []:
        if not (isinstance(record, dict) and key.lower().startswith("card")):
            continue
        name = next((str(record[k]).strip() for k in ROCM_NAME_KEYS if str(record.get(k, "")).strip()), "")
        size = str(next((record[k] for k in ROCM_MEMORY_KEYS if k in record), ""))
        try:
            cards.append((name, round(float(size) / GIB, 1)))
        except ValueError:
            continue
    return [c for c in cards if c[0]]


def parse_mac(sysctl: str, profiler: str | None) -> tuple[str | None, float | None]:
    """(the Mac as the catalog names it, unified memory in GB) from sysctl and system_profiler."""
    lines = [line.strip() for line in sysctl.splitlines() if line.strip()]
    chip = next((line for line in lines if re.search(r"\bapple\b", line, re.I)), None)
    size = next((int(line) for line in lines if line.isdigit()), None)
    memory = round(size / 2**30) if size else None  # Apple sells 16, 24, 36 ... GiB and calls them GB
    if not chip:
        return None, memory
    cores = None
    try:
        displays = json.loads(profiler or "{}").get("SPDisplaysDataType") or []
        cores = next((d.get("sppci_cores") for d in displays if d.get("sppci_cores")), None)
    except (ValueError, AttributeError):
        pass
    name = chip + (f" {cores}-core" if cores else "") + (f" {memory}GB" if memory else "")
    return name, memory


def parse_meminfo(text: str) -> float | None:
    m = re.search(r"^MemTotal:\s+(\d+)\s*kB", text, re.M)
    return round(int(m.group(1)) * 1024 / GIB, 1) if m else None


def _same(said: str, memory_gb: float) -> Gpu | None:
    """The catalog card a name finds, when its memory is the memory reported."""
    try:
        gpu = find_gpu(said)
    except (NotFound, BadValue):
        return None
    return gpu if abs(gpu.memory_gb - memory_gb) <= SAME_MEMORY * gpu.memory_gb else None


def match_card(name: str, memory_gb: float) -> tuple[str | None, str | None]:
    """The catalog card (id, name) a vendor's name and memory are, or (None, None): the name with its memory
    ('RTX 4060 Ti 16GB'), the name, the closest catalog names of the same model ('H100 80GB HBM3'), then each of
    those with the memory reported (the A100 40 GB's sibling for an 80 GB card)."""
    names = [name]
    try:
        names.append(find_gpu(name).name)
    except (NotFound, BadValue) as e:
        parts = _model_parts(name)
        names += [g.name for g in map(find_gpu, getattr(e, "suggestions", [])) if _model_parts(g.name) <= parts]
    tries = [f"{name} {round(memory_gb)}GB", *names]
    tries += [re.sub(r"\s*\d+\s*GB\b", "", n) + f" {round(memory_gb)}GB" for n in names[1:]]
    gpu = next((g for g in (_same(t, memory_gb) for t in tries) if g is not None), None)
    return (gpu.id, gpu.name) if gpu else (None, None)


def _model_parts(name: str) -> set[str]:
    return {p for p in _MODEL_PART.findall(name.lower()) if not re.fullmatch(r"\d+gb?", p)}


def _grouped(cards: list[tuple[str, float]]) -> list[LocalCard]:
    out: dict[tuple[str, float], int] = {}
    for card in cards:
        out[card] = out.get(card, 0) + 1
    grouped = []
    for (name, memory), count in out.items():
        gpu_id, gpu_name = match_card(name, memory)
        grouped.append(LocalCard(count=count, name=name, memory_gb=memory, gpu_id=gpu_id, gpu_name=gpu_name))
    return grouped


def detect(run: Runner = _run, meminfo: Path = MEMINFO) -> LocalMachine:
    """The cards and memory of this machine, from whichever vendor tools answer."""
    machine = LocalMachine()
    found: list[tuple[str, float]] = []
    for command, parse in ((NVIDIA_SMI, parse_nvidia_smi), (ROCM_SMI, parse_rocm_smi)):
        out = run(command)
        if out and (cards := parse(out)):
            found += cards
            machine.sources.append(command[0])
    sysctl = run(MAC_CHIP)
    if sysctl:
        mac, memory = parse_mac(sysctl, run(MAC_GPU))
        machine.ram_gb = memory
        machine.sources.append("sysctl")
        if mac and memory:
            found.append((mac, float(memory)))
    machine.cards = _grouped(found)
    if machine.ram_gb is None:
        try:
            machine.ram_gb = parse_meminfo(meminfo.read_text())
            machine.sources.append(str(meminfo))
        except OSError:
            pass
    return machine


def as_owned(machine: LocalMachine) -> dict[str, int]:
    """The catalog cards of a machine, as the owned-hardware counts the assistant plans with."""
    owned: dict[str, int] = {}
    for card in machine.known:
        assert card.gpu_id is not None
        owned[card.gpu_id] = owned.get(card.gpu_id, 0) + card.count
    return owned


@cache
def this_machine() -> LocalMachine:
    """The machine this runs on, read once per process (a local front-end's reader for the conversation)."""
    return detect()
