"""The standalone HTML export (``--html``) in headless chromium, offline: file://, every other request refused.

Each golden report (tests/goldens/*.report.json) is written as a page with ``kernel_ext.export`` and opened
from disk. The page must draw the JupyterLab renderer's view by itself: ``data-status="ready"``, every pane
with content, the FX graph as SVG, frame selection from the frames pane, the embedded report read back
intact (user strings with ``</script><!--`` included), no request that leaves the file, no console error.
Screenshots land in artifacts/browser/standalone/.
"""

from __future__ import annotations

import html
import json
from html.parser import HTMLParser

import labserver
import pytest
from labserver import ARTIFACTS

from compiler.schema import PANES  # every pane of the report view, as the JupyterLab tests check them
from kernel_ext.export import REPORT_ID, write_html

pytestmark = pytest.mark.browser

GOLDENS = sorted((labserver.REPO / "tests" / "goldens").glob("*.report.json"))
ROOT = ".jp-DynamoExplorer"
LOCAL = ("file:", "data:", "blob:")
# A user string of the report that would end the embedding <script> were it not escaped.
BREAKOUT = "</script><!--<script>alert('breakout')</script>-->\u2028&amp;"


@pytest.fixture
def offline(page):
    """The page, with every request that is not file:, data: or blob: refused and recorded, and console
    errors recorded."""
    page.refused = []
    page.console_errors = []
    page.requests = []

    def route(r):
        if r.request.url.startswith(LOCAL):
            r.continue_()
        else:
            page.refused.append(r.request.url)
            r.abort()

    page.context.route("**/*", route)
    page.on("request", lambda req: page.requests.append(req.url))
    page.on("console", lambda msg: page.console_errors.append(msg.text) if msg.type == "error" else None)
    return page


class _Refs(HTMLParser):
    """Every src/href/srcset attribute and <link> of a page."""

    def __init__(self):
        super().__init__()
        self.refs: list[tuple[str, str, str]] = []
        self.scripts = 0

    def handle_starttag(self, tag, attrs):
        self.scripts += tag == "script"
        for name, value in attrs:
            if name in ("src", "href", "srcset", "xlink:href", "action", "data") or tag == "link":
                self.refs.append((tag, name, value or ""))


def _open(page, path):
    page.goto(path.as_uri())
    page.wait_for_selector(f'{ROOT}[data-status="ready"]', timeout=60_000)
    return page.locator(ROOT)


def _check_clean(page):
    assert page.errors == [], page.errors
    assert page.console_errors == [], page.console_errors
    assert page.refused == [], page.refused
    assert [u for u in page.requests if not u.startswith(LOCAL)] == []
    assert page.dialogs == [], page.dialogs


@pytest.mark.parametrize("golden", GOLDENS, ids=lambda p: p.name.removesuffix(".report.json"))
def test_golden_page_draws_offline(built, offline, tmp_path, golden):
    page = offline
    name = golden.name.removesuffix(".report.json")
    report = json.loads(golden.read_text())
    path = tmp_path / f"{name}.html"
    write_html(report, path)

    text = path.read_text(encoding="utf-8")
    refs = _Refs()
    refs.feed(text)
    assert refs.refs == [], f"the page references other files: {refs.refs}"
    assert refs.scripts == 2  # the report (JSON) and the renderer, nothing else

    root = _open(page, path)
    assert root.count() == 1
    assert root.get_attribute("class").split() == ["jp-DynamoExplorer", "jp-DynamoExplorer-standalone"]
    assert root.locator(".jp-DynamoExplorer-unsupported").count() == 0
    assert page.title().startswith("Dynamo Explorer")
    for pane in PANES:
        located = root.locator(f'[data-pane="{pane}"]')
        assert located.count() == 1, (name, pane)
        assert located.inner_text().strip(), (name, pane)
    assert root.locator('[data-count="frames"]').inner_text() == str(len(report["frames"]))
    nav = root.locator('[data-pane="frames"]')
    assert nav.locator("button[data-compile-id]").count() == len(report["frames"])

    shown = root.locator(".jp-DynamoExplorer-frameTitle").get_attribute("data-compile-id")
    frame = next((f for f in report["frames"] if f["compile_id"] == shown), None)
    graphs = {g["id"]: g for g in report["graphs"] if g["kind"] == "dynamo"}
    if frame and any(i in graphs for i in frame["graph_ids"]):
        assert root.locator('[data-pane="fx-graph"] svg g.node').count() > 0, name
    # The light-theme defaults reach the renderer's CSS: the brand colour is JupyterLab's, not unset.
    colour = page.evaluate(f"() => getComputedStyle(document.querySelector('{ROOT}')).getPropertyValue('--jp-brand-color1')")
    assert colour.strip() == "#1976d2"
    # Nothing the renderer drew loads a resource (its documentation links are <a href> the reader may click).
    assert page.evaluate("() => document.querySelectorAll('[src], [srcset], link, img, iframe, object, embed').length") == 0
    out = ARTIFACTS / "standalone"
    out.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(out / f"{name}.png"), full_page=True)
    _check_clean(page)


