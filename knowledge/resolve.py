"""Find catalog records from what a person or a script types.

Models: catalog id or alias, a Hugging Face repo id (case-insensitive; -Instruct/-Chat/-it variants
resolve to their base), a path to a config.json, a bare size ("27B", "26B-A3.8B"), or a family word
with a size and no version ("qwen 72b", "llama 70b"), which means the newest such model.
GPUs and precisions: id or alias, spelled loosely. Glossary topics: find_topic.
Unknown names raise NotFound with the closest names, so that a caller can say "did you mean ...";
they never fall back silently to another model.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from functools import cache, lru_cache
from pathlib import Path
from typing import TypeVar

from gpu_advisor.knowledge.hf_config import ConfigError, load_config_file
from gpu_advisor.knowledge.loader import glossary, gpus, models, precisions, unsized_cards
from gpu_advisor.knowledge.pattern_cache import compiled
from gpu_advisor.knowledge.schema import Gpu, ModelArch, Precision, UnsizedCard

# Sizes a model can plausibly have, in billions of parameters.
MIN_PARAMS_B = 0.01
MAX_PARAMS_B = 10_000.0

_VARIANT_SUFFIX = re.compile(r"([-\s](instruct|chat|it|base|hf|pt|sft|dpo|fp8|awq|gptq.*|gguf|\d{4}))+$")
# The size part of a catalog id: "72b", "8x7b", "30b-a3b" (total, optionally the active part).
_ID_SIZE = re.compile(r"(?<![a-z0-9.])((?:\d+x)?\d+(?:\.\d+)?b)(?:-(a\d+(?:\.\d+)?b))?(?![a-z0-9])")
# Extra words people use for a family line, beside the family id itself.
FAMILY_WORDS: dict[str, tuple[str, ...]] = {
    "qwen": ("qwen", "千问", "通义千问"),
    "qwen-vl": ("qwen-vl", "qwen vl", "千问vl"),
    "llama": ("llama", "meta llama"),
}
# Words people add after a family and size that name no other checkpoint: the chat-tuned variant.
FAMILY_SUFFIXES = ("", "chat", "instruct", "it")
_SIZE = re.compile(
    r"^\s*(?P<total>-?\d+(?:\.\d+)?)\s*(?P<unit>[bmt])(?:\s*(?:-|/|\s)\s*a?\s*(?P<active>\d+(?:\.\d+)?)\s*(?P<aunit>[bmt])?)?\s*$",
    re.IGNORECASE,
)
_UNIT = {"m": 1e-3, "b": 1.0, "t": 1e3}


class NotFound(LookupError):
    def __init__(self, kind: str, query: str, suggestions: list[str], reason: str = ""):
        self.kind, self.query, self.suggestions, self.reason = kind, query, suggestions, reason
        hint = f"; closest: {', '.join(suggestions)}" if suggestions else ""
        why = f": {reason}" if reason else ""
        super().__init__(f"unknown {kind} '{query}'{why}{hint}")


class HubNotReached(NotFound):
    """A Hugging Face repo id that could not be sized because the Hub was asked and did not answer, and its name
    states no size: the environment's failure, not the input's (the CLI exits 1). Offline by choice
    (HF_HUB_OFFLINE, look-ups off), it stays a NotFound: the name alone does not say enough."""


class BadValue(ValueError):
    """A value that parses but makes no physical sense (zero, negative, absurdly large). `code` and
    `params` say which, for front-ends that write the sentence in their own language."""

    def __init__(self, message: str, code: str = "", **params: str) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


@lru_cache(maxsize=8192)  # the text reader normalises every word group of a message: pastes repeat them
def normalise(text: str) -> str:
    return re.sub(r"[^\w.]|_", "", text.lower())


def _index(records, extra=lambda r: ()) -> dict[str, str]:
    table: dict[str, str] = {}
    for r in records:
        for key in (r.id, r.name, *r.aliases, *extra(r)):
            table.setdefault(normalise(key), r.id)
    return table


@cache
def _gpu_index() -> dict[str, str]:
    return _index(gpus())


@cache
def _precision_index() -> dict[str, str]:
    return _index(precisions())


@cache
def _named_index() -> dict[str, str]:
    """Keys that name one checkpoint exactly: ids, names, aliases, HF repo ids and their short names."""
    def hf_keys(m: ModelArch):
        for hf in m.hf_ids:
            yield hf
            yield hf.split("/", 1)[-1]
    return _index(models(), hf_keys)


def _id_sizes(model_id: str) -> list[str]:
    """Size labels in a catalog id: 'qwen2.5-72b' -> ['72b']; 'qwen3-30b-a3b' -> ['30b', '30b-a3b']."""
    m = _ID_SIZE.search(model_id)
    if not m:
        return []
    return [m[1], f"{m[1]}-{m[2]}"] if m[2] else [m[1]]


@cache
def _family_index() -> dict[str, str]:
    """'qwen 72b' -> the newest catalog model of that family line with that size.

    Families are lines of successors (Qwen, Qwen2, Qwen2.5, Qwen3 share family 'qwen'), so a family
    word without a version means the current model: what a person asking about "qwen 72b" today
    wants, and never the old Qwen-1 72B (no GQA, 8x the KV cache). Ties go to text models.
    """
    newest: dict[str, ModelArch] = {}
    for m in models():
        for word in (m.family, *FAMILY_WORDS.get(m.family, ())):
            for size in _id_sizes(m.id):
                key = normalise(f"{word} {size}")
                best = newest.get(key)
                if best is None or (m.as_of, m.modality == "text") > (best.as_of, best.modality == "text"):
                    newest[key] = m
    return {k: m.id for k, m in newest.items()}


@cache
def model_index() -> dict[str, str]:
    """Normalised name -> model id, shared by find_model and the text reader.

    Holds every id, name, alias and HF repo id, then the family+size keys ("qwen72b"), then HF short
    names. Explicit names win over family keys; family keys win over HF short names, because
    "Qwen-72B" typed by a person reads as "qwen 72b" (the HF id "Qwen/Qwen-72B" still names Qwen-1).
    """
    table: dict[str, str] = {}
    for m in models():
        for key in (m.id, m.name, *m.aliases, *m.hf_ids):
            table.setdefault(normalise(key), m.id)
    for key, model_id in _family_index().items():
        for suffix in FAMILY_SUFFIXES:  # "qwen 72b chat" is today's chat model, not Qwen-72B-Chat
            table.setdefault(key + suffix, model_id)
    for key, model_id in _named_index().items():
        table.setdefault(key, model_id)
    return table


_Record = TypeVar("_Record")


def _lookup(kind: str, query: str, index: dict[str, str], by_id: Mapping[str, _Record]) -> _Record:
    key = normalise(query)
    if not key:
        raise NotFound(kind, query, [])
    if key in index:
        return by_id[index[key]]
    close = difflib.get_close_matches(key, list(index), n=6, cutoff=0.6)
    suggestions = list(dict.fromkeys(index[c] for c in close))[:3]
    raise NotFound(kind, query, suggestions)


_BY_ID: dict[str, tuple[tuple, dict]] = {}


def _by_id(kind: str, records: tuple) -> dict:
    """id -> record of a catalog tuple, built once per tuple (gpus() is built again when the user's gpus.yaml
    changes: a new tuple, a new index)."""
    held = _BY_ID.get(kind)
    if held is None or held[0] is not records:
        held = _BY_ID[kind] = (records, {r.id: r for r in records})
    return held[1]


def find_gpu(query: str) -> Gpu:
    """A catalog GPU (built-in or from the user's gpus.yaml) by id or alias, a Mac by chip, GPU cores and
    memory ('M4 Pro 24GB', knowledge.apple), or a card described by its numbers:
    'custom:memory=96GB,bandwidth=1.8TB/s,bf16=500'."""
    if query.strip().lower().startswith("custom:"):
        from gpu_advisor.knowledge.custom_gpu import parse_custom_gpu

        return parse_custom_gpu(query)
    try:
        return _lookup("GPU", query, _gpu_index(), _by_id("gpus", gpus()))
    except NotFound:
        from gpu_advisor.knowledge.apple import parse_apple

        mac = parse_apple(query)  # a Mac by chip, GPU cores and memory: 'M3 Max 30-core 36GB'
        if mac is None:
            unsized = find_unsized_card(query)
            if unsized is not None:  # 'hygon-k100-ai': on record, but not with what sizing needs
                missing = ", ".join(k.removesuffix("_gb").removesuffix("_gbps").replace("_", " ")
                                    for k in unsized.missing)
                why = (f"{unsized.name} is on record without the figures sizing needs ({missing})" if missing else
                       f"{unsized.name} runs {unsized.software}, and no sized engine runs there; its figures: "
                       f"{unsized.spec}")
                raise NotFound("GPU", query, [], f"{why}; describe it as custom:memory=...,bandwidth=... to size it") from None
            raise
        return mac


# The forms a card is sold in without NVLink between cards, preferred in this order ("no NVLink": the PCIe card).
PCIE_FORMS = ("pcie", "nvlink-bridge")


def pcie_variant(gpu_id: str) -> str | None:
    """The catalog's PCIe form of an NVLink card, same chip family (the id's first part: 'a100', 'v100', 'h200') and
    the same memory ('V100 SXM2 32GB' -> 'V100 PCIe 32GB', 'H200' -> 'H200 NVL'), or None when the catalog holds none."""
    try:
        gpu = find_gpu(gpu_id)
    except (LookupError, ValueError):
        return None
    if gpu.interconnect != "nvlink":  # a PCIe card, or one bridged in pairs at most: sized without NVLink already
        return None
    family = gpu.id.split("-")[0]
    found = [g for g in gpus() if g.id.split("-")[0] == family and g.memory_gb == gpu.memory_gb
             and g.vendor == gpu.vendor and g.arch == gpu.arch and g.interconnect in PCIE_FORMS]
    found.sort(key=lambda g: (PCIE_FORMS.index(g.interconnect), g.id))
    return found[0].id if found else None


def find_unsized_card(query: str) -> UnsizedCard | None:
    """An accelerator the catalog cannot size (data/unsized_cards.yaml), by id or alias, or None."""
    key = normalise(query)
    for card in unsized_cards():
        if key in {normalise(card.id), *(normalise(a) for a in card.aliases)}:
            return card
    return None


def find_precision(query: str) -> Precision:
    return _lookup("precision", query, _precision_index(), _by_id("precisions", precisions()))


def weight_bits(precision: str) -> float:
    """Effective bits a weight of a format, 16 for one the catalog does not hold."""
    try:
        return find_precision(precision).bits_per_weight
    except (LookupError, ValueError):
        return 16.0


def parse_size(text: str) -> tuple[float, float] | None:
    """'27B' -> (27, 27); '26B-A3.8B' -> (26, 3.8); None when the text is not a bare size."""
    m = _SIZE.match(text)
    if not m:
        return None
    total = float(m["total"]) * _UNIT[m["unit"].lower()]
    active = total
    if m["active"]:
        active = float(m["active"]) * _UNIT[(m["aunit"] or m["unit"]).lower()]
    typed = f"{m['total']}{m['unit']}" if m["unit"].lower() == "b" else None
    check_size(total, active, typed)
    return total, active


def _as_typed(typed: str | None) -> str | None:
    """A size in billions as typed ('1234567890123456789b'), with thousands separators and its digits
    unchanged; None when it is no plain decimal number."""
    number = (typed or "")[:-1]
    whole, _, fraction = number.partition(".")
    if not whole.isascii() or not whole.isdigit() or (fraction and not fraction.isdigit()) or len(number) > 60:
        return None
    return f"{int(whole):,}" + (f".{fraction}" if fraction else "")


def check_size(total_b: float, active_b: float, typed: str | None = None) -> None:
    """Refuse a size no model has. `typed`: the size as the user wrote it in billions ('1234567890123456789b'),
    shown as typed instead of through a float that would change its digits."""
    if total_b <= 0 or active_b <= 0:
        raise BadValue("a model needs a positive number of parameters", "size_not_positive")
    if total_b < MIN_PARAMS_B:
        raise BadValue(f"{total_b * 1e3:g}M parameters is below the smallest model this tool sizes (10M)",
                       "size_too_small", millions=f"{total_b * 1e3:g}")
    if total_b > MAX_PARAMS_B:
        billions = _as_typed(typed) or f"{total_b:,.0f}"
        raise BadValue(
            f"{billions}B parameters is beyond any model that exists (the largest are about 2,000B); "
            "check the unit", "size_too_large", billions=billions
        )
    if active_b > total_b:
        raise BadValue(f"active parameters ({active_b:g}B) cannot exceed the total ({total_b:g}B)",
                       "active_over_total", active=f"{active_b:g}", total=f"{total_b:g}")


GENERIC_PREFIX = "generic-"  # the id of a model known only by its size; find_model reads it back


def model_from_size(total_b: float, active_b: float | None = None) -> ModelArch:
    """A model known only by its size: borrow the layout of the catalog model nearest in size.

    The borrowed layout (layers, KV heads, head size) only feeds the KV cache and activation
    estimates; weights follow the stated parameter count exactly.
    """
    active_b = total_b if active_b is None else active_b
    check_size(total_b, active_b)
    moe = active_b < total_b
    # a bare size names no vision tower, and a generator (an encoder's layout has no KV cache to borrow)
    text_only = [m for m in models() if m.modality == "text" and not m.encoder]
    pool = [m for m in text_only if m.is_moe == moe and m.attention in ("gqa", "mla" if moe else "gqa")]
    pool = pool or [m for m in text_only if m.is_moe == moe]
    # The largest KV cache per token among catalog models no bigger than this one: conservative,
    # and memory never falls as the stated size grows.
    smaller = [m for m in pool if m.total_params_b <= total_b * 1.05] or [min(pool, key=lambda m: m.total_params_b)]
    ref = max(smaller, key=lambda m: (_kv_width(m), m.total_params_b, m.id))
    label = f"{total_b:g}B" if not moe else f"{total_b:g}B-A{active_b:g}B"
    return ref.model_copy(
        update={
            "id": f"{GENERIC_PREFIX}{label.lower()}",
            "name": f"{label} {'MoE' if moe else 'dense'} model",
            "family": "generic",
            "aliases": [],
            "hf_ids": [],
            "total_params_b": total_b,
            "active_params_b": active_b,
            # the checkpoint's own format, file sizes and tensor counts are the borrowed model's, not this one's
            "native_precision": None, "native_bits_per_weight": None, "checkpoint_bytes": None,
            "gguf_file_bytes": {}, "params_by_dtype": {},
            # nor its context: the borrowed model's YaRN reach is no fact of this one (review CT E8, C8)
            "yarn_context": None, "yarn_original": None,
            "notes": f"layout (layers, heads, KV heads) borrowed from {ref.name}, the catalog model no bigger "
                     "than this with the largest KV cache per token",
            "source": f"bare size; layout from {ref.id} ({ref.source})",
            "resolved_from": "size",
        }
    )


SAME_TOTAL = 0.002  # a stated size within 0.2% of a catalog model's total is that model's size
DENSE_NEAR = 0.05  # ... unless a dense catalog model is within 5% of it too: then the size names no layout


def moe_base_of_size(total_b: float) -> ModelArch | None:
    """The released mixture-of-experts model whose total size an unknown model's size matches exactly
    (141B: Mixtral 8x22B, 671B: DeepSeek-V3), when no dense model has about that size: models named
    with such a size are nearly always fine-tunes of it. None when the size names no single layout."""
    text_only = [m for m in models() if m.modality == "text" and not m.encoder]
    same = [m for m in text_only if m.is_moe and abs(m.total_params_b - total_b) <= SAME_TOTAL * total_b]
    if not same or any(not m.is_moe and abs(m.total_params_b - total_b) <= DENSE_NEAR * total_b for m in text_only):
        return None
    if len({(m.total_params_b, m.active_params_b, m.num_layers) for m in same}) > 1:
        return None  # two layouts share the size: say it is unknown rather than pick one
    return min(same, key=lambda m: (m.as_of, m.id))  # the first release: the base the others build on


def _kv_width(m: ModelArch) -> int:
    """Values cached per token (all layers), the quantity that sizes a KV cache."""
    if m.attention == "mla":
        return m.num_layers * ((m.kv_lora_rank or 0) + (m.qk_rope_head_dim or 0))
    return m.num_layers * 2 * m.num_kv_heads * m.head_dim


def find_model(query: str) -> ModelArch:
    """Resolve a catalog name, HF repo id, config.json path or bare size to a ModelArch."""
    text = query.strip()
    if not text:
        raise NotFound("model", query, [])
    if text.endswith(".json") or ("/" in text and Path(text).exists()):
        path = Path(text)
        if path.is_dir():
            path = path / "config.json"
        if path.exists():
            return load_config_file(path)
        if text.endswith(".json"):
            raise ConfigError(f"cannot read {path}: no such file")
    size = parse_size(text[len(GENERIC_PREFIX):] if text.lower().startswith(GENERIC_PREFIX) else text)
    if size:
        return model_from_size(*size)  # a bare size, or the id model_from_size gave it ('generic-744b-a40b')
    by_id = _by_id("models", models())
    named = catalog_named(text)
    if named is not None:
        return by_id[named]
    held = held_model(text)
    if held is not None:
        return held
    query = _VARIANT_SUFFIX.sub("", text.lower())
    return _lookup("model", query, model_index(), by_id)


def held_model(spec: str) -> ModelArch | None:
    """A Hugging Face repo id ('ORG/NAME', or 'ORG/NAME@REVISION') that this machine holds, read from this tool's
    summary of the Hub or the local Hugging Face cache with no network; None for any other text, or a repository
    held with files no model could have (resolve_model says what is wrong with them). The conversation, the tools
    and the CLI read one such repo id the same way. Kept per folder state: a download seen at the next call."""
    from gpu_advisor.knowledge import hub

    repo, revision = hub.split_revision(spec.strip())
    if not hub.REPO_ID.match(repo):
        return None
    where = tuple((str(d), _mtime(d)) for d in (hub.hf_cache_dir(), hub.summary_dir()) if d is not None)
    return _held_model(repo, revision, where)


def _mtime(folder: Path) -> int:
    try:
        return folder.stat().st_mtime_ns
    except OSError:
        return 0


@lru_cache(maxsize=256)
def _held_model(repo: str, revision: str | None, _where: tuple) -> ModelArch | None:
    from gpu_advisor.knowledge import hub
    from gpu_advisor.knowledge.loader import KnowledgeError

    try:
        found = hub.held(repo, revision)
        return None if found is None else _at_revision(model_from_hub(found), revision)
    except (KnowledgeError, ValueError, OSError):
        return None


def _at_revision(m: ModelArch, revision: str | None) -> ModelArch:
    """A repository's model named with the revision asked ('ORG/NAME@v1.0'), so that its headline and the model
    spec read back from it say which checkpoint was sized; as it is for none."""
    if not revision:
        return m
    return m.model_copy(update={"id": f"{m.id}@{revision}", "name": f"{m.name}@{revision}"})


def catalog_named(text: str) -> str | None:
    """The catalog id a name or repo id names exactly (its -Instruct/-Chat variant suffix aside), or None."""
    for candidate, index in _model_candidates(text.strip().lower()):
        key = normalise(candidate)
        if key in index:
            return index[key]
    return None


def _model_candidates(text: str):
    """(spelling, index) pairs to try in turn. Behind an organisation ("someorg/llama-70b") only exact
    checkpoint names count: a repo id names one checkpoint, and an unknown fine-tune must not turn
    into the newest family model by its family word and size."""
    stripped = _VARIANT_SUFFIX.sub("", text)
    yield text, model_index()
    yield stripped, model_index()
    if "/" in text:
        repo = text.split("/", 1)[-1]
        yield repo, _named_index()
        yield _VARIANT_SUFFIX.sub("", repo), _named_index()


# --- any model: the catalog, a local file, then the Hub ---------------------------------------------

def size_in_name(name: str) -> tuple[float, float] | None:
    """The size a repository name states: 'moonshotai/Kimi-Dev-72B' -> (72, 72), 'Qwen3-30B-A3B' ->
    (30, 3); None when it states none (or only an 8x7B expert product, which is not a total)."""
    tail = name.rsplit("/", 1)[-1].lower()
    m = _ID_SIZE.search(tail)
    if not m or "x" in m[1]:
        return None
    total = float(m[1][:-1])
    active = float(m[2][1:-1]) if m[2] else total
    try:
        check_size(total, active)
    except BadValue:
        return None
    return total, active


def _from_name(repo: str, why: str) -> ModelArch:
    closest = _closest_by_name(repo, why)
    if closest is not None:
        return closest
    size = size_in_name(repo)
    if size is None:
        raise NotFound("model", repo, [], reason=f"not in the catalog, the Hub was not consulted ({why}) and the name "
                                                 "states no size; give a size such as 8B, or a config.json")
    generic = model_from_size(*size)
    return generic.model_copy(update={
        "id": repo.lower(), "name": repo, "resolved_from": "name",
        "notes": f"not in the catalog and the Hub was not consulted ({why}): sized as {generic.name} from the size in "
                 f"its name; {generic.notes}",
        "source": f"the size in the name '{repo}'; {generic.source}",
    })


def _closest_by_name(repo: str, why: str) -> ModelArch | None:
    """A name the catalog does not hold that still names a catalog layout: one that extends a catalog id
    ('Qwen3-235B-A22B-Thinking-2507'), or a '17B-16E' expert marker of a catalog mixture of experts; sized
    as that model and said to be the closest on record. A marker that matches no catalog model names no
    total size: refused, never sized as a dense model of the active size."""
    from gpu_advisor.knowledge.name_shapes import catalog_moe, catalog_sibling, experts_in_name

    base, how = catalog_sibling(repo), "its name extends that model's: the same layout"
    marker = experts_in_name(repo)
    if base is None and marker is not None:
        base = catalog_moe(*marker)
        how = f"its name gives {marker[0]:g}B active and {marker[1]} experts, that model's layout"
        if base is None:
            raise NotFound("model", repo, [], reason=f"not in the catalog and the Hub was not consulted ({why}); its name "
                           f"gives {marker[0]:g}B active and {marker[1]} experts but no total size: give the total "
                           "(e.g. 109B-A17B) or a config.json")
    if base is None:
        return None
    return base.model_copy(update={
        "id": repo.lower(), "name": repo, "resolved_from": "name",
        "notes": f"not in the catalog and the Hub was not consulted ({why}): sized as {base.name}, the closest on "
                 f"record ({how}); {base.notes}",
        "source": f"the name '{repo}'; layout of {base.id} ({base.source})",
    })


_GGUF_TYPE = re.compile(r"(?:^|[-_.])(IQ\d_[A-Z]+|Q\d_K_[SML]|Q\d_K|Q\d_[01]|TQ\d_0|BF16|F16)(?=[-_.])")


def gguf_files_by_precision(files: dict[str, int]) -> dict[str, int]:
    """{precision id: bytes} from GGUF file names ('Llama-3.2-3B-Instruct-Q4_K_M.gguf'); split files
    (-00001-of-00002) are summed, vision projectors (mmproj) and unknown types left out."""
    known = {p.id for p in precisions()}
    out: dict[str, int] = {}
    for name, size in files.items():
        base = name.rsplit("/", 1)[-1]
        if base.lower().startswith("mmproj"):
            continue
        m = _GGUF_TYPE.search(base.upper())
        if not m:
            continue
        pid = {"BF16": "gguf-bf16", "F16": "f16"}.get(m[1], m[1].lower())
        if pid in known:
            out[pid] = out.get(pid, 0) + int(size)
    return dict(sorted(out.items()))


# A checkpoint whose headers count under this share of what config.json's shape holds is not that model's
# weights (a partial download, a stray file): the shape's count is used instead.
MIN_COUNTED_SHARE = 0.5


def model_from_hub(hm) -> ModelArch:
    """A ModelArch from what the Hub (or its cache) holds: the architecture from config.json, the
    parameter count from the checkpoint's safetensors headers when they were read (vision towers and
    anything else the config formula misses included), and the quantization its config names."""
    from gpu_advisor.knowledge.hf_config import model_from_config

    where = "Hugging Face Hub" if hm.origin == "hub" else (
        "this tool's cache of the Hub" if hm.origin == "summary-cache" else "the Hugging Face cache on this machine")
    rev = f"@{hm.revision[:12]}" if hm.revision else ""
    if hm.config is None:
        size = size_in_name(hm.repo_id)
        if size is None:
            raise ConfigError(f"{hm.repo_id} has no config.json (GGUF files only) and its name states no size")
        base = _from_name(hm.repo_id, f"{hm.repo_id} holds GGUF files only")
        files = gguf_files_by_precision(hm.gguf_files)
        listed = base.notes + "; GGUF files (their sizes are the weights): " + ", ".join(
            f"{k} {v / 1e9:.2f} GB" for k, v in sorted(files.items())[:16])
        return base.model_copy(update={"notes": listed, "gguf_file_bytes": files,
                                       "native_precision": "q4_k_m" if "q4_k_m" in files else None})
    m = model_from_config(hm.config, name=hm.repo_id, source=f"{hm.url}/blob/{hm.revision or 'main'}/config.json")
    update: dict = {"resolved_from": "hub" if hm.origin != "hf-cache" else "hf-cache", "revision": hm.revision,
                    "params_by_dtype": dict(hm.params_by_dtype)}
    notes = [f"shape from config.json ({where}{rev})"]
    counted = hm.parameters
    if counted and m.native_precision is None and counted / 1e9 < m.total_params_b * MIN_COUNTED_SHARE:
        notes.append(f"the safetensors headers count only {counted:,} parameters, far below the "
                     f"{m.total_params_b:.2f}B of config.json's shape (a partial download?): the shape's count is used")
        counted = 0
        update["params_by_dtype"] = {}
    elif counted and m.native_precision is None:
        total = counted / 1e9
        delta = total - m.total_params_b
        active = min(max(m.active_params_b + delta, 1e-3), total)
        update |= {"total_params_b": total, "active_params_b": active}
        if m.modality == "vision-language" and delta > 0:
            update["vision_params_b"] = delta
            notes.append(f"vision tower and projector {delta:.2f}B (checkpoint minus language model)")
        notes.append(f"{counted:,} parameters counted in the safetensors headers "
                     f"({', '.join(f'{k} {v:,}' for k, v in sorted(hm.params_by_dtype.items()))})")
    elif counted:
        update["checkpoint_bytes"] = float(hm.stored_bytes)
        notes.append(f"weights as stored: {hm.stored_bytes / 1e9:.2f} GB in the safetensors headers; parameter count "
                     "from config.json (quantized tensors are packed)")
    else:
        notes.append("parameter count computed from config.json (no safetensors headers read)")
    if m.native_precision:
        notes.append(m.notes.split("; ", 1)[-1])
    if hm.fetched:
        notes.append(f"fetched {hm.fetched}")
    update["notes"] = "; ".join(notes)
    return m.model_copy(update=update)


def resolve_model(query: str, revision: str | None = None) -> ModelArch:
    """Any model: a catalog name, a config.json or folder, a bare size, then a Hugging Face repo id
    through the Hub (its cache first; the network only when allowed). Offline or unreachable, a repo id
    falls back to the size in its name, and the model's notes say so. A revision (`revision`, or
    'ORG/NAME@REVISION'): that branch, tag or commit of the repository, never the catalog's record nor a
    size read from the name; not held and not reached, it is refused in one line."""
    from gpu_advisor.knowledge import hub

    repo, said = hub.split_revision(query.strip())
    if revision is not None and said is not None and said != revision:
        raise BadValue(f"two revisions for {repo}: '{said}' in the name and '{revision}' asked; give one",
                       "two_revisions")
    revision = revision if revision is not None else said
    if revision is not None:
        return _resolve_revision(repo, revision)
    try:
        return find_model(query)
    except NotFound:
        repo = query.strip()
        if not hub.REPO_ID.match(repo):
            raise
    try:
        return model_from_hub(hub.lookup(repo))
    except hub.HubUnreachable as e:
        try:
            return _from_name(repo, str(e))
        except NotFound as nf:
            if isinstance(e, hub.HubNoAnswer):
                raise HubNotReached(nf.kind, nf.query, nf.suggestions, nf.reason) from None
            raise
    except hub.HubMissing as e:
        raise NotFound("model", repo, [], reason=str(e)) from None


def _resolve_revision(repo: str, revision: str) -> ModelArch:
    """A repository at a revision, from this machine's caches or the Hub: the revision pins a checkpoint, so
    neither the catalog's record of the repository nor the size in its name stands in for it."""
    from gpu_advisor.knowledge import hub

    hub.check_revision(revision)
    spec = hub.with_revision(repo, revision)
    if not hub.REPO_ID.match(repo):
        raise NotFound("model", spec, [], reason="a revision is of a Hugging Face repository: give ORG/NAME")
    try:
        return _at_revision(model_from_hub(hub.lookup(repo, revision)), revision)
    except hub.HubUnreachable as e:
        why = (f"this machine holds no revision '{revision}' of {repo} (the Hugging Face cache and this tool's "
               f"summaries), and the Hub was not consulted ({e})")
        raise (HubNotReached if isinstance(e, hub.HubNoAnswer) else NotFound)("model", spec, [], why) from None
    except hub.HubMissing as e:
        raise NotFound("model", spec, [], reason=str(e)) from None


