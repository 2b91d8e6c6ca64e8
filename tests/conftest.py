"""Shared test settings: deterministic Hypothesis runs and the repository root."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

# The same examples on every run, and no example database written into the checkout.
settings.register_profile("gpu-advisor", derandomize=True, database=None, deadline=None, print_blob=True)
settings.load_profile("gpu-advisor")

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def repo_root() -> Path:
    return REPO_ROOT
