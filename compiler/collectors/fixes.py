"""Collector for ``report.fixes``: the remedies on offer for this run's graph breaks and recompiles.

Matches Dynamo's own words (the break's ``gb_type`` and reason, the recompile reason, a frame's
``fail_reason``, as torch 2.13 writes them) against a small catalogue, one ``Fix`` per remedy name with
every break, recompile or failure it addresses as a target. ``--try NAME`` re-runs the cell with one of
them applied (compiler/try_fix.py, [Note: try a fix]); a hint (``cond``) is shown, not run.

| Dynamo says | Fix (name) | kind |
|---|---|---|
| ``Unsupported Tensor.item() call with capture_scalar_outputs=False`` | ``capture_scalar_outputs`` | config |
| ``Data dependent operator`` on ``aten._local_scalar_dense`` (float(t), numpy on ``t.numpy()``) | ``capture_scalar_outputs`` | config |
| ``Failed to trace builtin operator`` ``print`` | ``reorderable_logging_functions`` (print added) | config |
| ``Dynamic shape operator`` (nonzero, unique, masked_select) | ``capture_dynamic_output_shape_ops`` | config |
| ``Could not guard on data-dependent expression E`` | ``torch_check:LINE`` (``torch._check(E)`` after the ``.item()``) | source_edit |
| ``tensor 'x' size mismatch at index N`` (a recompile) | ``mark_dynamic:x:N``, ``maybe_mark_dynamic:x:N``, ``dynamic`` | mark, option |
| any other break inside a helper the cell defines | ``allow_in_graph:NAME``, ``nonstrict_trace:NAME`` | register |
| ``Data-dependent branching`` | ``cond`` (a torch.cond rewrite) | hint |
| a failed export call N (``report.exports``): a constraint violation with suggested fixes | ``export_suggested:N`` | export |
| the same, its ``dynamic_shapes`` naming a ``Dim`` | ``export_dim_auto:N`` (each ``Dim`` as ``Dim.AUTO``) | export |
| a strict export of an unsupported construct or a data-dependent value (not a branch) | ``export_non_strict:N`` (``strict=False``) | export |
| a guard on a data-dependent value; an op without a fake kernel | ``export_draft:N`` (``draft_export``) | export |
| a data-dependent guard of a branch (``if``) | ``cond`` | hint |

``torch._check_is_size`` is not offered: torch 2.13 deprecates it (FutureWarning: "Use _check(i >= 0) instead"),
and it did not settle the measured case (``Ne(u0, 0)`` of an ``unflatten`` on an ``.item()``), which
``torch._check(n != 0)`` does.

Nothing here runs while the cell runs: it reads the finished report only.
"""

from __future__ import annotations

import ast
import functools
import json
import re
from dataclasses import dataclass

from ..model import CompileReport, ExportCall, Fix, FixTarget, Frame, GraphBreak
from ..user_code import is_user_file
from .base import CaptureContext, Collector
from .exports.words import spec_python

__all__ = ["FixesCollector", "check_line", "config_value", "fixes_for"]

_SIZE = re.compile(r"tensor '(?P<name>[A-Za-z_]\w*)' size mismatch at index (?P<dim>\d+)")
_GUARD = re.compile(r"Could not guard on data-dependent expression (?P<expr>.+?) \(unhinted")
_FILE = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<name>\S+)')
_UNBACKED = re.compile(r"\bu(\d+)\b")
_REL = re.compile(r"\b(?P<op>Ne|Eq)\((?P<a>[^(),]+), (?P<b>[^(),]+)\)")


class FixesCollector(Collector):
    """Fills ``report.fixes`` in finalize, from the frames, their breaks and their recompiles."""

    name = "fixes"
    requires = ("frames", "graph_breaks", "recompiles", "exports")

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        report.fixes = fixes_for(report)


