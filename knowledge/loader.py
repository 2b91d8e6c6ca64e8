"""Load the YAML data files into validated records, once per process.

A malformed file fails loudly: the error names the file, the record (index and id) and the field.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from gpu_advisor.knowledge.schema import (
    AppleChip,
    Engine,
    FrameworkPreset,
    GlossaryTopic,
    Gpu,
    ModelArch,
    Precision,
    RentalPrice,
    Rules,
    UnsizedCard,
)
from gpu_advisor.knowledge.yaml_files import (  # noqa: F401 - the package's YAML reader and cache, named here too
    _cache_dir,
    cache_dir,
    load_yaml,
    read_cache_file,
    write_cache,
    yaml_loader,
)

DATA_DIR = Path(__file__).parent / "data"

T = TypeVar("T", bound=BaseModel)
R = TypeVar("R")


class KnowledgeError(ValueError):
    """A data file is missing or does not match its schema."""





def _ignored_cache(path: Path, why: str) -> None:
    import sys

    print(f"gpu-advisor: ignored the cache file {path} ({why}); the shipped data was used", file=sys.stderr)


def _load(path: Path, convert: Callable[[object], R]) -> R:
    """Parse a data file and `convert` it (validate it into records). The parsed form is cached as JSON
    under the user cache folder, keyed by a hash of the file's bytes, because JSON loads several times
    faster than YAML (start-up time). A cache file is checked like the data itself: one that is not a
    plain file of a sane size, not JSON, too deeply nested, or fails the same validation as the shipped
    file is ignored with one line naming it, and the shipped file is used (and cached again)."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise KnowledgeError(f"{path.name}: data file is missing ({path})") from None
    cache = _cache_dir()
    cached = cache / f"{path.stem}-{hashlib.sha256(raw).hexdigest()[:16]}.json" if cache else None
    if cached is not None and (cached.exists() or cached.is_symlink()):
        text = read_cache_file(cached, 16 * len(raw) + (1 << 20))
        why = "not a plain file, or too large"
        if text is not None:
            try:
                return convert(json.loads(text))
            except (ValueError, RecursionError) as e:  # KnowledgeError is a ValueError
                why = "too deeply nested" if isinstance(e, RecursionError) else \
                    str(e).replace(f"{path.name}: ", "", 1)[:200]
        _ignored_cache(cached, why)
        with contextlib.suppress(OSError):
            cached.unlink()  # (only the link or file: never what a link points to)
    import yaml  # (only when a file is parsed: a start served from the cache never imports PyYAML)

    try:
        data = yaml.load(raw, Loader=yaml_loader())
    except yaml.YAMLError as e:
        raise KnowledgeError(f"{path.name}: not valid YAML: {e}") from None
    result = convert(data)
    if cached is not None:
        write_cache(cached, json.dumps(data, default=str))  # a read-only home only costs start-up time
    return result



# What pydantic puts before the text of an error a validator raised: the text is the message ("hidden size must be
# ...", not "Value error, hidden size must be ...").
PYDANTIC_PREFIXES = ("Value error, ", "Assertion failed, ")


def error_words(error: Any) -> str:
    """The text of one of pydantic's errors (an entry of ValidationError.errors()), without its type's prefix."""
    msg = str(error.get("msg", ""))
    for prefix in PYDANTIC_PREFIXES:
        msg = msg.removeprefix(prefix)
    return msg


def _describe(error: ValidationError) -> str:
    parts = []
    for e in error.errors():
        field = ".".join(str(p) for p in e["loc"]) or "(record)"
        parts.append(f"field '{field}': {error_words(e)}")
    return "; ".join(parts)


def load_records(path: Path, model: type[T]) -> list[T]:
    return _load(path, lambda raw: _records(path, raw, model))


def _records(path: Path, raw: object, model: type[T]) -> list[T]:
    if not isinstance(raw, list):
        raise KnowledgeError(f"{path.name}: expected a list of records, got {type(raw).__name__}")
    records: list[T] = []
    seen: dict[str, int] = {}
    for index, item in enumerate(raw):
        label = f"record {index}"
        if isinstance(item, dict) and "id" in item:
            label += f" (id '{item['id']}')"
        if not isinstance(item, dict):
            raise KnowledgeError(f"{path.name}: {label}: expected a mapping, got {type(item).__name__}")
        try:
            record = model.model_validate(item)
        except ValidationError as e:
            raise KnowledgeError(f"{path.name}: {label}: {_describe(e)}") from None
        record_id = getattr(record, "id", None)
        if record_id is not None:
            if record_id in seen:
                raise KnowledgeError(f"{path.name}: {label}: duplicate id, first used by record {seen[record_id]}")
            seen[record_id] = index
        records.append(record)
    return records


