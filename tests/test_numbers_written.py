"""Numbers in scientific notation and numbers no figure can be: '1e3 users' is 1,000 users, '3x10^5' is 300,000; '1e-320
tok/s', 'to 1e308 users' and a 17-digit size are said back in one line as not used, never read as another number
('1e-320' was 320 tokens/s, '1e308' dropped silently, '12345678901234567B' quoted as 123,457,000,000,000B)."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from tests.conversation import run_conversation

# (written, the number it says) in the spellings people use
THOUSAND = ["1e3", "1E3", "1e+3", "1.0e3", "10^3", "10**3", "1x10^3", "1 x 10^3", "1*10^3", "1×10³", "10的3次方"]
READ = [("2.5e2", 250), ("2.5x10^2", 250), ("25e1", 250), ("3e5", 300_000), ("3 × 10^5", 300_000), ("3乘10的5次方", 300_000)]
UNUSED = ["1e-320", "1e308", "1E+308", "1e400", "10^400", "5x10^-330", "10的308次方", "12345678901234567",
          "1234567890123456789", "1,234,567,890,123,456,789", "2.5e-9", "1e16"]


def _users(written: str, lang: str, order: int) -> str:
    en = [f"serve llama 3 8b for {written} users", f"{written} users on llama 3 8b, serving"]
    zh = [f"用llama 3 8b部署给{written}个用户", f"{written}个用户同时用，部署llama 3 8b"]
    return (en if lang == "en" else zh)[order]


@pytest.mark.parametrize(("written", "lang", "order"),
                         itertools.product([w for w in THOUSAND if "³" not in w], ["en", "zh"], [0, 1]))
def test_a_power_of_ten_is_read_as_the_number_it_writes(written, lang, order):
    u = understand(_users(written, lang, order))
    assert u.updates.get("users") == 1000 and not u.problems, (written, u.updates, u.problems)


@pytest.mark.parametrize(("written", "value"), READ)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_mantissa_times_a_power_of_ten_is_its_value(written, value, lang):
    text = f"fine-tune llama 3 8b on {written} examples" if lang == "en" else f"用{written}条样本微调llama 3 8b"
    u = understand(text)
    assert u.updates.get("train_examples") == value, (text, u.updates)


@pytest.mark.parametrize(("written", "lang", "order"), itertools.product(UNUSED, ["en", "zh"], [0, 1]))
def test_a_number_out_of_any_range_is_said_unused_never_read_as_another(written, lang, order):
    u = understand(_users(written, lang, order))
    assert "users" not in u.updates, (written, u.updates)
    assert [(c, p["typed"]) for c, p in u.problems] == [("number_unused", written.lower())]


@pytest.mark.parametrize("text", ["I need 1e-320 tok/s serving llama 3 8b for 50 users",
                                  "serving llama 3 8b for 50 users, at least 1e-320 tokens/s each",
                                  "部署llama 3 8b给50个用户，每人至少1e-320 tok/s"])
def test_a_speed_too_small_to_write_is_no_speed(text):
    u = understand(text)
    assert "min_tokens_per_s" not in u.updates and u.updates["users"] == 50
    assert u.problems == [("number_unused", {"typed": "1e-320"})]


@pytest.mark.parametrize("text", ["serve a 70b model for 20 users, scale from 100 to 1e308 users",
                                  "serve a 70b model for 20 users, maybe 1e308 users later"])
def test_a_huge_count_of_people_is_not_dropped_silently(text):
    u = understand(text)
    assert u.updates["users"] == 20 and u.problems == [("number_unused", {"typed": "1e308"})]


@pytest.mark.parametrize("text", ["fine-tune llama 3 8b, lr 2e-5, on 1e9 tokens", "lora on llama 3 8b, 1e9 tokens, lr=1e-4"])
def test_a_learning_rate_is_no_quantity(text):
    u = understand(text)  # '2e-5' once read as 5 of something; 0.00002 has no role
    assert u.updates["train_tokens"] == 1e9 and not u.problems


def test_a_model_size_is_quoted_as_written():
    for size, quoted in (("1234567890123", "1,234,567,890,123"), ("999999999999999", "999,999,999,999,999")):
        u = understand(f"serve a {size}B model to 5 users")
        assert u.problems == [("size_too_large", {"billions": quoted})]


@pytest.mark.parametrize(("text", "said"), [
    ("I need 1e-320 tok/s serving llama 3 8b for 50 users", "I can't use that: 1e-320 is outside any range I can size"),
    ("serve a 12345678901234567B model for 10 users", "I can't use that: 12345678901234567 is outside any range"),
    ("用llama 3 8b部署给1e308个用户", "这个我没法用：1e308 超出了我能计算的任何范围，这个数字我没有采用"),
])
def test_the_reply_says_the_number_was_not_used_in_the_users_language(text, said):
    reply = run_conversation([text])[0].content
    assert said in reply and "320 tokens" not in reply and "123,457" not in reply, reply