@dataclass
class _Catalogue:
    """The fixes found so far, by name, in the order first met."""

    report: CompileReport

    def __post_init__(self) -> None:
        self.by_name: dict[str, Fix] = {}
        self.seen: set[tuple[str, str | None, str, int]] = set()  # (fix, compile id, kind, index): one target each

    def add(self, fix: Fix, target: FixTarget) -> None:
        """Record ``fix`` for ``target``: each graph break, but each recompiled frame once (a recompile lists a
        reason per old entry, and 100 recompiles of one code hold 5,050: the first that calls for the fix stands
        for its frame)."""
        known = self.by_name.setdefault(fix.name, fix)
        key = (fix.name, target.compile_id, target.kind, target.index if target.kind in ("graph_break", "export") else -1)
        if key not in self.seen:
            self.seen.add(key)
            known.targets.append(target)


def fixes_for(report: CompileReport) -> list[Fix]:
    """Every fix on offer for ``report``'s breaks, recompiles and failed frames."""
    cat = _Catalogue(report)
    for frame in report.frames:
        for i, b in enumerate(frame.graph_breaks):
            for fix in _break_fixes(report, frame, b):
                cat.add(fix, FixTarget(compile_id=frame.compile_id, kind="graph_break", index=i))
        for i, r in enumerate(frame.recompile_reasons):
            for fix in _recompile_fixes(report, frame, r.reason):
                cat.add(fix, FixTarget(compile_id=frame.compile_id, kind="recompile", index=i))
        if frame.fail_reason:
            check = _check_fix(report, frame.fail_reason)
            if check is not None:
                cat.add(check, FixTarget(compile_id=frame.compile_id, kind="failure", index=0))
    for call in report.exports:
        for fix in _export_fixes(call):
            cat.add(fix, FixTarget(compile_id=None, kind="export", index=call.index))
    return list(cat.by_name.values())


def _export_fixes(call: ExportCall) -> list[Fix]:
    """The fixes of a failed export call: export's own suggested fixes and ``Dim.AUTO`` for a constraint violation,
    ``strict=False`` for what strict mode cannot trace (but a branch on data, which fails in either mode), ``draft_export`` for a data-dependent guard or an op
    without a fake kernel, ``torch.cond`` for a branch on data (a hint). Each changes that call only (--try)."""
    f = call.failure
    if f is None or call.api == "torch._dynamo.export":
        return []
    n, what = call.index, f"export {call.module}" + (f" (line {call.line})" if call.line else "")
    fixes: list[Fix] = []
    if f.kind == "constraint_violation" and f.suggested:
        fixes.append(
            _export_fix(
                name=f"export_suggested:{n}",
                title=f"Apply export's suggested fixes to the dynamic_shapes of {what}",
                api="torch.export.dynamic_shapes.refine_dynamic_shapes_from_suggested_fixes",
                code="\n".join(f.suggested)
                + "\n# or, from the error: dynamic_shapes = refine_dynamic_shapes_from_suggested_fixes(str(err), dynamic_shapes)",
                why="The Dims given do not hold for what the trace required; export's suggested fixes say what does (a "
                "dimension it specialized to a constant, two dimensions that must be one Dim, a narrower range), and "
                "torch refines the dynamic_shapes with them.",
            )
        )
    if f.kind == "constraint_violation" and call.dynamic_shapes:
        auto = _dim_auto(call.dynamic_shapes)
        if auto is not None:
            fixes.append(
                _export_fix(
                    name=f"export_dim_auto:{n}",
                    title=f"Let export infer the ranges of {what} (Dim.AUTO)",
                    api="torch.export.Dim.AUTO",
                    code=f"dynamic_shapes = {auto}",
                    why="A named Dim promises export that the dimension is dynamic over its range, and export fails "
                    "when the trace needs otherwise; with Dim.AUTO export finds out itself: a dimension the code "
                    "specializes becomes static, two that must be equal share one symbol.",
                )
            )
    branch = (f.code or "").lstrip().startswith(("if ", "elif ", "while "))  # on data: a guard in either mode
    if call.mode == "strict" and f.kind in ("unsupported", "data_dependent") and not branch and "fake" not in f.message:
        fixes.append(
            _export_fix(
                name=f"export_non_strict:{n}",
                title=f"Export {call.module} non-strictly (strict=False)",
                api="torch.export.export(..., strict=False)",
                code="torch.export.export(mod, args, strict=False)",
                why="Strict mode traces forward with Dynamo, which refuses Python it cannot follow; non-strict mode "
                "runs forward as plain Python and traces only what it does to tensors.",
            )
        )
    if call.mode != "draft" and (f.kind == "data_dependent" or (f.kind == "unsupported" and "fake" in f.message)):
        fixes.append(
            _export_fix(
                name=f"export_draft:{n}",
                title=f"Trace {call.module} with draft_export and read what it assumed",
                api="torch.export.draft_export",
                code="ep = torch.export.draft_export(mod, args)\nprint(ep._report)",
                why="draft_export traces on past each failure export stops at (a guard on a data-dependent value takes "
                "the example's value, checked at run time; an op without a fake kernel gets one from a real run) and "
                "reports each, with the user's line: the list of what to settle before a real export.",
            )
        )
    if f.kind == "data_dependent" and branch:
        fixes.append(_cond_hint())
    return fixes