def model_summary(m: ModelArch) -> dict:
    """The shape a model resolved to, for `models show ID` (plain data; `--json` prints it as is)."""
    embed = m.vocab_size * m.hidden_size * (1 if m.tied_embeddings else 2)
    return {
        "id": m.id, "name": m.name, "family": m.family, "resolved_from": m.resolved_from,
        "layers": m.num_layers, "hidden_size": m.hidden_size, "intermediate_size": m.intermediate_size,
        "attention": m.attention, "heads": m.num_attention_heads, "kv_heads": m.num_kv_heads,
        "head_dim": m.head_dim, "sliding_window": m.sliding_window, "sliding_layers": m.sliding_layers,
        "recurrent_layers": m.recurrent_layers, "recurrent_state_bytes_per_sequence": m.recurrent_state_bytes,
        "kv_lora_rank": m.kv_lora_rank, "experts": m.num_experts, "experts_per_token": m.experts_per_token,
        "shared_experts": m.num_shared_experts, "vocab_size": m.vocab_size, "max_context": m.max_context,
        "tied_embeddings": m.tied_embeddings, "modality": m.modality,
        "parameters": {
            "total": round(m.total_params_b * 1e9), "active": round(m.active_params_b * 1e9),
            "embeddings_and_head": 0 if m.family == "generic" else embed,
            "vision": round(m.vision_params_b * 1e9),
            "by_dtype": dict(m.params_by_dtype),
        },
        "native_precision": m.native_precision, "native_bits_per_weight": m.native_bits_per_weight,
        "checkpoint_bytes": m.checkpoint_bytes, "revision": m.revision,
        "notes": m.notes, "source": m.source, "as_of": m.as_of.isoformat(),
    }


