"""Shared fixtures: throwaway project directories written from dicts of files."""

from __future__ import annotations

from pathlib import Path
from textwrap import dedent

import pytest


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dedent(text))
    return root


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    path = tmp_path / "ws"
    path.mkdir()
    return path


@pytest.fixture
def project(workdir: Path):
    def make(files: dict[str, str]) -> Path:
        return write_tree(workdir, files)
    return make