def _export_fix(*, name: str, title: str, api: str, code: str, why: str) -> Fix:
    """A fix that makes one export call of the run otherwise (``try_fix``: ``exports_torch.Rewrite``)."""
    return Fix(name=name, title=title, kind="export", api=api, code=code, why=why, runnable=True)


def _dim_auto(spec_json: str) -> str | None:
    """The call's ``dynamic_shapes`` with each named ``Dim`` as ``Dim.AUTO``, as Python; None when it names none."""
    named: list[str] = []

    def auto(name: str) -> str:
        named.append(name)
        return "Dim.AUTO"

    try:
        text = spec_python(json.loads(spec_json), auto)
    except ValueError:
        return None
    return text if named else None


def _break_fixes(report: CompileReport, frame: Frame, b: GraphBreak) -> list[Fix]:
    text = f"{b.gb_type}\n{b.reason}"
    if b.gb_type.startswith("Unsupported Tensor.item() call"):
        return [
            _config(
                "capture_scalar_outputs",
                "Capture .item() in the graph",
                "Dynamo breaks the graph at Tensor.item() because the number it returns is data, not a shape; with "
                "capture_scalar_outputs it keeps that number in the graph as an unbacked symbolic int (u0) instead.",
            )
        ]
    said = f"{text}\n{b.explanation or ''}\n{b.context or ''}"  # Dynamo names the op and the builtin here
    if b.gb_type.startswith("Data dependent operator") and "_local_scalar_dense" in said:  # float(t), np on .numpy()
        return [
            _config(
                "capture_scalar_outputs",
                "Capture the scalar in the graph",
                "Turning a tensor into a Python number (float(t), int(t), numpy on t.numpy()) runs "
                "aten._local_scalar_dense, whose result is data, not a shape; Dynamo breaks the graph there unless "
                "capture_scalar_outputs lets it keep the number in the graph as an unbacked symbol.",
            )
        ]
    if b.gb_type.startswith("Failed to trace builtin operator") and "builtin operator `print`" in said:
        helper = _helper_of(report, frame, b)  # a print inside the cell's own helper: that helper can be registered too
        return [_print_fix(), *(_register_fixes(helper) if helper is not None else [])]
    if b.gb_type.startswith("Dynamic shape operator") and "no meta kernel" not in b.gb_type:
        return [
            _config(
                "capture_dynamic_output_shape_ops",
                "Capture ops whose output shape depends on the data",
                "nonzero, unique and masked_select return a size that depends on the values; Dynamo breaks the graph "
                "there unless capture_dynamic_output_shape_ops lets it give that size an unbacked symbol.",
            )
        ]
    if b.gb_type.startswith("Data-dependent branching"):
        return [_cond_hint()]
    check = _check_fix(report, text)
    if check is not None:
        return [check]
    helper = _helper_of(report, frame, b)
    return _register_fixes(helper) if helper is not None else []


def _config(name: str, title: str, why: str) -> Fix:
    api = f"torch._dynamo.config.{name}"
    return Fix(name=name, title=title, kind="config", api=api, code=f"{api} = True", why=why, runnable=True)


def _print_fix() -> Fix:
    api = "torch._dynamo.config.reorderable_logging_functions"
    return Fix(
        name="reorderable_logging_functions",
        title="Let print run after the graph",
        kind="config",
        api=api,
        code=f"{api}.add(print)",
        why="print is a side effect Dynamo cannot put in a graph, so it breaks the graph there. A function in "
        "reorderable_logging_functions is instead called after the graph has run, with the values it was given: "
        "one graph, and the line prints once the graph is done (after any later effect of the same frame).",
        runnable=True,
    )