def show_model(query: str) -> dict:
    """`gpu-advisor models show ID`: resolve anything resolve_model takes and describe its shape."""
    return model_summary(resolve_model(query))


_NOT_ASCII_WORD = re.compile(r"[^a-z0-9\u3400-\u9fff]+")
_CJK_SPACE = re.compile(r"(?<=[\u3400-\u9fff]) | (?=[\u3400-\u9fff])")


def phrase(text: str) -> str:
    """Lower-case words separated by single spaces, with no spaces next to Chinese characters:
    'What is a KV-cache?' -> 'what is a kv cache'; 'KV 缓存' -> 'kv缓存'."""
    spaced = _NOT_ASCII_WORD.sub(" ", text.lower()).strip()
    return _CJK_SPACE.sub("", spaced)


@cache
def _topic_aliases() -> list[tuple[re.Pattern[str], int, str]]:
    """(pattern, length, topic id) for every glossary alias, longest first. An alias matches on word
    boundaries (so 'lora' is not found inside 'qlora', nor 'tp' inside 'http')."""
    table = []
    for topic in glossary():
        for alias in topic.aliases:
            words = phrase(alias)
            table.append((re.compile(rf"(?<![a-z0-9]){re.escape(words)}(?![a-z0-9])"), len(words), topic.id))
    return sorted(table, key=lambda row: -row[1])


