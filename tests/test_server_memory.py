"""A server model said with its cards' memory is that memory's card ('4 DGX A100 nodes (the 40gb version)' holds
32 A100 40GB, review V: sized as 80 GB cards and told it fits); without a memory the model's own card stays."""

from __future__ import annotations

import pytest

from gpu_advisor.assistant.reading import understand

FORTY = ["we've got 4 DGX A100 nodes (the 40gb version) in the lab", "we have 4 DGX A100 40GB nodes",
         "we own 4 DGX A100 nodes, the 40gb ones", "our lab has 4 dgx a100 servers (40gb)",
         "我们有4台DGX A100（40G版本）", "实验室有4台DGX A100 40G"]


@pytest.mark.parametrize("text", FORTY)
def test_a_server_said_with_its_memory_holds_that_card(text: str) -> None:
    assert understand(text, None).updates.get("owned") == ["32x a100-40gb-sxm"]


@pytest.mark.parametrize("text", ["we have 4 DGX A100 nodes", "we have 4 DGX A100 80GB nodes", "我们有4台DGX A100"])
def test_a_server_without_a_memory_keeps_its_card(text: str) -> None:
    assert understand(text, None).updates.get("owned") == ["32x a100-80gb-sxm"]


def test_a_network_speed_after_a_server_is_no_memory() -> None:
    assert understand("we own 2 DGX H100 nodes with 400g infiniband", None).updates.get("owned") == ["16x h100-sxm"]