def config_value(name: str, was: object) -> object:
    """The value a config fix sets for its run, given the value it had (the user's own)."""
    if name == "reorderable_logging_functions":
        return {*was, print} if isinstance(was, set | frozenset | list | tuple) else {print}
    return True


def _cond_hint() -> Fix:
    return Fix(
        name="cond",
        title="Rewrite the branch with torch.cond",
        kind="hint",
        api="torch.cond",
        code="out = torch.cond(pred, true_fn, false_fn, (x,))  # both branches traced into the graph",
        why="An if on a tensor's value cannot be decided while tracing, so Dynamo breaks the graph and resumes in "
        "each branch. torch.cond traces both branches as subgraphs and picks one at run time; the two functions "
        "must return tensors of the same shape. Only you can make this rewrite: --try does not run it.",
        runnable=False,
    )


def _recompile_fixes(report: CompileReport, frame: Frame, reason: str) -> list[Fix]:
    fixes: list[Fix] = []
    for m in _SIZE.finditer(reason):
        name, dim = m.group("name"), int(m.group("dim"))
        if report.scope == "calls" and not frame.code.is_resume and is_user_file(frame.code.filename):
            fixes.append(
                Fix(
                    name=f"mark_dynamic:{name}:{dim}",
                    title=f"Mark dimension {dim} of {name} as dynamic",
                    kind="mark",
                    api="torch._dynamo.mark_dynamic",
                    code=f"torch._dynamo.mark_dynamic({name}, {dim})  # before calling {frame.code.name}",
                    why=f"Dynamo compiled {frame.code.name} for one size of {name} and recompiled when dimension {dim} "
                    "changed; marked dynamic, that size is a symbol from the first compile. Dynamo raises if the code "
                    "then specializes it to a constant.",
                    runnable=True,
                )
            )
            fixes.append(
                Fix(
                    name=f"maybe_mark_dynamic:{name}:{dim}",
                    title=f"Hint that dimension {dim} of {name} may be dynamic",
                    kind="mark",
                    api="torch._dynamo.maybe_mark_dynamic",
                    code=f"torch._dynamo.maybe_mark_dynamic({name}, {dim})  # before calling {frame.code.name}",
                    why=f"As mark_dynamic, but Dynamo may still specialize dimension {dim} of {name} (no error) when the "
                    "code needs a constant there.",
                    runnable=True,
                )
            )
        if report.options.get("dynamic") is not True:
            fixes.append(
                Fix(
                    name="dynamic",
                    title="Compile with dynamic=True",
                    kind="option",
                    api="torch.compile(dynamic=True)",
                    code="torch.compile(fn, dynamic=True)",
                    why="Every size (and int argument) starts as a symbol from the first compile, so a new size needs "
                    "no recompile; the graph is more general and can be slower than a static one.",
                    runnable=True,
                )
            )
    return fixes


def _register_fixes(helper: str) -> list[Fix]:
    return [
        Fix(
            name=f"allow_in_graph:{helper}",
            title=f"Put {helper} into the graph as one call",
            kind="register",
            api="torch._dynamo.allow_in_graph",
            code=f"torch._dynamo.allow_in_graph({helper})",
            why=f"Dynamo could not trace what {helper} does and broke the graph inside it. allow_in_graph puts the call "
            f"to {helper} into the FX graph unopened; it must then be safe to run on fake tensors (no side effects "
            "that matter, tensors in and out).",
            runnable=True,
        ),
        Fix(
            name=f"nonstrict_trace:{helper}",
            title=f"Trace {helper} non-strictly",
            kind="register",
            api="torch._dynamo.nonstrict_trace",
            code=f"{helper} = torch._dynamo.nonstrict_trace({helper})",
            why=f"Dynamo skips its own tracing of {helper} and calls it in the graph, traced by make_fx at compile "
            "time: Python it cannot trace runs there as plain code (a print, a library call), tensors in and out.",
            runnable=True,
        ),
    ]


