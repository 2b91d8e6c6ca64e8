"""Owned cards extended with rented ones: a card said to be rented ('去租几张A100', 'rent 8 h100s if needed')
is not owned; a training run is never split between your cards and a cloud's (rented whole, said); a service
adds rented cards only as whole copies of the model, priced for the rented cards alone."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.tools.recommend import Workload, recommend

OWNED_ZH = [("有8张4090", "8x rtx-4090"), ("我们有两张4090", "2x rtx-4090"), ("实验室里有4张A100", "4x a100-80gb-sxm")]
RENT_ZH = ["不够的话去租几张{card}", "不够再租两张{card}", "不够去autodl租几张{card}", "实在不行就租三块{card}",
           "可以再租4张{card}"]
RENT_CARDS = [("H100", "h100-sxm"), ("A800", "a800-80gb-sxm"), ("L40S", "l40s")]


@pytest.mark.parametrize(("owned", "rent", "card"), list(itertools.product(OWNED_ZH, RENT_ZH, RENT_CARDS)))
def test_a_card_said_to_be_rented_is_not_owned(owned, rent, card) -> None:
    said, owned_id = owned
    name, gpu_id = card
    u = understand(f"{said}，{rent.format(card=name)}，全参微调qwen2.5 7b")
    assert u.updates.get("owned") == [owned_id]
    assert not any(gpu_id in x for x in u.updates.get("owned") or [])


@pytest.mark.parametrize("tokens", [2e9, 3e9, 4e9])
def test_training_past_your_cards_is_rented_whole_and_said(tokens: float) -> None:
    w = Workload(phase="fine-tune", model="qwen2.5-14b", method="full", train_tokens=tokens, deadline_hours=72,
                 owned=["4x a100-80gb-sxm"], preference="rent")
    rec = recommend(w)
    assert rec.best is not None and not rec.best.owned and rec.best.owned_gpus == 0
    assert rec.beside_yours == "one_job"


def test_serving_adds_rented_cards_as_whole_copies_priced_alone() -> None:
    w = Workload(phase="serve", model="qwen2.5-32b", users=40, owned=["2x rtx-4090"], preference="rent")
    rec = recommend(w)
    best = rec.best
    assert best is not None and best.owned_gpus == 2 and rec.beside_yours == "copies"
    per_copy = best.gpus // best.replicas
    assert (best.gpus - best.owned_gpus) % per_copy == 0  # no copy straddles your machine and theirs
    assert best.usd_per_hour is not None and best.running_gpus == best.gpus - best.owned_gpus


def test_your_cards_that_do_the_job_need_no_sentence() -> None:
    rec = recommend(Workload(phase="serve", model="qwen2.5-7b", users=5, owned=["2x rtx-4090"]))
    assert rec.best is not None and rec.best.owned and rec.beside_yours is None
