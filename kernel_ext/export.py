"""The standalone HTML export (``dynamo-explorer run … --html``, ``%%dynamo --html``): one file with the report
and the real renderer, that opens offline in any browser.

The page inlines the bundle ``npm run build`` writes to ``kernel_ext/standalone/`` (esbuild, from
``labextension/src/hosts/standalone.ts``: the JupyterLab renderer's ``ReportView``, its CSS and the wasm graphviz) and
the report as ``<script type="application/json" id="dynamo-explorer-report">``; a report read from a trace that left
big guard trees in its log (``PartCut.log``) has them in ``<script type="application/json" id="dynamo-explorer-parts">``,
compressed (``compiler.trace.parts.page_parts``), and a run's page the whole of what its report holds only in part
(guards past 5,000 a frame): [Note: parts in a page]; the guards pane loads them when asked. Nothing is fetched: a
Content-Security-Policy allows only the page's own script (by its hash) and its wasm, so the page cannot
reach the network even if it tried.

Contents:
- ``standalone_html(report, parts) -> str``: the page; ``write_html(report, path, parts)``: the page, written as UTF-8;
  ``write_html_pages``: a page, or a page a rank.
- ``diff_page(diff) -> str``: the page of a diff of two runs (``dynamo-explorer diff --html``): the diff as
  ``<script type="application/json" id="dynamo-explorer-diff">``, drawn by the same bundle's diff view, with the
  static summary (``diff_html.py``) inside the root until the script draws (a reader with scripts off reads it).
- ``renderer_problem() -> str | None``: None when the bundle is built, else a one-line fix (``outputs.Outputs``
  checks it before the run).
- ``script_json(value) -> str``: JSON that cannot end its ``<script>`` element (see the note).
- ``ExportError``: the bundle is missing or the report breaks the schema; the message is one line.
- ``THEME``: the light-theme ``--jp-*`` defaults a plain page lacks (JupyterLab's light theme values);
  ``theme_rule()``: the CSS rule that puts them on a root with ``STANDALONE_CLASS`` (the page and the widget).

[Note: JSON in a script element] The HTML parser ends a ``<script>`` at ``</script`` and changes state at
``<!--`` whatever JavaScript or JSON would think, so a user string holding ``</script><!--`` must not
appear verbatim. ``script_json`` writes ``<``, ``>`` and ``&`` as ``\\u003c``/``\\u003e``/``\\u0026``
(the same string to ``JSON.parse``); U+2028/2029 likewise, for readers that treat the text as JavaScript.
Those characters only occur inside JSON strings, so the replacement cannot touch the structure.

No IPython import: the command line (``dynamo_explorer``) writes pages through ``outputs.py`` too.
"""

from __future__ import annotations

import base64
import concurrent.futures
import hashlib
import html
import os
from pathlib import Path
from typing import Any

__all__ = [
    "BUNDLE_DIR",
    "PARTS_ID",
    "REPORT_ID",
    "ROOT_ID",
    "THEME",
    "ExportError",
    "diff_page",
    "renderer_problem",
    "script_json",
    "standalone_html",
    "theme_rule",
    "write_html",
    "write_html_pages",
]

#: Where ``npm run build`` (``build:standalone``) writes the bundle, inside the package.
BUNDLE_DIR = Path(__file__).resolve().parent / "standalone"
BUNDLE_JS = BUNDLE_DIR / "dynamo-explorer.js"
BUNDLE_CSS = BUNDLE_DIR / "dynamo-explorer.css"
#: Element ids the bundle reads (``standalone.ts`` REPORT_ID and ROOT_ID).
REPORT_ID = "dynamo-explorer-report"
DIFF_ID = "dynamo-explorer-diff"
PARTS_ID = "dynamo-explorer-parts"  # a trace's big guard trees (standalone.ts PARTS_ID)
ROOT_ID = "dynamo-explorer-root"
#: Class ``standalone.ts`` puts on the root next to ``jp-DynamoExplorer``; THEME hangs on it.
STANDALONE_CLASS = "jp-DynamoExplorer-standalone"

