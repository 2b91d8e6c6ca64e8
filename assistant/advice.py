"""Compute an answer with the sizing tools: a typed result that the writers turn into text.

Every number an answer shows is read from a tool result kept here (and in the message's structured
payload); none is typed into a template.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from pydantic import BaseModel

from gpu_advisor.assistant.policy import Profile
from gpu_advisor.assistant.slots import SLOTS
from gpu_advisor.tools.as_plan import laid_out_like
from gpu_advisor.tools.fit import FitResult
from gpu_advisor.tools.rate_short import RateShort, rate_short
from gpu_advisor.tools.recommend import (
    Option,
    Recommendation,
    Workload,
    evaluate,
    one_machine,
    recommend,
    scaled_option,
    training_setup,
)
from gpu_advisor.tools.slow_chat import flag_slow_chat

Recorder = Callable[[str, dict[str, Any], dict[str, Any], float], None]


class Answer(BaseModel):
    """Everything one answer shows: the recommendation, the options asked about, the breakdowns."""

    inputs: dict[str, Any]
    recommend: Recommendation
    options: list[Option] = []  # cards the user asked about ("compare", "what about 2 x L40S")
    serving_memory: dict[str, Any] | None = None
    training_memory: dict[str, Any] | None = None
    one_card: FitResult | None = None
    reused: bool = False
    pair: dict[str, Any] | None = None  # a second job on the plan's cards (tools.pair, assistant.pairing)
    asked: str | None = None  # the one card the user asked about ('910B行不行'): the headline answers for it
    choice: list[str] = []  # cards offered as a choice for a batch job ('租 4090 还是 A100'): the plan on the cheaper
    short: RateShort | None = None  # a rate plan's "why not just 1 H100?": what that count fails (tools.rate_short)
    per_token: list[dict[str, Any]] | None = None  # "cheapest per token": each option's $ per million tokens, ranked
    api_compare: dict[str, Any] | None = None  # self-hosting against an API's price per million (assistant.api_compare)
    named: list[list[Any]] = []  # the cards the user named as candidates ([count or 0, gpu id]): kept for later turns
    counts: dict[str, int] = {}  # the counts said with the cards of a choice ('2 used 3090s vs one 4090'): kept with it
    models: list[str] = []  # the models named for the cards of a choice bought for home: kept with it
    moved: list[dict[str, Any]] | None = None  # what a follow-up moved, from the plan before's inputs (assistant.moved)
    card_moved: dict[str, Any] | None = None  # the pick moved to another card or count, and why (assistant.card_moved)
    direct: dict[str, Any] | None = None  # a follow-up's one setup answered first, with its tools' figures (assistant.direct)
    beyond: list[str] = []  # the cards weighed before a phase change, none doing the new job well (assistant.phase_moved)


NATIVE = "native"  # the precision slot's value for "the checkpoint's own weights"


def workload_for(profile: Profile, defaulted: list[str] | None = None) -> Workload:
    """The tools' view of a filled profile: every slot the tools read, by the same name; the slots
    the user did not state are flexible (cards you own may change them to do the job)."""
    data = profile.model_dump()
    fields = {name: data[name] for name in Workload.model_fields if data.get(name) is not None}
    native = data.get("precision") == NATIVE  # "满血版": the checkpoint's own format, stated (never relaxed)
    fields["serve_precision"] = None if native else data.get("precision")
    # slots the table does not fill for this job (utilisation with owned cards) take the table's default
    unstated = [name for name in ("phase", "model", "utilisation") if name not in fields]
    for name in unstated:
        fields[name] = SLOTS[name].default_for(data) if name == "utilisation" else SLOTS[name].default
    fields["owned"] = data.get("owned") or []
    fields["exclude"] = data.get("exclude") or []
    if data.get("only"):
        fields["candidates"] = data["only"]
    fields["flexible"] = sorted({*(defaulted or []), *unstated, *([] if data.get("precision") else ["precision"])})
    if data.get("requests_per_s") and data.get("context") is None:
        fields["flexible"] = sorted({*fields["flexible"], "context"})  # each request holds its prompt and output
    if native and "precision" in fields["flexible"]:
        fields["flexible"].remove("precision")
    w = Workload(**fields)
    if w.budget_per == "hour" and w.budget_usd_per_month:  # '$3/hr' for the hours it is billed, not every hour
        from gpu_advisor.tools.cost import HOURS_PER_MONTH
        from gpu_advisor.tools.recommend import service_hours

        w = w.model_copy(update={"budget_usd_per_month": round(w.budget_usd_per_month / HOURS_PER_MONTH
                                                                * service_hours(w), 2)})
    return w


def _key(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, default=str)


def _call(recorder: Recorder | None, tool: str, arguments: dict[str, Any], fn: Callable[[], Any]) -> Any:
    """Run one tool call; tell the recorder (the history store) what ran, with what, for how long."""
    start = time.perf_counter()
    result = fn()
    if recorder is not None:
        data = result.model_dump(mode="json") if hasattr(result, "model_dump") else result
        recorder(tool, arguments, data, (time.perf_counter() - start) * 1000)
    return result


def _on_the_card_asked(w: Any, rec: Recommendation, asked: str | None, whatif: tuple[int, str] | None,
                       recorder: Recorder | None) -> Recommendation:
    """'Does the 910B work?', 'how many A100s?': when the card asked about does the job, the plan is on it (the
    fewest of it that meet every requirement), the other cards alternatives in its table; when it does not, the
    plan stays the best card and the asked one is a row that says why not."""
    best = rec.best
    if asked is None or whatif or (best is not None and (best.owned or best.gpu == asked)) or w.owned or (
            w.candidates and asked not in w.candidates and not w.domestic_only):
        return rec  # (nothing meeting every requirement, the card asked about may: '4090 or two used 3090s?')
    on_it = w.model_copy(update={"candidates": [asked]})
    args = json.loads(_key(on_it.model_dump(mode="json")))
    mine = _call(recorder, "recommend", args, lambda: recommend(on_it))
    if mine.best is None or not mine.best.ok or mine.best.gpu != asked:
        return rec
    return mine.model_copy(update={"options": [*mine.options, *(o for o in rec.options if o.gpu != asked)],
                                   "workload": mine.workload.model_copy(update={"candidates": w.candidates})})
    # (planned on the card asked about, not limited to it: no 'only these cards, as you asked')


def _cheaper_of(w: Any, compare: list[str], recorder: Recorder | None) -> str | None:
    """'租 4090 还是 A100 划算', 'H100 or H200 and how many', 'A100 和 H100 训练 LoRA 差多少': of the cards asked about,
    the one the recommend tool picks among them alone for the job (a batch job or a training run: the least per run;
    serving: the least per hour at the load) -- the plan is then on it, the others rows beside it, so the headline
    answers the choice asked; None when the question is not that choice."""
    if len(compare) < 2 or w.owned or (w.candidates and not set(w.candidates) <= set(compare)):
        return None
    among = w.model_copy(update={"candidates": list(compare)})
    args = json.loads(_key(among.model_dump(mode="json")))
    mine = _call(recorder, "recommend", args, lambda: recommend(among))
    return mine.best.gpu if mine.best is not None and mine.best.ok and mine.best.gpu in compare else None


def _holds_every_model(w: Any, rows: list[Option], choice: list[str], models: list[str] | None,
                       recorder: Recorder | None) -> str | None:
    """Setups named to buy for one's own use, each at the count said ('2 used 3090s vs a single new 4090'), with the
    models they are for: the one whose setup runs every model named when the other's does not (assistant.card_job,
    the verdict's own rule), so the headline and the verdict agree (review BW #1); None otherwise."""
    named = [o for o in rows if o.gpu in choice and not o.owned]
    if not models or w.preference != "buy" or len(choice) != 2 or len(named) != 2 or not all(o.ok for o in named):
        return None
    from gpu_advisor.assistant.card_job import holds_all

    return holds_all(named, models, recorder)


