"""A batch job read as the user stated it (review CH #3, #9), in either language and several spellings and orders:
each item's pages are its length in tokens (600 a page, said with the 500-700 range), not the 1,000-token default;
a count of books or files by its counter ('三千本', '3000个合同') is the job's items, never asked again; a summary of
'两千字' is what each item writes (1,429 tokens), not a context; 'its thursday ... by monday morning' counts from late
Thursday (21:00, the time now not said) to Monday 09:00: 84 h, not 96."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.assistant.reading.text import INSTRUCTION_TOKENS, vocab

PAGE = vocab()["page_tokens"]["each"]  # 600
EACH_25 = 25 * PAGE + INSTRUCTION_TOKENS  # 15,100 tokens read per item: its 25 pages and the task's instructions

EN_COUNTS = {"40k": 40_000, "40,000": 40_000, "about 40k": 40_000}
EN_ITEMS = ["pdfs", "documents", "docs", "contracts", "reports"]
EN_PAGES = ["avg twenty five pages each", "25 pages each", "about 25 pages per document", "averaging 25 pages",
            "each ~25 pages", "25 pages on average", "each with 25 pages"]
EN_TASKS = ["need to extract json fields from them with qwen2.5 32b instruct",
            "extract fields with llama 3.1 8b, output maybe 500 tokens per doc"]


@pytest.mark.parametrize(("count", "item"), list(itertools.product(EN_COUNTS, EN_ITEMS)))
def test_pages_of_each_item_are_its_tokens_en(count: str, item: str) -> None:
    for pages, task in itertools.product(EN_PAGES, EN_TASKS):
        for text in (f"got {count} {item}, {pages}, {task}", f"{task}: {count} {item}, {pages}"):
            u = understand(text)
            assert u.updates.get("batch_items") == EN_COUNTS[count], text
            assert u.updates.get("batch_input_tokens") == EACH_25, text
            said = [v for k, v in u.notes if k == "note.pages_as_tokens"]
            assert said and said[0]["tokens"] == "15,000" and (said[0]["low"], said[0]["high"]) == ("500", "700"), text


@pytest.mark.parametrize("item", ["pdfs", "documents", "contracts"])
def test_pages_said_before_the_noun_are_each_items_length(item: str) -> None:
    u = understand(f"40k 25-page {item} to extract json fields from with qwen2.5 32b")
    assert (u.updates.get("batch_items"), u.updates.get("batch_input_tokens")) == (40_000, EACH_25)


ZH_COUNTS = {"4万": 40_000, "四万": 40_000, "40000": 40_000}
ZH_ITEMS = ["份pdf", "个pdf", "份合同", "个文件", "篇论文"]
ZH_PAGES = ["平均每份25页", "每个大概二十五页", "平均25页左右", "每份25页", "每篇二十五页上下"]


@pytest.mark.parametrize(("count", "item"), list(itertools.product(ZH_COUNTS, ZH_ITEMS)))
def test_pages_of_each_item_are_its_tokens_zh(count: str, item: str) -> None:
    for pages in ZH_PAGES:
        for text in (f"手上有{count}{item}，{pages}，要抽取json字段", f"要用qwen2.5-32b抽取json字段，{count}{item}，{pages}"):
            u = understand(text)
            assert u.updates.get("batch_items") == ZH_COUNTS[count], text
            assert u.updates.get("batch_input_tokens") == EACH_25, text
            assert any(k == "note.pages_as_tokens" and v["said"] == "25 页" for k, v in u.notes), text


@pytest.mark.parametrize("text", [
    "40k docs, about 12k tokens each, 25 pages each, extract json with qwen 32b",
    "40k docs, 25 pages each (about 12k tokens each), extract json with qwen 32b",
])
def test_tokens_said_beat_the_pages(text: str) -> None:
    assert understand(text).updates.get("batch_input_tokens") == 12_000


@pytest.mark.parametrize(("text", "items"), [
    ("summarise 1 million pages by friday", 1_000_000),
    ("we process 10k pages per day with qwen 7b", 10_000),
    ("a total of 200000 pages to summarise", 200_000),
])
def test_pages_counted_as_the_job_stay_its_items(text: str, items: int) -> None:
    u = understand(text)
    assert u.updates.get("batch_items") == items
    assert "batch_input_tokens" not in u.updates
    assert not any(k == "note.pages_as_tokens" for k, _v in u.notes)


ZH_BOOKS = ["三千本网络小说", "3000本书", "三千部小说", "3000份合同", "3000个文件", "3000个合同", "3000篇论文"]
ZH_JOBS = ["要做摘要，用qwen2.5-72b-instruct", "要用qwen2.5-72b-instruct做摘要，两周内跑完"]


@pytest.mark.parametrize(("books", "job"), list(itertools.product(ZH_BOOKS, ZH_JOBS)))
def test_a_count_by_its_counter_is_the_items(books: str, job: str) -> None:
    for text in (f"有{books}{job}", f"{job}，一共{books}"):
        assert understand(text).updates.get("batch_items") == 3000, text


@pytest.mark.parametrize("text", ["3000 novels to summarise with qwen2.5 72b", "summarise 3000 books with qwen2.5 72b",
                                  "3000 files to summarise with qwen2.5 72b", "3000 contracts to summarise"])
def test_a_count_of_books_or_files_is_the_items_en(text: str) -> None:
    assert understand(text).updates.get("batch_items") == 3000


def test_counter_ben_is_no_count_in_other_words() -> None:
    assert "batch_items" not in understand("本地跑qwen2.5-7b，3个人用").updates


OUT_ZH = ["每本出两千字左右的摘要", "摘要两千字左右", "生成2000字的摘要", "每本输出2000字", "每本写两千字的总结"]
IN_ZH = ["每本平均五十万字", "每本50万字"]


@pytest.mark.parametrize(("said_in", "said_out"), list(itertools.product(IN_ZH, OUT_ZH)))
def test_a_summary_in_characters_is_each_items_output(said_in: str, said_out: str) -> None:
    for text in (f"有三千本网络小说要做摘要，{said_in}，{said_out}，用qwen2.5-72b-instruct",
                 f"用qwen2.5-72b-instruct给3000本小说做摘要，{said_out}，{said_in}"):
        u = understand(text)
        assert u.updates.get("batch_items") == 3000, text
        assert u.updates.get("batch_output_tokens") == 1429, text  # 2,000 字 at 1.4 a token
        assert u.updates.get("batch_input_tokens") == 357_143 + INSTRUCTION_TOKENS, text
        assert "context" not in u.updates, text


@pytest.mark.parametrize("said_out", ["a 2000-character summary per book", "2,000-character summaries",
                                      "summaries of about 2000 chinese characters"])
def test_a_summary_in_characters_is_each_items_output_en(said_out: str) -> None:
    u = understand(f"3000 web novels, each about 500k chinese characters, {said_out}, qwen2.5-72b-instruct")
    assert (u.updates.get("batch_items"), u.updates.get("batch_output_tokens")) == (3000, 1429)


NOW = ["its thursday", "it's thursday", "today is thursday", "今天周四", "现在是周四"]
DUE = ["it has to be done by monday morning", "due monday 9am", "周一早上之前要跑完", "周一上午9点前要交"]


@pytest.mark.parametrize(("now", "due"), list(itertools.product(NOW, DUE)))
def test_thursday_to_monday_morning_is_84_hours(now: str, due: str) -> None:
    for text in (f"40k docs to summarise with qwen2.5 32b. {now} and {due}", f"{now}，{due}，4万份文档要做摘要"):
        u = understand(text)
        assert u.updates.get("deadline_hours") == 84.0, text
        note = [v for k, v in u.notes if k.startswith("deadline.window_now")]
        assert note and note[0]["hours"] == "84" and "21:00" in note[0]["start"], text


@pytest.mark.parametrize(("text", "hours"), [
    ("its friday and it has to be done by monday morning, 40k docs", 60.0),  # Friday 21:00 to Monday 09:00
    ("its thursday 3pm, need 40k docs done by monday morning", 90.0),  # the time said counts
    ("its friday 5pm, deadline is monday morning, 40k docs", 64.0),
])
def test_the_time_now_said_counts_else_late_in_the_day(text: str, hours: float) -> None:
    assert understand(text).updates.get("deadline_hours") == hours