#: JupyterLab's light theme (``@jupyterlab/theme-light-extension``) for every ``--jp-*`` variable the renderer's
#: CSS reads: a plain page has none of them. A test checks the list against the built CSS.
THEME: dict[str, str] = {
    "--jp-border-width": "1px",
    "--jp-border-color0": "#bdbdbd",
    "--jp-border-color1": "#bdbdbd",
    "--jp-border-color2": "#e0e0e0",
    "--jp-border-color3": "#eee",
    "--jp-brand-color0": "#0d47a1",
    "--jp-brand-color1": "#1976d2",
    "--jp-brand-color2": "#64b5f6",
    "--jp-brand-color3": "#bbdefb",
    "--jp-ui-font-family": 'system-ui, -apple-system, blinkmacsystemfont, "Segoe UI", helvetica, arial, sans-serif',
    "--jp-ui-font-size0": "0.83333em",
    "--jp-ui-font-size1": "13px",
    "--jp-ui-font-size2": "1.2em",
    "--jp-ui-font-color0": "#000",
    "--jp-ui-font-color1": "rgba(0, 0, 0, 0.87)",
    "--jp-ui-font-color2": "rgba(0, 0, 0, 0.54)",
    "--jp-ui-font-color3": "rgba(0, 0, 0, 0.38)",
    "--jp-ui-inverse-font-color0": "#fff",
    "--jp-ui-inverse-font-color1": "#fff",
    "--jp-inverse-layout-color2": "#424242",
    "--jp-info-color1": "#0097a7",
    "--jp-content-font-color0": "#000",
    "--jp-content-font-color1": "rgba(0, 0, 0, 0.87)",
    "--jp-content-link-color": "#0d47a1",
    "--jp-code-font-family": 'menlo, consolas, "DejaVu Sans Mono", monospace',
    "--jp-code-font-size": "13px",
    "--jp-layout-color0": "#fff",
    "--jp-layout-color1": "#fff",
    "--jp-layout-color2": "#eee",
    "--jp-layout-color3": "#bdbdbd",
    "--jp-layout-color4": "#757575",
    "--jp-input-background": "#f5f5f5",
    "--jp-error-color1": "#d32f2f",
    "--jp-warn-color0": "#e65100",
    "--jp-warn-color1": "#f57c00",
    "--jp-warn-color2": "#ffb74d",
    "--jp-warn-color3": "#ffe0b2",
    "--jp-success-color1": "#388e3c",
    "--jp-rendermime-error-background": "#fdd",
    "--jp-mirror-editor-keyword-color": "green",
    "--jp-mirror-editor-atom-color": "#88f",
    "--jp-mirror-editor-number-color": "#080",
    "--jp-mirror-editor-def-color": "#00f",
    "--jp-mirror-editor-variable-2-color": "#00366d",
    "--jp-mirror-editor-property-color": "#05a",
    "--jp-mirror-editor-operator-color": "#7800c2",
    "--jp-mirror-editor-comment-color": "#408080",
    "--jp-mirror-editor-string-color": "#ba2121",
    "--jp-mirror-editor-meta-color": "#a2f",
    "--jp-mirror-editor-builtin-color": "green",
    "--jp-mirror-editor-attribute-color": "#00c",
}

_PAGE_CSS = "body { margin: 0; padding: 12px; background: #fff; }"

_SCRIPT_UNSAFE = (
    (b"<", b"\\u003c"),
    (b">", b"\\u003e"),
    (b"&", b"\\u0026"),
    ("\u2028".encode(), b"\\u2028"),
    ("\u2029".encode(), b"\\u2029"),
)


def theme_rule() -> str:
    """The CSS rule that gives a root with ``STANDALONE_CLASS`` JupyterLab's light-theme values (``THEME``)."""
    return f".{STANDALONE_CLASS} {{ {''.join(f'{name}: {value}; ' for name, value in THEME.items())}}}"


