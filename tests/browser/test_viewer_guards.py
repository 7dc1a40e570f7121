"""Guards that lead with what matters, and colours that read in both themes (issue 11), in a real JupyterLab.

- The guards order, on golden reports saved as notebook outputs: a frame's first guard rows are its input
  guards (a recompile's failed input guard first), visible in the pane without scrolling even under the
  recompile timeline, reasons and diff; the global state is one collapsed summary row that expands.
- A real ``%%dynamo`` cell in a kernel (the tour's dynamic-sizes cell): the dynamic-shape symbol is in the frame
  title, the shape guard near the top of the guards pane, no global-state guard links a line (the stray
  ``line 3`` of issue 11), and the recompile timeline's chips and arrows select the compiles.
- A real cell whose dtype, int and flag change at once (issue 12): every failing guard of the old entry with
  expected and actual (Dynamo's own one marked), the automatic-dynamic decision on the int with its symbol, and
  the guard diff with the failed tensor guard marked.
- A frame whose guards and guard tree the report holds only in part (issue 24: caps lowered in the kernel): the
  pane says how much it holds, and "Load all" brings the whole from what the output holds beside the report, in
  the notebook saved and opened again without the kernel that ran it (issue 44), the rows and the tree drawn in
  place. (The kernel's comm target answers the widget: tests/browser/test_widget.py, tests/kernel/.)
- Contrast: axe-core's ``color-contrast`` rule (WCAG AA), injected from node_modules, finds no violation inside
  the explorer with the toy_example and recompile_dtype reports shown (the recompile with its guard diff open),
  in JupyterLab Light and in JupyterLab Dark. axe cannot read an SVG's backgrounds, so the FX picture's node
  labels are checked against their box fill here with the same WCAG formula.
Screenshots of both themes land in artifacts/browser/guards/.
"""

from __future__ import annotations

import json
import re

import labserver
import pytest
from labserver import ARTIFACTS

pytestmark = pytest.mark.browser

# Explorers of the notebook shown: JupyterLab reopens this module's earlier notebooks in hidden tabs.
ROOT = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-DynamoExplorer"
AXE = labserver.REPO / "node_modules" / "axe-core" / "axe.min.js"
THEMES = {"JupyterLab Light": "true", "JupyterLab Dark": "false"}
OUT = ARTIFACTS / "guards"

# The tour's dynamic-shapes cell (notebooks/01_tour.ipynb): [0/0] static at size 8, [0/1] symbolic from 16 on.
DOUBLE_CELL = "%%dynamo --backend eager\ndef double(x):\n    return x * 2\n\nfor n in (8, 16, 32):\n    double(torch.ones(n))\n"


def _golden(name: str) -> dict:
    return json.loads((labserver.REPO / "tests" / "goldens" / f"{name}.report.json").read_text())


