"""The static view's ranks section: several ranks' compiles side by side and their first divergence (``report.ranks``).

A ranks × compile-ids table (each cell the compile's status, and its cache decisions when a trace gave them; a rank
that did not compile an id shows ``missing``), each rank's compile seconds with the straggler marked, and the first
divergence: what differs on which ranks, and its cause (the guard that failed, the collective where they part, the
diff of the two graphs); then each compile's collectives rank beside rank, in issue order, a rank's that differs from
the lowest rank's marked. Every
string from the report goes through ``_e`` (``html.escape`` with quotes: [Note: escaping] in static_html.py).

Contents: ``ranks_section(report) -> str`` (part of the header section) and ``RANKS_CSS``.
"""

from __future__ import annotations

import html
import re
from typing import Any

from compiler.collectives import describe, signature

__all__ = ["RANKS_CSS", "ranks_section"]

RANKS_CSS = (
    ".dx-ranks td.dx-missing{color:#b00}.dx-ranks td.dx-diverge{outline:2px solid #d60}"
    ".dx-divergence{border-left:3px solid #d60;padding:2px 6px;margin:4px 0}"
    ".dx-divergence pre{max-height:20em;overflow:auto;font-size:11px}"
)


def _e(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def ranks_section(report: dict[str, Any]) -> str:
    view = report.get("ranks")
    if not view:
        return ""
    ranks = view.get("ranks") or []
    order: list[str] = []
    for r in ranks:
        for c in r.get("compiles") or []:
            if c["compile_id"] not in order:
                order.append(c["compile_id"])
    div = view.get("divergence")
    odd = set(div["ranks"]) if div else set()
    head = "".join(f"<th>[{_e(cid)}]</th>" for cid in order)
    rows = []
    for r in ranks:
        by_id = {c["compile_id"]: c for c in r.get("compiles") or []}
        cells = []
        for cid in order:
            c = by_id.get(cid)
            mark = " dx-diverge" if div and cid == div.get("compile_id") and r["rank"] in odd else ""
            if c is None:
                cells.append(f'<td class="dx-missing{mark}">missing</td>')
            else:
                cache = f" · {_e(c['cache'])}" if c.get("cache") else ""
                start = f", from {c['start_s']:.2f} s" if c.get("start_s") is not None else ""
                cells.append(
                    f'<td class="{mark.strip()}" title="graph {_e(c.get("graph") or "none")}{start}">{_e(c["status"])}{cache}</td>'
                )
        straggler = " (straggler)" if r.get("straggler") else ""
        rows.append(
            f"<tr><td>{_rank_label(r, view.get('shown_rank'))}</td><td>{float(r.get('compile_s') or 0):.2f} s{straggler}</td>"
            f"<td>{_e(_span(r.get('compiles') or []))}</td>{''.join(cells)}</tr>"
        )
    table = (
        '<table class="dx-ranks"><tr><th>rank</th><th>compile</th><th title="seconds after the job\'s first compile">'
        f"compiling</th>{head}</tr>{''.join(rows)}</table>"
    )
    if div:
        detail = f"<pre>{_e(div['detail'])}</pre>" if div.get("detail") else ""
        verdict = f'<div class="dx-divergence"><b>First divergence</b> ({_e(div["kind"])}): {_e(div["summary"])}{detail}</div>'
    else:
        verdict = (
            '<div class="dx-meta">Every rank compiled alike: the same compile ids, graphs, breaks and cache decisions.</div>'
        )
    return (
        f"<h4>Ranks ({_e(view.get('world_size'))}; this report is rank {_e(view.get('shown_rank'))}'s)</h4>"
        f"<style>{RANKS_CSS}</style>{verdict}{table}{_collectives(ranks, order)}"
    )


_PAGE = re.compile(r"[\w.-]+\.html?")


def _rank_label(r: dict[str, Any], shown: Any) -> str:
    """``rank 1 (shown)``, or a link to another rank's page of an --html export of several ranks."""
    if r["rank"] == shown:
        return f"rank {_e(r['rank'])} (shown)"
    if isinstance(r.get("page"), str) and _PAGE.fullmatch(r["page"]):  # a page beside this one, never a script
        return f'<a href="{_e(r["page"])}">rank {_e(r["rank"])}</a>'
    return f"rank {_e(r['rank'])}"


def _span(compiles: list[dict[str, Any]]) -> str:
    """When a rank compiled, on the job's time axis: its first compile's start to its last one's end."""
    timed = [c for c in compiles if c.get("start_s") is not None and c.get("compile_s") is not None]
    if not timed:
        return "-"
    return f"{min(c['start_s'] for c in timed):.2f}-{max(c['start_s'] + c['compile_s'] for c in timed):.2f} s"


def _collectives(ranks: list[dict[str, Any]], order: list[str]) -> str:
    """One table per compile id that issues collectives: positions × ranks."""
    out = []
    for cid in order:
        seqs = [next((c.get("collectives") or [] for c in r.get("compiles") or [] if c["compile_id"] == cid), []) for r in ranks]
        longest = max((len(s) for s in seqs), default=0)
        if not longest:
            continue
        rows = []
        for i in range(longest):
            ref = signature(seqs[0][i]) if i < len(seqs[0]) else None
            cells = "".join(
                f"<td{'' if (signature(s[i]) if i < len(s) else None) == ref else ' class=dx-diverge'}>"
                f"{_e(describe(s[i] if i < len(s) else None))}</td>"
                for s in seqs
            )
            rows.append(f"<tr><td>#{i + 1}</td>{cells}</tr>")
        head = "".join(f"<th>rank {_e(r['rank'])}</th>" for r in ranks)
        out.append(
            f'<p class="dx-meta">[{_e(cid)}]: {longest} collective(s)</p><table class="dx-ranks"><tr><th></th>{head}</tr>{"".join(rows)}</table>'
        )
    return ("<p><b>Collectives, in issue order</b> (ranks pair them by position)</p>" + "".join(out)) if out else ""
