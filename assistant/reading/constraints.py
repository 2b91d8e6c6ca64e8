"""Constraints the sizing does not model, read so that the answer says them back instead of dropping
them: an availability target or redundancy ("99.9% uptime", "N+1", "高可用"), a compliance regime
("HIPAA", "等保"), a cloud provider named ("aws only", "阿里云"), the system memory for CPU offload. Each becomes a note code with its
values (catalog note.<code>); the words live in words/constraints.yaml."""

from __future__ import annotations

from gpu_advisor.assistant.reading.clauses import negated
from gpu_advisor.assistant.reading.message import Message
from gpu_advisor.assistant.reading.text import pattern_rows, word_pattern
from gpu_advisor.knowledge.clouds import clouds


def _pricing_and_rules(m: Message) -> None:
    """Spot instances ("we can use spot"), whose prices are not on record, and compliance regimes named."""
    if _said(m, word_pattern("spot_instances")):
        m.notes.append(("note.spot", {}))  # "we can use spot instances": on-demand prices are what is on record
    regimes = [zh if m.lang == "zh" else en for pattern, (en, zh) in pattern_rows("compliance") if _said(m, pattern)]
    if regimes:
        m.notes.append(("note.compliance", {"names": " / ".join(dict.fromkeys(regimes))}))


def read_constraints(m: Message) -> str | None:
    """Add a note for each constraint the message states and the sizing does not model; return the id of a
    cloud named as where to run whose cards are on record (knowledge/data/clouds.yaml), '' for a cloud
    named without cards on record, else None."""
    uptime = m.role("uptime")
    if uptime:
        m.notes.append(("note.redundancy_target", {"target": f"{uptime[0].value:g}%"}))
    elif _said(m, word_pattern("redundancy")):
        m.notes.append(("note.redundancy", {}))
    if _said(m, word_pattern("two_sites")):
        m.notes.append(("note.two_sites", {}))  # "across two AZs", "两个机房": each site carries the whole load
    _pricing_and_rules(m)
    ram = word_pattern("system_ram").search(m.masked)
    if ram and m.phase != "fine-tune":
        m.notes.append(("note.system_ram", {"gb": ram.group("gb") or ram.group("gb2")}))
    elif m.phase != "fine-tune" and (word_pattern("cpu_offload").search(m.masked) or word_pattern("cpu_offload").search(m.raw.lower())):
        m.notes.append(("note.cpu_offload", {}))  # "专家放内存": said back, not sized
    unknown: list[str] = []
    for pattern, (en, zh) in pattern_rows("unknown_accelerators"):
        x = pattern.search(m.masked)
        if x and not negated(m.masked, x.start()):
            name = zh if m.lang == "zh" else en
            if not unknown:  # the first one named is the card the figures said describe
                clause = m.masked[max(0, x.start() - 40):x.start()]
                m.unknown_card = (name, bool(word_pattern("accelerator_mine").search(clause)
                                             or word_pattern("accelerator_mine_zh").search(m.raw)))
            unknown.append(name)
    if unknown and not m.card_spec:  # "海光DCU或者寒武纪都行": every one named is said; figures given are used
        m.notes.append(("note.accelerator_unknown", {"name": ("、" if m.lang == "zh" else ", ").join(unknown)}))
    return _provider(m)


def _provider(m: Message) -> str | None:
    """The cloud named as where to run (its id, '' with no cards on record, None when none), its notes said;
    more clouds on record named with it ("runpod or vast") are kept in m.also_clouds."""
    named = [(zh if m.lang == "zh" else en, cloud) for pattern, (en, zh, cloud) in pattern_rows("providers")
             if _said(m, pattern)]
    on_record = [(name, cloud) for name, cloud in named if cloud]
    if len(on_record) > 1:
        # "runpod or vast": the cards either rents (reading/__init__.py takes them all), said once for both
        m.also_clouds = [str(cloud) for _name, cloud in on_record[1:]]
        joined = (" 或 " if m.lang == "zh" else " or ").join(name for name, _c in on_record)
        m.notes.append(("note.providers_cards", {"names": joined}))
        for name, cloud in on_record:
            if clouds()[cloud].partial:
                m.notes.append(("note.provider_partial", {"name": name}))
        return str(on_record[0][1])
    for name, cloud in named:
        if cloud:  # its cards are on record: the choice keeps to them
            record = clouds()[cloud]
            shown = record.instances_zh if m.lang == "zh" and record.instances_zh else record.instances
            m.notes.append(("note.provider_cards", {"name": name, "instances": shown}))
            if record.partial:
                m.notes.append(("note.provider_partial", {"name": name}))
            return str(cloud)
        m.notes.append(("note.provider", {"name": name}))
        return ""
    return None


def _said(m: Message, pattern) -> bool:
    x = pattern.search(m.masked)
    return bool(x and not negated(m.masked, x.start()))


def cards_on_the_cloud(m: Message, updates: dict, cloud: str | None) -> None:
    """Cards named beside a cloud named as where to run are the ones rented there: 'we're on aws so h100s' owns
    nothing (read owned by 'we're on'), and 'on aws h100s' keeps to the H100, not every card AWS rents. Cards said
    had or bought ('we have two 4090s', 'we bought 8 h100s', '有两张4090') stay owned; a card the cloud does not rent
    ('on aws, the 4090 at home is too small') is left to the other readers."""
    if not cloud:
        return
    rents = set(clouds()[cloud].gpus).union(*(clouds()[c].gpus for c in m.also_clouds))
    owned = updates.get("owned") or []
    named = [(f"{n}x {g}" if s in m.counted else g) for s, _e, g, n in m.gpus if g in rents and not negated(m.masked, s)]
    if owned and all(c.partition("x ")[2] in rents for c in owned) and not _said(m, word_pattern("owned_bought")):
        updates["only"] = list(dict.fromkeys(named)) or [c.partition("x ")[2] for c in owned]  # a count said is kept
        updates.pop("owned")
    elif named and not owned and not updates.get("only") and not m.role("money"):
        updates["only"] = list(dict.fromkeys(named))  # (cards said with prices are left to the quotes reader)
