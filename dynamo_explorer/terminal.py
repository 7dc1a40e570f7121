"""The report as a person at a terminal reads it first: what ``dynamo-explorer run SCRIPT.py`` (no ``--json`` or
``--html``) and ``dynamo-explorer open TRACE`` print after the run (issue 40, item 2).

``print_summary(report, file, title)`` writes, in this order:
- the header: the script (or trace), torch, backend, device, scope, and what the scope compiled
  (``scope_reason``);
- a table of the frames Dynamo compiled: compile id as ``TORCH_LOGS`` prints it (``[0/0]``), function, where it
  starts (``file:line``), status, graphs and their FX nodes, graph breaks, guards and compile time;
- each distinct graph break once: ``file:line``, Dynamo's graph-break type and reason, the frames that met it,
  the user's line of code and Dynamo's first hint;
- each recompile: the compile id, the function and the guard that failed (Dynamo's own words);
- each compile's cache story (inductor's FX graph cache, AOTAutograd's): hit, miss or bypass, and for a miss the key
  components that differ from the nearest earlier entry, with the lines that changed;
- the one-line summary of every output (``compiler.summary.one_line``).

Drawn with rich (tables, colour) on a terminal; plain text without colour or box lines when the output is a pipe or
a file (``NO_COLOR`` honoured), so it can be read by ``grep`` and diffed. Nothing here changes the report: it reads
the same fields the explorer's panes read.
"""

from __future__ import annotations

import os
import sys
from typing import IO, Any

from compiler.summary import distinct_breaks, guard_count, one_line, plural

__all__ = ["print_summary"]

#: the frames table's columns
COLUMNS = ("id", "function", "where", "status", "graphs", "nodes", "breaks", "guards", "compile s")
#: a frame's status, coloured on a terminal (Dynamo's FrameStatus names)
STATUS_STYLE = {"error": "red", "skipped": "yellow", "graph_break": "yellow", "recompile": "cyan"}
#: how many rows of each list a summary shows before saying how many more there are (the report has them all)
MAX_ROWS = 40


