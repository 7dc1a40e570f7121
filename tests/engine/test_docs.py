"""The design notes the code cites are in the repository and the architecture doc's index is true."""

from __future__ import annotations

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
NOTE = re.compile(r"\[Note: ([^\]]+)\]")
INDEX_ROW = re.compile(r"^\| \[Note: ([^\]]+)\] \| `([^`]+)` \|", re.M)


def _code_files() -> list[pathlib.Path]:
    files = [*ROOT.glob("compiler/**/*.py"), *ROOT.glob("kernel_ext/*.py"), *ROOT.glob("labextension/src/**/*.ts")]
    return [f for f in files if "labextension/lib" not in str(f)]


def test_every_note_in_the_index_is_where_it_says():
    index = INDEX_ROW.findall((ROOT / "docs/architecture.md").read_text())
    assert len(index) >= 10
    for note, path in index:
        assert f"[Note: {note}]" in (ROOT / path).read_text(), f"[Note: {note}] is not in {path}"


def test_every_note_the_code_cites_is_in_the_index():
    indexed = {note for note, _ in INDEX_ROW.findall((ROOT / "docs/architecture.md").read_text())}
    cited = {note for f in _code_files() for note in NOTE.findall(f.read_text())}
    assert cited <= indexed, f"add these to docs/architecture.md's notes index: {sorted(cited - indexed)}"


def test_docs_the_code_names_exist():
    named = {m for f in _code_files() for m in re.findall(r"\bdocs/[\w.-]+\.md", f.read_text())}
    assert named, "the code names its design docs"
    assert all((ROOT / m).exists() for m in named), [m for m in named if not (ROOT / m).exists()]