def _pick(w: Any, rows: list[Option], among: list[str], models: list[str] | None, recorder: Recorder | None,
          for_home: bool) -> str | None:
    """Of the cards named as a choice: the setup that runs every model named, else the home verdict, else the
    cheaper for the job."""
    return (_holds_every_model(w, rows, among, models, recorder)
            or (_bought_for_home(w, rows, among) if for_home else None) or _named_pick(w, rows, among, recorder))


def _carried(previous: dict[str, Any], choice: list[str], compare: list[str], counts: dict[str, int] | None,
             models: list[str] | None) -> tuple[dict[str, int] | None, list[str] | None]:
    """The choice carried from the turn before keeps its setups and models as they were said (review BW #1: the LoRA
    follow-up to '2 used 3090s vs one 4090' weighed one 3090)."""
    if not choice or compare:
        return counts, models
    return counts or dict(previous.get("counts") or {}) or None, models or list(previous.get("models") or [])


def _on_the_setup(w: Any, rec: Recommendation, rows: list[Option], winner: str | None) -> Recommendation:
    """The plan on the setup that runs every model named, at the count said with it (2 x 3090, not the one 3090 that
    holds the first model alone); unchanged when no setup won or the plan is already on it."""
    row = next((o for o in rows if o.gpu == winner and o.ok and not o.owned), None)
    best = rec.best
    if row is None or best is None or best.owned or (best.gpu, best.gpus) == (row.gpu, row.gpus):
        return rec
    from gpu_advisor.tools.recommend import _action, rent_or_buy_of

    rb = rent_or_buy_of(rec.workload, row)
    options = [row, *(o for o in rec.options if (o.gpu, o.gpus) != (row.gpu, row.gpus))]
    return rec.model_copy(update={"best": row, "options": options, "rent_or_buy": rb,
                                  "action": _action(rec.workload, row, rb)})