def load_one(path: Path, model: type[T]) -> T:
    return _load(path, lambda raw: _one(path, raw, model))


def _one(path: Path, raw: object, model: type[T]) -> T:
    if not isinstance(raw, dict):
        raise KnowledgeError(f"{path.name}: expected a mapping at the top level")
    try:
        return model.model_validate(raw)
    except ValidationError as e:
        raise KnowledgeError(f"{path.name}: {_describe(e)}") from None


def user_config_dir() -> Path:
    """Where a user keeps extra GPUs and prices (GPU_ADVISOR_CONFIG_DIR, else the platform's config folder)."""
    override = os.environ.get("GPU_ADVISOR_CONFIG_DIR")
    if override:
        return Path(override).expanduser()
    from platformdirs import user_config_dir as _dir

    return Path(_dir("gpu-advisor", appauthor=False))


def user_gpus_path() -> Path:
    """The user's file of extra GPUs (`gpu-advisor gpus --path` prints it); same fields as data/gpus.yaml."""
    return user_config_dir() / "gpus.yaml"


def user_prices_path() -> Path:
    """The user's file of extra rental prices; same fields as data/prices.yaml."""
    return user_config_dir() / "prices.yaml"


def _user_records(path: Path, model: type[T], builtin: tuple) -> list[T]:
    """Records from a user file, validated like the built-in data; an id the catalog already has is refused."""
    if not path.is_file():
        return []
    try:
        records = load_records(path, model)
    except KnowledgeError as e:
        raise KnowledgeError(f"{path}: {str(e).split(': ', 1)[-1]}") from None
    taken = {getattr(r, "id", None) for r in builtin} - {None}
    for i, r in enumerate(records):
        if (record_id := getattr(r, "id", None)) in taken:
            raise KnowledgeError(f"{path}: record {i} (id '{record_id}'): the catalog already has a GPU with that id")
    return records


@cache
def builtin_gpus() -> tuple[Gpu, ...]:
    return tuple(load_records(DATA_DIR / "gpus.yaml", Gpu))


@cache
def unsized_cards() -> tuple[UnsizedCard, ...]:
    """Accelerators named by users that the catalog cannot size, with the figures on record."""
    return tuple(load_records(DATA_DIR / "unsized_cards.yaml", UnsizedCard))


@cache
def gpus() -> tuple[Gpu, ...]:
    """The built-in catalog plus the user's gpus.yaml (user_gpus_path), if there is one."""
    builtin = builtin_gpus()
    return builtin + tuple(_user_records(user_gpus_path(), Gpu, builtin))


@cache
def models() -> tuple[ModelArch, ...]:
    return load_models(DATA_DIR / "models.yaml")


def load_models(path: Path) -> tuple[ModelArch, ...]:
    """Model records whose native_precision names a known precision: the sizing tools use it as the
    default serving format, so a typo there would silently size the wrong checkpoint."""
    records = tuple(load_records(path, ModelArch))
    known = {p.id for p in precisions()}
    for i, m in enumerate(records):
        if m.native_precision is not None and m.native_precision not in known:
            raise KnowledgeError(
                f"{path.name}: record {i} (id '{m.id}'): field 'native_precision': unknown precision id "
                f"'{m.native_precision}'"
            )
    return records


@cache
def precisions() -> tuple[Precision, ...]:
    return tuple(load_records(DATA_DIR / "precisions.yaml", Precision))


@cache
def prices() -> tuple[RentalPrice, ...]:
    records = tuple(load_records(DATA_DIR / "prices.yaml", RentalPrice))
    records += tuple(_user_records(user_prices_path(), RentalPrice, ()))
    known = {g.id for g in gpus()}
    for i, p in enumerate(records):
        if p.gpu not in known:
            raise KnowledgeError(f"prices.yaml: record {i}: field 'gpu': unknown GPU id '{p.gpu}'")
    return records


@cache
def engines() -> tuple[Engine, ...]:
    """Serving engines and the stacks they run on (data/engines.yaml), in the order answers prefer them."""
    records = tuple(load_records(DATA_DIR / "engines.yaml", Engine))
    seen: set[str] = set()
    for i, e in enumerate(records):
        if e.id in seen:
            raise KnowledgeError(f"engines.yaml: record {i}: id '{e.id}' appears twice")
        seen.add(e.id)
    return records


@cache
def apple_chips() -> tuple[AppleChip, ...]:
    """Apple silicon chips by GPU cores and memory (data/apple_chips.yaml)."""
    return tuple(load_records(DATA_DIR / "apple_chips.yaml", AppleChip))


@cache
def rules() -> Rules:
    return load_one(DATA_DIR / "rules.yaml", Rules)


