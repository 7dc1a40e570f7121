"""Gutter marks in the ``%%dynamo`` cell's own editor (issue 12 item 5), in a real JupyterLab + kernel + chromium.

The cell has two graph breaks (a data-dependent ``if`` and ``torch._dynamo.graph_break()``) and runs with two
dtypes, so every frame compiles twice: each break is met by two compiles (one row each in the action list)
and three recompiles have a failed guard on a line of the cell. Checked:

- the marks sit on the right lines of the CodeMirror editor (the marker's box against the line's box), a
  break mark on each break line, a recompile mark on each failed guard's line, each with its tooltip;
- a click on a break mark selects that break in the report below (card, frame, source line); a click on a
  recompile mark selects the recompiled frame;
- the action list has one row per break, each met by 2 compiles;
- editing a marked line drops its mark, a line inserted above moves the others; clearing the output removes
  every mark; re-running the cell removes them while it runs and draws them again with the new report;
- in Notebook 7 the same cell gets the same marks, with no error from the extension.
A screenshot of the marked cell goes to artifacts/browser/gutter/.
"""

from __future__ import annotations

import re
import time

import labserver
import pytest
from labserver import ARTIFACTS

pytestmark = pytest.mark.browser

CELL = """%%dynamo --backend eager
import torch

def step(x):
    y = x.sin()
    if y.sum() > 0:
        y = y + 1
    torch._dynamo.graph_break()
    return y.cos()

for dtype in (torch.float32, torch.float64):
    out = step(torch.ones(3, dtype=dtype))
"""
LINES = CELL.splitlines()
IF_LINE = LINES.index("    if y.sum() > 0:") + 1  # 6
EXPLICIT_LINE = LINES.index("    torch._dynamo.graph_break()") + 1  # 8
# The failed guards: TENSOR_MATCH L['x'] of step (line 5), L['y'] of the two resume functions (lines 7 and 9).
RECOMPILE_LINES = [5, 7, 9]
OUT = ARTIFACTS / "gutter"

#: The %%dynamo cell (the notebook's second) and its explorer.
CELL_SEL = ".jp-Notebook .jp-CodeCell >> nth=1"
ROOT = f"{CELL_SEL} >> .jp-DynamoExplorer"

#: Each mark in the cell's editor: its kind, the report's line, tooltip, and the editor line it sits on
#: (the .cm-line whose vertical middle is inside the mark's box; 1-based).
MARKS_JS = """cell => {
    const lines = Array.from(cell.querySelectorAll('.cm-content .cm-line'));
    return Array.from(cell.querySelectorAll('.jp-DynamoExplorer-cellGutter .jp-DynamoExplorer-cellMark')).map(m => {
        const box = m.getBoundingClientRect();
        const at = lines.findIndex(l => {
            const r = l.getBoundingClientRect();
            const middle = r.top + r.height / 2;
            return middle >= box.top && middle <= box.bottom;
        });
        return {kind: m.dataset.mark, reportLine: Number(m.dataset.reportLine), title: m.title, line: at + 1,
                visible: box.width > 0 && box.height > 0};
    });
}"""

#: Place the cursor in the %%dynamo cell's editor at (line, column), 0-based as JupyterLab's editor API counts.
CURSOR_JS = """([line, column]) => {
    const cell = window.jupyterapp.shell.currentWidget.content.widgets[1];
    cell.editor.focus();
    cell.editor.setCursorPosition({line, column});
}"""


def _marks(page) -> list[dict]:
    return page.locator(CELL_SEL).evaluate(MARKS_JS)


def _marks_settled(page, done, timeout_s: float = 10.0) -> list[dict]:
    """The marks once ``done(marks)`` holds (the gutter is laid out a frame after an edit), or the last read."""
    deadline = time.monotonic() + timeout_s
    marks = _marks(page)
    while not done(marks) and time.monotonic() < deadline:
        page.wait_for_timeout(100)
        marks = _marks(page)
    return marks


