"""Cards named beyond the catalog's own names, sized as said or reported, never swapped for a sibling:
a card with memory it is not sold with ('4090 48G魔改版', 'a 2080 Ti modded to 22 GB'), a laptop chip or a
suffix the catalog lacks ('RTX 3080 Ti laptop', '3060 Ti'), a card name the catalog does not hold ('1080 Ti',
'V100'), and servers of a card counted as servers, not cards ('2 H100 servers', '两台H100服务器')."""

from __future__ import annotations

import re

from gpu_advisor.assistant.reading.assumed_card import assumed_card, count_before, owned_named
from gpu_advisor.assistant.reading.clauses import clause_bounds
from gpu_advisor.assistant.reading.per_machine import machines_after_each, machines_cards
from gpu_advisor.assistant.reading.restated_cards import server_per_after
from gpu_advisor.assistant.reading.text import MASK, word_pattern
from gpu_advisor.knowledge import find_gpu, rules
from gpu_advisor.knowledge.resolve import normalise

Note = tuple[str, dict[str, str]]
Found = tuple[int, int, str, int]  # (start, end, GPU id, count)


def _memory_variant(text: str, start: int, end: int, gpu_id: str, index: dict[str, str], lead: tuple | None,
                    notes: list[Note]) -> tuple[str, int]:
    """The card's variant by the memory said after its name ('4090 48g') or before it ('48G显存的4090', 'a 48gb
    4090'): (GPU id, end of what was read)."""
    variant = stated_memory(text, start, end, gpu_id, index)
    if variant:
        gpu_id, end, said = variant
        notes += [said] if said else []
    elif lead:
        gpu_id, said = with_memory(text[start:end], gpu_id, lead[1], index)
        notes += [said] if said else []
    return gpu_id, end


def _machines_before(text: str, s0: int, count_after: bool) -> re.Match[str] | None:
    """The machines counted before the cards ('2 servers each with 8 A100'); with the cards' count after the card
    only where each machine's was said ('2台机器 每台4090八张', not '2 servers with a100 x 8')."""
    machines = word_pattern("gpu_machines_before").search(text[max(0, s0 - 48):s0])
    return None if count_after and machines and "each" not in machines.group(0) else machines


def card_span(text: str, start: int, end: int, gpu_id: str, index: dict[str, str],
              notes: list[Note], per_server: dict[int, int] | None = None) -> tuple[int, int, str, int, bool]:
    """A catalog card named at start:end with the words that go with it: its count before or after it ("two
    4090s", "8x H100", "A100 x 8"), the machines that hold it ("2 servers each with 8 A100", "2 H100 servers",
    "two 8xH100 nodes"), the memory said after it ('4090 48g'). Returns (start, end, GPU id, count, whether a
    count was given); the cards in each machine, where machines were counted, go to per_server by start."""
    per_server = {} if per_server is None else per_server
    per: int | None = None
    lead = memory_before(text, start, gpu_id)
    at = lead[0] if lead else start  # 'two 48g 4090s': the count goes before the memory
    count, s0, e0 = 1, at, end
    before = text[max(0, at - 40):at]
    m = word_pattern("gpu_count_before").search(before)
    a = word_pattern("gpu_count_after").match(text[end:end + 40])
    if m:
        count, s0 = int(m.group(1)), at - (len(before) - m.start(1))
    elif a:
        count, e0 = int(a.group(1) or a.group(2)), end + a.end()
    count = max(count, 1)
    if e0 == end:  # the memory said after the name first: 'two 8x 910b 64g nodes' has its machines after the memory
        gpu_id, e0 = _memory_variant(text, start, end, gpu_id, index, lead, notes)
    machines = _machines_before(text, s0, bool(a and not m))
    each = word_pattern("machines_counted_before").search(text[max(0, s0 - 8):s0]) if m else None
    after = word_pattern("machines_after").match(text[e0:e0 + 24]) if each else None
    if machines and int(machines.group(1)) > 0:
        if m or a:  # "2 servers each with 8 A100", '2台机器 每台4090八张': the machines multiply the cards
            per, count = machines_cards(text, machines, m, e0, count)  # '两台服务器（16张910B）': 16 in all
        elif not gpu_id.startswith("apple-"):  # "2 servers with A100s": how many in each is not said
            count, note = servers_of(gpu_id, int(machines.group(1)), machines["word"])
            per = count // int(machines.group(1))
            notes.append(note)
        s0 -= len(text[max(0, s0 - 48):s0]) - machines.start(1)
    elif each and after and int(each["n"]) > 0:
        # "two 8xH100 nodes", "4 8-gpu a100 servers": machines of so many cards each
        per = count
        count *= int(each["n"])
        s0 -= len(text[max(0, s0 - 8):s0]) - each.start("n")
        e0 += after.end()
    elif m and not re.search(r"\d\s*[x×*]|gpu|card", m.group(0)) and not gpu_id.startswith("apple-"):
        server = word_pattern("machines_after").match(text[e0:e0 + 24])
        sized = word_pattern("machines_of_n_after").match(text[e0:e0 + 32])
        if sized and int(sized["per"]) > 0:  # "2 H100 8-gpu boxes": two machines of eight cards each
            per = int(sized["per"])
            count *= per
            e0 += sized.end()
        elif server:  # "2 H100 servers": the number counts the servers, not the cards
            gpu_id, count, per, e0 = _servers_named(text, (start, end, e0 + server.end()), gpu_id, count,
                                                    server["word"], index, notes)
    if (m or a) and not per:
        per, count, e0 = machines_after_each(text, s0, e0, count)  # '每台8卡A100，共4台': cards of each machine
    if (m or a) and not per:
        per, e0 = split_over_machines(text, e0, count)
    if per:
        per_server[s0] = per
    later = word_pattern("gpu_count_later").match(text[e0:e0 + 48]) if not (m or a or machines or per) else None
    if later and int(later["n"] or later["t"] or later["u"]) > 0:  # 'a100 40gb cards, eight of them'
        count, e0 = int(later["n"] or later["t"] or later["u"]), e0 + later.end()
        return s0, e0, gpu_id, count, True
    return s0, e0, gpu_id, count, bool(m or a or (machines and int(machines.group(1)) > 0))


