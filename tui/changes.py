"""How the assumptions panel changes an assumption that has no question of its own: a few choices,
each a sentence the reader understands (checked in tests/test_tui.py), and "type my own"."""

from __future__ import annotations

CHANGES: dict[str, list[tuple[str, str]]] = {
    "context": [("4k tokens", "make it 4k context"), ("8k tokens", "make it 8k context"),
                ("32k tokens", "make it 32k context"), ("128k tokens", "make it 128k context")],
    "region": [("Global providers", "global prices"), ("United States", "prices in the US"),
               ("Europe", "prices in Europe"), ("China", "in China")],
    "preference": [("Rent", "I'd rather rent"), ("Buy", "I'd rather buy")],
    "objective": [("SFT on examples", "use SFT"), ("DPO on preference pairs", "use DPO")],
    "epochs": [("1 epoch", "1 epoch"), ("2 epochs", "2 epochs"), ("3 epochs", "3 epochs")],
    "precision": [("16-bit (BF16)", "serve it in bf16"), ("8-bit (FP8)", "serve it in fp8"),
                  ("8-bit (INT8)", "serve it in int8"), ("4-bit (INT4)", "serve it in int4")],
    "train_tokens": [("10M tokens", "10M training tokens"), ("50M tokens", "50M training tokens"),
                     ("200M tokens", "200M training tokens"), ("1B tokens", "1B training tokens")],
}

# What the input is filled with for "type my own" (and for assumptions without choices).
TEMPLATES: dict[str, str] = {
    "context": "make it 16k context", "region": "prices in the US", "preference": "I'd rather rent",
    "objective": "use DPO", "epochs": "2 epochs", "precision": "serve it in int4",
    "train_tokens": "50M training tokens", "budget_usd_per_month": "budget $2000 a month",
    "budget_usd": "one-off budget $10000", "owned": "we own 2x rtx 4090", "exclude": "not on rtx 4090",
    "prompt_tokens": "prompts of 8k tokens", "deadline_hours": "by friday", "batch_input_tokens": "2000 tokens in",
    "batch_output_tokens": "500 tokens out", "ttft_ms": "first token within 500 ms",
    "min_tokens_per_s": "at least 20 tokens/s per user",
}
