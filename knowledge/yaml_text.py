"""YAML text read with libyaml's C loader where it is installed: the one YAML reader of the package.

Kept apart from loader.py (the validated records) so that the message catalogs and the reader's word
files can be read without building the record schemas first (the app's first screen needs only text).
"""

from __future__ import annotations

from typing import Any

import yaml

_Loader: type[yaml.SafeLoader] | type[yaml.CSafeLoader]
try:  # the C loader is several times faster; fall back where libyaml is missing
    _Loader = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader


def load_yaml(text: str | bytes) -> Any:
    """YAML's safe subset read with libyaml's C loader where it is installed (several times faster than the
    pure-Python one: the reader's word files and the message catalogs are read at every start)."""
    return yaml.load(text, Loader=_Loader)
