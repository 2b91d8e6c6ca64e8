"""Hardware and policy reading, generalised (issue 21): each class of sentence is built from templates crossed
with fillers, vendors, cards, counts and number spellings (two, 2, 两, 二, 四 ...), in English and Chinese,
with the card clause before and after the task clause; every utterance must give the same slots.

Classes: a domestic-only policy (region china, every non-domestic vendor of the catalog ruled out); a choice
limited to a vendor; the only card one can get; owned cards in either order; servers that are not GPUs; cards
outside the catalog (a card with memory it is not sold with, a laptop chip, a name the catalog lacks).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import find_gpu, gpus

VENDORS = sorted({g.vendor for g in gpus()})
DOMESTIC = sorted({g.vendor for g in gpus() if g.domestic_china})
NOT_DOMESTIC = sorted(set(VENDORS) - set(DOMESTIC))

EN_BEFORE = ["", "hi, ", "please ", "hey there! ", "ok so ", "btw, "]
EN_AFTER = ["", ".", " thanks", "!", " pls", " - what do you think?"]
ZH_BEFORE = ["", "你好，", "麻烦帮我看下，", "请问，"]
ZH_AFTER = ["", "。", "，谢谢", "！", "，怎么配？"]

EN_TASKS = ["serve qwen2.5 72b to 50 users", "fine-tune qwen2.5 7b with lora", "finetune llama 3.1 8b",
            "deploy qwen2.5-14b for our team", "we want to serve llama 3.3 70b"]
ZH_TASKS = ["部署qwen2.5 72b给50个用户", "用lora微调qwen2.5 7b", "想LoRA一下glm-4-9b", "跑qwen2.5 14b推理"]

EN_NUMBERS = {2: ["two", "2"], 4: ["four", "4"], 8: ["eight", "8"]}
ZH_NUMBERS = {2: ["两", "二", "2"], 4: ["四", "4"], 8: ["八", "8"]}


def _joined(card: str, task: str, before: str, after: str, zh: bool) -> Iterator[str]:
    """The card clause before and after the task clause, with fillers around."""
    comma = "，" if zh else ", "
    yield f"{before}{card}{comma}{task}{after}"
    yield f"{before}{task}{comma}{card}{after}"


def _sentences(clauses: list[str], tasks: list[str], zh: bool, limit: int | None = None) -> list[str]:
    fillers = list(itertools.product(ZH_BEFORE if zh else EN_BEFORE, ZH_AFTER if zh else EN_AFTER))
    out: list[str] = []
    for i, (clause, task) in enumerate(itertools.product(clauses, tasks)):
        before, after = fillers[i % len(fillers)]
        out += _joined(clause, task, before, after, zh)
    return out[:limit] if limit else out


def _check(texts: list[str], check) -> None:
    """Every text must pass `check(u)`; the failures are reported together, with what was read."""
    failures = []
    for text in texts:
        u = understand(text)
        try:
            check(u)
        except AssertionError as e:
            failures.append(f"{text!r}: {e} -> updates={u.updates} notes={u.notes} whatif={u.whatif_gpus} "
                            f"compare={u.compare_gpus}")
    assert not failures, f"{len(failures)} of {len(texts)} misread:\n" + "\n".join(failures[:25])


def _notes(u) -> set[str]:
    return {key for key, _values in u.notes}


# ---------------------------------------------------------------- 1. domestic-only policy

EN_DOMESTIC = ["domestic chips only", "we can only use domestic chips", "must be China-made accelerators",
               "our policy: domestic accelerators only", "no foreign chips allowed", "only chinese-made hardware",
               "home-grown accelerators only", "it has to run on domestic NPUs", "gpus made in China only",
               "no imported GPUs, company policy"]
ZH_DOMESTIC = ["国产化要求", "我们要求自主可控", "这是信创项目", "只用国产芯片", "只能用国产卡", "禁用进口卡",
               "不能用英伟达", "必须用国产的卡", "只能用国产的", "公司要求国产替代", "不允许用英伟达的卡", "只能上国产算力"]


def _domestic(u) -> None:
    assert u.updates.get("region") == "china", "region"
    assert u.updates.get("exclude") == NOT_DOMESTIC, "exclude"
    assert "note.domestic_only" in _notes(u), "note"


def test_domestic_policy_in_english_any_order():
    texts = _sentences(EN_DOMESTIC, EN_TASKS, zh=False)
    assert len(texts) >= 100
    _check(texts, _domestic)


def test_domestic_policy_in_chinese_any_order():
    texts = _sentences(ZH_DOMESTIC, ZH_TASKS, zh=True)
    assert len(texts) >= 90
    _check(texts, _domestic)


@pytest.mark.parametrize("text", ["不要用国产卡，部署qwen2.5 7b", "we don't want domestic chips, serve llama 3.1 8b",
                                  "not chinese chips please, serve qwen2.5 7b", "部署国产模型qwen2.5 7b"])
def test_refusing_domestic_chips_is_no_domestic_policy(text: str):
    u = understand(text)
    assert "note.domestic_only" not in _notes(u), u.updates
    assert not set(NOT_DOMESTIC) <= set(u.updates.get("exclude") or []), u.updates


ZH_NO_POLICY = ["不要求国产化", "没有信创要求", "不需要国产化", "无需自主可控", "不涉及信创", "不用国产卡也行",
                "不强制国产化", "没有国产化要求", "不受信创限制", "不属于信创项目"]
EN_NO_POLICY = ["no xinchuang requirement", "NOT under any xinchuang rules", "not subject to domestic-only rules", "no domestic-only rule here", "we are not bound by domestic-only rules"]


def test_a_policy_said_not_to_apply_restricts_nothing():
    """'不要求国产化，英伟达卡就行' allows NVIDIA: the policy words under a negation are no policy."""
    texts = _sentences(ZH_NO_POLICY, ZH_TASKS, zh=True) + _sentences(EN_NO_POLICY, EN_TASKS, zh=False)
    assert len(texts) >= 60

    def free(u) -> None:
        assert "note.domestic_only" not in _notes(u), "note"
        assert "nvidia" not in (u.updates.get("exclude") or []), "exclude"
    _check(texts, free)


# ---------------------------------------------------------------- 2. a choice limited to a vendor

EN_VENDOR = ["{v} only", "only {v}", "only {v} cards", "must be {v}", "we prefer {v}", "{v} cards only",
             "we only use {v} gpus", "it has to be {v}", "stick with {v} please", "{v}-only shop here",
             "ideally {v}", "just {v} gpus"]
EN_VENDOR_WORDS = {"nvidia": ["nvidia", "NVIDIA", "Nvidia", "nvida", "CUDA"], "amd": ["amd", "AMD", "Radeon"],
                   "huawei": ["Huawei", "Ascend"]}
ZH_VENDOR = ["只要{v}", "只用{v}的卡", "最好是{v}", "必须是{v}的卡", "只能用{v}", "优先用{v}"]
ZH_VENDOR_WORDS = {"nvidia": ["英伟达", "N卡", "nvidia", "NVIDIA"], "amd": ["AMD", "A卡"], "huawei": ["华为", "昇腾"]}


def _vendor_texts(templates, words, tasks, zh: bool) -> list[tuple[str, str]]:
    out = []
    for vendor, spellings in words.items():
        clauses = [t.format(v=w) for t in templates for w in spellings]
        out += [(vendor, text) for text in _sentences(clauses, tasks[:2], zh)]
    return out


@pytest.mark.parametrize("zh", [False, True], ids=["en", "zh"])
def test_vendor_limit_rules_out_every_other_vendor(zh: bool):
    pairs = _vendor_texts(ZH_VENDOR if zh else EN_VENDOR, ZH_VENDOR_WORDS if zh else EN_VENDOR_WORDS,
                          ZH_TASKS if zh else EN_TASKS, zh)
    assert len(pairs) >= 90
    failures = []
    for vendor, text in pairs:
        u = understand(text)
        want = sorted(set(VENDORS) - {vendor})
        if u.updates.get("exclude") != want:
            failures.append(f"{text!r}: exclude {u.updates.get('exclude')}, want {want}")
    assert not failures, f"{len(failures)} of {len(pairs)}:\n" + "\n".join(failures[:25])


def test_a_preference_is_said_to_be_taken_as_a_limit():
    for text in ("we prefer nvidia, serve llama 3.1 8b", "最好是N卡，部署qwen2.5 7b", "ideally AMD"):
        assert "note.vendor_preferred" in _notes(understand(text)), text
    for text in ("nvidia only, serve llama 3.1 8b", "只要英伟达"):
        assert "note.vendor_preferred" not in _notes(understand(text)), text


def test_two_vendors_joined_are_both_allowed():
    for text in ("only nvidia or amd", "nvidia or amd only", "只要英伟达或者AMD"):
        assert understand(text).updates.get("exclude") == sorted(set(VENDORS) - {"nvidia", "amd"}), text


@pytest.mark.parametrize("text", ["not just nvidia, serve llama 3.1 8b", "no nvidia please", "we use huawei cloud only"])
def test_a_vendor_not_limited_to(text: str):
    u = understand(text)
    assert len(u.updates.get("exclude") or []) <= 1, u.updates


# ---------------------------------------------------------------- 3. the only card one can get

EN_ONLY = ["the only card we can source is the {c}", "we can only get {c}s", "{c} is the only card we can buy",
           "we can only buy {c}s", "the only gpus we can get are {c}s", "we can only find {c}s here",
           "the {c} is all we can get"]
ZH_ONLY = ["只能买到{c}", "能买到的卡只有{c}", "我们只能采购到{c}", "只能租到{c}", "只买得到{c}"]
ONLY_CARDS = {"4090D": "rtx-4090d", "RTX 4090D": "rtx-4090d", "4090 D": "rtx-4090d", "L20": "l20", "H20": "h20",
              "A800": "a800-80gb-sxm"}


@pytest.mark.parametrize("zh", [False, True], ids=["en", "zh"])
def test_the_only_card_one_can_get_is_the_only_choice(zh: bool):
    pairs = []
    for name, gpu_id in ONLY_CARDS.items():
        clauses = [t.format(c=name) for t in (ZH_ONLY if zh else EN_ONLY)]
        pairs += [(gpu_id, text) for text in _sentences(clauses, (ZH_TASKS if zh else EN_TASKS)[:3], zh)]
    assert len(pairs) >= 150
    failures = []
    for gpu_id, text in pairs:
        u = understand(text)
        if u.updates.get("only") != [gpu_id] or u.updates.get("owned"):
            failures.append(f"{text!r}: only {u.updates.get('only')} owned {u.updates.get('owned')}, want {gpu_id}")
    assert not failures, f"{len(failures)} of {len(pairs)}:\n" + "\n".join(failures[:25])


def test_the_4090d_is_its_own_card_not_the_4090():
    g = find_gpu("4090D")
    assert g.id == "rtx-4090d" and g.memory_gb == 24 and g.memory_bandwidth_gbps == 1008
    assert g.bf16_tflops < find_gpu("rtx-4090").bf16_tflops and g.source and g.as_of


# ---------------------------------------------------------------- 4. owned cards in either order

EN_OWNED = ["we have {n} {c}s sitting in the lab", "{n} {c}s sitting idle in our lab", "we've got {n} {c}s",
            "there are {n} {c}s in our server room", "our lab has {n} {c}s", "I already own {n} {c}s",
            "{n} {c}s that we own"]
ZH_OWNED = ["机房里放着{n}张{c}", "实验室里有{n}张{c}", "{n}张{c}放在机房里", "公司有{n}块{c}", "我们手上有{n}张{c}",
            "{n}张{c}在实验室吃灰", "我们有{n}张{c}", "手头有{n}块{c}"]
OWNED_CARDS = {"L20": "l20", "A100": "a100-80gb-sxm", "3090": "rtx-3090", "4090": "rtx-4090", "H20": "h20",
               "A800": "a800-80gb-sxm"}


@pytest.mark.parametrize("zh", [False, True], ids=["en", "zh"])
def test_owned_cards_read_in_either_order(zh: bool):
    pairs = []
    numbers = ZH_NUMBERS if zh else EN_NUMBERS
    templates = ZH_OWNED if zh else EN_OWNED
    tasks = (ZH_TASKS if zh else EN_TASKS)[1:3]
    for (name, gpu_id), (n, spellings) in itertools.product(OWNED_CARDS.items(), numbers.items()):
        clauses = [t.format(n=s, c=name) for t in templates for s in spellings]
        pairs += [(f"{n}x {gpu_id}", text) for text in _sentences(clauses, tasks, zh)]
    assert len(pairs) >= 400
    failures = []
    for want, text in pairs:
        u = understand(text)
        if u.updates.get("owned") != [want] or u.updates.get("only"):
            failures.append(f"{text!r}: owned {u.updates.get('owned')} only {u.updates.get('only')}, want {want}")
    assert not failures, f"{len(failures)} of {len(pairs)}:\n" + "\n".join(failures[:25])


def test_glm_9b_is_read_with_the_owned_l20s_either_way():
    # GLM-4-9B is a catalog model now (it was sized as a generic 9B before)
    for text in ("机房里放着4张L20，想LoRA一下glm-4-9b", "想LoRA一下glm-4-9b，机房里放着4张L20"):
        u = understand(text)
        assert u.updates.get("owned") == ["4x l20"] and u.updates.get("model") == "glm-4-9b", (text, u.updates)
        assert u.updates.get("method") == "lora"


# ---------------------------------------------------------------- 5. servers are not GPUs

EN_SERVERS = ["we have {n} servers", "{n} nodes in our rack", "we run {n} machines", "our cluster is {n} nodes"]
ZH_SERVERS = ["我们有{n}台服务器", "{n}台服务器", "机房有{n}个节点"]


@pytest.mark.parametrize("zh", [False, True], ids=["en", "zh"])
def test_servers_without_cards_are_no_gpus(zh: bool):
    pairs = []
    numbers = ZH_NUMBERS if zh else EN_NUMBERS
    for n, spellings in numbers.items():
        clauses = [t.format(n=s) for t in (ZH_SERVERS if zh else EN_SERVERS) for s in spellings]
        pairs += [(n, text) for text in _sentences(clauses, ZH_TASKS if zh else EN_TASKS, zh)]
    assert len(pairs) >= 100
    failures = []
    for n, text in pairs:
        u = understand(text)
        said = [v for k, v in u.notes if k == "note.servers_without_cards"]
        gpus_read = u.updates.get("owned") or u.updates.get("only") or u.whatif_gpus or u.compare_gpus
        if gpus_read or said != [{"servers": str(n)}] or u.updates.get("users") == n:
            failures.append(f"{text!r}: {u.updates} notes={u.notes} whatif={u.whatif_gpus}")
    assert not failures, f"{len(failures)} of {len(pairs)}:\n" + "\n".join(failures[:25])


EN_SERVER_CARDS = ["we have {n} servers with 8 {c} each", "we have {n} nodes of 8x {c}", "we own {n} {c} servers",
                   "we have {n} servers, each with 8 {c}s", "we have {n} {c} nodes"]
ZH_SERVER_CARDS = ["我们有{n}台8卡{c}", "我们有{n}台服务器，每台8张{c}", "我们有{n}台{c}服务器", "公司有{n}台8卡{c}服务器"]
BOARDS = {"H100": "h100-sxm", "A800": "a800-80gb-sxm", "H20": "h20", "A100": "a100-80gb-sxm"}


@pytest.mark.parametrize("zh", [False, True], ids=["en", "zh"])
def test_servers_of_cards_count_the_cards_in_them(zh: bool):
    pairs = []
    numbers = ZH_NUMBERS if zh else EN_NUMBERS
    for (name, gpu_id), (n, spellings) in itertools.product(BOARDS.items(), numbers.items()):
        clauses = [t.format(n=s, c=name) for t in (ZH_SERVER_CARDS if zh else EN_SERVER_CARDS) for s in spellings]
        pairs += [(f"{8 * n}x {gpu_id}", text) for text in _sentences(clauses, (ZH_TASKS if zh else EN_TASKS)[:1], zh)]
    assert len(pairs) >= 200
    failures = []
    for want, text in pairs:
        u = understand(text)
        if u.updates.get("owned") != [want]:
            failures.append(f"{text!r}: owned {u.updates.get('owned')}, want {want}")
    assert not failures, f"{len(failures)} of {len(pairs)}:\n" + "\n".join(failures[:25])


def test_servers_whose_count_of_cards_is_assumed_say_so():
    u = understand("we have two H100 servers, serve llama 3.3 70b to 200 users")
    assert u.updates["owned"] == ["16x h100-sxm"]
    assert ("note.servers_boards", {"servers": "2", "gpu": find_gpu("h100-sxm").name, "per": "8", "total": "16"}) in u.notes
    u = understand("我们有两台4090服务器，部署qwen2.5 72b")
    assert u.updates["owned"] == ["16x rtx-4090"] and "note.servers_full" in _notes(u)


# ---------------------------------------------------------------- 6. cards outside the catalog

# Modified cards the catalog does not hold: sized with the stated memory (the 48 GB RTX 4090 and 4090 D are
# catalog cards: test_a_modified_card_the_catalog_holds_is_that_card)
MODDED = {"2080 Ti modded to 22 GB": ("rtx-2080-ti", 22), "2080ti 22g魔改": ("rtx-2080-ti", 22),
          "RTX 2080 Ti 22GB": ("rtx-2080-ti", 22), "3090 48g": ("rtx-3090", 48), "3090 48G魔改版": ("rtx-3090", 48),
          "魔改3090 48G": ("rtx-3090", 48), "3090 48gb modded": ("rtx-3090", 48), "3090s modded to 48 GB": ("rtx-3090", 48)}
MODDED_IN_CATALOG = {"4090 48G魔改版": "rtx-4090-48gb", "魔改4090 48G": "rtx-4090-48gb", "4090 48gb modded": "rtx-4090-48gb",
                     "4090s modded to 48 GB": "rtx-4090-48gb", "RTX 4090 48GB": "rtx-4090-48gb",
                     "4090D 48G魔改": "rtx-4090d-48gb", "RTX 4090 D 48GB": "rtx-4090d-48gb"}


@pytest.mark.parametrize("zh", [False, True], ids=["en", "zh"])
def test_a_card_with_memory_it_is_not_sold_with_is_sized_as_said(zh: bool):
    owned_words = ["我们有{n}张{c}", "手上有{n}块{c}"] if zh else ["we have {n} {c}", "I own {n} {c}"]
    numbers = ZH_NUMBERS if zh else EN_NUMBERS
    texts = []
    for card, (gpu_id, memory) in MODDED.items():
        for (n, spellings), template in itertools.product(numbers.items(), owned_words):
            clauses = [template.format(n=s, c=card) for s in spellings]
            texts += [(n, gpu_id, memory, t) for t in _sentences(clauses, (ZH_TASKS if zh else EN_TASKS)[1:2], zh)]
    assert len(texts) >= 150
    failures = []
    for n, gpu_id, memory, text in texts:
        u = understand(text)
        owned = u.updates.get("owned") or []
        ok = len(owned) == 1 and owned[0].startswith(f"{n}x custom:")
        if ok:
            card = find_gpu(owned[0].split(" ", 1)[1])
            stock = find_gpu(gpu_id)
            ok = card.memory_gb == memory and card.memory_bandwidth_gbps == stock.memory_bandwidth_gbps
        notes = [v for k, v in u.notes if k == "note.card_memory_as_stated"]
        if not ok or notes != [{"card": find_gpu(gpu_id).name, "stock": f"{find_gpu(gpu_id).memory_gb:g}",
                                "memory": f"{memory:g}"}]:
            failures.append(f"{text!r}: owned {owned} notes {u.notes}")
    assert not failures, f"{len(failures)} of {len(texts)}:\n" + "\n".join(failures[:25])


@pytest.mark.parametrize("zh", [False, True], ids=["en", "zh"])
def test_a_modified_card_the_catalog_holds_is_that_card(zh: bool):
    owned_words = ["我们有{n}张{c}", "手上有{n}块{c}"] if zh else ["we have {n} {c}", "I own {n} {c}"]
    numbers = ZH_NUMBERS if zh else EN_NUMBERS
    failures = []
    for card, gpu_id in MODDED_IN_CATALOG.items():
        for (n, spellings), template in itertools.product(numbers.items(), owned_words):
            for text in _sentences([template.format(n=s, c=card) for s in spellings], (ZH_TASKS if zh else EN_TASKS)[1:2], zh):
                u = understand(text)
                if u.updates.get("owned") != [f"{n}x {gpu_id}"] or "note.card_memory_as_stated" in _notes(u):
                    failures.append(f"{text!r}: owned {u.updates.get('owned')} notes {u.notes}")
    assert not failures, f"{len(failures)}:\n" + "\n".join(failures[:25])


def test_a_memory_the_catalog_has_is_that_card():
    assert understand("we have 2 a100 40g").updates["owned"] == ["2x a100-40gb-sxm"]
    assert understand("we have a 4090 24gb").updates["owned"] == ["1x rtx-4090"]
    assert understand("I have a 4090 with 64gb of system ram").updates["owned"] == ["1x rtx-4090"]


# Laptop chips the catalog does not hold (the RTX 4060/4070/4080/4090 and 5090 Laptop GPUs it does hold are read
# as those cards: tests/test_cards_2026.py)
LAPTOPS = ["RTX 3080 Ti laptop 16GB", "3080 Ti laptop", "3070 laptop GPU", "laptop 3080", "my laptop with a 4070 Ti",
           "笔记本3080", "3080 移动版", "RTX 4060 Ti mobile"]
UNKNOWN = ["GTX 980 Ti", "Tesla K80", "3060 Ti", "Titan RTX", "Radeon Pro W7800", "Tesla M40",  # 4080 Super, 4070 Ti Super: in the catalog now
           # (the GTX 1080 Ti, Tesla P100 and P40 are in the catalog now: tests/test_pascal_cards_and_autocomplete.py)
           "MI250", "rtx 2060"]  # the RX 7900 XT is in the catalog now (tests/test_named_cards_and_vision.py)  # V100 and the RTX 4060 are in the catalog now (tests/test_cards_catalog_gaps.py)
# (the RTX A5000 is in the catalog now: tests/test_owned_common_cards.py)


@pytest.mark.parametrize("zh", [False, True], ids=["en", "zh"])
def test_cards_outside_the_catalog_are_reported_never_swapped(zh: bool):
    owned_words = ["我有一张{c}", "用{c}"] if zh else ["I have a {c}", "on my {c}", "{c} here"]
    texts = []
    for card in LAPTOPS + UNKNOWN:
        clauses = [t.format(c=card) for t in owned_words]
        texts += [(card, t) for t in _sentences(clauses, (ZH_TASKS if zh else EN_TASKS)[:3], zh)]
    assert len(texts) >= 150
    failures = []
    for card, text in texts:
        u = understand(text)
        read = u.updates.get("owned") or u.updates.get("only") or u.whatif_gpus or u.compare_gpus
        notes = _notes(u) & {"note.card_laptop", "note.card_unknown"}
        if read or len(notes) != 1 or ("note.card_laptop" in notes) != (card in LAPTOPS):
            failures.append(f"{text!r}: {u.updates} compare={u.compare_gpus} whatif={u.whatif_gpus} notes={u.notes}")
    assert not failures, f"{len(failures)} of {len(texts)}:\n" + "\n".join(failures[:25])


def test_a_laptop_card_is_named_as_typed():
    u = understand("I have an RTX 3080 Ti laptop 16GB, can I run qwen2.5 7b?")
    assert ("note.card_laptop", {"name": "RTX 3080 Ti laptop", "card": find_gpu("rtx-3080-ti").name}) in u.notes
    assert "owned" not in u.updates


@pytest.mark.parametrize("said", ["of ours", "of mine", "in our lab", "in our server room", "at my office", "in our rack"])
@pytest.mark.parametrize(("cards", "owned"), [("two 8x A100 nodes", "16x a100-80gb-sxm"), ("4 L40S", "4x l40s"),
                                              ("2 RTX 4090s", "2x rtx-4090")])
def test_ownership_said_after_the_cards_keeps_them(said, cards, owned):
    for text in (f"{cards} {said}, serve llama 3.3 70b", f"serve llama 3.3 70b on the {cards} {said}"):
        assert understand(text).updates.get("owned") == [owned], text


@pytest.mark.parametrize("memory", ["64G", "64g", "64GB", "64 gb", "64G的"])
@pytest.mark.parametrize("frame", ["我有一台M2 Max {m} macbook，想跑gpt-oss-20b", "i have an m2 max {m} macbook, run gpt-oss-20b"])
def test_a_mac_named_with_its_memory_in_any_spelling_is_that_mac(memory, frame):
    assert understand(frame.format(m=memory)).updates.get("owned") == ["1x apple-m2-max-38c-64gb"]


@pytest.mark.parametrize("mine", ["我的", "我们的", "我自己的", "我手上的", "咱们的"])
@pytest.mark.parametrize(("cards", "owned"), [("4090", "1x rtx-4090"), ("两张A100", "2x a100-80gb-sxm"), ("3090", "1x rtx-3090")])
def test_chinese_my_cards_are_owned(mine, cards, owned):
    for text in (f"{mine}{cards}能跑qwen2.5-14b吗", f"用{mine}{cards}部署qwen2.5-14b", f"qwen2.5-14b，在{mine}{cards}上跑"):
        assert understand(text).updates.get("owned") == [owned], text


@pytest.mark.parametrize("form", ["换成{c}呢", "换成{c}", "改用{c}呢", "换用{c}吧", "switch to {c}", "swap to {c}?", "change to {c}"])
@pytest.mark.parametrize(("card", "gpu_id"), [("H20", "h20"), ("L40S", "l40s"), ("910B", "ascend-910b")])
def test_switching_to_a_card_plans_on_it(form, card, gpu_id):
    """'换成H20呢' after a plan is a new plan on that card, not a why-not comparison at the old count."""
    u = understand(form.format(c=card))
    assert u.updates.get("only") == [gpu_id] and "why_not" not in u.intents


@pytest.mark.parametrize(("text", "added"), [
    ("what if i add a second 4090", {"rtx-4090": 1}), ("add 2 more A100s", {"a100-80gb-sxm": 2}),
    ("and if we buy another L40S?", {"l40s": 1}), ("再加两张4090呢", {"rtx-4090": 2}), ("我再买一张3090", {"rtx-3090": 1}),
    ("plus one more 3090", {"rtx-3090": 1})])
def test_more_of_a_card_is_added_to_the_ones_you_have(text, added):
    u = understand(text)
    assert u.added_cards == added and "only" not in u.updates and "owned" not in u.updates


@pytest.mark.parametrize(("text", "slot", "factor"), [
    ("数据量翻一倍", "train_tokens", 2.0), ("double the data", "train_tokens", 2.0),
    ("twice as many training examples", "train_tokens", 2.0), ("用户翻倍", "users", 2.0)])
def test_relative_changes_scale_what_was_said(text, slot, factor):
    assert understand(text).scale == {slot: factor}


@pytest.mark.parametrize(("text", "card"), [("serve deepseek v3 to 400 concurrent users. h200 nodes, how many", "h200"),
                                            ("部署qwen2.5-72b，H20服务器要几台", "h20"), ("llama 3.3 70b for 300 users, L40S servers, how many?", "l40s")])
def test_a_card_asked_how_many_of_is_the_card_planned_on(text, card):
    assert understand(text).updates.get("only") == [card]


@pytest.mark.parametrize("text", ["我想在自己的3090上微调一个glm4 9b", "用自己的3090跑qwen2.5-14b"])
def test_ones_own_card_said_without_a_pronoun_is_owned(text):
    assert understand(text).updates.get("owned") == ["1x rtx-3090"]


ON_PREM_EN = ["on prem only", "on-prem", "on premise", "on-premises only", "no public cloud", "no cloud, on prem",
              "regulators say no public cloud", "we can't use the cloud", "air-gapped"]
ON_PREM_ZH = ["数据不能出院", "数据不能出机房", "数据不出公司", "私有化部署", "不能上云", "数据不允许离开医院", "数据不能上公有云"]


def test_data_that_must_stay_on_premises_means_owning_the_hardware():
    """'no public cloud', 'on prem only', '数据不能出院': renting a cloud is ruled out, so the plan buys."""
    texts = _sentences(ON_PREM_ZH, ZH_TASKS, zh=True) + _sentences(ON_PREM_EN, EN_TASKS, zh=False)
    assert len(texts) >= 100

    def bought(u) -> None:
        assert u.updates.get("preference") == "buy", "preference"
    _check(texts, bought)
