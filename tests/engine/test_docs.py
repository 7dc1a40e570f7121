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


LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#+ (.+)$", re.M)
FENCE = re.compile(r"^```.*?^```", re.M | re.S)


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped but ``-`` and ``_``, spaces to ``-``."""
    text = re.sub(r"[`*]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def test_the_readme_is_a_front_page_and_its_links_and_the_docs_resolve():
    """Issue 40, item 7: the README at most 300 lines with a table of contents; every relative link of it and of the
    pages in docs/ names a file that exists and, for a Markdown page, a heading that is there."""
    readme = ROOT / "README.md"
    assert len(readme.read_text().splitlines()) <= 300
    assert "## Contents" in readme.read_text()
    broken = []
    for page in [readme, *sorted((ROOT / "docs").glob("*.md"))]:
        for target in LINK.findall(FENCE.sub("", page.read_text())):
            if re.match(r"[a-z]+:", target):
                continue  # a web address
            path, _, anchor = target.partition("#")
            where = (page.parent / path).resolve() if path else page
            if not where.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and where.suffix == ".md":
                slugs = {_slug(h) for h in HEADING.findall(FENCE.sub("", where.read_text()))}
                if anchor not in slugs:
                    broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert not broken, "\n".join(broken)
