"""What a user installs: the licence, the metadata, one version, and every data file in the sdist and
the wheel. The wheel and sdist are built offline with the setuptools of this environment (the build
backend pyproject.toml names), in a copy of the shipped files so the checkout gets no build/ folder."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("knowledge", "tools", "assistant", "tui")  # source folders; installed under gpu_advisor/
SHIPPED = ("pyproject.toml", "README.md", "LICENSE", "CHANGELOG.md", "MANIFEST.in", "gpu_advisor", *PACKAGES)


def _version() -> str:
    from gpu_advisor import __version__

    return __version__


def test_the_version_is_written_once_and_printed_by_version(capsys):
    from gpu_advisor.tui.cli import main

    assert re.fullmatch(r"\d+\.\d+\.\d+", _version())
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "version" not in project and project["dynamic"] == ["version"]
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"gpu-advisor {_version()}\n"


def test_the_changelog_opens_with_this_version():
    releases = re.findall(r"(?m)^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$", (ROOT / "CHANGELOG.md").read_text())
    assert releases[0] == ("Unreleased", "")
    assert releases[1][0] == _version() and releases[1][1]
    assert "### Contract" in (ROOT / "CHANGELOG.md").read_text()


def test_setuptools_reads_the_metadata_from_pyproject():
    from setuptools.config.pyprojecttoml import read_configuration

    project = read_configuration(ROOT / "pyproject.toml", expand=True, ignore_option_errors=False)["project"]
    assert project["version"] == _version()
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert project["authors"] == [{"name": "GPU Advisor contributors"}]
    assert {"Programming Language :: Python :: 3.11", "Programming Language :: Python :: 3.12",
            "Programming Language :: Python :: 3.13", "Environment :: Console",
            "Typing :: Typed"} <= set(project["classifiers"])
    assert any(c.startswith("Topic :: ") for c in project["classifiers"])
    assert project["description"] and len(project["keywords"]) >= 5
    assert "Copyright (c) 2026 GPU Advisor contributors" in (ROOT / "LICENSE").read_text()
    assert (ROOT / "LICENSE").read_text().startswith("MIT License\n")


def _data_files() -> set[str]:
    """The files other than Python sources that the packages need at run time (every one tracked), as
    the source tree (and the sdist) has them; the wheel has each under gpu_advisor/."""
    out = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*"):
            rel = path.relative_to(ROOT).as_posix()
            if path.is_file() and path.suffix in (".yaml", ".json", ".csv", ".tcss", ".typed") \
                    and "__pycache__" not in rel:
                out.add(rel)
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    src = tmp_path_factory.mktemp("src")
    for name in SHIPPED:
        path = ROOT / name
        if path.is_dir():  # gpu_advisor/'s links to the folders are copied as links
            shutil.copytree(path, src / name, symlinks=True, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(path, src / name)
    code = ("from setuptools import build_meta as b\n"
            "s = b.build_sdist('dist')\nw = b.build_wheel('dist')\nprint('BUILT', s, w)\n")
    run = subprocess.run([sys.executable, "-c", code], cwd=src, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    sdist_name, wheel_name = run.stdout.rsplit("BUILT ", 1)[1].split()
    return src / "dist" / sdist_name, src / "dist" / wheel_name


@pytest.mark.slow
def test_the_wheel_carries_the_licence_the_metadata_and_every_data_file(built):
    _, wheel = built
    version = _version()
    assert wheel.name == f"gpu_advisor-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        meta = z.read(f"gpu_advisor-{version}.dist-info/METADATA").decode()
        entry_points = z.read(f"gpu_advisor-{version}.dist-info/entry_points.txt").decode()
    assert f"gpu_advisor-{version}.dist-info/licenses/LICENSE" in names
    assert {"gpu_advisor/py.typed", *(f"gpu_advisor/{p}/py.typed" for p in PACKAGES)} <= names
    missing = {f"gpu_advisor/{f}" for f in _data_files()} - names
    assert not missing, sorted(missing)
    # one import name: nothing generic at the top of site-packages
    assert {n.split("/")[0] for n in names} == {"gpu_advisor", f"gpu_advisor-{version}.dist-info"}
    assert f"\nVersion: {version}\n" in meta
    assert "\nLicense-Expression: MIT\n" in meta and "\nAuthor: GPU Advisor contributors\n" in meta
    assert "Classifier: Programming Language :: Python :: 3.13" in meta
    assert "gpu-advisor = gpu_advisor.tui.cli:main" in entry_points


@pytest.mark.slow
def test_the_sdist_carries_the_licence_the_changelog_and_every_data_file(built):
    sdist, _ = built
    version = _version()
    top = f"gpu_advisor-{version}"
    with tarfile.open(sdist) as t:
        names = {n.removeprefix(f"{top}/") for n in t.getnames()}
    assert {"LICENSE", "CHANGELOG.md", "README.md", "pyproject.toml", "PKG-INFO", "gpu_advisor/__init__.py",
            "gpu_advisor/py.typed"} <= names
    missing = _data_files() - names
    assert not missing, sorted(missing)
