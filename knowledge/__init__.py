"""Facts as data: GPUs, models, precisions, prices and the guide's rules, each with source and date."""

from knowledge.hf_config import ConfigError, load_config_file, model_from_config
from knowledge.loader import KnowledgeError, gpus, models, precisions, prices, rules
from knowledge.resolve import BadValue, NotFound, find_gpu, find_model, find_precision, model_from_size, parse_size
from knowledge.schema import Gpu, ModelArch, Precision, RentalPrice, Rules

__all__ = [
    "BadValue", "ConfigError", "Gpu", "KnowledgeError", "ModelArch", "NotFound", "Precision", "RentalPrice",
    "Rules", "find_gpu", "find_model", "find_precision", "gpus", "load_config_file", "model_from_config",
    "model_from_size", "models", "parse_size", "precisions", "prices", "rules",
]