class ExportError(RuntimeError):
    """The standalone page cannot be made; the message is one line naming the fix."""


def renderer_problem() -> str | None:
    """None when the standalone bundle is built, else a one-line fix."""
    missing = [p.name for p in (BUNDLE_JS, BUNDLE_CSS) if not p.is_file()]
    if not missing:
        return None
    return (
        f"the standalone renderer is not built ({', '.join(missing)} missing in {BUNDLE_DIR}): "
        "run `npm run build` (or `pip install -e .`)"
    )


def script_json(value: Any) -> str:
    """``value`` as JSON that is safe as the text of a ``<script>`` element (see the module's note)."""
    import orjson

    data = orjson.dumps(value)
    for unsafe, escaped in _SCRIPT_UNSAFE:
        data = data.replace(unsafe, escaped)
    return data.decode("utf-8")


def standalone_html(report: dict[str, Any], parts: dict[str, Any] | None = None) -> str:
    """The self-contained page for a schema-valid ``report``; ``ExportError`` when it cannot be made. ``parts``: the
    whole of what the report holds only in part (``CellRun.parts``, by ``PartCut.key``), held by the page compressed
    beside what a trace's report left in its log: every guard in the page ([Note: parts in a page])."""
    from compiler.encoding import encode_report
    from compiler.schema import report_errors
    from compiler.summary import one_line

    problem = renderer_problem()
    if problem is not None:
        raise ExportError(problem)
    errors = report_errors(report)
    if errors:
        raise ExportError(f"the report does not follow the compile-report schema ({errors[0]}); it is not exported")
    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # the report's gzip beside the parts' (no GIL held)
        stored = pool.submit(encode_report, report)
        held = _held_parts(report, parts or {})
        data = script_json(stored.result())
    return _page(
        _title(report),
        one_line(report),
        f'<script type="application/json" id="{REPORT_ID}">{data}</script>\n'
        + (f'<script type="application/json" id="{PARTS_ID}">{script_json(held)}</script>\n' if held else ""),
    )


def _held_parts(report: dict[str, Any], parts: dict[str, Any]) -> dict[str, Any] | None:
    """[Note: parts in a page] A page holds the whole of each part its report holds only in part: a trace's guard
    trees from the log (``compiler.trace.parts.page_parts``; ``parts`` holds those compressed as the log was read,
    ``PageBlob``), a run's rows and trees as the kernel keeps them (``parts``), each gzip + base64 above 256 KB;
    ``{"keys": {key: blob index}, "blobs": [...]}`` (partsModel.ts ``embedParts``), or None when there is none; a part
    already in that form (``PageBlob``: as ``%%dynamo``'s kernel stored it) is taken as it is. A
    385-layer model's parts are 43 MB as rows and text, 2 MB gzipped. A ``%%dynamo`` output holds the same shape
    beside its report (``kernel_ext.parts.held``, under ``PARTS_MIME_TYPE``): a saved notebook loads them too."""
    from compiler.encoding import encode_value
    from compiler.model import json_ready
    from compiler.trace.parts import PageBlob, page_parts

    held = page_parts(report, parts) or {"keys": {}, "blobs": []}  # a trace's trees compressed as it was read: ready
    for cut in report.get("parts_cut") or []:
        whole = parts.get(cut["key"])
        if whole is not None and cut["key"] not in held["keys"]:
            held["keys"][cut["key"]] = len(held["blobs"])  # a part the kernel stored (%%dynamo) is ready as it is
            held["blobs"].append(whole.blob if isinstance(whole, PageBlob) else encode_value(json_ready(whole)))
    return held if held["keys"] else None