@pytest.mark.parametrize("name", ["toy_example", "training_step"])
def test_selecting_another_frame_redraws_the_panes(built, offline, tmp_path, name):
    page = offline
    report = json.loads((labserver.REPO / "tests" / "goldens" / f"{name}.report.json").read_text())
    assert len(report["frames"]) > 1, f"{name} needs two frames to select between"
    path = tmp_path / f"{name}.html"
    write_html(report, path)
    root = _open(page, path)
    title = root.locator(".jp-DynamoExplorer-frameTitle")
    before = title.get_attribute("data-compile-id")
    target = next(f for f in report["frames"] if f["compile_id"] != before)
    chip = root.locator(f'[data-pane="frames"] button[data-compile-id="{target["compile_id"]}"]')
    assert "jp-mod-selected" not in (chip.get_attribute("class") or "")
    chip.click()
    page.wait_for_function(
        "id => { const t = document.querySelector('.jp-DynamoExplorer-frameTitle');"
        " return t && t.dataset.compileId === id && t.closest('.jp-DynamoExplorer').dataset.status === 'ready'; }",
        arg=target["compile_id"],
        timeout=30_000,
    )
    assert "jp-mod-selected" in chip.get_attribute("class").split()
    assert chip.get_attribute("aria-selected") == "true"
    assert target["code"]["name"] in title.inner_text()
    old = root.locator(f'[data-pane="frames"] button[data-compile-id="{before}"]')
    assert "jp-mod-selected" not in old.get_attribute("class").split()
    if any(g["kind"] == "dynamo" for g in report["graphs"] if g["id"] in target["graph_ids"]):
        assert root.locator('[data-pane="fx-graph"] svg g.node').count() > 0
    _check_clean(page)


def test_user_strings_cannot_break_out_of_the_page(built, offline, tmp_path):
    page = offline
    report = json.loads((labserver.REPO / "tests" / "goldens" / "xss_strings.report.json").read_text())
    report["cell"]["source"] += f"\n# {BREAKOUT}\n"
    report["frames"][0]["code"]["name"] = "f" + BREAKOUT
    path = tmp_path / "xss.html"
    write_html(report, path)
    root = _open(page, path)
    embedded = page.evaluate(f"() => JSON.parse(document.getElementById('{REPORT_ID}').textContent)")
    assert embedded == report
    assert page.evaluate("() => document.scripts.length") == 2
    assert BREAKOUT.replace("\u2028", "") in root.locator('[data-pane="frames"]').inner_text().replace("\u2028", "")
    assert root.locator("script, img, iframe").count() == 0
    _check_clean(page)


def test_diff_page_draws_the_diff_view_offline(built, offline, tmp_path):
    """``dynamo-explorer diff --html``'s page (``kernel_ext.export.diff_page``) on the golden diff: the diff view, drawn
    offline by the same bundle, opens the pair of the first difference with both sides side by side; another pair
    opens on a click; the static summary the page holds for a reader with scripts off is gone once it draws."""
    from kernel_ext.export import DIFF_ID, diff_page

    page = offline
    diff = json.loads((labserver.REPO / "tests" / "goldens" / "planted_changes.diff.json").read_text())
    path = tmp_path / "diff.html"
    text = diff_page(diff)
    path.write_text(text, encoding="utf-8")
    refs = _Refs()
    refs.feed(text)
    assert refs.refs == [] and refs.scripts == 2
    assert html.escape(diff["first_difference"]) in text  # the static summary, before the script draws
    root = _open(page, path)
    assert root.get_attribute("data-view") == "diff"
    assert page.evaluate(f"() => JSON.parse(document.getElementById('{DIFF_ID}').textContent)") == diff
    assert root.locator(".jp-DynamoExplorer-firstDifference").inner_text() == diff["first_difference"]
    assert root.locator(".dx-diff").count() == 0
    break_line = diff["frames"][0]["view"]["b"]["breaks"][0]["line"]
    marked = root.locator('[data-section="source"] [data-side="B"] .jp-mod-break')
    assert marked.count() == 1 and marked.get_attribute("data-line") == str(break_line)
    assert "call_method cos" in root.locator('[data-section="graph"] [data-side="B"] .jp-mod-added').all_inner_texts()[0]
    alone = next(i for i, p in enumerate(diff["frames"]) if p["a"] is None)
    root.locator(f'[data-pair="{alone}"]').click()
    assert root.locator('[data-pane="diff-pair"]').get_attribute("data-pair-index") == str(alone)
    assert "did not compile it" in root.locator('[data-section="source"] [data-side="A"]').inner_text()
    out = ARTIFACTS / "standalone"
    out.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(out / "diff.png"), full_page=True)
    _check_clean(page)