def _bought_for_home(w: Any, rows: list[Option], choice: list[str]) -> str | None:
    """Two consumer cards weighed to buy for one's own machine ('4090 和 5090 选哪个，本地跑大模型+偶尔微调 7B'), one of
    each, both doing the job sized: the one the comparison's verdict picks for running models there
    (assistant.verdict.card_verdict, job 'local': memory first), so the headline and the verdict agree (review O2
    C15); None when they differ in count or in doing the job (the sized verdict decides), or the figures do not."""
    from gpu_advisor.assistant.verdict import FIGURES, card_verdict
    from gpu_advisor.knowledge import find_gpu

    named = [o for o in rows if o.gpu in choice]
    if w.buy_count == 1 and len(choice) > 2:  # 'buy a card: 3090 or 4060 Ti (the 4090 too dear)': those that do it
        named = [o for o in named if o.ok]
        choice = [o.gpu for o in named]
    cards = [find_gpu(g) for g in choice]
    if w.preference != "buy" or len(cards) != 2 or any(c.segment != "consumer" for c in cards) \
            or len(named) != 2 or not all(o.ok and o.gpus == 1 for o in named):
        return None
    pick = card_verdict([{"id": c.id, **{k: getattr(c, k) for k in FIGURES.values()}} for c in cards], "local")["pick"]
    return str(pick) if pick else None


def usd_per_million(o: Option, recorder: Recorder | None = None) -> float | None:
    """An option's cost per million tokens generated at its load (tools.cost: its rent per hour over the tokens it
    generates in an hour); None without a price or a speed. The one figure a serving comparison is weighed on
    (assistant.inform's compare lines, and the plan put on the cheapest of the cards named as a choice)."""
    from gpu_advisor.tools.cost import CostInput, cost

    if not (o.usd_per_hour and o.aggregate_tokens_per_s):
        return None
    inp = CostInput(gpu=o.gpu, gpus=o.gpus, tokens_per_s=o.aggregate_tokens_per_s, usd_per_gpu_hour=o.usd_per_hour / o.gpus)
    return _call(recorder, "cost", inp.model_dump(mode="json"), lambda: cost(inp)).usd_per_million_tokens


def _named_pick(w: Any, rows: list[Option], choice: list[str], recorder: Recorder | None) -> str | None:
    """Of the cards named as a choice, each sized for the job (at the count said with it, if one was), the one the
    comparison's verdict picks (assistant.verdict.pick_among on assistant.value's basis: the same rule, so headline
    and verdict agree); None when no row decides it."""
    from gpu_advisor.assistant.verdict import pick_among

    named = [o for o in rows if o.gpu in choice]
    if len(choice) < 2 or {o.gpu for o in named} != set(choice):
        return None
    from gpu_advisor.assistant.value import value_costs

    value = value_costs(named, w, recorder)  # what the user pays: per run, a month at their load, or at full load
    return pick_among([o.model_dump(mode="json") for o in named], value["costs"], value["basis"],
                      official_first=w.region == "china" and value["basis"] == "buy" and not w.personal).get("pick")


