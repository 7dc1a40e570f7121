"""The static view's Dispatch section: for each code Dynamo compiled, the ``transformed_<fn>`` text of
``report.dispatch`` (its cache entries in the order Dynamo tries them, then the fallback), as the JupyterLab
pane's Python toggle shows it ([Note: dispatch view] in compiler/collectors/dispatch_view.py).

Contents: ``dispatch_section(report, cell) -> str`` (a ``StaticSection.report`` part). One folded ``<details>``
per code, opened when the code has more than one entry (a recompile: the case worth reading); nothing for a
report without the field (schema minor < 7) or with no compiled code. Every string from the report goes
through ``_e`` ([Note: escaping] in static_html.py).
"""

from __future__ import annotations

from typing import Any

from compiler.schema import PANE_TITLES

from .static_chart import escape as _e

__all__ = ["MAX_DISPATCH_CODES", "dispatch_section"]

#: Codes shown (a model compiled as many small frames); the report keeps every one.
MAX_DISPATCH_CODES = 20


def dispatch_section(report: dict, cell: Any) -> str:
    """The Dispatch section of the static view (``cell``: static_html's ``_Cell``, unused)."""
    codes = [d for d in report.get("dispatch") or [] if isinstance(d, dict)]
    if not codes:
        return ""
    out = [f'<div class="dx-dispatch"><h4>{_e(PANE_TITLES["dispatch"])} ({len(codes)})</h4>']
    for d in codes[:MAX_DISPATCH_CODES]:
        code = d.get("code") or {}
        entries = d.get("entries") or []
        fallback = (d.get("fallback") or {}).get("action", "")
        summary = (
            f"<code>{_e(code.get('name'))}</code>: {len(entries)} cache entr{'y' if len(entries) == 1 else 'ies'}, "
            f"then {_e(fallback)}"
        )
        opened = " open" if len(entries) > 1 else ""
        out.append(f"<details{opened}><summary>{summary}</summary><pre>{_e(d.get('text'))}</pre></details>")
    if len(codes) > MAX_DISPATCH_CODES:
        out.append(f'<div class="dx-meta">… {len(codes) - MAX_DISPATCH_CODES} more codes: the report itself holds them</div>')
    out.append("</div>")
    return "".join(out)