def find_topics(text: str) -> list[str]:
    """Every glossary topic a phrase names, in the order written, each alias matched once and the
    longest first ('lora vs qlora' -> ['lora', 'qlora'])."""
    words = phrase(text)
    found: list[tuple[int, str]] = []
    for pattern, _, topic_id in _topic_aliases():
        for x in pattern.finditer(words):
            words = words[:x.start()] + " " * (x.end() - x.start()) + words[x.end():]
            found.append((x.start(), topic_id))
    return list(dict.fromkeys(topic for _, topic in sorted(found)))


@cache
def _any_topic_alias() -> re.Pattern[str] | None:
    """One pattern that matches wherever some alias of _topic_aliases does, each alternative opening with its
    first character (so the regex engine skips every position no alias starts at); None if an alias is empty."""
    words = sorted({phrase(alias) for topic in glossary() for alias in topic.aliases}, key=lambda w: (-len(w), w))
    if not all(words):
        return None
    return compiled("|".join(f"{re.escape(w[0])}(?<![a-z0-9]{re.escape(w[0])}){re.escape(w[1:])}(?![a-z0-9])"
                               for w in words))


@lru_cache(maxsize=1024)
def find_topic(text: str) -> str | None:
    """The glossary topic a phrase names ("what is a KV cache?" -> 'kv-cache'), the longest alias
    winning ("qlora" over "lora", "model flops utilisation" over "utilisation"); None when none.
    The readers ask it of the same message several times: the last answers are kept."""
    words = phrase(text)
    anywhere = _any_topic_alias()
    if anywhere is not None and not anywhere.search(words):
        return None  # most messages name no topic: one search instead of one per alias
    for pattern, _, topic_id in _topic_aliases():
        if pattern.search(words):
            return topic_id
    return None