def _model_kept(w: Any, previous: dict[str, Any]) -> Any:
    """A model switched to after a plan ('换成72B呢', 'what about 72B instead' on your own 4090) heads the plan,
    and stays at its head on the turns after: what it needs and where it runs, the smaller model of its family only
    a fallback beside it (tools.recommend keep_model; review BY #6, BZ #7)."""
    before = previous.get("inputs") or {}
    said = before.get("model")
    if said and (said != w.model or before.get("keep_model")):
        return w.model_copy(update={"keep_model": True})
    return w


def compute(profile: Profile, previous: dict[str, Any] | None, compare: list[str], whatif: tuple[int, str] | None,
            recorder: Recorder | None = None, defaulted: list[str] | None = None,
            quotes: list[dict[str, Any]] | None = None, also: dict[str, Any] | None = None,
            counts: dict[str, int] | None = None, for_home: bool = False, models: list[str] | None = None) -> Answer:
    """Tool results for this profile, with the cards the user was quoted at their prices (`quotes`). A
    recommendation whose inputs did not change is reused. `also`: a second job checked on the plan's cards. `counts`:
    the count said with a card asked about ('2x used 3090 or one 5090'): that option is sized at that count.
    `for_home`: the cards asked about are weighed for the user's own machine (the question said local use).
    `models`: the models named for the cards of a choice bought ('…to run qwen2.5 32b and maybe llama 3.3 70b'): the
    setup that runs them all is the pick (review BW #1)."""
    from gpu_advisor.assistant.phase_moved import plan_beyond
    from gpu_advisor.assistant.verdict_first import plan_on_winner, rented_for_value
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.long_run import mark_long_runs
    from gpu_advisor.tools.recommend import RentQuote, rate_option, short_of_rate

    said = list(compare) + ([whatif[1]] if whatif else [])  # cards named in this turn's own words
    w = _model_kept(workload_for(profile, defaulted), previous or {})
    if quotes:
        w = w.model_copy(update={"quotes": [RentQuote.model_validate(q) for q in quotes]})
    inputs = json.loads(_key(w.model_dump(mode="json")))
    previous = previous or {}
    if previous.get("inputs") == inputs and "recommend" in previous:
        rec, reused = Recommendation.model_validate(previous["recommend"]), True
    else:
        rec, reused = _call(recorder, "recommend", inputs, lambda: flag_slow_chat(w, recommend(w))), False  # tools.slow_chat
    open_rec = rec  # the open market's plan, before any card asked about takes it (assistant.phase_moved)
    old_best = (previous.get("recommend") or {}).get("best") or {}
    same_cards = bool(whatif) and (old_best.get("gpus"), old_best.get("gpu")) == tuple(whatif or ())  # "still fits?"
    kept = kept_named(previous, inputs) if not compare and (not whatif or same_cards) else []
    choice = list(compare) if len(compare) >= 2 else [] if compare or whatif else list(previous.get("choice") or [])
    if not choice and len(kept) >= 2 and not any(count for count, _g in kept):
        choice = [g for _c, g in kept]  # 'H20 还是 H800' neither did before; on the new job the cheaper that does it
    cheaper = _cheaper_of(w, choice, recorder)  # a later turn weighs the same two again, on the job as it is now
    if cheaper is None:
        choice = []
    # of two cards weighed before, the one asked about now wins over the one picked then ('should i buy a 5090 or
    # just rent h100s', then 'what if i just do qlora on the 5090': the 5090, review BY #4)
    again = len(compare) == 1 and compare[0] in (previous.get("choice") or [])
    asked = cheaper or (compare[0] if again else previous.get("asked") if previous.get("recommend")
                        else (compare[0] if len(compare) == 1 else None))
    counts, models = _carried(previous, choice, compare, counts, models)
    compare = compare or choice
    rec = _on_the_card_asked(w, rec, asked, whatif, recorder)
    if cheaper is not None:  # planned on the cheaper of the two asked, not limited to it: no 'only these cards'
        rec = rec.model_copy(update={"workload": rec.workload.model_copy(update={"candidates": w.candidates})})
    extra: list[Option] = []
    # the cards asked about are sized as the plan is: in 4-bit when the plan had to move there
    sized = _sized_as_planned(w, rec)

    best = rec.best
    # a plan of model copies (data parallel) or of several servers: another card is laid out the same way, each
    # copy holding its share of the users, so its per-card need is a copy's on that card, never all users' on one group
    copies = bool(w.spec.serves and not w.spec.trains and best and not best.owned and (best.replicas > 1 or best.pp > 1))

    rated = bool(rec.traffic is not None and rec.traffic.replicas and sized.requests_per_s and w.spec.serves)

    def option(gpu_id: str, n: int) -> Option | None:
        args = {"workload": inputs, "gpu": gpu_id, "gpus": n} | ({"serve_precision": rec.relaxed} if rec.relaxed else {})
        if rated and not any(gpu_id in o for o in w.owned):
            # a rate plan: the card asked about is sized for the rate as the plan was (copies), never for the
            # requests in flight on one group of cards; one that sustains it on no layout is said to fall short
            return _call(recorder, "rate_option", args | {"ttft_ms": w.ttft_ms},
                         lambda: rate_option(sized, gpu_id, precision=rec.relaxed, ttft_ms=w.ttft_ms, fallback=True)
                         or short_of_rate(sized, find_gpu(gpu_id)))
        if copies and best:
            return _call(recorder, "evaluate_option", args | {"laid_out_as_copies": True},
                         partial(laid_out_like, sized, find_gpu(gpu_id), best, n or None))
        return _call(recorder, "evaluate_option", args, lambda: evaluate(sized, find_gpu(gpu_id), n))

    if w.domestic_only:  # under a domestic-only rule a foreign card asked about is said to be left out, not sized
        foreign = [g for g in compare + ([whatif[1]] if whatif else []) if not find_gpu(g).domestic_china]
        compare = [g for g in compare if g not in foreign]
        whatif = whatif if whatif and whatif[1] not in foreign else None
        said = [g for g in foreign if not any(r.split("x ")[-1].strip() == g for r in rec.ruled_out)]
        if said:
            rec = rec.model_copy(update={"ruled_out": rec.ruled_out + said})
    counts = counts or ({g: 1 for g in compare} if w.buy_count == 1 else None)  # 'buy a card: A or B?' (buy2)
    extra += _compared(compare, option, best, copies, rated, counts, rec.options, partial(_wide, sized, recorder))
    pick = partial(_pick, w, models=models, recorder=recorder, for_home=for_home)
    cheap = pick(extra, choice)
    if cheap is not None and (best is None or cheap != best.gpu):
        # 'H100 or H200 and how many', '2x 3090 or one 5090': the plan on the named card the verdict picks
        asked = cheap
        rec = _on_the_card_asked(w, rec, cheap, whatif, recorder)
        rec = rec.model_copy(update={"workload": rec.workload.model_copy(update={"candidates": w.candidates})})
        best, sized = rec.best, _at_the_implied_rate(w.model_copy(update={"serve_precision": rec.relaxed})
                                                     if rec.relaxed else w, rec)
        sized = _method_as_planned(sized, rec)
        copies = bool(best and not best.owned and (best.replicas > 1 or best.pp > 1))
        rated = bool(rec.traffic is not None and rec.traffic.replicas and sized.requests_per_s)
        extra = _compared(compare, option, best, copies, rated, counts, rec.options,
                           partial(_wide, sized, recorder))  # the rows sized again beside the new plan
    if whatif:
        count, gpu_id = whatif
        o = option(gpu_id, 1 if one_machine(find_gpu(gpu_id)) else count)
        if o:
            extra.append(o)
    shown = {o.gpu for o in extra}
    extra += _kept_rows([k for k in kept if k[1] not in shown], option, best, copies, rated)
    short = _short_of_rate(sized, rec, whatif, recorder) if rated and whatif else None
    named = kept if not compare and (not whatif or same_cards) else \
        [[0, g] for g in compare] + ([[int(whatif[0]), whatif[1]]] if whatif else [])
    if len(compare) >= 2 and rated:  # 'A or B?' at a rate: each card's own row is its one sizing (choice_rows)
        from gpu_advisor.assistant.choice_rows import one_row_per_card

        rec = rec.model_copy(update={"options": one_row_per_card(rec.options, extra, compare, rec.best)})
    weighed = choice or ([] if w.owned else list(compare))  # 'A or B?' with a count said with one: still a choice
    rec, asked = plan_on_winner(w, rec, extra, weighed, lambda rows: pick(rows, weighed), asked)
    rec = _on_the_setup(w, rec, extra, _holds_every_model(w, extra, weighed, models, recorder))
    rec = rented_for_value(w, rec, weighed) if not for_home else rec  # weighed on rent: headed as rented
    # 'and for fine-tuning it?' after weighing a Mac against 2 × 3090: neither does it well, the open plan leads
    rec, asked, beyond = plan_beyond(w, previous, inputs, said, rec, open_rec, extra, named, asked)
    rec = mark_long_runs(w, rec, extra)  # months on the cards named: impractical, never 'meets' (tools.long_run)
    answer = Answer(inputs=inputs, recommend=rec, options=extra, reused=reused, short=short,
                    asked=asked if rec.best is not None and rec.best.gpu == asked else None, choice=choice,
                    counts=dict(counts or {}) if choice or len(compare) >= 2 else {}, models=list(models or []),
                    named=named, beyond=beyond)
    _breakdowns(answer, recorder)
    _one_card(answer, recorder)
    from gpu_advisor.assistant.pairing import size_pair

    both = size_pair(also, rec, lambda tool, args, fn: _call(recorder, tool, args, fn))
    answer.pair = both.model_dump(mode="json") if both else None
    return answer