def _saved_notebook(lab, name: str, reports: list[str]) -> None:
    """A notebook whose cells hold golden reports as saved outputs (no kernel runs)."""
    cells = [
        {
            "cell_type": "code",
            "execution_count": None,
            "metadata": {},
            "source": f"# {report}",
            "outputs": [
                {"output_type": "display_data", "metadata": {}, "data": {labserver.MIME: _golden(report), "text/plain": report}}
            ],
        }
        for report in reports
    ]
    metadata = {"kernelspec": {"name": labserver.KERNEL, "display_name": "Dynamo Explorer (browser tests)", "language": "python"}}
    (lab.root / name).write_text(json.dumps({"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}))


def _goto(page, lab, name: str) -> None:
    """Open a notebook alone: `reset` keeps JupyterLab from reopening this module's earlier notebooks."""
    page.goto(f"{lab.url}/lab/tree/{name}?reset&token={lab.token}")


def _run_notebook(page, lab, name: str, cells: list[str]) -> None:
    """Write a notebook of ``cells``, open it alone, run it once its kernel is idle, and wait for an explorer."""
    labserver.write_notebook(lab.root / name, cells)
    _goto(page, lab, name)
    page.wait_for_function(
        """name => {
            const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
            const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
            return !!k && k.status === 'idle' && w.context.path === name;
        }""",
        arg=name,
        timeout=120_000,
    )
    labserver.run_all(page)
    page.wait_for_selector(f'{ROOT}[data-status="ready"]', timeout=300_000)


def _open_saved(page, lab, name: str, count: int) -> None:
    _goto(page, lab, name)
    page.wait_for_function(
        """([name, n]) => {
            const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
            return !!w && w.context && w.context.path === name
                && w.node.querySelectorAll('.jp-DynamoExplorer[data-status="ready"]').length === n;
        }""",
        arg=[name, count],
        timeout=120_000,
    )
    page.wait_for_function("() => window.jupyterapp.commands.hasCommand('apputils:change-theme')", timeout=60_000)


def _select(root, compile_id: str) -> None:
    root.locator(f'[data-pane="frames"] [data-compile-id="{compile_id}"]').click()
    root.page.wait_for_function("r => r.dataset.status === 'ready'", arg=root.element_handle())
    assert root.locator(".jp-DynamoExplorer-frameTitle").get_attribute("data-compile-id") == compile_id


def _visible_in_pane(row) -> bool:
    """Is the row wholly inside its pane's scroll box, with the box not scrolled?"""
    return row.evaluate(
        """row => {
            const body = row.closest('.jp-DynamoExplorer-paneBody');
            const r = row.getBoundingClientRect(), b = body.getBoundingClientRect();
            return body.scrollTop === 0 && r.height > 0 && r.top >= b.top && r.bottom <= b.bottom + 0.5;
        }"""
    )


def test_input_guards_lead_and_the_global_state_is_one_row_that_expands(lab, page):
    reports = ["toy_example", "recompile_dtype", "dynamic_sizes"]
    _saved_notebook(lab, "guards_order.ipynb", reports)
    _open_saved(page, lab, "guards_order.ipynb", len(reports))
    roots = page.locator(ROOT)

    # toy_example [0/0]: the inputs L['a'], L['b'] lead, their TENSOR_MATCH rows in view; G['torch'] after them.
    toy = roots.nth(0)
    guards = toy.locator('[data-pane="guards"]')
    groups = guards.locator(".jp-DynamoExplorer-guardGroup")
    sources = groups.evaluate_all("els => els.map(e => [e.dataset.tier, e.dataset.source])")
    assert sources[:2] == [["input", "L['a']"], ["input", "L['b']"]], sources
    assert sources.index(["global", "G['torch']"]) > 1 and sources[-1] == ["state", ""]
    first = groups.first.locator(".jp-DynamoExplorer-guard").first
    assert first.get_attribute("data-type") == "TENSOR_MATCH"
    assert _visible_in_pane(first), "the first input TENSOR_MATCH row must be visible without scrolling"
    body_height = guards.locator(".jp-DynamoExplorer-paneBody").evaluate("b => b.getBoundingClientRect().height")
    assert body_height >= 300, body_height

    # The global state: one collapsed row that names what it holds, expands on a click, and links no line.
    state = guards.locator("details.jp-DynamoExplorer-globalState")
    summary = state.locator("summary")
    n_state = sum(1 for g in _golden("toy_example")["frames"][0]["guards"] if g["source"] == "")
    assert re.fullmatch(rf"global state: grad mode, default device, … \({n_state}\)", summary.inner_text()), summary.inner_text()
    assert state.evaluate("d => d.open") is False
    assert not state.locator('.jp-DynamoExplorer-guard[data-type="GLOBAL_STATE"]').is_visible()
    summary.click()
    assert state.evaluate("d => d.open") is True
    assert state.locator('.jp-DynamoExplorer-guard[data-type="GLOBAL_STATE"]').is_visible()
    assert "grad_mode=true" in state.locator(".jp-DynamoExplorer-stateFields").inner_text()
    assert state.locator(".jp-DynamoExplorer-link").count() == 0

    # A recompile: timeline, reason and folded diff on top, then the failed input guard, still in view.
    for i, name in ((1, "recompile_dtype"), (2, "dynamic_sizes")):
        root = roots.nth(i)
        _select(root, "0/1")
        pane = root.locator('[data-pane="guards"]')
        assert pane.locator('[data-section="recompile-timeline"]').count() == 1, name
        diff = pane.locator('details[data-section="guard-diff"]')  # one summary line until opened
        assert diff.evaluate("d => !d.open") and re.match(r"Diff vs guards of \[0/0\]: \d+ changed", diff.inner_text()), name
        lead = pane.locator(".jp-DynamoExplorer-guardGroup").first
        assert (lead.get_attribute("data-tier"), lead.get_attribute("data-source")) == ("failed", "L['x']"), name
        failed = lead.locator(".jp-DynamoExplorer-guard").first
        assert failed.get_attribute("data-type") == "TENSOR_MATCH" and "jp-mod-failed" in failed.get_attribute("class")
        OUT.mkdir(parents=True, exist_ok=True)
        pane.screenshot(path=str(OUT / f"guards_{name}_0-1.png"))
        assert _visible_in_pane(failed), f"{name}: the failed TENSOR_MATCH row must be visible without scrolling"
    assert page.errors == [], page.errors


def test_symbols_in_the_frame_title_and_the_recompile_timeline_on_a_real_cell(lab, page):
    _run_notebook(page, lab, "sizes.ipynb", ["%load_ext kernel_ext\nimport torch", DOUBLE_CELL])
    root = page.locator(ROOT)
    _select(root, "0/1")

    title = root.locator(".jp-DynamoExplorer-frameTitle")
    symbols = title.locator('[data-section="symbols"]')
    assert re.search(r"\bs\d+ = L\['x'\]\.size\(\)\[0\] = 16, \[2, int_oo\]", symbols.inner_text()), symbols.inner_text()
    assert symbols.locator(".jp-DynamoExplorer-link").inner_text() == "line 3"  # `return x * 2`, notebook line 3

    guards = root.locator('[data-pane="guards"]')
    assert guards.locator('[data-section="dynamic-shapes"]').count() == 0  # no longer at the bottom of the pane
    tiers = guards.locator(".jp-DynamoExplorer-guardGroup").evaluate_all("els => els.map(e => e.dataset.tier)")
    assert tiers[:2] == ["failed", "shape"], tiers
    assert "2 <= L['x'].size()[0]" in guards.locator('.jp-DynamoExplorer-guardGroup[data-tier="shape"]').inner_text()
    # The stray `line 3` of issue 11: no global-state guard links a line (the shape guard's line is its own).
    assert guards.locator("details.jp-DynamoExplorer-globalState .jp-DynamoExplorer-link").count() == 0
    assert guards.locator('.jp-DynamoExplorer-guardGroup[data-tier="shape"] .jp-DynamoExplorer-link').inner_text() == "line 3"

    # The recompile timeline: [0/0] → [0/1] with the failed guard on the arrow; chips and arrow select compiles.
    timeline = guards.locator('[data-section="recompile-timeline"]')
    assert timeline.locator(".jp-DynamoExplorer-chip").evaluate_all("els => els.map(e => e.dataset.compileId)") == ["0/0", "0/1"]
    step = timeline.locator(".jp-DynamoExplorer-timelineStep")
    assert "size mismatch at index 0" in step.inner_text()
    timeline.locator('[data-compile-id="0/0"]').click()
    page.wait_for_function("r => r.dataset.status === 'ready'", arg=root.element_handle())
    assert title.get_attribute("data-compile-id") == "0/0"
    assert title.locator('[data-section="symbols"]').count() == 0  # [0/0] is static
    guards.locator(".jp-DynamoExplorer-timelineStep").click()
    page.wait_for_function("r => r.dataset.status === 'ready'", arg=root.element_handle())
    assert title.get_attribute("data-compile-id") == "0/1"
    assert page.errors == [], page.errors


# the report holds 2 guards and 300 characters of the tree; the output holds no part when shown (a budget of 0 bytes)
CUT_CAPS = (
    "%load_ext kernel_ext\nimport torch\nfrom compiler.collectors.guards import guards\nfrom kernel_ext import parts\n"
    "guards.MAX_GUARDS_PER_FRAME, guards.MAX_TREE_CHARS = 2, 300\nparts.OUTPUT_PARTS_BYTES = 0"
)


# the first explorer our renderer drew ready in the page: the one still shown once the kernel completed its output (not
# drawn again); the progress line's widget (data-host) may draw the report too before the output becomes the report
FIRST_READY = """(() => {
    window.__firstReady = null;
    new MutationObserver(changes => {
        for (const c of changes) {
            const el = c.target;
            if (!window.__firstReady && el.classList && el.classList.contains('jp-DynamoExplorer') && !el.dataset.host
                && el.dataset.status === 'ready') {
                window.__firstReady = el;
            }
        }
    }).observe(document, {subtree: true, attributes: true, attributeFilter: ['data-status']});
})();"""


def test_the_whole_of_a_cut_part_loads_from_the_notebook_saved_and_reopened(lab, page):
    """The output holds what its report holds in part beside it (minor 25, ``PARTS_MIME_TYPE``), every part once the
    view is drawn though none fit its first display's budget (the kernel completes the output: [Note: an output
    completed once drawn]): saved, the kernel gone, opened again with a new kernel that never ran the cell, Load all
    draws every guard and the whole tree."""
    page.add_init_script(FIRST_READY)
    _run_notebook(page, lab, "cut.ipynb", [CUT_CAPS, DOUBLE_CELL])
    report = page.evaluate(labserver.REPORT_JS)
    cut = {c["part"]: c for c in report["parts_cut"] if c["compile_id"] == "0/0"}
    assert cut["guards"]["kept"] == 2 and cut["guards"]["total"] > 2
    root = page.locator(ROOT)
    lacking = sum(1 for c in report["parts_cut"] if not c.get("log"))
    page.wait_for_function(  # the kernel wrote the parts into the output; the view drawn stayed
        "([r, n]) => r.dataset.partsHeld === String(n)", arg=[root.element_handle(), lacking], timeout=30_000
    )
    assert root.get_attribute("data-status") == "ready"
    assert page.evaluate("() => window.__firstReady === document.querySelector('.jp-DynamoExplorer[data-parts-held]')")
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_timeout(1000)
    lab.reset()  # the kernel that ran the cell, and the parts it kept, are gone
    _open_saved(page, lab, "cut.ipynb", 1)
    root = page.locator(ROOT)

    guards = root.locator('[data-pane="guards"]')
    title = guards.locator(".jp-DynamoExplorer-paneTitleText")
    # one count (guard_count, minor 24): the frame's guards, whether or not the report holds every row
    assert title.inner_text().endswith(f"({cut['guards']['total']})")
    rows = guards.locator(".jp-DynamoExplorer-guardList")
    held = rows.inner_text()
    line = guards.locator('.jp-DynamoExplorer-partCut[data-part="guards"]')
    assert f"first 2 of {cut['guards']['total']} guards" in line.inner_text()
    assert line.locator("button").inner_text() == f"Load all {cut['guards']['total']} from this notebook"
    line.locator("button").click()
    guards.locator('.jp-DynamoExplorer-partCut[data-part="guards"]').wait_for(state="detached", timeout=60_000)
    assert title.inner_text().endswith(f"({cut['guards']['total']})")
    assert len(rows.inner_text()) > len(held)  # the rows past the first two are drawn

    tree = guards.locator("details.jp-DynamoExplorer-guardTree")
    tree.locator("summary").click()
    assert "(truncated)" in tree.locator("pre").inner_text()
    tree.locator('.jp-DynamoExplorer-partCut[data-part="guard_tree"] button').click()
    page.wait_for_function(
        "p => { const t = p.querySelector('details.jp-DynamoExplorer-guardTree'); "
        "return t && t.open && !t.querySelector('.jp-DynamoExplorer-partCut') && t.querySelector('pre'); }",
        arg=guards.element_handle(),
        timeout=60_000,
    )
    text = tree.locator("pre").inner_text()
    assert "(truncated)" not in text and len(text) > cut["guard_tree"]["kept"]
    assert page.errors == [], page.errors


# Issue 12 item 4: the dtype, an int and a flag change at once; Dynamo's reason names `n == 2` only.
MANY_CELL = (
    "%%dynamo --backend eager\ndef f(x, n, flag):\n    y = x * n\n    if flag:\n        y = y + 1\n    return y\n\n"
    "a = f(torch.ones(2, 3), 2, True)\nb = f(torch.ones(2, 3, dtype=torch.float64), 3, False)\n"
)


def test_every_failing_guard_the_decision_and_the_diff_of_a_recompile_on_a_real_cell(lab, page):
    _run_notebook(page, lab, "many.ipynb", ["%load_ext kernel_ext\nimport torch", MANY_CELL])
    root = page.locator(ROOT)
    _select(root, "0/1")
    guards = root.locator('[data-pane="guards"]')

    # Every guard of [0/0] that failed, with what it expected and what the call brought; Dynamo's one marked.
    summary = guards.locator('[data-section="recompile-reasons"] summary')
    assert summary.inner_text() == "Recompiled: 3 guards of [0/0] failed for this call"
    table = guards.locator('[data-section="guard-failures"]')
    assert table.get_attribute("data-failed-compile-id") == "0/0"
    rows = table.locator(".jp-DynamoExplorer-failure")
    seen = rows.evaluate_all(
        """rows => rows.map(r => [r.dataset.type, r.dataset.source, r.dataset.property,
            r.querySelector('.jp-DynamoExplorer-expected').textContent,
            r.querySelector('.jp-DynamoExplorer-actual').textContent,
            r.classList.contains('jp-mod-reason')])"""
    )
    assert sorted(seen) == sorted(
        [
            ["EQUALS_MATCH", "L['n']", "", "2", "3", True],
            ["TENSOR_MATCH", "L['x']", "dtype", "torch.float32", "torch.float64", False],
            ["TRUE_MATCH", "L['flag']", "", "True", "False", False],
        ]
    ), seen
    assert rows.first.is_visible()
    # Notebook line 3 is `y = x * n` (the magic is line 1): the link of the int's failure names it.
    assert rows.filter(has_text="EQUALS_MATCH").locator(".jp-DynamoExplorer-link").inner_text() == "line 3"

    # The int that changed is what automatic dynamic marked: said under its failure, with the symbol [0/1] got.
    decision = rows.filter(has_text="EQUALS_MATCH").locator('[data-section="automatic-dynamic-decision"]')
    text = decision.inner_text()
    assert re.fullmatch(
        r"→ Dynamo marked L\['n'\] \(any value\) dynamic \(was 2\); \[0/1\] compiled with s\d+ = L\['n'\]", text
    ), text
    assert decision.is_visible()

    # The diff against [0/0]: the tensor guard changed, its failed row marked, shown once opened.
    diff = guards.locator('details[data-section="guard-diff"]')
    diff.locator("summary").click()
    changed = diff.locator('[data-diff="changed"]', has_text="TENSOR_MATCH L['x']")
    assert changed.is_visible() and "jp-mod-failed" in changed.get_attribute("class")
    assert diff.locator('[data-diff="removed"]', has_text="torch.float32").count() == 1
    assert diff.locator('[data-diff="added"]', has_text="torch.float64").count() == 1
    OUT.mkdir(parents=True, exist_ok=True)
    guards.screenshot(path=str(OUT / "guards_recompile_many_0-1.png"))
    assert page.errors == [], page.errors


AXE_RUN = """async root => {
    const result = await axe.run(root, {
        runOnly: {type: 'rule', values: ['color-contrast']},
        resultTypes: ['violations', 'incomplete']
    });
    return {
        violations: result.violations.flatMap(v => v.nodes.map(n => {
            const d = (n.any[0] || {}).data || {};
            return `${n.html.slice(0, 100)}: ${d.fgColor} on ${d.bgColor} = ${d.contrastRatio} (needs ${d.expectedContrastRatio})`;
        })),
        incomplete: result.incomplete.reduce((k, v) => k + v.nodes.length, 0)
    };
}"""

# WCAG 2 contrast of each FX node label against its box's fill (axe leaves SVG text 'incomplete').
SVG_LABELS = """root => {
    // A computed colour as [r, g, b, alpha] in 0-255: rgb()/rgba(), or color(srgb r g b / a) for a color-mix().
    const parse = c => {
        const n = c.match(/[\\d.]+/g).map(Number);
        const srgb = c.startsWith('color(');
        const [r, g, b] = n.slice(0, 3).map(v => (srgb ? v * 255 : v));
        return [r, g, b, n.length > 3 ? n[3] : 1];
    };
    const over = (fg, bg) => fg.slice(0, 3).map((v, i) => v * fg[3] + bg[i] * (1 - fg[3]));
    const lum = c => {
        const [r, g, b] = c.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const out = [];
    for (const node of root.querySelectorAll('[data-pane="fx-graph"] svg g.node')) {
        const shape = node.querySelector('path, polygon, ellipse');
        const text = node.querySelector('text');
        if (!shape || !text) continue;
        const bg = parse(getComputedStyle(shape).fill);
        const fg = over(parse(getComputedStyle(text).fill), bg);
        const [a, b] = [lum(fg), lum(bg.slice(0, 3))].sort((x, y) => y - x);
        out.push([node.dataset.node, (a + 0.05) / (b + 0.05)]);
    }
    return out;
}"""


def test_contrast_passes_wcag_aa_in_light_and_dark(lab, page):
    assert AXE.is_file(), "axe-core is missing from node_modules: npm install"
    reports = ["toy_example", "recompile_dtype"]
    _saved_notebook(lab, "contrast.ipynb", reports)
    page.set_viewport_size({"width": 1500, "height": 7000})  # axe reads colours only of what is on screen
    _open_saved(page, lab, "contrast.ipynb", len(reports))
    roots = page.locator(ROOT)
    _select(roots.nth(1), "0/1")  # the recompile: its failed guard and the guard diff (issue 11: red on dark red)
    assert roots.nth(1).locator(".jp-DynamoExplorer-diffRow.jp-mod-failed").count() == 1
    page.add_script_tag(content=AXE.read_text())
    # Show every row to axe: pane bodies at full height, every fold open. JupyterLab's <body> has no height
    # (its shell is positioned absolutely) and overflow: hidden, which axe takes for 'clipped to nothing'.
    page.add_style_tag(content=".jp-DynamoExplorer-paneBody { max-height: none !important; }")
    page.evaluate(
        """() => {
            document.body.style.height = '100vh';
            document.querySelectorAll('.jp-DynamoExplorer details').forEach(d => { d.open = true; });
        }"""
    )
    OUT.mkdir(parents=True, exist_ok=True)
    failures = []
    for theme, light in THEMES.items():
        page.evaluate("t => window.jupyterapp.commands.execute('apputils:change-theme', {theme: t})", theme)
        page.wait_for_function("l => document.body.dataset.jpThemeLight === l", arg=light)
        page.wait_for_timeout(500)
        for i, name in enumerate(reports):
            root = roots.nth(i)
            root.evaluate("r => r.scrollIntoView({block: 'start'})")
            page.wait_for_timeout(200)
            result = root.evaluate(AXE_RUN)
            failures += [f"{theme}, {name}: {v}" for v in result["violations"]]
            labels = root.evaluate(SVG_LABELS)
            assert labels, f"{name}: no FX node label found to check"
            failures += [f"{theme}, {name}: FX node {n} label contrast {r:.2f}" for n, r in labels if r < 4.5]
            root.screenshot(path=str(OUT / f"{name}_{'light' if light == 'true' else 'dark'}.png"))
    assert failures == [], "\n".join(failures)
    assert page.errors == [], page.errors