def _servers_named(text: str, span: tuple[int, int, int], gpu_id: str, servers: int, word: str, index: dict[str, str],
                   notes: list[Note]) -> tuple[str, int, int, int]:
    """Servers counted before the card ('2 H100 servers'): (GPU id, cards, cards in each, end of the words read). The
    cards in each as said after them ('two 910b servers (8x 64gb each)', with the memory), else as such a machine
    holds (servers_of, with the note that says so)."""
    start, end, e0 = span
    said, e0 = server_per_after(text, e0)
    if said:
        gpu_id, e0 = _memory_after(text, start, end, e0, gpu_id, index, notes)
        return gpu_id, servers * said, said, e0
    count, note = servers_of(gpu_id, servers, word)
    notes.append(note)
    return gpu_id, count, count // servers, e0


def _memory_after(text: str, start: int, end: int, e0: int, gpu_id: str, index: dict[str, str],
                  notes: list[Note]) -> tuple[str, int]:
    """The cards' memory said after the cards in each server ('two h20 servers (8x 141gb each)'): that memory's card,
    and the end of the words read."""
    x = word_pattern("card_memory_after").match(text[e0:e0 + 48])
    if not x or gpu_id.startswith(("apple-", "custom:")) or word_pattern("memory_is_network").match(text[e0:e0 + 64]):
        return gpu_id, e0
    gpu_id, said = with_memory(text[start:end], gpu_id, float(x["memory"]), index)
    notes += [said] if said else []
    return gpu_id, e0 + x.end()


