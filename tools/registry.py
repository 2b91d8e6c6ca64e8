"""The tool registry: one entry per sizing tool with its name, description, input schema and function.

The CLI, the conversation engine, an LLM agent (through an adapter in assistant/) and any other
front-end call the same functions through this table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from gpu_advisor.tools.cost import CostInput, RentBuyInput, cost, rent_vs_buy
from gpu_advisor.tools.encoder_serving import EncoderServingInput, encoder_serving
from gpu_advisor.tools.fit import FitInput, fit
from gpu_advisor.tools.inference import InferenceMemoryInput, inference_memory
from gpu_advisor.tools.multi_lora import MultiLoraInput, multi_lora
from gpu_advisor.tools.offload import OffloadInput, offload
from gpu_advisor.tools.prefix_cache import PrefixCacheInput, prefix_cache
from gpu_advisor.tools.queueing import RateInput, size_by_rate
from gpu_advisor.tools.recommend import Workload, recommend
from gpu_advisor.tools.speculative import SpeculativeInput, speculative
from gpu_advisor.tools.throughput import SpeedInput, speed
from gpu_advisor.tools.training import TrainingMemoryInput, training_memory
from gpu_advisor.tools.training_time import TrainingTimeInput, training_time
from gpu_advisor.tools.vllm_offload import VllmOffloadInput, vllm_offload


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    input_model: type[BaseModel]
    function: Callable[[Any], BaseModel]

    def json_schema(self) -> dict[str, Any]:
        return self.input_model.model_json_schema()

    def run(self, arguments: dict[str, Any] | BaseModel) -> BaseModel:
        args = arguments if isinstance(arguments, self.input_model) else self.input_model.model_validate(arguments)
        return self.function(args)


TOOLS: dict[str, Tool] = {t.name: t for t in (
    Tool("inference_memory", "GPU memory to serve a model: weights, KV cache, activations, engine overhead; "
         "per GPU with tensor/pipeline parallelism; fit and vLLM KV capacity on a given GPU.",
         InferenceMemoryInput, inference_memory),
    Tool("training_memory", "GPU memory to fine-tune a model (full, LoRA, QLoRA) with a given optimizer, "
         "precision, sequence length, micro-batch, gradient checkpointing and ZeRO sharding.",
         TrainingMemoryInput, training_memory),
    Tool("speed", "Decode tokens/s (per sequence and aggregate) and prefill tokens/s of a model on a GPU.",
         SpeedInput, speed),
    Tool("training_time", "Hours and rental cost of a fine-tuning run: FLOPs per token x tokens / (GPUs x FLOPS x MFU).",
         TrainingTimeInput, training_time),
    Tool("fit", "On 1, 2, 4 or 8 of a given GPU, does a serving or training workload fit, with what headroom, "
         "and what changes would make it fit.", FitInput, fit),
    Tool("cost", "Rental $/hour for N GPUs, the cost of a run, and $ per million generated tokens.", CostInput, cost),
    Tool("rent_vs_buy", "Compare renting and buying GPUs over a horizon; break-even utilisation.",
         RentBuyInput, rent_vs_buy),
    Tool("size_by_rate", "GPUs and replicas to serve a request rate (requests/s, prompt and output lengths) within "
         "p50/p99 (or any percentile's) time-to-first-token and time-per-output-token targets: Little's law and "
         "an M/G/c queue "
         "(Erlang C) over continuous batching; the concurrency, waits and utilisation it implies.",
         RateInput, size_by_rate),
    Tool("encoder_serving", "GPUs to serve an embedding or reranking model at a request rate (or a corpus by a "
         "deadline): prefill only, tokens read per second over one GPU's prefill speed; vLLM pooling and TEI commands.",
         EncoderServingInput, encoder_serving),
    Tool("multi_lora", "Many LoRA adapters on one base model: memory per adapter from rank and targeted modules, vLLM "
         "--max-loras slots per GPU, adapters in system memory, the throughput a mixed batch gives up.",
         MultiLoraInput, multi_lora),
    Tool("cpu_offload", "llama.cpp with part of a model in system RAM (-ngl layers, --n-cpu-moe experts): what stays "
         "on the card, the RAM it needs, the decode speed the RAM's bandwidth gives.", OffloadInput, offload),
    Tool("vllm_offload", "vLLM --cpu-offload-gb (weights copied over PCIe every step) and KV offloading of idle "
         "conversations: the GB offloaded, the decode speed it costs, the system RAM it needs.",
         VllmOffloadInput, vllm_offload),
    Tool("prefix_cache", "Prefix caching of a prompt prefix every request shares (system prompt, instructions): "
         "prompt tokens read from the cache at a hit rate, the prefill work saved, the KV memory held once.",
         PrefixCacheInput, prefix_cache),
    Tool("speculative", "Speculative decoding (a draft model, an EAGLE-3 head, MTP layers): tokens per step "
         "(1 - a^(k+1)) / (1 - a) from the acceptance rate, the decode speed-up range at a batch and at 1/8/32/128, "
         "and the draft's memory.", SpeculativeInput, speculative),
    Tool("recommend", "Rank GPU options (card x count, rent or buy) for a described workload, with reasons.",
         Workload, recommend),
)}


# A recommendation lists every card x count it sized; an agent needs the top of the ranking.
OPTIONS_IN_SUMMARY = 5
OPTION_FIELDS = ("gpu", "gpus", "owned", "engine", "precision", "ok", "headroom_fraction", "decode_tokens_per_s",
                 "ttft_s", "tpot_s", "job_hours", "job_usd", "usd_per_hour", "usd_per_month", "purchase_usd", "meets", "reasons")


def concise(result: BaseModel, breakdown: bool = False) -> dict[str, Any]:
    """A tool result for an agent or an MCP client: the figures first, then assumptions and warnings;
    the term-by-term breakdown (formulas and inputs) only when asked for, and a recommendation's
    ranking cut to its top options with their key fields."""
    from gpu_advisor.tools.recommend import Recommendation

    return concise_data(result.model_dump(mode="json"), breakdown, ranking=isinstance(result, Recommendation))


def concise_data(data: dict[str, Any], breakdown: bool = False, ranking: bool = False) -> dict[str, Any]:
    """`concise` for a result already turned into JSON data (what the conversation's tool recorder
    keeps); `ranking`: the data is a recommendation. The data given is not changed."""
    data = dict(data)
    if not breakdown:
        data.pop("terms", None)
    if ranking:
        data.pop("workload", None)
        data["options_considered"] = len(data["options"])
        data["options"] = [{k: o[k] for k in OPTION_FIELDS if o.get(k) is not None}
                           for o in data["options"][:OPTIONS_IN_SUMMARY]]
        if data.get("bought"):  # the machine a rent-or-buy weighs (tools.bought_side): its key fields, as an option's
            data["bought"] = {k: data["bought"][k] for k in OPTION_FIELDS if data["bought"].get(k) is not None}
    nested = (list, dict)
    return dict(sorted(data.items(), key=lambda kv: (isinstance(kv[1], nested), list(data).index(kv[0]))))
