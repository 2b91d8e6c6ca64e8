"""Facts as data: GPUs, models, precisions, prices, the guide's rules and a glossary, each with its source
and date.

The names below load on first use (`gpu_advisor.knowledge.find_gpu`, `from gpu_advisor.knowledge import gpus`):
importing one light module of this package (the YAML reader the message catalogs use) does not build every
record schema and index first, which keeps the app's first screen and `gpu-advisor size` quick.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gpu_advisor.knowledge.custom_gpu import is_custom, parse_custom_gpu
    from gpu_advisor.knowledge.engines import also_runs, engine_for, engines_on
    from gpu_advisor.knowledge.hf_config import ConfigError, load_config_file, model_from_config
    from gpu_advisor.knowledge.loader import (
        KnowledgeError,
        engines,
        format_support,
        frameworks,
        glossary,
        gpus,
        models,
        precisions,
        prices,
        rules,
        unsized_cards,
        used_prices,
        user_config_dir,
        user_gpus_path,
        user_prices_path,
    )
    from gpu_advisor.knowledge.purchase import host_usd, purchase_usd
    from gpu_advisor.knowledge.resolve import (
        BadValue,
        NotFound,
        find_gpu,
        find_model,
        find_precision,
        find_topic,
        find_topics,
        find_unsized_card,
        model_from_hub,
        model_from_size,
        model_index,
        model_summary,
        parse_size,
        pcie_variant,
        resolve_model,
        show_model,
        size_in_name,
    )
    from gpu_advisor.knowledge.schema import (
        Engine,
        FrameworkPreset,
        GlossaryTopic,
        Gpu,
        HostSystem,
        ModelArch,
        Precision,
        RentalPrice,
        Rules,
    )

# name -> the module of this package that defines it
_EXPORTS = {
    "is_custom": "custom_gpu",
    "parse_custom_gpu": "custom_gpu",
    "also_runs": "engines",
    "engine_for": "engines",
    "engines_on": "engines",
    "ConfigError": "hf_config",
    "load_config_file": "hf_config",
    "model_from_config": "hf_config",
    "KnowledgeError": "loader",
    "engines": "loader",
    "format_support": "loader",
    "frameworks": "loader",
    "glossary": "loader",
    "gpus": "loader",
    "models": "loader",
    "precisions": "loader",
    "prices": "loader",
    "rules": "loader",
    "unsized_cards": "loader",
    "used_prices": "loader",
    "user_config_dir": "loader",
    "user_gpus_path": "loader",
    "user_prices_path": "loader",
    "host_usd": "purchase",
    "purchase_usd": "purchase",
    "BadValue": "resolve",
    "NotFound": "resolve",
    "find_gpu": "resolve",
    "find_model": "resolve",
    "find_precision": "resolve",
    "find_topic": "resolve",
    "find_topics": "resolve",
    "find_unsized_card": "resolve",
    "model_from_hub": "resolve",
    "model_from_size": "resolve",
    "model_index": "resolve",
    "model_summary": "resolve",
    "parse_size": "resolve",
    "pcie_variant": "resolve",
    "resolve_model": "resolve",
    "show_model": "resolve",
    "size_in_name": "resolve",
    "Engine": "schema",
    "FrameworkPreset": "schema",
    "GlossaryTopic": "schema",
    "Gpu": "schema",
    "HostSystem": "schema",
    "ModelArch": "schema",
    "Precision": "schema",
    "RentalPrice": "schema",
    "Rules": "schema",
}


def __getattr__(name: str) -> Any:  # the first use of a name imports its module
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


class _Package(ModuleType):
    """`engines` names the loader's function, as it did when this file imported everything: importing the
    submodule of the same name (knowledge/engines.py) must not put the module in its place."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _EXPORTS and isinstance(value, ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


__all__ = [
    "BadValue",
    "ConfigError",
    "Engine",
    "FrameworkPreset",
    "GlossaryTopic",
    "Gpu",
    "HostSystem",
    "KnowledgeError",
    "ModelArch",
    "NotFound",
    "Precision",
    "RentalPrice",
    "Rules",
    "also_runs",
    "engine_for",
    "engines",
    "engines_on",
    "find_gpu",
    "find_model",
    "find_precision",
    "find_topic",
    "find_topics",
    "find_unsized_card",
    "format_support",
    "frameworks",
    "glossary",
    "gpus",
    "host_usd",
    "is_custom",
    "load_config_file",
    "model_from_config",
    "model_from_hub",
    "model_from_size",
    "model_index",
    "model_summary",
    "models",
    "parse_custom_gpu",
    "parse_size",
    "pcie_variant",
    "precisions",
    "prices",
    "purchase_usd",
    "resolve_model",
    "rules",
    "show_model",
    "size_in_name",
    "unsized_cards",
    "used_prices",
    "user_config_dir",
    "user_gpus_path",
    "user_prices_path",
]