@cache
def glossary() -> tuple[GlossaryTopic, ...]:
    """Plain-language explanations of the concepts behind the advice. An alias may name one topic
    only, or "explain X" would have two answers."""
    records = tuple(load_records(DATA_DIR / "glossary.yaml", GlossaryTopic))
    owner: dict[str, str] = {}
    for i, t in enumerate(records):
        for alias in t.aliases:
            if owner.setdefault(alias, t.id) != t.id:
                raise KnowledgeError(
                    f"glossary.yaml: record {i} (id '{t.id}'): field 'aliases': '{alias}' already names "
                    f"topic '{owner[alias]}'"
                )
    return records


@cache
def frameworks() -> tuple[FrameworkPreset, ...]:
    """Fine-tuning framework presets (data/frameworks.yaml); an id or alias names one preset only."""
    records = tuple(load_records(DATA_DIR / "frameworks.yaml", FrameworkPreset))
    owner: dict[str, str] = {}
    for i, f in enumerate(records):
        for name in (f.id, *f.aliases):
            if owner.setdefault(name.lower(), f.id) != f.id:
                raise KnowledgeError(f"frameworks.yaml: record {i} (id '{f.id}'): '{name}' already names '{owner[name.lower()]}'")
    return records


from gpu_advisor.knowledge.schema import ResidualBand  # noqa: E402  (added after the imports above, with residuals())


@cache
def residuals() -> dict[str, ResidualBand]:
    """Measured error bands by bench category (data/residuals.yaml); a category appears once."""
    records = load_records(DATA_DIR / "residuals.yaml", ResidualBand)
    out: dict[str, ResidualBand] = {}
    for i, r in enumerate(records):
        if r.category in out:
            raise KnowledgeError(f"residuals.yaml: record {i}: category '{r.category}' appears twice")
        out[r.category] = r
    return out


from gpu_advisor.knowledge.schema import LlamaCppEfficiency  # noqa: E402  (appended with its loader)


@cache
def llamacpp_efficiencies() -> tuple[LlamaCppEfficiency, ...]:
    """llama.cpp kernel efficiencies by backend and kind of weights (data/llamacpp_efficiency.yaml);
    a (backend, weights, memory type) may be covered by one record only."""
    records = tuple(load_records(DATA_DIR / "llamacpp_efficiency.yaml", LlamaCppEfficiency))
    owner: dict[tuple[str, str, str], str] = {}
    for i, r in enumerate(records):
        for w in r.weights:
            for m in r.memory_types:
                if owner.setdefault((r.backend, w, m), r.id) != r.id:
                    raise KnowledgeError(f"llamacpp_efficiency.yaml: record {i} (id '{r.id}'): {r.backend}/{w}/{m} "
                                         f"already covered by '{owner[(r.backend, w, m)]}'")
    return records


from gpu_advisor.knowledge.schema import TrainingEfficiency  # noqa: E402  (appended with its loader)


@cache
def training_efficiency() -> TrainingEfficiency:
    """MFU by GPU class and workload, framework speed factors and FP8's speed-up (data/training_mfu.yaml).
    Every built-in GPU must find a class for each workload, and a framework appears once."""
    table = load_one(DATA_DIR / "training_mfu.yaml", TrainingEfficiency)
    for workload in ("fine-tune", "pretrain"):
        for g in builtin_gpus():
            if not any(c.workload == workload and c.matches(g) for c in table.classes):
                raise KnowledgeError(f"training_mfu.yaml: no {workload} class matches GPU '{g.id}'")
    seen: set[str] = set()
    for i, f in enumerate(table.frameworks):
        if f.framework in seen:
            raise KnowledgeError(f"training_mfu.yaml: frameworks record {i}: '{f.framework}' appears twice")
        seen.add(f.framework)
    return table


from gpu_advisor.knowledge.schema import FormatSupport  # noqa: E402  (appended with its loader)


@cache
def format_support() -> tuple[FormatSupport, ...]:
    """What each architecture does with a number format or kernel feature its tensor cores lack."""
    return tuple(load_records(DATA_DIR / "format_support.yaml", FormatSupport))


from gpu_advisor.knowledge.schema import UsedPrice  # noqa: E402  (appended with its loader)


@cache
def used_prices() -> dict[str, UsedPrice]:
    """Second-hand prices of the cards people buy used (data/used_prices.yaml), by GPU id; one row a card."""
    records = tuple(load_records(DATA_DIR / "used_prices.yaml", UsedPrice))
    known = {g.id for g in builtin_gpus()}
    out: dict[str, UsedPrice] = {}
    for i, p in enumerate(records):
        if p.gpu not in known:
            raise KnowledgeError(f"used_prices.yaml: record {i}: field 'gpu': unknown GPU id '{p.gpu}'")
        if p.gpu in out:
            raise KnowledgeError(f"used_prices.yaml: record {i}: GPU '{p.gpu}' appears twice")
        out[p.gpu] = p
    return out