# The workload's fields that say which cards may be used: while none moves, the cards the user named as candidates
# stay beside every later plan ('算了换成 Qwen3-32B' after 'H20 还是 H800': both sized again for the new model).
HARDWARE_INPUTS = ("owned", "candidates", "exclude", "region", "max_gpus")


def kept_named(previous: dict[str, Any], inputs: dict[str, Any]) -> list[list[Any]]:
    """The candidate cards named in an earlier turn that still hold: none when the cards allowed changed."""
    before = previous.get("inputs") or {}
    if not previous.get("recommend") or any(before.get(k) != inputs.get(k) for k in HARDWARE_INPUTS):
        return []
    return [list(k) for k in previous.get("named") or []]


def _kept_rows(kept: list[list[Any]], option: Any, best: Option | None, copies: bool, rated: bool) -> list[Option]:
    """The rows of the cards named before, sized for the job as it is now: at the count said with the card ('why
    not 2x L40S'), else the fewest that do the job (as when they were first named)."""
    rows: list[Option] = []
    for count, gpu_id in kept:
        if best is not None and best.gpu == gpu_id and (not count or best.gpus == count):
            continue  # the plan itself is on it: its row is the plan's
        if count and not rated and not copies:
            o = option(gpu_id, 1 if one_machine(_gpu(gpu_id)) else int(count))
            rows += [o] if o else []
        else:
            rows += _compared([gpu_id], option, best, copies, rated)
    return rows