def _wait_marks(page, count: int, timeout: int = 300_000) -> None:
    page.locator(CELL_SEL).wait_for()
    page.wait_for_function(
        """([n]) => {
            const cell = document.querySelectorAll('.jp-Notebook .jp-CodeCell')[1];
            return !!cell && cell.querySelectorAll('.jp-DynamoExplorer-cellMark').length === n;
        }""",
        arg=[count],
        timeout=timeout,
    )


def _ready(page) -> None:
    page.wait_for_function(
        """() => {
            const cell = document.querySelectorAll('.jp-Notebook .jp-CodeCell')[1];
            const root = cell && cell.querySelector('.jp-DynamoExplorer');
            return !!root && root.dataset.status === 'ready';
        }""",
        timeout=300_000,
    )


def _check_marks(marks: list[dict]) -> None:
    breaks = sorted((m for m in marks if m["kind"] == "break"), key=lambda m: m["line"])
    recompiles = sorted((m for m in marks if m["kind"] == "recompile"), key=lambda m: m["line"])
    assert [m["line"] for m in breaks] == [IF_LINE, EXPLICIT_LINE], marks
    assert [m["line"] for m in recompiles] == RECOMPILE_LINES, marks
    assert all(m["visible"] and m["line"] == m["reportLine"] for m in marks), marks
    assert breaks[0]["title"].startswith("graph break: Data-dependent branching"), breaks[0]
    assert breaks[1]["title"].startswith("graph break: Call to `torch._dynamo.graph_break()`"), breaks[1]
    assert all("2 compiles" in m["title"] for m in breaks), breaks
    # frame ids go on across runs in one kernel: [0/1] the first time, [3/1] after a re-run
    assert re.match(r"recompile \[\d+/1\] of step: tensor 'x' dtype mismatch", recompiles[0]["title"]), recompiles[0]


