"""AutoDL is a cloud on record (its cards from its price table): 'AutoDL 上租', and two clouds named with or
('阿里云或者 AutoDL 都行', review S2 #10), keep the cards either rents; AutoDL was read as any Chinese cloud and
dropped, leaving Alibaba's five cards only."""

from __future__ import annotations

import itertools

import pytest

from gpu_advisor.assistant.reading import understand
from gpu_advisor.knowledge.clouds import clouds

ALIYUN = set(clouds()["aliyun"].gpus)
AUTODL = set(clouds()["autodl"].gpus)


@pytest.mark.parametrize(("said", "job"), list(itertools.product(
    ["阿里云或者 AutoDL 都行", "AutoDL 或阿里云", "aliyun or autodl", "autodl or alibaba cloud is fine"],
    ["部署Qwen2.5-14B给20人用", "serve qwen2.5 14b to 20 users"])))
def test_either_cloud_keeps_the_cards_of_both(said, job):
    u = understand(f"{job}，{said}" if "部署" in job else f"{job}, {said}")
    assert set(u.updates["only"]) == ALIYUN | AUTODL
    assert u.updates.get("region") == "china"


@pytest.mark.parametrize("text", ["在autodl上租卡部署qwen2.5 7b", "rent on autodl, serve qwen2.5 7b for 10 users"])
def test_autodl_alone_keeps_its_own_cards(text):
    u = understand(text)
    assert set(u.updates["only"]) == AUTODL and "rtx-4090" in AUTODL
