"""A config.json given by path is read with bounded work: devices, FIFOs, huge, binary, deeply nested or
absurd files are one clear ConfigError line, never a hang, a crash or memory eaten."""

from __future__ import annotations

import os

import pytest

from gpu_advisor.knowledge.hf_config import MAX_CONFIG_BYTES, load_config_file
from gpu_advisor.knowledge.resolve import ConfigError

HOSTILE = {
    "deeply_nested.json": ("[" * 100_000 + "]" * 100_000).encode(),
    "nested_objects.json": ('{"a":' * 40 + "1" + "}" * 40).encode(),
    "five_thousand_digits.json": ('{"hidden_size": ' + "9" * 5000 + "}").encode(),
    "binary.json": b"\xff\xfe\x00\x01garbage",
    "not_an_object.json": b"[1, 2, 3]",
    "too_big.json": b'{"pad": "' + b"x" * (MAX_CONFIG_BYTES + 10) + b'"}',
    "truncated.json": b'{"hidden_size": 4096,',
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_config_file_is_one_clear_line(tmp_path, name):
    path = tmp_path / name
    path.write_bytes(HOSTILE[name])
    with pytest.raises(ConfigError) as e:
        load_config_file(path)
    assert "\n" not in str(e.value) and name in str(e.value)


def test_devices_folders_and_fifos_are_not_read(tmp_path):
    fifo = tmp_path / "config.json"
    os.mkfifo(fifo)  # reading it would block forever
    for path in ("/dev/zero", tmp_path, fifo):
        with pytest.raises(ConfigError, match="not a regular file"):
            load_config_file(path)
