"""Expert review, third round: an example's length said without "tokens" after a count of examples, the time
left in Chinese ("还剩十天"), a daily window of clock hours (Chinese and 24-hour clocks) that shortens a
training deadline, a day's request volume spread over the hours it arrives in, and "over the weekend" as a
deadline, not a share of the week. Generated from counts, lengths, fillers, orders and both languages."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge import rules

# ---------------------------------------------------------------- 1. an example's length after their count

COUNTS = [("500k samples", 500_000), ("20k chat examples", 20_000), ("数据五十万条", 500_000), ("2万条数据", 20_000),
          ("45,000 examples", 45_000)]
LENGTHS = [("each about {n}", "en"), ("avg maybe {n} tokens", "en"), ("(avg maybe {n} tokens)", "en"),
           ("averaging {n} tokens", "en"), ("平均长度{n}左右", "zh"), ("每条大概{n}", "zh"), ("平均每条{n}", "zh")]
SIZES = [("800", 800), ("2k", 2000), ("1500", 1500), ("3k", 3000)]


@pytest.mark.parametrize(("count", "length", "size"), list(itertools.product(COUNTS, LENGTHS, SIZES)))
def test_a_length_after_a_count_of_examples_is_each_ones(count, length, size):
    (count_said, n), (length_said, _lang), (size_said, each) = count, length, size
    u = understand(f"lora qwen2.5 7b, {count_said}, {length_said.format(n=size_said)}, 2 epochs")
    assert u.updates["train_tokens"] == n * each
    assert u.updates["seq_len"] == each  # the sequence fits one example, not the 2,048 default
    assert "context" not in u.updates
    assert not [key for key, _ in u.notes if key == "note.example_tokens"]  # nothing guessed


@pytest.mark.parametrize("said", ["buy 2 3090s, each about 700 dollars", "两张3090，每张大概5000元",
                                  "8 gpus each about 80gb"])
def test_each_after_cards_is_not_an_example_length(said):
    u = understand(said)
    assert "train_tokens" not in u.updates and "seq_len" not in u.updates


# ---------------------------------------------------------------- 2. the time left, said the Chinese way

@pytest.mark.parametrize(("left", "hours"), [
    (f"{lead}{filler}{amount}", hours)
    for lead, filler, (amount, hours) in itertools.product(
        ["还剩", "只剩", "就剩", "仅剩", "剩下"], ["", "大概", "大约"],
        [("十天", 240), ("10天", 240), ("一周", 168), ("两周", 336), ("3天", 72)])])
def test_the_time_left_is_the_deadline(left, hours):
    u = understand(f"qlora qwen2.5 14b，两万条数据，{left}")
    assert u.updates["deadline_hours"] == hours


@pytest.mark.parametrize("said", ["needs to be done in under a week", "in less than a week", "within one week",
                                  "no more than a week", "inside a week"])
def test_under_a_week_is_a_deadline(said):
    assert understand(f"full finetune llama 3.1 8b on 2B tokens, {said}").updates["deadline_hours"] == 168


# ---------------------------------------------------------------- 3. a daily window of clock hours

WINDOWS = [("只能晚上8点到早上8点用", 0.5), ("晚上8点至早上8点才能用", 0.5), ("9点到18点", 0.375),
           ("from 8pm to 8am only", 0.5), ("20:00 to 8:00", 0.5), ("between 9am and 5pm", 1 / 3),
           ("白天9点到晚上6点", 0.375)]


@pytest.mark.parametrize(("window", "share"), WINDOWS)
def test_a_clock_window_is_the_share_of_the_day(window, share):
    assert understand(f"serve llama 3.1 8b to 20 users, {window}").updates["utilisation"] == pytest.approx(share, abs=1e-3)


@pytest.mark.parametrize(("window", "share"), WINDOWS)
@pytest.mark.parametrize(("deadline", "hours"), [("还剩十天", 240), ("10 days left", 240), ("within a week", 168)])
def test_a_window_shortens_a_training_deadline(window, share, deadline, hours):
    from gpu_advisor.assistant import engine

    u = understand(f"实验室8卡A800，glm-4-9b全参微调，五十万条，{deadline}，{window}")
    turn = engine.Turn()
    updates = engine._checked_updates(u, "zh", turn, "", "fine-tune")
    assert updates["deadline_hours"] == pytest.approx(round(hours * share, 1))
    assert any(f"{hours:,}" in note for note in turn.notes)  # the whole time left is said beside the hours in it


def test_a_window_leaves_a_services_go_live_alone():
    u = understand("serve llama 3.1 8b to 20 users from 8pm to 8am, live within a week")
    assert u.updates["utilisation"] == 0.5


@pytest.mark.parametrize("said", ["over the weekend", "during the weekend", "by this weekend", "over this weekend"])
def test_the_weekend_as_a_deadline_is_no_share_of_the_week(said):
    u = understand(f"qlora gpt-oss-20b on my 4090 with unsloth, 5000 examples, {said}")
    assert "utilisation" not in u.updates and u.updates["deadline_hours"] in (60, 72)


def test_weekends_as_a_schedule_are_a_share_of_the_week():
    assert understand("serve llama 3.1 8b for 10 users on weekends only").updates["utilisation"] == 0.29


# ---------------------------------------------------------------- 4. a day's request volume

VOLUMES = [("每天调用30万次", 300_000), ("日调用量30万次", None), ("300k requests a day", 300_000),
           ("about 300k api calls per day", 300_000), ("daily requests ~300k", 300_000)]


@pytest.mark.parametrize(("volume", "n"), [v for v in VOLUMES if v[1]])
@pytest.mark.parametrize(("window", "hours"), [("", 24), ("，都在9点到18点", 9), (", all between 9am and 5pm", 8),
                                               (", 8pm to 8am", 12)])
def test_a_daily_volume_is_spread_over_the_hours_it_arrives_in(volume, n, window, hours):
    u = understand(f"{volume} 每次输入1500 输出200{window}，qwen3-30b-a3b")
    peak = rules().daily_requests_peak_factor if hours == 24 else 1  # round the clock: its busiest hour (reading.load)
    assert u.updates["requests_per_s"] == pytest.approx(n * peak / (hours * 3600), rel=1e-4)
    assert u.updates["utilisation"] == pytest.approx(hours / 24, abs=1e-3)
    key = "load.note_volume_peak_day" if hours == 24 else "note.rate_spread_window"
    assert [k for k, _ in u.notes if k.startswith(("note.rate_spread", "load.note_volume"))] == [key]


# ---------------------------------------------------------------- 5. a request rate is an organisation's service

@pytest.mark.parametrize("region", ["china", "global"])
@pytest.mark.parametrize("rps", [1.0, 3.47, 20.0])
def test_traffic_by_the_second_is_not_put_on_rented_consumer_cards(region, rps):
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.recommend import Workload, recommend

    rec = recommend(Workload(phase="serve", model="qwen3-30b-a3b", requests_per_s=rps, prompt_tokens=1500,
                             output_tokens=200, region=region))
    assert rec.best is not None and find_gpu(rec.best.gpu).segment != "consumer"


# ---------------------------------------------------------------- 6. at once said inside an organisation

@pytest.mark.parametrize(("org", "count", "at_once"), list(itertools.product(
    ["全公司", "全院", "company-wide, ", "for the whole company, "],
    [("五十", 50), ("50", 50), ("两百", 200)],
    ["人同时用", "人同时在线", " users at once", " people at the same time"])))
def test_people_at_once_stay_at_once_in_a_whole_organisation(org, count, at_once):
    said, n = count
    u = understand(f"部署qwen2.5-32b，{org}大概{said}{at_once}")
    assert u.updates.get("users") == n and "population" not in u.updates


@pytest.mark.parametrize("today", ["今天12月4号", "今天是3月15日", "现在是11月2号"])
@pytest.mark.parametrize("order", ["{job} 月底前要出结果 {today}", "{today} {job} 月底前要出结果"])
def test_a_calendar_date_is_no_deadline_and_no_months(today, order):
    u = understand(order.format(job="全参微调glm-4-9b 三十万条 1500 token", today=today))
    assert u.updates["deadline_hours"] == 730  # the end of the month, however the date is placed


# ---------------------------------------------------------------- 7. a batch job's daily window

@pytest.mark.parametrize(("window", "share"), [("但是每天只有晚上10点到早上8点能用机器", 10 / 24),
                                               ("only from 8pm to 6am each night", 10 / 24), ("9点到18点能用", 9 / 24)])
def test_a_batch_jobs_window_shortens_its_deadline(window, share):
    from gpu_advisor.assistant import engine

    u = understand(f"用glm-4-9b给两千万条商品评论打标签 每条输入300 输出20 三天内跑完 {window}")
    assert u.updates["batch_input_tokens"] == 300 and u.updates["batch_output_tokens"] == 20
    turn = engine.Turn()
    updates = engine._checked_updates(u, "zh", turn, "", "batch")
    assert updates["deadline_hours"] == pytest.approx(round(72 * share, 1))


@pytest.mark.parametrize("said", ["over the weekend", "by monday"])
def test_a_batch_job_without_a_window_keeps_its_deadline(said):
    u = understand(f"label 2M reviews with llama 3.1 8b, 300 tokens in 5 out, {said}")
    assert "utilisation" not in u.updates