def _gpu(gpu_id: str) -> Any:
    from gpu_advisor.knowledge import find_gpu

    return find_gpu(gpu_id)


def _short_of_rate(w: Any, rec: Recommendation, whatif: tuple[int, str], recorder: Recorder | None) -> RateShort | None:
    """A count of cards asked about beside a rate plan ("why not just 1 h100?"): what it fails against the rate
    (memory, load, the first-token target), sized with the plan's own queueing inputs; None for a count the plan
    already uses or more."""
    from gpu_advisor.knowledge import find_gpu
    from gpu_advisor.tools.models import resolve_model
    from gpu_advisor.tools.queueing import P99, RateInput
    from gpu_advisor.tools.recommend import rate_lengths, rate_precision, serving_precision
    from gpu_advisor.tools.scale import MAX_SERVING_GPUS, SERVER_GPUS

    count, gpu_id = whatif
    best = rec.best
    if best is None or count <= 0 or (best.gpu == gpu_id and count >= best.gpus):
        return None
    prompt, output, _ = rate_lengths(w)
    same = best.gpu == gpu_id
    precision = best.precision if same and best.precision else serving_precision(w, resolve_model(w.model), find_gpu(gpu_id))
    precision = rate_precision(w, gpu_id, precision, best.engine)  # the format the plan's rate was sized in
    inp = RateInput(model=w.model, gpu=gpu_id, precision=precision, kv_precision=best.kv_precision if same else None,
                    engine="sglang" if best.engine == "sglang" else "vllm", requests_per_s=w.requests_per_s,
                    prompt_tokens=prompt, output_tokens=output, ttft_target_ms=w.ttft_ms,
                    ttft_percentile=w.ttft_percentile or P99,
                    **w.queue_speed_targets(),
                    max_gpus=w.max_gpus or MAX_SERVING_GPUS, server_gpus=w.server_gpus or SERVER_GPUS)
    return _call(recorder, "rate_short", inp.model_dump(mode="json") | {"gpus": count}, lambda: rate_short(inp, count))


