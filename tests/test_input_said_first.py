"""An input length said with its label, then the output's label right after its tokens ('每条输入大概100个token输出就几个
token', 'each input is about 300 tokens output maybe 20'), is the input's; 'just' between a label and its number
('输入就100 token左右') keeps the label (review U3 #12: 100 tokens in read as 100 out, 1,000 in assumed)."""

import itertools

import pytest

from gpu_advisor.assistant.reading import understand

ZH = ["每条输入{f}{n}个token输出就几个token", "每条输入{f}{n} token，输出5 token", "输入{f}{n} token左右，输出就一个标签"]
EN = ["each input is {f}{n} tokens output maybe 5 tokens", "inputs {f}{n} tokens, output 5 tokens"]
FILLERS_ZH = ["", "大概", "就", "也就", "大约"]
FILLERS_EN = ["", "about ", "just ", "only ", "roughly "]


@pytest.mark.parametrize(("template", "filler", "n"),
                         [*itertools.product(ZH, FILLERS_ZH, (100, 300, 800)), *itertools.product(EN, FILLERS_EN, (100, 300, 800))])
def test_the_input_said_first_is_the_input(template, filler, n):
    u = understand("2000万条标题做分类，" + template.format(f=filler, n=n) if "每" in template or "输入" in template
                   else "classify 20 million titles, " + template.format(f=filler, n=n))
    got = u.updates.get("batch_input_tokens", u.updates.get("prompt_tokens"))
    assert got == n, (template, filler, u.updates)
    assert u.updates.get("batch_output_tokens") != n