def test_gutter_marks_in_the_cell_editor(lab, page):
    OUT.mkdir(parents=True, exist_ok=True)
    labserver.write_notebook(lab.root / "gutter.ipynb", ["%load_ext kernel_ext", CELL])
    labserver.open_notebook(page, lab, "gutter.ipynb")
    labserver.run_all(page)
    _ready(page)
    _wait_marks(page, 5)
    _check_marks(_marks(page))
    cell = page.locator(CELL_SEL)
    cell.locator(".cm-editor").screenshot(path=str(OUT / "marked_cell.png"))

    # the action list: one row per break, each met by the two compiles of its frame
    root = page.locator(ROOT)
    cards = root.locator('[data-pane="graph-breaks"] .jp-DynamoExplorer-break')
    assert cards.count() == 2
    assert cards.evaluate_all("els => els.map(e => e.dataset.compiles)") == ["2", "2"]

    # a click on the graph_break() mark opens that break in the report below
    cell.locator(f'.jp-DynamoExplorer-cellMark[data-mark="break"][data-report-line="{EXPLICIT_LINE}"]').click()
    page.wait_for_function(
        """([line]) => {
            const cell = document.querySelectorAll('.jp-Notebook .jp-CodeCell')[1];
            const card = cell.querySelector('[data-pane="graph-breaks"] .jp-DynamoExplorer-break.jp-mod-selected');
            return !!card && !!card.querySelector(`[data-jump="${line}"]`)
                && cell.querySelector('.jp-DynamoExplorer').dataset.status === 'ready';
        }""",
        arg=[EXPLICIT_LINE],
        timeout=30_000,
    )
    selected = root.locator('[data-pane="graph-breaks"] .jp-DynamoExplorer-break.jp-mod-selected')
    assert selected.count() == 1 and "graph_break()" in selected.inner_text()
    frame = root.locator(".jp-DynamoExplorer-frameTitle").get_attribute("data-compile-id")
    assert frame in ("1/0", "1/1"), frame  # the resume function after the `if`, where graph_break() is
    row = root.locator(f'[data-pane="source"] .jp-DynamoExplorer-row[data-line="{EXPLICIT_LINE}"]')
    assert "jp-mod-selected" in row.get_attribute("class")
    assert selected.is_visible()
    root.locator('[data-pane="graph-breaks"]').screenshot(path=str(OUT / "action_list.png"))

    # a click on the first recompile mark selects the recompiled frame
    cell.locator('.jp-DynamoExplorer-cellMark[data-mark="recompile"][data-report-line="5"]').click()
    page.wait_for_function(
        """() => {
            const cell = document.querySelectorAll('.jp-Notebook .jp-CodeCell')[1];
            return cell.querySelector('.jp-DynamoExplorer-frameTitle').dataset.compileId === '0/1';
        }""",
        timeout=30_000,
    )

    # editing: the `if` line changed drops its mark; a line inserted at the top moves the others down
    page.evaluate(CURSOR_JS, [IF_LINE - 1, len(LINES[IF_LINE - 1])])
    page.keyboard.type("  # edited")
    _wait_marks(page, 4)
    assert IF_LINE not in [m["line"] for m in _marks(page) if m["kind"] == "break"]
    page.evaluate(CURSOR_JS, [1, 0])
    page.keyboard.press("Enter")
    moved = _marks_settled(page, lambda marks: sorted(m["line"] for m in marks) != [5, 7, 8, 9])
    assert sorted(m["line"] for m in moved) == [6, 8, 9, 10], moved  # 5, 7, 8, 9 each one line down
    assert all(m["line"] == m["reportLine"] + 1 for m in moved), moved
    # undo the edits: the cell reads as before (marks dropped on edit do not come back until it runs again)
    page.evaluate(
        """(source) => {
            const cell = window.jupyterapp.shell.currentWidget.content.widgets[1];
            cell.model.sharedModel.setSource(source);
        }""",
        CELL,
    )

    # clearing the output removes every mark
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
    _wait_marks(page, 0, timeout=30_000)

    # re-running draws them again, with the new report; while it runs there are none
    page.evaluate(
        """() => {
            const panel = window.jupyterapp.shell.currentWidget;
            panel.content.activeCellIndex = 1;
            return window.jupyterapp.commands.execute('notebook:run-cell');
        }"""
    )
    _ready(page)
    _wait_marks(page, 5)
    _check_marks(_marks(page))
    page.evaluate(
        """() => {
            const panel = window.jupyterapp.shell.currentWidget;
            panel.content.activeCellIndex = 1;
            window.jupyterapp.commands.execute('notebook:run-cell');
        }"""
    )
    _wait_marks(page, 0, timeout=60_000)  # the old output is cleared as the run starts
    _ready(page)
    _wait_marks(page, 5)
    _check_marks(_marks(page))
    assert page.errors == [], page.errors


def test_gutter_marks_in_notebook7(notebook7, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 1600})
    page = context.new_page()
    errors: list[tuple[str, str]] = []
    page.on("pageerror", lambda e: errors.append((str(e), e.stack or "")))
    try:
        labserver.write_notebook(notebook7.root / "gutter7.ipynb", ["%load_ext kernel_ext", CELL])
        labserver.open_notebook(page, notebook7, "gutter7.ipynb")
        labserver.run_all(page)
        _ready(page)
        _wait_marks(page, 5)
        _check_marks(_marks(page))
        page.locator(CELL_SEL).locator(f'.jp-DynamoExplorer-cellMark[data-report-line="{IF_LINE}"]').click()
        page.wait_for_function(
            """() => {
                const cell = document.querySelectorAll('.jp-Notebook .jp-CodeCell')[1];
                return !!cell.querySelector('[data-pane="graph-breaks"] .jp-DynamoExplorer-break.jp-mod-selected');
            }""",
            timeout=30_000,
        )
        assert [e for e in errors if "dynamo-explorer" in e[1]] == [], errors
    finally:
        context.close()
