"""What the MCP server offers besides the sizing tools: the catalog ids a tool accepts, discoverable, and each
tool's output schema.

- `search_catalog(query, kind, limit)`: the GPUs and models whose id, name, aliases (or a model's Hugging Face
  repo ids) hold every word of the query, in catalog order; nothing matched, the closest names. Each hit carries
  its id (what `gpu` and `model` take) and its resource URI.
- Per-item resources `gpu-advisor://gpus/{id}` and `gpu-advisor://models/{id}` (resource templates): one
  catalog record with its source; an alias reads the record it names, an unknown id is an error naming the
  closest ids.
- `output_schema(name)`: the JSON schema of a sizing tool's structured result (the concise result the server
  returns), derived from the tool's result model: byte counts are integers, the breakdown (`terms`) is there only
  when asked for, and a recommendation's options are its top ones with their key fields.
"""

from __future__ import annotations

import json
import typing
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import BaseModel

ITEM_TEMPLATES = {"gpus": "gpu-advisor://gpus/{id}", "models": "gpu-advisor://models/{id}"}
KINDS = ("gpus", "models")
MAX_HITS = 50

SEARCH_DESCRIPTION = (
    "Find the catalog ids the other tools take as `gpu` and `model`: the GPUs and models whose id, name or "
    "aliases (a model's Hugging Face repo ids too) contain every word of the query ('h100', 'qwen3 moe', "
    "'ascend'), in catalog order, with a few key figures and the resource URI of the full record "
    "(gpu-advisor://gpus/{id}, gpu-advisor://models/{id}). Nothing matched: the closest names.")
SEARCH_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "query": {"type": "string", "minLength": 1, "maxLength": 200,
                  "description": "words of a card's or model's name: 'h100', 'rtx 4090', 'llama 3.1', 'qwen3 30b'"},
        "kind": {"type": "string", "enum": ["all", *KINDS], "default": "all",
                 "description": "search the GPUs, the models, or both (all)"},
        "limit": {"type": "integer", "minimum": 1, "maximum": MAX_HITS, "default": 10,
                  "description": f"the most hits of each kind (1 to {MAX_HITS})"},
    },
    "required": ["query"],
    "additionalProperties": False,
}
_HIT = {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"},
                                         "uri": {"type": "string"}}, "required": ["id", "name", "uri"]}
SEARCH_OUTPUT: dict[str, Any] = {
    "type": "object",
    "properties": {"query": {"type": "string"}, "gpus": {"type": "array", "items": _HIT},
                   "models": {"type": "array", "items": _HIT},
                   "closest": {"type": "boolean", "description": "no name held every word: the closest names"}},
    "required": ["query", "gpus", "models", "closest"],
}


def _records(kind: str) -> tuple:
    from gpu_advisor.knowledge import gpus, models

    return gpus() if kind == "gpus" else models()


def _keys(record: Any) -> list[str]:
    from gpu_advisor.knowledge.resolve import normalise

    return [normalise(k) for k in (record.id, record.name, *record.aliases, *getattr(record, "hf_ids", ()))]


def _hit(kind: str, r: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"id": r.id, "name": r.name, "uri": ITEM_TEMPLATES[kind].format(id=r.id)}
    if kind == "gpus":
        out.update(memory_gb=r.memory_gb, vendor=r.vendor)
    else:
        out.update(total_params_b=r.total_params_b, active_params_b=r.active_params_b, max_context=r.max_context)
    return out