def size_label(model_id: str) -> str:
    """The size label of a catalog id: 'qwen3-14b' -> '14b', 'qwen3-30b-a3b' -> '30b-a3b'; '' when none."""
    sizes = _id_sizes(model_id)
    return sizes[-1] if sizes else ""


def line_sibling(model_id: str, size: str) -> str | None:
    """The catalog model of the same line (the id without its size: 'qwen2.5-', 'llama-3.1-', 'qwen2.5-vl-')
    with another size ('14b', '70b', '30b-a3b'); None when the line has no model of that size."""
    line = _ID_SIZE.sub("", model_id)
    size = size.lower()
    for m in models():
        if m.id != model_id and _ID_SIZE.sub("", m.id) == line and size in _id_sizes(m.id):
            return m.id
    return None


def text_sibling(model_id: str) -> str | None:
    """The text-only model that a vision-language one extends with a vision tower: same family, size and
    language-model layout ('mistral small 24b': the text Mistral Small 3 under the vision Mistral Small 3.1),
    the newest; None when the catalog has none (Gemma 3 27B: Gemma 2 27B is another model)."""
    m = find_model(model_id)
    sizes = set(_id_sizes(m.id))
    if m.modality == "text" or not sizes:
        return None
    layout = (m.num_layers, m.hidden_size, m.num_attention_heads, m.num_kv_heads, m.vocab_size)  # the same language model
    same = [x for x in models() if x.family == m.family and x.modality == "text" and sizes & set(_id_sizes(x.id))
            and (x.num_layers, x.hidden_size, x.num_attention_heads, x.num_kv_heads, x.vocab_size) == layout]
    return max(same, key=lambda x: x.as_of).id if same else None


