"""Facts as data: GPUs, models, precisions, prices, the guide's rules and a glossary, each with its source
and date."""

from knowledge.hf_config import ConfigError, load_config_file, model_from_config
from knowledge.loader import (
    KnowledgeError,
    glossary,
    gpus,
    models,
    precisions,
    prices,
    rules,
    user_config_dir,
    user_gpus_path,
    user_prices_path,
)
from knowledge.purchase import host_usd, purchase_usd
from knowledge.resolve import (
    BadValue,
    NotFound,
    find_gpu,
    find_model,
    find_precision,
    find_topic,
    find_topics,
    model_from_hub,
    model_from_size,
    model_index,
    model_summary,
    parse_size,
    resolve_model,
    show_model,
    size_in_name,
)
from knowledge.custom_gpu import is_custom, parse_custom_gpu
from knowledge.schema import GlossaryTopic, Gpu, HostSystem, ModelArch, Precision, RentalPrice, Rules

__all__ = [
    "BadValue", "ConfigError", "GlossaryTopic", "Gpu", "HostSystem", "KnowledgeError", "ModelArch",
    "NotFound", "Precision", "RentalPrice", "Rules", "find_gpu", "find_model", "find_precision", "find_topic", "find_topics", "glossary",
    "gpus", "load_config_file", "model_from_config", "model_from_hub", "model_from_size", "model_index", "model_summary",
    "models", "parse_size", "resolve_model", "show_model", "size_in_name",
    "precisions", "prices", "purchase_usd", "host_usd", "rules", "is_custom", "parse_custom_gpu", "user_config_dir",
    "user_gpus_path", "user_prices_path",
]