def _wide(w: Workload, recorder: Recorder | None, gpu_id: str) -> Option | None:
    """A card asked about sized beyond one server (tools.scale) when no count of one server serves the job."""
    from gpu_advisor.knowledge import find_gpu

    if not (w.spec.serves and not w.spec.trains) or one_machine(find_gpu(gpu_id)):
        return None
    o = _call(recorder, "scaled_option", {"workload": w.model_dump(mode="json"), "gpu": gpu_id},
              lambda: scaled_option(w, find_gpu(gpu_id)))
    return o if o is not None and o.ok else None


def _compared(compare: list[str], option: Any, best: Option | None, copies: bool, rated: bool,
              said: dict[str, int] | None = None, planned: list[Option] | None = None,
              scale: Any = None) -> list[Option]:
    """The rows of the cards asked about: a count said with the card ('2x 3090 or one 5090') at that count; on a
    rate plan each sized for the rate; beside a plan of copies the fewest cards of it laid out as copies; else the
    fewest of 1, 2, 4, 8 cards that meet the requirements, else the plan's own sizing of it beyond one server
    (planned: 'H20 和 910B 哪个…' is 16 × 910B across servers beside 8 × H20, never 8 × 910B that do not fit)."""
    from gpu_advisor.knowledge import find_gpu

    extra: list[Option] = []
    said = said or {}
    for gpu_id in compare:
        if said and not rated and not copies:  # the options as named: each at its count (one when none was said)
            o = best if best and (best.gpu, best.gpus) == (gpu_id, said.get(gpu_id, 1)) else option(gpu_id, said.get(gpu_id, 1))
            if o:
                extra.append(o)
            continue
        if rated:
            o = best if best and gpu_id == best.gpu else option(gpu_id, 0)
            if o:
                extra.append(o)
            continue
        if copies:  # the fewest cards of it laid out as copies, as the plan is
            if best and gpu_id == best.gpu:
                extra.append(best)  # "how many H100s" answered by a plan of H100 copies: the plan is its row, not one copy
                continue
            o = option(gpu_id, 0)
            if o:
                extra.append(o)
            continue
        counts = (1,) if one_machine(find_gpu(gpu_id)) else (1, 2, 4, 8)  # a Mac is one machine, never several
        sized = [o for o in (option(gpu_id, n) for n in counts) if o]
        # the fewest that meet everything; else the fewest that do the job but for the budget (its row says it is
        # over: 'h100 or a100?' under $5k a month is 2 × H100 over budget, not 8); else the most tried
        wider = min((o for o in planned or [] if o.gpu == gpu_id and o.ok and not o.owned), key=lambda o: o.gpus,
                    default=None)
        if wider is None and scale is not None and not any(o.ok or only_over_budget(o) for o in sized):
            wider = scale(gpu_id)  # not among the plan's candidates: sized beyond one server here (tools.scale)
        pick = next((o for o in sized if o.ok), None) or wider \
            or next((o for o in sized if only_over_budget(o)), None) or (sized[-1] if sized else None)
        if pick:
            extra.append(pick)
    return extra


def _at_the_implied_rate(w: Workload, rec: Recommendation) -> Workload:
    """Users at once whose prompts bind (tools.prefill_load): the rows beside the plan sized at the rate they imply."""
    if rec.prefill_load is None or w.requests_per_s:
        return w
    return w.model_copy(update={"requests_per_s": rec.prefill_load.requests_per_s})