def split_over_machines(text: str, end: int, count: int) -> tuple[int | None, int]:
    """The machines the counted cards said are in, after them: (cards in each, end of the words read). "six L40S (two
    4-gpu boxes)" -> 3 in each, "8 A100s across 2 servers" -> 4; a count the machines cannot split evenly says none."""
    split = word_pattern("machines_split_after").match(text[end:end + 48])
    if not split:
        return None, end
    servers, each = int(split["n"]), int(split["per"] or split["per2"] or 0)
    if servers > 0 and count % servers == 0 and (not each or count // servers <= each):  # 6 in two 4-gpu boxes: 3 each
        return count // servers, end + split.end()
    return None, end


def server_span(text: str, start: int, end: int, gpu_id: str, per: int,
                per_server: dict[int, int]) -> tuple[int, int, str, int, bool]:
    """A server named by its model ('4 Atlas 800I A2', 'two DGX H100 servers'): the count before it counts
    servers, each holding `per` of the card (knowledge: the card's server_models)."""
    count, s0, e0 = 1, start, end
    before = text[max(0, start - 24):start]
    m = word_pattern("server_counted_before").search(before)
    if m and int(m["n"]) > 0:
        count, s0 = int(m["n"]), start - (len(before) - m.start("n"))
    after = word_pattern("machines_after").match(text[end:end + 24])
    if after:
        e0 += after.end()
    said, e0 = server_per_after(text, e0)  # '4台Atlas 800I A2（8卡 64G）': the cards in each, said
    if said is not None and count > 1 and said == count * per:
        said = per  # '2 DGX H100 (16 GPUs)': the servers' cards in all, not in each
    per = said or per
    per_server[s0] = per
    return s0, e0, gpu_id, count * per, True


def server_memory(text: str, end: int, e0: int, gpu_id: str) -> tuple[str, int]:
    """A server model said with its cards' memory ('4 DGX A100 nodes (the 40gb version)', 'DGX A100 40GB', '4台DGX
    A100（40G版本）'): the catalog's card of that memory in the same form (a100-80gb-sxm -> a100-40gb-sxm), and where
    the words read end; the model's own card when the catalog has no such sibling."""
    pattern = word_pattern("server_memory_after")
    x = pattern.match(text[end:end + 40]) or pattern.match(text[e0:e0 + 40])
    if not x:
        return gpu_id, e0
    sibling = re.sub(r"\d+gb", f"{float(x['memory']):g}gb", gpu_id, count=1)
    try:
        found = find_gpu(sibling)
    except (KeyError, ValueError, LookupError):
        return gpu_id, e0
    if found.id != sibling:
        return gpu_id, e0
    return sibling, max(e0, (end if pattern.match(text[end:end + 40]) else e0) + x.end())


def stated_memory(text: str, start: int, end: int, gpu_id: str, index: dict[str, str]) -> tuple[str, int, Note | None] | None:
    """A catalog card named with its memory ('4090 48g', '2080 ti modded to 22 gb', 'a100 40g'): (id, end of
    the words read, note). The catalog's card of that memory when it has one; else the named card's
    bandwidth and compute with the memory as stated, said in a note. None when no memory follows."""
    if gpu_id.startswith(("apple-", "custom:")):
        return None  # Macs are read by their chip table (names.py)
    x = word_pattern("card_memory_after").match(text[end:end + 48])
    if not x or word_pattern("memory_is_network").match(text[end:end + 64]):
        return None  # '8x h100 with 400g infiniband': the network's speed, not the card's memory
    gpu_id, note = with_memory(text[start:end], gpu_id, float(x["memory"]), index)
    return gpu_id, end + x.end(), note


def memory_before(text: str, start: int, gpu_id: str) -> tuple[int, float] | None:
    """The memory said just before a catalog card's name ('a 48gb 4090', '48g 显存的 4090', 'modded 48g 4090'):
    (where those words begin, GB), or None; not the computer's RAM ('内存 64g 4090')."""
    if gpu_id.startswith(("apple-", "custom:")):
        return None
    before = text[max(0, start - 32):start]
    x = word_pattern("card_memory_before").search(before)
    if not x or word_pattern("ram_before_memory").search(before[:x.start("memory")]):
        return None
    return start - (len(before) - x.start()), float(x["memory"])


def with_memory(named: str, gpu_id: str, memory: float, index: dict[str, str]) -> tuple[str, Note | None]:
    """A catalog card said with its memory: the card itself at its stock memory; the catalog's card of that
    memory when it has one ('4090' + 48 GB: the modified 48 GB 4090; '4070' + 8 GB: the laptop GPU); else the named card's bandwidth and
    compute with the memory as stated, said in a note."""
    gpu = find_gpu(gpu_id)
    if memory == gpu.memory_gb or not 1 <= memory <= 1024:
        return gpu_id, None
    if named.endswith("s") and index.get(normalise(named[:-1])) == gpu_id:
        named = named[:-1]  # '4090s modded to 48 GB', 'two 48gb 4090ds': the 48 GB card
    sibling = index.get(normalise(f"{named} {memory:g}gb"))
    if sibling and find_gpu(sibling).memory_gb == memory:
        return sibling, None
    laptop = laptop_variant(named)
    if laptop and find_gpu(laptop).memory_gb == memory:
        return laptop, None  # 'rtx 4070 8gb': no desktop 4070 has 8 GB, its laptop GPU has
    base = re.sub(r"\s*\d+(?:\.\d+)?\s*GB$", "", gpu.name)
    fields = {"memory": f"{memory:g}GB", "bandwidth": f"{gpu.memory_bandwidth_gbps:g}GB/s", "bf16": f"{gpu.bf16_tflops:g}",
              "fp8": f"{gpu.fp8_tflops:g}" if gpu.fp8_tflops else None,
              "int8": f"{gpu.int8_tops:g}" if gpu.int8_tops else None, "power": f"{gpu.tdp_w:g}W",
              "nvlink": f"{gpu.nvlink_gbps:g}GB/s" if gpu.nvlink_gbps else None, "link": gpu.interconnect,
              "vendor": gpu.vendor, "segment": gpu.segment, "name": f"{base} {memory:g}GB"}
    spec = "custom:" + ",".join(f"{k}={v}" for k, v in fields.items() if v is not None)
    note = ("note.card_memory_as_stated", {"card": gpu.name, "stock": f"{gpu.memory_gb:g}", "memory": f"{memory:g}"})
    return spec, note


def servers_of(gpu_id: str, servers: int, word: str) -> tuple[int, Note]:
    """Cards in `servers` machines of a card when the count in each is not said ('2 H100 servers'): a board
    part's whole board; else as many as such a machine holds (the host table's: a GPU server for 'servers'
    and 'nodes', the card's own kind of machine for 'machines', 'boxes', 'rigs'), with the note that says so."""
    gpu = find_gpu(gpu_id)
    if gpu.sold_in > 1:
        per, key = gpu.sold_in, "note.servers_boards"
    else:
        host = "datacenter-pcie" if word_pattern("server_words").fullmatch(word) else gpu.host_kind
        per, key = rules().host_systems[host].gpus, "note.servers_full"
    values = {"servers": str(servers), "gpu": gpu.name, "per": str(per), "total": str(servers * per)}
    return servers * per, (key, values)


def lone_servers(masked: str, found: list[Found]) -> Note | None:
    """'we have two servers', '两台服务器' with no card named: servers are not GPUs; the note asks for the cards."""
    x = (word_pattern("server_count_of").search(masked) or word_pattern("server_count").search(masked)) if not found else None
    # ('1 of the 2 boxes': the one of them, not the two)
    if x and any(b.start() <= x.start() < b.end() for b in word_pattern("buy_box.box").finditer(masked)):
        return None  # 'we want to buy one server': a machine to buy, not one owned
    n = (x["n"] or "1") if x else "0"  # 'a single node' is one
    return ("note.servers_without_cards", {"servers": n}) if int(n) > 0 else None


def outside_catalog(text: str, raw: str, found: list[Found]) -> tuple[list[Found], list[tuple[int, int]], list[Note]]:
    """Cards the catalog does not hold, reported, not sized: a catalog name followed by a laptop word or a
    suffix it does not carry ('3080 ti laptop', '3060 ti'), and card names the catalog lacks ('1080 ti',
    'v100'). Returns the cards kept, the spans to hide from the other readers, and the notes."""
    kept: list[Found] = []
    hidden: list[tuple[int, int]] = []
    notes: list[Note] = []
    for s, e, gpu_id, count in found:
        catalog = not gpu_id.startswith(("apple-", "custom:")) and not find_gpu(gpu_id).laptop  # (a laptop card named as such)
        x = word_pattern("card_not_this_after").match(text[e:e + 32]) if catalog else None
        laptop = word_pattern("card_laptop_before").search(text[max(0, s - 40):s]) if catalog and not x else None
        if not (x or laptop):
            kept.append((s, e, gpu_id, count))
            continue
        name = _name_start(text, s, e)
        variant = laptop_variant(text[name:e]) if laptop or (x and x["laptop"]) else None
        if variant:  # 'my laptop has a 4080', '4090 notebook': the catalog's laptop card of that name
            kept.append((s, e + (x.end("suffix") if x else 0), variant, count))
            continue
        if laptop:
            typed = as_typed(raw, text[name:e]) + " laptop"
        else:
            assert x is not None
            typed = as_typed(raw, text[name:e + x.end("suffix")])
        if laptop or (x and x["laptop"]):
            notes.append(("note.card_laptop", {"name": typed, "card": find_gpu(gpu_id).name}))
        else:
            notes.append(("note.card_unknown", {"name": typed}))
        hidden.append((s, e + (x.end() if x else 0)))
    masked = list(text)
    for s, e, *_ in kept:
        masked[s:e] = MASK * (e - s)
    for s, e in hidden:
        masked[s:e] = MASK * (e - s)
    for x in word_pattern("unknown_card").finditer("".join(masked)):
        on_laptop = word_pattern("card_laptop_before").search(text[max(0, x.start() - 40):x.start()])
        laptop_word = word_pattern("laptop_words")
        after = laptop_word.match(text[x.end():x.end() + 20])  # 'rtx 4060 8gb laptop'
        variant = laptop_variant(laptop_word.sub("", x["name"]).strip()) \
            if on_laptop or after or laptop_word.search(x["name"]) else None
        if variant:  # 'gaming laptop with an rtx 4070': the catalog's laptop card, though no desktop 4070 is held
            kept.append((x.start(), x.end() + (after.end() if after else 0), variant, 1))
            continue
        memory = word_pattern("unknown_card_memory").match(text, x.end())  # 'Radeon Pro W7800 (32gb)'
        if memory and 1 <= float(memory["gb"]) <= 1024:  # sized as a card of that memory, what is assumed said
            spec, note = assumed_card(as_typed(raw, x["name"]), float(memory["gb"]))
            count, s0 = count_before(text, x.start())
            kept.append((s0, memory.end(), spec, count))
            notes.append(note)
            continue
        notes.append(("note.card_unknown", {"name": as_typed(raw, x["name"])}))
        hidden.append((x.start(), x.end()))
    for s, e, *_ in kept:
        masked[s:e] = MASK * (e - s)
    for s, e in hidden:
        masked[s:e] = MASK * (e - s)
    owned, said = owned_named("".join(masked), lambda name: as_typed(raw, name))  # 'i have a zx 9000 16gb'
    return kept + owned, hidden, notes + said


def laptop_variant(name: str) -> str | None:
    """The catalog's laptop GPU sold under a desktop card's name ('4080' -> the RTX 4080 Laptop GPU), or None
    when the catalog holds no laptop card of that name."""
    from gpu_advisor.knowledge import NotFound

    for said in (name, re.sub(r"\s*\d+\s*g(?:b|ib)?\b", "", name)):  # 'rtx 4060 8gb laptop': its memory said too
        try:
            gpu = find_gpu(f"{said} laptop")
        except NotFound:
            continue
        return gpu.id if gpu.laptop else None
    return None


def _name_start(text: str, s: int, e: int) -> int:
    """Where the name begins in a card's span that may open with its count ('4 rtx 3080 ti')."""
    x = re.match(r"\s*\d+\s*(?:[x×*]\s*|\s+)(?=\S)", text[s:e])
    return s + x.end() if x else s


def as_typed(raw: str, name: str) -> str:
    """A name as the user typed it (its case), found in the raw message; the cleaned words otherwise."""
    words = [re.escape(w) for w in name.split()]
    typed = re.search(r"[\s\-_]*".join(words), raw, re.IGNORECASE) if words else None
    return typed.group() if typed else name


def elided_siblings(text: str, found: list[Found]) -> list[Found]:
    """A second card said by its memory alone after the first ('a100 40gb and 80gb', '4090 24g 还是 48g'): the
    catalog's card of the same name at that memory, added after the first; nothing when the catalog has none."""
    out: list[Found] = []
    for s, e, gpu_id, n in found:
        out.append((s, e, gpu_id, n))
        x = word_pattern("elided_card_memory").match(text[e:e + 48])
        if not x or gpu_id.startswith(("apple-", "custom:")):
            continue
        gpu = find_gpu(gpu_id)
        memory = float(x["memory"])
        base = re.sub(r"\s*\d+(?:\.\d+)?\s*GB$", "", gpu.name)
        try:
            sibling = find_gpu(f"{base} {memory:g}GB")
        except LookupError:
            continue
        if sibling.id != gpu_id and sibling.memory_gb == memory and not any(f[2] == sibling.id for f in found):
            out.append((e + x.start("memory"), e + x.end(), sibling.id, 1))
    return out


def repeated_bare(text: str, found: list[Found]) -> list[Found]:
    """A card named again later by its bare name after its exact variant ('8张V100 16G … V100不支持bf16吧'): the
    same cards, not one more of the catalog's default variant (review O1 #18 invented a 1 x V100 32GB). Only in a
    later sentence: within one ('a100 40gb or a100?') two cards may be meant. Kept when a count is said with it or
    the name is not a part of the earlier one."""
    out: list[Found] = []
    for s, e, gpu_id, n in found:
        bare = text[_name_start(text, s, e):e].strip().lower()
        plain = n == 1 and bare and not gpu_id.startswith(("apple-", "custom:")) and _name_start(text, s, e) == s
        if plain and any(bare in text[_name_start(text, ps, pe):pe].lower() and pid != gpu_id
                         and clause_bounds(text, s, e)[0] > pe for ps, pe, pid, _pn in out):
            continue
        out.append((s, e, gpu_id, n))
    return out