def _helper_of(report: CompileReport, frame: Frame, b: GraphBreak) -> str | None:
    """The cell's own top-level function the break happened inside, when the frame called it (not itself)."""
    cell_file = report.cell.get("filename")
    users = [s for s in b.user_stack if is_user_file(s.filename) and not s.name.startswith("<")]
    if len(users) < 2 or users[-1].filename != cell_file:
        return None
    name = users[-1].name
    if name == users[0].name or name not in _top_level_defs(report.cell.get("source", "")):
        return None
    return name


@functools.lru_cache(maxsize=8)
def _parsed(source: str) -> ast.Module | None:
    """The cell's syntax tree, parsed once per cell text (every break and guard message of a report reads it)."""
    try:
        return ast.parse(source)
    except SyntaxError:
        return None


def _top_level_defs(source: str) -> set[str]:
    tree = _parsed(source)
    if tree is None:
        return set()
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}


def _check_fix(report: CompileReport, text: str) -> Fix | None:
    """``torch._check(E)`` for Dynamo's 'Could not guard on data-dependent expression E' in the cell's code."""
    guard = _GUARD.search(text)
    if guard is None:
        return None
    cell_file, source = report.cell.get("filename"), report.cell.get("source", "")
    lines = [int(m.group("line")) for m in _FILE.finditer(text) if m.group("file") == cell_file]
    if not lines:
        return None
    found = _item_assignments(source, lines[-1])
    if found is None:
        return None
    names, line_of = found

    def name_of(m: re.Match[str]) -> str:
        k = int(m.group(1))
        return names[k] if k < len(names) else m.group(0)

    expr = _REL.sub(lambda m: f"{m.group('a')} {'!=' if m.group('op') == 'Ne' else '=='} {m.group('b')}", guard.group("expr"))
    expr = _UNBACKED.sub(name_of, expr)
    if _UNBACKED.search(expr) or re.search(r"[A-Za-z_]\w*\(", expr) or not re.fullmatch(r"[\w\s<>=!+\-*/%().]+", expr):
        return None
    used = [n for n in names if re.search(rf"\b{re.escape(n)}\b", expr)]
    if not used:
        return None
    line = max(line_of[n] for n in used)
    return Fix(
        name=f"torch_check:{line}",
        title=f"Tell Dynamo that {expr}",
        kind="source_edit",
        api="torch._check",
        code=f"torch._check({expr})",
        why=f"{', '.join(used)} comes from .item(): an unbacked symbol whose value Dynamo does not know, and an op "
        f"needed to know whether {expr}. torch._check({expr}) on line {line} states it (checked at run time), so "
        "Dynamo can go on.",
        runnable=True,
    )


def _item_assignments(source: str, line: int) -> tuple[list[str], dict[str, int]] | None:
    """In the function of the cell holding ``line``: the names assigned from ``.item()``, in order (u0, u1, ...),
    and the line where each statement ends."""
    tree = _parsed(source)
    if tree is None:
        return None
    fn = next(
        (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.lineno <= line <= (n.end_lineno or n.lineno)),
        None,
    )
    if fn is None:
        return None
    names: list[str] = []
    line_of: dict[str, int] = {}
    for node in sorted(ast.walk(fn), key=lambda n: getattr(n, "lineno", 0)):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and any(
                isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "item"
                for c in ast.walk(node.value)
            )
            and node.lineno < line
        ):
            names.append(node.targets[0].id)
            line_of[node.targets[0].id] = node.end_lineno or node.lineno
    return (names, line_of) if names else None


def check_line(source: str, line: int, code: str) -> str:
    """``source`` with ``; code`` appended to the statement that ends on ``line`` (before a trailing comment), so
    that no other line moves and every line of the report stays the cell's."""
    tree = ast.parse(source)
    stmt = next(
        (n for n in ast.walk(tree) if isinstance(n, ast.Assign) and (n.end_lineno or n.lineno) == line),
        None,
    )
    if stmt is None or stmt.end_col_offset is None:
        raise ValueError(f"no assignment ends on line {line}")
    rows = source.splitlines(True)
    row = rows[line - 1]
    raw = row.encode("utf-8")  # ast offsets are UTF-8 byte offsets
    rows[line - 1] = (raw[: stmt.end_col_offset] + f"; {code}".encode() + raw[stmt.end_col_offset :]).decode("utf-8")
    return "".join(rows)