def _sized_as_planned(w: Workload, rec: Recommendation) -> Workload:
    """The workload the rows beside the plan are sized on: in the plan's 4-bit weights when it took them, and with
    its FP8 KV cache when that held the job on the count named ('on one L40S': that card's row fits as planned)."""
    sized = _at_the_implied_rate(w.model_copy(update={"serve_precision": rec.relaxed})
                                 if _weight_format(rec.relaxed) else w, rec)
    sized = _method_as_planned(sized, rec)
    return sized.model_copy(update={"kv_cache": 8}) if rec.taken_because == "count_kept" else sized


def _weight_format(relaxed: str | None) -> bool:
    """Whether the plan's relaxed change is a weight format (a training lever such as 'qlora-unsloth' is not: the
    rows beside a QLoRA plan take its method, _method_as_planned, never a serving format of that name)."""
    from gpu_advisor.tools.recommend import BASE_LEVERS

    return bool(relaxed) and relaxed not in BASE_LEVERS


def _method_as_planned(sized: Workload, rec: Recommendation) -> Workload:
    """QLoRA taken for the count named ('buy a card … lora', tools.one_card_buy): the rows beside it in QLoRA too."""
    if rec.taken_lever not in ("qlora", "qlora-unsloth"):
        return sized
    return sized.model_copy(update={"method": rec.workload.method, "framework": rec.workload.framework})


def only_over_budget(o: Option) -> bool:
    """An option that does the job and misses only the budget."""
    return o.meets.get("budget") is False and all(v for k, v in o.meets.items() if k != "budget") \
        and o.serves is not False and o.trains is not False


def _one_card(answer: Answer, recorder: Recorder | None) -> None:
    """When fine-tuning needs several cards, what would make it fit on one of them (the arithmetic
    behind rules of thumb such as "an 80 GB card fully fine-tunes a 14B model")."""
    from gpu_advisor.tools.fit import FitInput, fit

    rec = answer.recommend
    best, w = rec.training_run or rec.best, rec.workload  # the cards that fine-tune, not a separate serving plan's
    if not best or not w.spec.trains or w.spec.pretrains or best.gpus == 1 or best.owned:
        return
    inp = FitInput(model=w.model, gpu=best.gpu, phase="train", counts=[1], method=w.method, seq_len=w.seq_len,
                   framework=w.framework, mixed_precision=w.mixed_precision)
    result = _call(recorder, "fit", inp.model_dump(mode="json"), lambda: fit(inp))
    if result.remedies:
        answer.one_card = result


def serving_setup(w: Workload, best: Option):
    """How the recommended option serves: one model copy of best.gpus / replicas cards, with the
    job's context (a conversation, or one batch item in and out)."""
    from gpu_advisor.tools.inference import InferenceMemoryInput
    from gpu_advisor.tools.models import resolve_model

    context = w.context if w.spec.serves else w.batch_input_tokens + w.written_per_item(resolve_model(w.model))
    users = best.users_per_replica or -(-w.users // best.replicas)  # each copy holds its share of the users
    return InferenceMemoryInput(model=w.model, precision=best.precision, context=context,
                                batch=users if w.spec.serves else 1, gpus=best.tp or best.gpus // best.replicas,
                                pp=best.pp, gpu=best.gpu, engine=best.engine, kv_precision=best.kv_precision,
                                dp_attention=best.dp_attention if best.dp_attention > 1 else 1)


def _breakdowns(answer: Answer, recorder: Recorder | None) -> None:
    """Memory breakdown of the recommended option (for charts): the tools' own term lists."""
    from gpu_advisor.tools.inference import inference_memory
    from gpu_advisor.tools.training import training_memory

    rec = answer.recommend
    best, w = rec.best, rec.workload
    if not best:
        return
    if (w.spec.serves or w.spec.batch) and best.precision:
        inp = serving_setup(w, best)
        answer.serving_memory = _call(recorder, "inference_memory", inp.model_dump(mode="json"),
                                      lambda: inference_memory(inp)).model_dump(mode="json")
    if w.spec.trains and rec.trains_on is not None:
        tin = training_setup(w, rec.trains_on.gpus, rec.trains_on.gpu, rec.trains_on.owned)
        answer.training_memory = _call(recorder, "training_memory", tin.model_dump(mode="json"),
                                       lambda: training_memory(tin)).model_dump(mode="json")

