"""The static view's markup pieces: escaping, tables, code blocks, ``<details>``, status badges, and its CSS.

[Note: escaping] Every string that comes from the report (user code, names, messages, guard checks, FX targets)
goes through ``escape`` (``html.escape`` with quotes), imported as ``_e`` by every static module. Links are emitted
only for ``http(s)://`` URLs. The SVG that ``dot`` writes is parsed and written again from an allow-list of SVG
elements and attributes (``static_fx.py``), its text escaped too. Nothing else from the report reaches the markup
unescaped; ``tests/kernel/test_static_html.py`` and the browser's XSS test check it.
"""

from __future__ import annotations

import html
from typing import Any

__all__ = [
    "CSS",
    "FULL_VIEW",
    "MAX_LINES",
    "MAX_PRE_CHARS",
    "MAX_ROWS",
    "badge",
    "details",
    "escape",
    "link",
    "one_line",
    "plain_line",
    "pre",
    "table",
]

#: Tables longer than this are cut (the full explorer shows everything).
MAX_ROWS = 400
#: Lines listed where the summary lists a few (log records, dynamic-shape symbols); the rest are counted.
MAX_LINES = 12
#: Code blocks (a failure's text, a graph's code when it has no picture) keep their start.
MAX_PRE_CHARS = 8_000

#: Where everything this summary leaves out is shown.
FULL_VIEW = (
    "the full explorer shows it (JupyterLab or Notebook 7 with dynamo-explorer, any notebook with ipywidgets, or "
    "<code>dynamo-explorer open --html</code>)"
)

_STATUS_LABEL = {
    "ok": "ok",
    "graph_break": "graph break",
    "recompile": "recompile",
    "skipped": "skipped",
    "error": "error",
    "empty": "empty",
}

# text-align needs !important: JupyterLab's and nbconvert's `:not(.jp-RenderedMarkdown).jp-RenderedHTMLCommon td`
# (two classes) right-aligns every cell of an HTML output
CSS = """
.dx-report{font-family:var(--jp-ui-font-family,system-ui,sans-serif);font-size:var(--jp-ui-font-size1,13px);
 color:var(--jp-ui-font-color1,#1f1f1f);line-height:1.35}
.dx-report h4{margin:10px 0 4px;font-size:var(--jp-ui-font-size2,14px)}
.dx-report pre,.dx-report code,.dx-mono{font-family:var(--jp-code-font-family,monospace);
 font-size:var(--jp-code-font-size,12px)}
.dx-report pre{margin:2px 0;padding:4px 6px;background:var(--jp-layout-color2,#f3f3f3);overflow:auto;max-height:420px}
.dx-report table{border-collapse:collapse;margin:2px 0}
.dx-report th,.dx-report td{border:1px solid var(--jp-border-color2,#d0d0d0);padding:1px 6px;text-align:left!important;
 vertical-align:top}
.dx-report th{background:var(--jp-layout-color2,#eee)}
.dx-report summary{cursor:pointer}
.dx-meta{color:var(--jp-ui-font-color2,#555)}
.dx-banner{padding:4px 8px;margin:4px 0;border-left:4px solid}
.dx-error{background:var(--jp-error-color3,#fde0e0);border-color:var(--jp-error-color1,#d32f2f)}
.dx-warn{background:var(--jp-warn-color3,#fff2cc);border-color:var(--jp-warn-color1,#f57c00)}
.dx-badge{padding:0 5px;border-radius:3px;white-space:nowrap}
.dx-s-ok{background:var(--jp-success-color3,#d4edda)}
.dx-s-graph_break{background:var(--jp-warn-color3,#fff2cc)}
.dx-s-recompile{background:var(--jp-info-color3,#dbeafe)}
.dx-s-skipped,.dx-s-empty{background:var(--jp-layout-color3,#e0e0e0)}
.dx-s-error{background:var(--jp-error-color3,#fde0e0)}
.dx-break{margin:4px 0 8px;padding:4px 8px;border-left:4px solid var(--jp-warn-color1,#f57c00)}
.dx-breaks{padding-left:22px}
.dx-report td .dx-mono{white-space:pre-wrap;overflow-wrap:anywhere}
.dx-report .dx-src .dx-hit{background:var(--jp-warn-color3,#fff2cc)}
.dx-mark{color:var(--jp-warn-color0,#b45309);font-weight:bold;cursor:help}
.dx-fx{color:var(--jp-ui-font-color1,#222);max-width:100%;overflow:auto}
.dx-fx svg{max-width:100%;height:auto}
.dx-fx text{fill:currentColor;font-family:var(--jp-ui-font-family,sans-serif)}
.dx-fx .graph>polygon{fill:none}
.dx-fx .node polygon,.dx-fx .node ellipse{fill:var(--jp-layout-color1,#fff);stroke:currentColor}
.dx-fx .edge path{stroke:currentColor}
.dx-fx .edge polygon{fill:currentColor;stroke:currentColor}
"""


def escape(value: Any) -> str:
    """Escape anything for HTML or SVG text and quoted attributes ([Note: escaping])."""
    return html.escape("" if value is None else str(value), quote=True)


_e = escape


def link(url: Any, text: str) -> str:
    """An <a> for http(s) URLs only; anything else is shown as escaped text."""
    if isinstance(url, str) and url.startswith(("https://", "http://")):
        return f'<a href="{_e(url)}" target="_blank" rel="noopener noreferrer">{_e(text)}</a>'
    return _e(url) if url else ""


def table(head: list[str], rows: list[list[str]], what: str, limit: int = MAX_ROWS) -> str:
    """A table of already-escaped cells; cut at ``limit`` rows with a visible note."""
    if not rows:
        return f'<div class="dx-meta">no {_e(what)}</div>'
    out = ["<table><thead><tr>", *(f"<th>{_e(h)}</th>" for h in head), "</tr></thead><tbody>"]
    out += ["<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows[:limit]]
    out.append("</tbody></table>")
    if len(rows) > limit:
        out.append(f'<div class="dx-meta">… {len(rows) - limit} more {_e(what)}: {FULL_VIEW}</div>')
    return "".join(out)


def pre(text: Any, limit: int = MAX_PRE_CHARS) -> str:
    """A code block of ``text``, cut at a line end before ``limit`` characters with a visible note."""
    text = "" if text is None else str(text)
    if len(text) <= limit:
        return f"<pre>{_e(text)}</pre>"
    cut = text.rfind("\n", 0, limit)
    cut = cut if cut > 0 else limit
    return f'<pre>{_e(text[:cut])}</pre><div class="dx-meta">… {len(text) - cut} more characters: {FULL_VIEW}</div>'


def plain_line(text: Any, limit: int = 200) -> str:
    """The first non-empty line of ``text``, at most ``limit`` characters (not escaped)."""
    first = next((line.strip() for line in str(text or "").splitlines() if line.strip()), "")
    return first if len(first) <= limit else first[: limit - 1] + "…"


def one_line(text: Any, limit: int = 200) -> str:
    """``plain_line``, escaped."""
    return _e(plain_line(text, limit))


def details(summary: str, body: str, open_: bool = False) -> str:
    return f"<details{' open' if open_ else ''}><summary>{summary}</summary>{body}</details>"


def badge(status: str) -> str:
    return f'<span class="dx-badge dx-s-{_e(status)}">{_e(_STATUS_LABEL.get(status, status))}</span>'