def diff_page(diff: dict[str, Any]) -> str:
    """The self-contained page of a schema-valid diff (``compiler.diff``); ``ExportError`` when it cannot be made."""
    import jsonschema

    from compiler.schema import validate_diff

    from .diff_html import render

    problem = renderer_problem()
    if problem is not None:
        raise ExportError(problem)
    try:
        validate_diff(diff)
    except jsonschema.ValidationError as exc:
        raise ExportError(f"the diff does not follow its schema ({str(exc).splitlines()[0]}); it is not exported") from None
    a, b = diff["sides"]
    said = diff["first_difference"] or "the same compile story"
    return _page(
        f"Dynamo Explorer · diff {os.path.basename(a['source'])} {os.path.basename(b['source'])}",
        said,
        f'<script type="application/json" id="{DIFF_ID}">{script_json(diff)}</script>\n',
        render(diff),
    )


def _page(title: str, description: str, data: str, fallback: str = "") -> str:
    """A page: ``data`` (the embedded JSON), the root (holding ``fallback`` until the script draws), the bundle."""
    js = _inline(BUNDLE_JS, "script")
    css = _inline(BUNDLE_CSS, "style")
    digest = base64.b64encode(hashlib.sha256(js.encode("utf-8")).digest()).decode("ascii")
    # No network, no other script: only this page's own script (by hash) and the wasm it instantiates.
    policy = f"default-src 'none'; script-src 'sha256-{digest}' 'wasm-unsafe-eval'; style-src 'unsafe-inline'; img-src data:"
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{policy}">\n'
        f'<meta name="generator" content="dynamo-explorer {html.escape(_version())}">\n'
        f'<meta name="description" content="{html.escape(description)}">\n'
        f"<title>{html.escape(title)}</title>\n"
        f"<style>\n{_PAGE_CSS}\n{theme_rule()}\n</style>\n"
        f"<style>\n{css}\n</style>\n"
        "</head>\n<body>\n"
        f"{data}"
        f'<div id="{ROOT_ID}">{fallback}</div>\n'
        + ("" if fallback else "<noscript>This Dynamo Explorer report needs JavaScript.</noscript>\n")
        + f"<script>{js}</script>\n"
        "</body>\n</html>\n"
    )


def write_html(report: dict[str, Any], path: str | os.PathLike[str], parts: dict[str, Any] | None = None) -> None:
    """Write ``standalone_html(report, parts)`` to ``path`` (UTF-8); ``ExportError`` when it cannot be made."""
    page = standalone_html(report, parts)
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(page)


def write_html_pages(
    report: dict[str, Any],
    path: str,
    reports: dict[int, dict[str, Any]] | None = None,
    parts: dict[str, Any] | None = None,
) -> list[str]:
    """``write_html``; for a multi-rank report whose ranks' own reports are given, one page a rank, linked from each
    other's ranks view (``compiler.ranks.rank_pages``). The paths written, the report's own first. ``parts``: the
    whole of what the report holds only in part, held by its page."""
    if not reports or not report.get("ranks"):
        write_html(report, path, parts)
        return [path]
    from compiler.ranks import rank_pages

    done = []
    for page_path, page in rank_pages(report, reports, path):
        write_html(page, page_path)
        done.append(page_path)
    return done


def _inline(path: Path, tag: str) -> str:
    """A bundle file's text, checked to be inlinable in ``<tag>`` (esbuild escapes ``</script`` and
    ``</style`` in what it writes; this guards against a bundler that does not)."""
    text = path.read_text(encoding="utf-8")
    lowered = text.lower()
    for marker in (f"</{tag}", "<!--"):
        if marker in lowered:
            raise ExportError(f"{path.name} holds {marker!r} and cannot be inlined: rebuild it with `npm run build`")
    return text


def _title(report: dict[str, Any]) -> str:
    """``Dynamo Explorer · In [5] · toy_example · torch 2.13.0``: the cell (or script), its first frame, torch."""
    parts = ["Dynamo Explorer"]
    label = next((s["label"] for s in report.get("sources", []) if s.get("kind") == "cell"), "")
    if label and not label.startswith("<"):
        parts.append(label)
    frames = report.get("frames", [])
    if frames:
        parts.append(frames[0]["code"]["name"])
    parts.append(f"torch {report.get('torch_version', '?')}")
    return " · ".join(parts)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("dynamo-explorer")
    except PackageNotFoundError:
        return "(source)"