def print_summary(report: dict[str, Any], file: IO[str] | None = None, title: str | None = None) -> None:
    """Write the report's summary to ``file`` (stdout)."""
    from rich import box
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    out = file if file is not None else sys.stdout
    console = Console(file=out, highlight=False, soft_wrap=True, emoji=False)
    tty = console.is_terminal
    if not tty:  # a pipe or a file: plain lines, as wide as they are
        console = Console(file=out, highlight=False, soft_wrap=True, emoji=False, no_color=True, width=10_000)

    def line(text: str = "") -> None:
        console.print(text, overflow="ignore", crop=False)

    head = [f"torch {report.get('torch_version')}", f"backend {report.get('backend')}", f"device {report.get('device')}"]
    head.append(f"scope {report.get('scope')}")
    line(f"[bold]{escape(title or 'dynamo-explorer')}[/] · " + " · ".join(escape(str(h)) for h in head))
    if report.get("scope_reason"):
        line(f"[dim]{escape(report['scope_reason'])}[/]")
    frames = report.get("frames") or []
    if not frames:
        line("no frame compiled")
    else:
        nodes = {g["id"]: len(g.get("nodes") or []) for g in report.get("graphs") or [] if g.get("kind") == "dynamo"}
        rows = []
        for f in frames[:MAX_ROWS]:
            code = f["code"]
            seconds = f.get("compile_time_s")
            rows.append(
                [
                    f"[{f['compile_id']}]",
                    str(code.get("name") or "?"),
                    f"{_where(code.get('filename') or '?')}:{code.get('firstlineno') if code.get('firstlineno') is not None else '?'}",
                    f["status"],
                    str(len(f.get("graph_ids") or [])),
                    str(sum(nodes.get(i, 0) for i in f.get("graph_ids") or [])),
                    str(len(f.get("graph_breaks") or [])),
                    str(guard_count(f)),
                    f"{seconds:.2f}" if isinstance(seconds, (int, float)) else "",
                ]
            )
        table = Table(box=box.SIMPLE_HEAD if tty else None, show_edge=False, pad_edge=False, collapse_padding=tty)
        for i, name in enumerate(COLUMNS):
            # the short columns keep their width (a compile id is never cut); a long name or path wraps
            fixed = name not in ("function", "where")
            width = max(len(name), *(len(r[i]) for r in rows))
            table.add_column(
                name,
                justify="right" if i >= 4 else "left",
                no_wrap=fixed,
                min_width=width if fixed else min(width, 12),
                overflow="fold",
                header_style="bold" if tty else "",
            )
        for r in rows:
            style = STATUS_STYLE.get(r[3], "") if tty else ""
            status = f"[{style}]{r[3]}[/]" if style else r[3]
            table.add_row(escape(r[0]), escape(r[1]), escape(r[2]), status, *r[4:])
        line()
        console.print(table, crop=False)
        _more(line, len(frames), "frames")
    breaks = distinct_breaks(report)
    if breaks:
        line()
        line(f"[bold]graph breaks[/] ({len(breaks)} distinct)")
        for row in breaks[:MAX_ROWS]:
            b = row["gb"]
            where = f"{_where(b.get('filename') or '?')}:{b.get('line') if b.get('line') is not None else '?'}"
            kind = b.get("gb_type") or "graph break"
            reason = b.get("reason") or ""
            said = kind if reason in ("", kind) else f"{kind}: {reason}"
            ids = ", ".join(f"[{i}]" for i in row["frames"])
            line(f"  [yellow]{escape(where)}[/]  {escape(_one(said))}  [dim]{escape(ids)}[/]")
            code = next((s.get("code") for s in reversed(b.get("user_stack") or []) if s.get("code")), None)
            if code:
                line(f"      [dim]{escape(code.strip())}[/]")
            hints = b.get("hints") or []
            if hints:
                line(f"      [green]hint:[/] {escape(_one(hints[0], 200))}")
        _more(line, len(breaks), "graph breaks")
    recompiles = [(f, r) for f in frames for r in f.get("recompile_reasons") or []]
    if recompiles:
        line()
        line(f"[bold]recompiles[/] ({len({f['compile_id'] for f, _ in recompiles})})")
        for f, r in recompiles[:MAX_ROWS]:
            line(
                f"  [cyan]{escape('[' + f['compile_id'] + ']')}[/] {escape(f['code']['name'])}: {escape(_one(r.get('reason') or ''))}"
            )
        _more(line, len(recompiles), "recompile reasons")
    stories = [f for f in frames if f.get("cache_story")]
    if stories:  # [Note: cache story]: the engine's words, one line a compile
        line()
        line(f"[bold]caches[/] ({len(stories)} compiles)")
        for f in stories[:MAX_ROWS]:
            line(f"  {escape('[' + f['compile_id'] + ']')} {escape(f['code']['name'])}: {escape(_one(f['cache_story']))}")
            for c in f.get("caches") or []:
                for d in (c.get("differs") or [])[:3]:
                    for changed in (d.get("lines") or [])[:4]:
                        line(f"      [dim]{escape(d['component'])}:[/] {escape(_one(changed, 200))}")
        _more(line, len(stories), "compiles' cache stories")
    checked = (report.get("numerics") or {}).get("graphs") or []
    if checked:  # [Note: numerics]: the engine's words, one line a checked call
        line()
        line(f"[bold]numerics[/] ({plural(len(checked), 'checked call')}, {report['numerics']['seconds']:.2f} s)")
        for g in checked[:MAX_ROWS]:
            colour = {"worse_than_eager": "red", "differs_no_worse": "yellow"}.get(g["verdict"], "dim")
            line(f"  [{colour}]{escape(_one(g['summary']))}[/]")
        _more(line, len(checked), "checked calls")
    exports = report.get("exports") or []
    if exports:  # [Note: export calls]: the engine's words, one line a call, and where a failure came from
        line()
        line(f"[bold]export[/] ({plural(len(exports), 'call')})")
        for c in exports[:MAX_ROWS]:
            f = c.get("failure")
            line(f"  [{'red' if f else 'dim'}]{escape(_one(c['summary']))}[/]")
            if f and f.get("code"):
                line(f"      [dim]line {f['line']}:[/] {escape(_one(f['code']))}")
            for fix in (f or {}).get("suggested", [])[:3]:
                line(f"      [dim]suggested fix:[/] {escape(_one(fix))}")
            for d in (c.get("draft") or [])[:3]:
                at = f" at line {d['line']}" if d.get("line") else ""
                line(
                    f"      [dim]{escape(d['kind'])}{at}:[/] {escape(_one(str(d.get('expr') or d.get('op'))))} assumed {escape(str(d.get('assumed')))}"
                )
        _more(line, len(exports), "export calls")
    if report.get("error"):
        err = report["error"]
        line()
        line(f"[bold red]the run raised[/] {escape(_one(str(err.get('type', '')) + ': ' + str(err.get('message', ''))))}")
    line()
    line(escape(one_line(report)))


def _more(line: Any, total: int, what: str) -> None:
    if total > MAX_ROWS:
        line(f"  [dim]... and {total - MAX_ROWS} {what} more (--json or --html for all of them)[/]")


def _one(text: str, limit: int = 300) -> str:
    """One line of at most ``limit`` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _where(filename: str) -> str:
    """A file as the user named it: relative to the working directory when it is below it."""
    if filename.startswith("<"):
        return filename
    try:
        rel = os.path.relpath(filename)
    except ValueError:  # another drive
        return filename
    return filename if rel.startswith("..") else rel
