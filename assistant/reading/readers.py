"""The slot readers in the order understand() runs them: each reads one slot of the workload from a prepared
message (reading.message) and returns its value, (slot, value), or None."""

from __future__ import annotations

from gpu_advisor.assistant.reading.allowance import ONLY_READERS, read_exclude_allowing
from gpu_advisor.assistant.reading.buy_count import read_buy_count
from gpu_advisor.assistant.reading.buy_weighed import read_weighed_preference
from gpu_advisor.assistant.reading.costs import read_budget, read_hosting, read_power
from gpu_advisor.assistant.reading.daily_volume import read_deadline_or_day
from gpu_advisor.assistant.reading.e2e import read_e2e, read_latency_percentile, read_tpot_percentile
from gpu_advisor.assistant.reading.encoder_job import read_encoder_job
from gpu_advisor.assistant.reading.examples import read_train_examples
from gpu_advisor.assistant.reading.goals import read_cheapest, read_has_host
from gpu_advisor.assistant.reading.hardware import (
    read_network,
    read_network_gbit,
    read_owned,
    read_region,
    read_server_gpus,
)
from gpu_advisor.assistant.reading.horizon import read_horizon
from gpu_advisor.assistant.reading.item_volume import read_items_per_day
from gpu_advisor.assistant.reading.job import (
    read_batch_input_tokens,
    read_batch_items,
    read_batch_output_tokens,
    read_engine,
    read_engine_app,
    read_epochs,
    read_framework,
    read_kv_cache,
    read_method,
    read_mixed_precision,
    read_objective,
    read_phase,
    read_precision,
    read_prompt_tokens,
    read_qlora_base,
    read_seq_len,
    read_train_tokens,
)
from gpu_advisor.assistant.reading.levers import read_hit_rate, read_shared_prefix, read_speculative
from gpu_advisor.assistant.reading.model import read_model
from gpu_advisor.assistant.reading.personal import (
    read_cpu_offload,
    read_personal,
    read_product,
    read_system_ram,
    read_used_ok,
)
from gpu_advisor.assistant.reading.recurring import read_runs_per_month
from gpu_advisor.assistant.reading.redundancy import read_redundancy
from gpu_advisor.assistant.reading.rl import (
    read_rl_algorithm,
    read_rl_completion_tokens,
    read_rl_critic_model,
    read_rl_layout,
    read_rl_pipelined,
    read_rl_prompt_tokens,
    read_rl_prompts,
    read_rl_prompts_per_step,
    read_rl_reward_model,
    read_rl_rollout_gpus,
    read_rl_run_steps,
    read_rl_samples,
    read_rl_steps,
)
from gpu_advisor.assistant.reading.serving import (
    read_context,
    read_images,
    read_min_tokens_per_s,
    read_output_tokens,
    read_population,
    read_population_daily,
    read_population_monthly,
    read_request_rate,
    read_ttft,
    read_uptime,
    read_users,
    read_users_range,
    read_utilisation,
)
from gpu_advisor.assistant.reading.traffic_shape import read_offpeak_share, read_peak_days, read_peak_hours
from gpu_advisor.assistant.reading.use_case import read_use_case

READERS = (
    ("phase", read_phase),
    ("items_per_day", read_items_per_day),  # a service's items a day: a request rate (reading.item_volume)
    ("model", read_model),
    ("method", read_method),
    ("objective", read_objective),
    ("rl_algorithm", read_rl_algorithm),
    ("rl_prompts", read_rl_prompts), ("rl_samples", read_rl_samples),
    ("rl_completion_tokens", read_rl_completion_tokens), ("rl_prompt_tokens", read_rl_prompt_tokens),
    ("rl_steps", read_rl_steps),
    ("rl_run_steps", read_rl_run_steps), ("rl_prompts_per_step", read_rl_prompts_per_step),
    ("rl_reward_model", read_rl_reward_model), ("rl_critic_model", read_rl_critic_model),
    ("rl_layout", read_rl_layout), ("rl_rollout_gpus", read_rl_rollout_gpus), ("rl_pipelined", read_rl_pipelined),
    ("framework", read_framework),
    ("mixed_precision", read_mixed_precision),
    ("engine", read_engine),
    ("engine_app", read_engine_app),
    ("precision", read_precision),
    ("kv_cache", read_kv_cache),
    ("population", read_population),
    ("population_daily", read_population_daily),  # how the population was counted: a day's users or a staff
    ("population_monthly", read_population_monthly),  # or a month's: a day's share of them, said
    ("users_range", read_users_range),  # before users: the numbers of a range are no count of their own
    ("users", read_users),
    ("context", read_context),
    ("utilisation", read_utilisation),
    ("uptime", read_uptime),
    ("peak_hours", read_peak_hours), ("peak_days", read_peak_days), ("offpeak_share", read_offpeak_share),
    ("redundancy", read_redundancy),
    ("region", read_region),
    ("budget", read_budget),
    ("electricity_usd_per_kwh", read_power),
    ("hosting_usd_per_month", read_hosting),
    ("owned", read_owned),
    ("server_gpus", read_server_gpus),
    ("network", read_network),
    ("network_gbit", read_network_gbit),
    ("exclude", read_exclude_allowing),  # a card allowed beside a domestic rule kept (reading.allowance)
    *ONLY_READERS,  # the cards the choice is limited to, and whether they are all the user can get
    ("has_host", read_has_host),
    ("cheapest", read_cheapest),
    ("preference", read_weighed_preference), ("buy_count", read_buy_count),  # 'buy two cards' (reading.buy_count)
    ("train_tokens", read_train_tokens),
    ("train_examples", read_train_examples),
    ("epochs", read_epochs),
    ("seq_len", read_seq_len),
    ("qlora_base", read_qlora_base),
    ("batch_items", read_batch_items),
    ("batch_input_tokens", read_batch_input_tokens),
    ("batch_output_tokens", read_batch_output_tokens),
    ("deadline_hours", read_deadline_or_day),  # a batch volume said per day: due within the day
    ("runs_per_month", read_runs_per_month),
    ("ttft_ms", read_ttft),
    ("ttft_percentile", read_latency_percentile),
    ("e2e_ms", read_e2e),
    ("prompt_tokens", read_prompt_tokens),
    ("images_per_request", read_images),
    ("min_tokens_per_s", read_min_tokens_per_s),
    ("tpot_percentile", read_tpot_percentile),
    ("requests_per_s", read_request_rate),
    ("output_tokens", read_output_tokens),
    ("personal", read_personal),
    ("used_ok", read_used_ok),
    ("product", read_product),
    ("use_case", read_use_case),
    ("system_ram_gb", read_system_ram),
    ("cpu_offload", read_cpu_offload),
    ("shared_prefix_tokens", read_shared_prefix),
    ("prefix_hit_rate", read_hit_rate),
    ("speculative", read_speculative),
    ("loras", lambda m: m.loras),  # reading.adapters, read when the message was prepared
    ("lora_rank", lambda m: m.lora_rank),
    ("encoder_job", read_encoder_job),  # 'embed 10M documents', 'reranker 200 QPS' (reading.encoder_job)
    ("candidates_per_query", lambda m: m.candidates),
    ("horizon_months", read_horizon),
)
