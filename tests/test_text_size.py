"""A dataset said as a size of text ('40mb of chat logs', '200MB的语料') is read as tokens at about 4 bytes a token,
and said so; 'one item' said as each item ('5万条对话，平均一条1k token') is no count of one (review T1 #1, #13)."""

import itertools

import pytest

from gpu_advisor.assistant.catalog import say
from gpu_advisor.assistant.reading import understand

SIZES = [("40", "mb", 1e7), ("2", "gb", 5e8), ("200", "MB", 5e7), ("1.5", "GB", 3.75e8), ("500", "kb", 125_000)]
EN = ["my logs are like {n}{u} of text", "i have {n} {u} of chat logs", "about {n} {u} of text data", "dataset is about {n}{u} of raw text",
      "finetune on {n}{u} of our docs"]
ZH = ["训练数据大概{n}{u}的文本", "我们有{n}{u}语料", "聊天记录大概{n} {u}"]


@pytest.mark.parametrize(("size", "template"), list(itertools.product(SIZES, EN + ZH)))
def test_text_size_is_tokens(size, template):
    n, unit, tokens = size
    u = understand("fine-tune qwen2.5 7b with lora. " + template.format(n=n, u=unit))
    assert u.updates["train_tokens"] == pytest.approx(tokens)
    note = next(args for code, args in u.notes if code == "note.text_size_as_tokens")
    assert note["tokens"] == f"{tokens:,.0f}"
    for lang in ("en", "zh"):
        assert "4" in say(lang, "note.text_size_as_tokens", **note)


@pytest.mark.parametrize("text", ["a 3090 24gb", "a 3090 24 gb", "fine tune llama 3.1 8b on a 4090 24gb card",
                                  "RAM is 64gb, data is small", "why not? isn't a 7B model only 14 GB",
                                  "lora on a 24 GB card, the model is 16 GB", "我的显卡是 24 GB 的", "显存 80 GB 够吗"])
def test_memory_is_no_text_size(text):
    assert "train_tokens" not in understand(text).updates


ITEMS = ["5万条对话，平均一条1k token", "50000条对话，一条平均1k token", "5万条对话，平均1k token一条",
         "五万条样本，平均每一条1k token", "5万条对话，每条大概1k token"]


@pytest.mark.parametrize("text", ITEMS)
def test_each_item_is_no_count_of_one(text):
    u = understand("想微调qwen2.5 7b，" + text)
    assert u.updates["train_examples"] == 50_000
    assert u.updates["train_tokens"] == pytest.approx(5e7)