def test_a_traces_page_loads_the_guards_its_log_held(built, offline, tmp_path, monkeypatch):
    """The page of a report read from a trace that left its guard trees in the log (``PartCut.log``; the limit lowered
    so that tlparse's small test log has one) holds each tree compressed (``id=dynamo-explorer-parts``): the guards
    pane's Load all draws the rows the view derives from it, the same rows the Python side reads from the log, and
    the tree itself, offline."""
    from compiler.trace import panes, read_trace
    from compiler.trace.parts import resolve
    from kernel_ext.export import PARTS_ID

    monkeypatch.setattr(panes, "LAZY_TREE_CHARS", 100)
    log = labserver.REPO / "tests" / "traces" / "tlparse" / "ezyang" / "simple.log.gz"
    [opened] = read_trace([str(log)])
    report = opened.report
    [guards_cut] = [c for c in report["parts_cut"] if c["part"] == "guards"]
    whole = json.loads(json.dumps(report))
    resolve(whole)
    want = next(f for f in whole["frames"] if f["compile_id"] == guards_cut["compile_id"])["guards"]
    path = tmp_path / "trace.html"
    write_html(report, path)
    root = _open(page := offline, path)
    assert page.evaluate("() => document.scripts.length") == 3  # the report, the parts, the renderer
    assert page.evaluate(f"() => Object.keys(JSON.parse(document.getElementById('{PARTS_ID}').textContent).keys).length") == 2
    root.locator(f'[data-pane="frames"] button[data-compile-id="{guards_cut["compile_id"]}"]').click()
    guards = root.locator('section[data-pane="guards"]')
    line = guards.locator('.jp-DynamoExplorer-partCut[data-part="guards"]')
    assert f"Load all {guards_cut['total']} from this page" in line.inner_text()
    line.locator("button").click()
    guards.locator('.jp-DynamoExplorer-partCut[data-part="guards"]').wait_for(state="detached", timeout=30_000)
    shown = guards.inner_text()
    assert f"({len(want)})" in shown
    for row in want:
        if row["source"].startswith("L["):  # an input's rows are drawn open (the global state's are folded)
            assert row["type"] in shown and row["source"] in shown and row["code"][0][:40] in shown, row
    tree = guards.locator(".jp-DynamoExplorer-guardTree")
    tree.locator("summary").click()  # the tree's line sits in its folded <details>
    tree.locator(".jp-DynamoExplorer-partCut button").click()
    tree.locator("pre").wait_for(timeout=30_000)
    assert "TREE_GUARD_MANAGER" in tree.locator("pre").inner_text()
    _check_clean(page)


def test_a_runs_page_loads_the_guards_its_report_holds_in_part(built, offline, tmp_path, monkeypatch):
    """[Note: parts in a page]: the page of a run whose report holds a frame's guards only in part (``parts_cut``: the
    golden toy example's first frame cut to 2 rows) holds the whole, and the guards pane's Load all draws it offline.
    The report and the rows are stored as a big report is (the limits lowered): gzipped in two halves at once
    (``encoding.gzip_two``), which the browser's DecompressionStream reads as one stream."""
    from compiler import encoding

    monkeypatch.setattr(encoding, "ENCODE_ABOVE", 1000)
    monkeypatch.setattr(encoding, "TWO_ABOVE", 1000)
    page = offline
    report = json.loads((labserver.REPO / "tests" / "goldens" / "toy_example.report.json").read_text())
    frame = report["frames"][0]
    rows = frame["guards"]
    key = f"k:guards:{frame['compile_id']}"
    report["parts_cut"] = [{"key": key, "part": "guards", "compile_id": frame["compile_id"], "kept": 2, "total": len(rows)}]
    frame["guards"] = rows[:2]
    path = tmp_path / "run.html"
    write_html(report, path, {key: rows})
    root = _open(page, path)
    guards = root.locator('section[data-pane="guards"]')
    line = guards.locator('.jp-DynamoExplorer-partCut[data-part="guards"]')
    assert f"The report holds the first 2 of {len(rows)} guards" in line.inner_text()
    line.locator("button").click()
    guards.locator('.jp-DynamoExplorer-partCut[data-part="guards"]').wait_for(state="detached", timeout=30_000)
    assert f"({len(rows)})" in guards.inner_text()
    _check_clean(page)
