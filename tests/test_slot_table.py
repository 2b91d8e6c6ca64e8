"""The slot table is the one description of the profile: the profile's fields, the reader's slots, the
tools' workload and both catalogs agree with it, so adding a slot in one place and forgetting another
fails here."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.catalog import catalog
from gpu_advisor.assistant.policy import Profile
from gpu_advisor.assistant.reading import READERS
from gpu_advisor.assistant.slots import SLOTS
from gpu_advisor.tools.recommend import Workload

# Slots that reach the tools under another name (advice.workload_for maps them; the people who use a
# service reach them as the people at once, tools.traffic), and readers that
# fill several slots at once (the budget reader gives a one-off or a monthly budget).
RENAMED_FOR_TOOLS = {"precision": "serve_precision", "only": "candidates", "population": "users", "users_range": "users",
                     "population_daily": "users",  # how the population was counted: its share at once
                     "population_monthly": "users",  # a month's count: the day's share at once, on the safe side
                     "uptime": "utilisation", "engine_app": "engine"}  # ollama, LM Studio: sized as their llama.cpp
READER_OF = {"budget": ("budget_usd", "budget_usd_per_month")}
NOT_READ = {"currency"}  # a setting, or said with a budget in yuan
# Slots filled after the slot readers, from what they read (h-deadline, h-fleet, h-scale2, h-used added them):
# the deadline said of a service becomes its go-live (engine), 'how many of our 16 H100s' (reading.fleet),
# '一万五左右' (reading.budget_leeway), 'a used 3090 or a 4090' (reading.used_cards).
READ_AFTER = {"go_live_hours", "fewest_owned", "owned_busy", "budget_leeway", "used_cards",
              "rate_day_hours", "line_said", "only_bought", "draft_model",  # a draft named (reading.draft_model)
              "user_groups",  # the groups by job a count of people adds up to (see below)
              "budget_per"}  # '$3/hr', '每小时最多20块': the period a monthly budget was said in (reading.budget_cap)
# (user_groups:) a count of people adds up to (reading.people_groups, assistant.user_groups)  # the hours a day's volume runs in (reading.usage), the line named before
# ('rent or buy two 4090s': the count weighed for buying, reading.count_bought)
# a size only another line has (engine); h-read3
# Slots the engine keeps to derive another: "50k tickets" then "each is 1500 tokens" recounts train_tokens.
ENGINE_ONLY = {"train_examples", "encoder_job", "candidates_per_query", "rate_day_hours",  # the last two: tools.encoder_plan (assistant.encoder_reply)
               "items_per_day",
               "user_groups"}  # the groups a count of people adds up to: a later '30 PMs, not 10' recounts it  # a service's items a day: a batch of them when the job turns batch (assistant.day_items)


def test_the_profile_has_exactly_the_slot_table_fields():
    assert set(Profile.model_fields) == set(SLOTS)


def test_every_slot_but_settings_has_a_reader_and_every_reader_fills_a_slot():
    filled = set()
    for name, _reader in READERS:
        filled |= set(READER_OF.get(name, (name,)))
    assert filled <= set(SLOTS)
    assert set(SLOTS) - filled == NOT_READ | READ_AFTER


def test_every_slot_reaches_the_tools_by_its_own_name_or_a_stated_one():
    fields = set(Workload.model_fields)
    for name in set(SLOTS) - ENGINE_ONLY:
        assert RENAMED_FOR_TOOLS.get(name, name) in fields, name


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_slot_has_a_label_in_both_languages(lang: str):
    entries = catalog(lang)
    missing = [name for name in SLOTS if f"slot.{name}.label" not in entries]
    assert not missing


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_slot_the_reader_fills_can_be_acknowledged(lang: str):
    """A value read from a message is said back: a slot without its words crashed the first turn."""
    from gpu_advisor.assistant.engine import describe

    samples = {"users": 20, "users_range": (20, 100), "population": 3000, "population_daily": True, "population_monthly": True, "context": 32768, "utilisation": 0.5, "electricity_usd_per_kwh": 0.15,
               "images_per_request": 1, "deadline_hours": 12.0, "ttft_ms": 500.0, "ttft_percentile": 0.9, "tpot_percentile": 0.99, "e2e_ms": 8000.0, "prompt_tokens": 4000,
               "min_tokens_per_s": 20.0, "train_tokens": 5e7, "epochs": 2.0, "seq_len": 2048, "batch_items": 1000,
               "batch_input_tokens": 1000, "batch_output_tokens": 200, "owned": ["2x rtx-4090"], "exclude": ["amd"],
               "only": ["h100-sxm"], "region": "china", "preference": "buy", "method": "lora", "precision": "int4",
               "kv_cache": 8, "qlora_base": 4, "framework": "unsloth", "mixed_precision": False, "engine": "vllm", "engine_app": "ollama", "train_examples": 50000, "runs_per_month": 30.0, "has_host": True, "cheapest": True,
               "phase": "serve", "model": "llama-3.1-8b", "objective": "dpo", "budget_usd": 5000.0,
               "budget_usd_per_month": 2000.0, "server_gpus": 8, "network": "fast", "uptime": 99.9,
               "requests_per_s": 20.0, "rate_day_hours": 8.0, "items_per_day": 20000, "line_said": "qwen3-32b", "output_tokens": 200, "network_gbit": 100.0, "rl_algorithm": "grpo",
               "rl_prompts": 10_000, "rl_samples": 8, "rl_completion_tokens": 1024, "rl_prompt_tokens": 1024, "hosting_usd_per_month": 2000.0,
               "rl_layout": "split", "rl_rollout_gpus": 4, "rl_pipelined": True, "rl_steps": 1000, "rl_run_steps": 2000, "rl_prompts_per_step": 256,
               "rl_reward_model": "7B", "rl_critic_model": "qwen2.5-7b",
               "peak_hours": 9.0, "peak_days": 5.0, "offpeak_share": 0.05,
               "personal": True, "used_ok": True, "product": True, "system_ram_gb": 64.0, "cpu_offload": True,
               "redundancy": "n+1", "horizon_months": 24, "use_case": "coding", "buy_count": 2,
               "go_live_hours": 240.0, "fewest_owned": True, "owned_busy": 0.5, "budget_leeway": 10.0,
               "used_cards": ["rtx-3090"], "loras": 50, "lora_rank": 16, "encoder_job": "rerank",
               "candidates_per_query": 50, "only_sourced": True, "only_bought": True, "shared_prefix_tokens": 3000,
               "prefix_hit_rate": 0.9, "speculative": "eagle3", "draft_model": "llama-3.2-1b",
               "user_groups": (("engineer", 3), ("product_manager", 10)), "budget_per": "hour"}
    assert set(samples) == set(SLOTS) - NOT_READ
    for name, value in samples.items():
        assert describe(name, value, lang), name