_SIZE_WORD = re.compile(r"(?<![a-z0-9.])\d+(?:\.\d+)?\s?b(?:-?a\d+(?:\.\d+)?b)?(?![a-z0-9.])")


def _without_sizes(text: str) -> str:
    return normalise(_SIZE_WORD.sub(" ", re.sub(r"[\s_/\-()]+", " ", text.lower())))


@cache
def _versions(model_id: str) -> frozenset[str]:
    m = find_model(model_id)
    names = (m.id, m.name, *m.aliases, *m.hf_ids, *(h.split("/")[-1] for h in m.hf_ids))
    return frozenset(k for k in map(_without_sizes, names) if re.search(r"\d", k))


def names_version(model_id: str, text: str) -> bool:
    """Whether the text names a catalog model by a name that carries its version or date beside the size
    ('qwen3 14b', '14b qwen3', 'mistral small 3.1', 'mistral-small-2409'), not by a family and a size only
    ('qwen 14b', 'the 14b qwen', 'mistral small 24b')."""
    said = _without_sizes(text)
    return any(k in said for k in _versions(model_id))


__all__ = [
    "FAMILY_WORDS",
    "BadValue",
    "ConfigError",
    "NotFound",
    "check_size",
    "find_gpu",
    "find_model",
    "find_precision",
    "find_topic",
    "find_topics",
    "held_model",
    "line_sibling",
    "model_from_hub",
    "model_from_size",
    "model_index",
    "model_summary",
    "names_version",
    "normalise",
    "parse_size",
    "phrase",
    "resolve_model",
    "show_model",
    "size_in_name",
    "size_label",
    "text_sibling",
]


def line_models(model_id: str) -> list[str]:
    """Every catalog model of a model's line (the id without its size: 'llama-3.1-' -> 8B, 70B, 405B), the model
    itself included, smallest first; just the model when its id carries no size."""
    line = _ID_SIZE.sub("", model_id)
    same = [m for m in models() if _ID_SIZE.sub("", m.id) == line and _id_sizes(m.id)] if _id_sizes(model_id) else []
    return [m.id for m in sorted(same, key=lambda m: m.total_params_b)] or [model_id]