def search(query: Any, kind: Any = "all", limit: Any = 10) -> dict[str, Any]:
    """The catalog records whose keys hold every word of `query` (see the module's docstring). Raises ValueError
    on a bad argument."""
    import difflib

    from gpu_advisor.knowledge.resolve import normalise

    if not isinstance(query, str) or not query.strip() or len(query) > 200:
        raise ValueError("query: a non-empty string of at most 200 characters is required")
    if kind not in ("all", *KINDS):
        raise ValueError(f"kind: one of all, {', '.join(KINDS)}")
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_HITS:
        raise ValueError(f"limit: a whole number from 1 to {MAX_HITS}")
    words = [w for w in (normalise(w) for w in query.split()) if w]
    if not words:
        raise ValueError("query: no letters or digits to look for")
    kinds = KINDS if kind == "all" else (kind,)
    found: dict[str, list[Any]] = {}
    for k in kinds:
        found[k] = [r for r in _records(k) if all(any(w in key for key in _keys(r)) for w in words)][:limit]
    closest = not any(found.values())
    if closest:  # no name holds every word: the nearest names, as a lookup's error suggests them
        whole = "".join(words)
        for k in kinds:
            by_key = {key: r for r in _records(k) for key in _keys(r)}
            near = difflib.get_close_matches(whole, list(by_key), n=limit * 3, cutoff=0.5)
            found[k] = list({by_key[n].id: by_key[n] for n in near}.values())[:limit]
    return {"query": query, **{k: [_hit(k, r) for r in found.get(k, [])] for k in KINDS}, "closest": closest}


def item_kind(uri: str) -> tuple[str, str] | None:
    """(kind, id) of a per-item resource URI, or None when the URI is no item's."""
    for kind, template in ITEM_TEMPLATES.items():
        prefix = template.removesuffix("{id}")
        if uri.startswith(prefix) and len(uri) > len(prefix):
            return kind, uri[len(prefix):]
    return None


def item_json(kind: str, item: str) -> str:
    """One catalog record as JSON: by id, or by a name or alias the lookups take. Raises LookupError (naming the
    closest ids) when there is none."""
    from urllib.parse import unquote

    from gpu_advisor.knowledge.resolve import find_gpu, find_model

    name = unquote(item)
    by_id = {r.id: r for r in _records(kind)}
    record = by_id.get(name)
    if record is None:
        record = find_gpu(name) if kind == "gpus" else find_model(name)
        if record.id not in by_id:  # a Mac or a size read from a name: no catalog record
            raise LookupError(f"no catalog record '{name}' among the {kind}; search_catalog finds the ids")
    return json.dumps(record.model_dump(mode="json"), indent=1)


# --- output schemas ----------------------------------------------------------------------------------


def _result_model(name: str) -> type[BaseModel]:
    from gpu_advisor.tools.registry import TOOLS

    return typing.get_type_hints(TOOLS[name].function)["return"]


def _integer_bytes(schema: Any, key: str = "") -> Any:
    """The schema with every `*_bytes` property an integer (or a list of integers, or null where it may be)."""
    if isinstance(schema, list):
        return [_integer_bytes(s, key) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for k, v in schema.items():
        if k == "properties" and isinstance(v, dict):
            out[k] = {p: _integer_bytes(s, p) for p, s in v.items()}
        elif k == "type" and key.endswith("_bytes") and v == "number":
            out[k] = "integer"
        else:
            out[k] = _integer_bytes(v, key if k in ("anyOf", "oneOf", "items", "prefixItems") else "")
    return out


def output_schema(name: str) -> dict[str, Any]:
    """The JSON schema of a sizing tool's structured result over MCP (see the module's docstring)."""
    from gpu_advisor.tools.registry import OPTION_FIELDS

    schema = _integer_bytes(_result_model(name).model_json_schema(mode="serialization"))
    if "$ref" in schema:  # a model that refers to itself: its definition at the top (MCP wants an object there)
        defs = schema["$defs"]
        schema = {**defs[schema["$ref"].rsplit("/", 1)[-1]], "$defs": defs}
    schema["required"] = [k for k in schema.get("required", []) if k not in ("terms", "workload")]
    if name == "recommend":
        props = schema["properties"]
        props.pop("workload", None)
        props["options_considered"] = {"type": "integer", "description": "options sized; the top ones are listed"}
        ref = props["options"]["items"]["$ref"].rsplit("/", 1)[-1]
        option = schema["$defs"][ref]
        props["options"] = {"type": "array", "items": {
            "type": "object", "properties": {k: option["properties"][k] for k in OPTION_FIELDS
                                             if k in option["properties"]}}}
    return schema
