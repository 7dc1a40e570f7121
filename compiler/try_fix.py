"""``--try NAME``: re-run the cell with one of the report's fixes applied for that run only, before vs after.

Holds ``notice`` (what both front ends say first; the forms a NAME takes are checked by ``options.check_name``),
``resolve`` (NAME in the before report's ``fixes``), ``outcome`` (a report's ``RunOutcome``), ``Applied`` (one
fix, applied and put back) and ``run_with_fix`` (what ``run_cell`` does when ``options.try_fix`` is set). The
catalogue of fixes is ``collectors/fixes.py``.

[Note: try a fix] The after run applies exactly the Fix the before report offered: NAME is looked up in the
before report's ``fixes`` (its targets name that report's frames; a mark finds its function by their code).
The before is the cell's previous run in this kernel (the magic keeps the last report per cell text and
options), else ``run_cell`` runs the cell first as it is (the CLI always): the front ends say so before
anything runs. What the fix changes lives for the after run only, inside the run's ``ExitStack``, so it is
put back also when the cell raises: a config value through ``torch._dynamo.config.patch`` (the value the
user had set comes back, whatever it was); ``dynamic=True`` as the run's option; ``mark_dynamic`` /
``maybe_mark_dynamic`` on the argument of the targeted function for the span of each of its calls (scope
calls): the tensor's ``_dynamo_*`` attributes are saved just before the call and what the mark added is
taken off as it returns (``try_fix_torch.MARK_ATTRIBUTES``, ``_take_back``). Dynamo reads the marks while it
compiles, inside the call, so that is where the fix takes effect; outside the calls the tensor carries only
the user's own marks, so a ``mark_dynamic`` / ``maybe_mark_dynamic`` / ``mark_static`` the user makes before,
between or after the calls is recorded as on any run (torch 2.15 ignores a ``maybe_mark_dynamic`` of a dim
that ``mark_dynamic`` already covers: a run-long mark would swallow the user's own);
``allow_in_graph`` / ``nonstrict_trace`` by id in Dynamo's trace rules (``try_fix_torch.register_for_run``), bound
before each compiled call because the cell defines the helper anew on each run, and undone; a
``torch._check`` appended to the statement that made the value (``; torch._check(n != 0)``, so no line
moves), the cell's text in linecache swapped for the run; an export fix (``export_*:N``) makes the run's N-th export
call otherwise (``exports_torch.Rewrite``: its ``dynamic_shapes`` refined by export's suggested fixes or with
``Dim.AUTO``, ``strict=False``, or ``draft_export`` in its place), every other call as it comes.
Comparable runs: Dynamo's automatic-dynamic memory would let the after run start from what the before run
learned (a size that changed is dynamic from the first compile), hiding a recompile whether or not the fix
helps. So the runs made here forget that memory of the code they compile first (``--fresh``;
[Note: automatic dynamic memory] in _compat.py). A before from an earlier kernel run is taken as it was.
Inductor's caches are left as they are: a graph the fix does not change may be a cache hit in the after run,
so its compile time can be lower for that reason alone; graphs, breaks and recompiles are the numbers that
compare exactly.
"""

from __future__ import annotations

import contextlib
import difflib
import inspect
import linecache
import types
import weakref
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any, Protocol

import torch

from . import try_fix_torch
from .collectors.exports import exports_torch
from .collectors.fixes import check_line, config_value
from .errors import UsageError
from .model import Fix, FixKind, FixTarget, RunOutcome, TryFix
from .options import RunOptions, check_name
from .reset import code_of
from .run_result import CellRun
from .summary import counts

__all__ = ["Applied", "RunOnce", "notice", "outcome", "resolve", "run_with_fix"]


def notice(name: str, before_from: str | None) -> str:
    """What the magic and the CLI say before a --try run starts."""
    if before_from is None:
        return (
            f"--try {name}: this cell RUNS TWICE: first as it is (the 'before'), then again with the fix applied for "
            "that run only; its side effects (prints, appends, optimizer steps) happen twice"
        )
    return (
        f"--try {name}: this cell RUNS AGAIN with the fix applied for that run only; the 'before' is {before_from}; "
        "its side effects happen again"
    )


def resolve(name: str, before: dict[str, Any]) -> dict[str, Any]:
    """The fix NAME of the before report, or a UsageError naming the fixes it offers."""
    offered = [f for f in before.get("fixes") or [] if f.get("runnable")]
    fix = next((f for f in before.get("fixes") or [] if f["name"] == name), None)
    if fix is not None and not fix["runnable"]:
        check_name("cond")
    if fix is None:
        names = ", ".join(f["name"] for f in offered) or "none: nothing in it has a known remedy"
        raise UsageError(f"--try: the run without the fix offers no fix '{name}'; on offer: {names}")
    return fix


def outcome(report: dict[str, Any]) -> RunOutcome:
    """A report's numbers for the before/after table."""
    c = counts(report)
    err = report.get("error")
    profile = report.get("profile") if isinstance(report.get("profile"), dict) else None
    timings = report.get("timings") or {}
    return RunOutcome(
        frames=c["frames"],
        graphs=c["graphs"],
        graph_breaks=c["graph_breaks"],
        recompiles=c["recompiles"],  # frames that recompiled, as the header and the one-line summary count them
        error=f"{err['type']}: {err['message']}" if err else None,
        wall_ms=round(float(timings.get("wall_s") or 0.0) * 1000, 3),
        compile_ms=round(float(timings.get("compile_s") or 0.0) * 1000, 3),
        compiled_ms=float(profile["compiled_ms"]) if profile else None,
        eager_ms=float(profile["eager_ms"]) if profile else None,
        exports_failed=sum(1 for e in exports if e.get("outcome") == "failed") if (exports := report.get("exports")) else None,
    )


class Applied:
    """One fix of the before report, applied to the after run and put back ([Note: try a fix])."""

    def __init__(self, fix: dict[str, Any], before: dict[str, Any], before_from: str, source: str) -> None:
        self.fix = fix
        self.before = before
        self.before_from = before_from
        self.kind: FixKind = fix["kind"]
        self.name: str = fix["name"]
        self.source = source
        self.filename: str = before["cell"]["filename"]
        self.notes: list[str] = []
        self.restored: list[str] = []
        self.calls = 0
        self._marked: list[weakref.ref[torch.Tensor]] = []
        self._registered: dict[int, tuple[Callable[..., Any], Callable[..., Any], Callable[[], None]]] = {}
        self._namespace: dict[str, Any] | None = None
        self.user_options: RunOptions | None = None
        parts = self.name.split(":")
        self.arg = parts[1] if len(parts) > 1 else ""
        self.dim = int(parts[2]) if len(parts) > 2 else 0
        by_id = {f["compile_id"]: f for f in before.get("frames", [])}
        self.codes = {
            (c["name"], c["filename"], c["firstlineno"])
            for t in fix["targets"]
            if (c := by_id.get(t["compile_id"], {}).get("code"))
        }

    # --- what the after run runs -------------------------------------------------------------------------

    def options(self, options: RunOptions) -> RunOptions:
        """The after run's options: the fix's ``dynamic=True``, a clean automatic-dynamic memory. The report keeps
        the user's own (``user_options``): what the fix changed is in ``try_fix.change``."""
        self.user_options = options
        return replace(options, dynamic=True if self.kind == "option" else options.dynamic, fresh=True)

    def edited_source(self) -> str:
        """The cell's text for the after run (a ``torch._check`` appended for a source_edit)."""
        if self.kind != "source_edit":
            return self.source
        return check_line(self.source, int(self.arg), self.fix["code"])

    @contextlib.contextmanager
    def applied(self, namespace: dict[str, Any]) -> Iterator[None]:
        """The fix for the run's duration; everything put back on exit, also when the cell raises."""
        self._namespace = namespace
        with contextlib.ExitStack() as stack:
            if self.kind == "config":
                was = getattr(torch._dynamo.config, self.name)
                value = config_value(self.name, was)
                stack.enter_context(torch._dynamo.config.patch(self.name, value))
                self.notes.append(f"torch._dynamo.config.{self.name} = {value!r} for this run (it was {was!r})")
                self.restored.append(f"torch._dynamo.config.{self.name} back to {was!r}")
            elif self.kind == "option":
                self.notes.append("torch.compile(dynamic=True) for this run")
                self.restored.append("dynamic back to the cell's own option (it applied to this run only)")
            elif self.kind == "register":
                stack.callback(self._unregister)
                self._bind()
            elif self.kind == "mark":
                stack.callback(self._mark_notes)
            elif self.kind == "export":
                stack.callback(self._export_notes, stack.enter_context(exports_torch.rewriting(self._rewrite())))
            yield

    def optimize(self, optimize: Callable[[Any], Any]) -> Callable[[Any], Any]:
        """Scope calls: ``optimize`` whose compiled callees apply a mark / bind a registration before each call."""
        if self.kind not in ("mark", "register"):
            return optimize

        def compile_with_fix(target: Any) -> Any:
            compiled = optimize(target)
            code = code_of(target)
            mine = code is not None and (code.co_name, code.co_filename, code.co_firstlineno) in self.codes
            signature = _signature(target) if mine and self.kind == "mark" else None

            def call(*args: Any, **kwargs: Any) -> Any:
                if self.kind == "register":
                    self._bind()
                elif signature is not None:
                    with self._marked_for_call(signature, args, kwargs):
                        return compiled(*args, **kwargs)
                return compiled(*args, **kwargs)

            return call

        return compile_with_fix

    # --- marks ---------------------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _marked_for_call(self, signature: inspect.Signature, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Iterator[None]:
        """The fix's mark on the call's argument while the call runs, taken off as it returns (or raises)."""
        try:
            value = signature.bind(*args, **kwargs).arguments.get(self.arg)
        except TypeError:
            value = None
        if not isinstance(value, torch.Tensor) or self.dim >= value.dim():
            yield
            return
        saved = _marks_of(value)
        if not any(ref() is value for ref in self._marked):
            self._marked.append(weakref.ref(value))
        (torch._dynamo.maybe_mark_dynamic if self.name.startswith("maybe_") else torch._dynamo.mark_dynamic)(value, self.dim)
        marked = _marks_of(value)
        self.calls += 1
        try:
            yield
        finally:
            _take_back(value, saved, marked)

    def _mark_notes(self) -> None:
        api = self.name.split(":")[0]
        self.notes.append(
            f"torch._dynamo.{api}({self.arg}, {self.dim}) for the span of each call of {_names(self.codes)} ({self.calls} calls)"
        )
        self.restored.append(
            f"the mark taken off as each call returned ({len(self._marked)} tensors marked; each carries only "
            "its own _dynamo_* marks again)"
        )
        self._marked.clear()

    # --- export calls --------------------------------------------------------------------------------------

    def _rewrite(self) -> exports_torch.Rewrite:
        """The export call this fix changes, and how (``export_draft:2``: the run's third call, as draft_export)."""
        how = self.name.split(":")[0].removeprefix("export_")
        index = int(self.arg)
        calls = self.before.get("exports") or []
        failure = next((c.get("failure") for c in calls if c.get("index") == index), None) or {}
        return exports_torch.Rewrite(index=index, how=how, suggested=list(failure.get("suggested") or []))

    def _export_notes(self, rewrite: exports_torch.Rewrite) -> None:
        if rewrite.done is None:
            self.notes.append(f"the run made no export call {rewrite.index}; nothing was changed")
            return
        self.notes.append(f"export call {rewrite.index} of this run made with {rewrite.done}")
        self.restored.append("every other export call made as it came; the cell's own arguments are unchanged")

    # --- registrations -------------------------------------------------------------------------------------

    def _bind(self) -> None:
        """Register the function the cell's namespace now binds to the helper's name (the cell redefines it)."""
        ns = self._namespace
        if ns is None:
            return
        fn = ns.get(self.arg)
        if not isinstance(fn, types.FunctionType) or id(fn) in self._registered:
            return
        if any(wrapper is fn for _, wrapper, _ in self._registered.values()):
            return
        if fn.__code__.co_name != self.arg or fn.__code__.co_filename != self.filename:
            return
        how = self.name.split(":")[0]
        bound, undo = try_fix_torch.register_for_run(fn, how)
        self._registered[id(fn)] = (fn, bound, undo)
        if bound is not fn:
            ns[self.arg] = bound

    def _unregister(self) -> None:
        how = self.name.split(":")[0]
        ns = self._namespace or {}
        for fn, bound, undo in self._registered.values():
            undo()
            if bound is not fn and ns.get(self.arg) is bound:
                ns[self.arg] = fn
        if self._registered:
            self.notes.append(f"torch._dynamo.{how}({self.arg}) for this run")
            self.restored.append(
                f"{how} on {self.arg} undone ({len(self._registered)} definition(s)); the name {self.arg} is bound to "
                "your own function again"
            )
        else:
            self.notes.append(f"no function {self.arg} of this cell was found to register; nothing was changed")
        self._registered.clear()

    # --- the result ----------------------------------------------------------------------------------------

    def result(self, after: dict[str, Any]) -> dict[str, Any]:
        """The after report's ``try_fix``."""
        change = "; ".join(self.notes)
        if self.kind == "source_edit":
            diff = difflib.unified_diff(
                self.source.splitlines(True), self.edited_source().splitlines(True), "cell", "cell, this run", n=1
            )
            change = "".join(diff)
            self.restored.append("the cell's text (the torch._check was added for this run only)")
        memory = (
            "Dynamo's automatic-dynamic memory of the code it compiled was forgotten first (as --fresh), so what "
            "the before run learned does not pre-empt the fix"
        )
        fix = Fix(
            name=self.fix["name"],
            title=self.fix["title"],
            kind=self.kind,
            api=self.fix["api"],
            code=self.fix["code"],
            why=self.fix["why"],
            runnable=self.fix["runnable"],
            targets=[FixTarget(**t) for t in self.fix["targets"]],
        )
        out = TryFix(
            fix=fix,
            before_from=self.before_from,
            before=outcome(self.before),
            after=outcome(after),
            change=change if self.kind == "source_edit" else f"{change}. {memory}" if change else memory,
            restored="; ".join(self.restored) or "nothing to put back",
        )
        from .model import _to_json

        result: dict[str, Any] = _to_json(out)
        return result


class RunOnce(Protocol):
    """One run of a cell with validated options, the fix applied when given (``runner._run_once``, bound to the
    run's front-end arguments): what ``run_with_fix`` runs the before and the after with."""

    def __call__(
        self, source: str, namespace: dict[str, Any], options: RunOptions, *, filename: str, fix: Applied | None = None
    ) -> CellRun: ...


def run_with_fix(
    run_once: RunOnce,
    source: str,
    namespace: dict[str, Any],
    options: RunOptions,
    *,
    filename: str,
    before: dict[str, Any] | None,
    before_from: str | None,
) -> CellRun:
    """``run_cell`` with ``options.try_fix`` (validated): the before run (unless given), then the run with the fix
    applied."""
    name = options.try_fix
    assert name is not None
    if before is None:
        first = run_once(source, namespace, replace(options, try_fix=None, fresh=True), filename=filename)
        before = first.report
        before_from = "a run of the cell as it is, made just before this one (the cell ran twice)"
    fix = resolve(name, before)
    applied = Applied(fix, before, before_from or "the cell's previous run", source)
    text = applied.edited_source()
    saved = linecache.cache.get(filename)
    if text != source:  # tracebacks and Dynamo's user stacks read the text that runs
        linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    try:
        return run_once(text, namespace, applied.options(options), filename=filename, fix=applied)
    finally:
        if text != source:
            if saved is None:
                linecache.cache.pop(filename, None)
            else:
                linecache.cache[filename] = saved


def _signature(target: Any) -> inspect.Signature | None:
    try:
        return inspect.signature(target)
    except (TypeError, ValueError):
        return None


def _marks_of(t: torch.Tensor) -> dict[str, Any]:
    """The tensor's mark attributes, copied (``try_fix_torch.MARK_ATTRIBUTES``)."""
    state = t.__dict__
    return {a: v.copy() if isinstance(v := state[a], (set, dict)) else v for a in try_fix_torch.MARK_ATTRIBUTES if a in state}


def _take_back(t: torch.Tensor, saved: dict[str, Any], marked: dict[str, Any]) -> None:
    """Take the fix's mark back off ``t`` as its call returns: a three-way merge of the marks ``saved`` before the
    fix marked, ``marked`` just after, and the tensor's now. What changed from ``marked`` to now was done during
    the call by the user's code (a mark of its own) and stays; everything else goes back to ``saved``. No
    release's rules for combining marks are assumed (2.15's ``mark_dynamic`` drops the dim from the weak set,
    its ``maybe_mark_dynamic`` of a dim ``mark_dynamic`` holds is ignored). New sets and dicts replace the
    tensor's, never changed in place: a compiled frame's guards keep the very set they were compiled with
    (``TENSOR_MATCH``'s dynamic indices), and emptying it would fail them on the next call ("runtime {0} is not
    a subset of compiled set()")."""
    state = t.__dict__
    now = _marks_of(t)
    for a in try_fix_torch.MARK_ATTRIBUTES:
        base, theirs = marked.get(a, _ABSENT), now.get(a, _ABSENT)
        value = saved.get(a, _ABSENT)
        if theirs is _ABSENT or base is _ABSENT or type(theirs) is not type(base) or not isinstance(base, (set, dict)):
            if theirs is not base and theirs != base:  # set, deleted or replaced during the call: theirs
                value = theirs
        elif isinstance(base, set):
            value = ((value if isinstance(value, set) else set()) | (theirs - base)) - (base - theirs)
        else:
            merged = dict(value) if isinstance(value, dict) else {}
            merged.update({k: v for k, v in theirs.items() if k not in base or base[k] != v})
            value = {k: v for k, v in merged.items() if not (k in base and k not in theirs)}
        if value is _ABSENT or (a != "_has_dynamo_dim_marking" and a not in saved and not value):
            state.pop(a, None)
        else:
            state[a] = value
    if "_dynamo_dynamic_indices" in state and "_dynamo_hint_overrides" in now:
        # mark_dynamic makes the two together and later writes to the second without looking: never one alone
        state.setdefault("_dynamo_hint_overrides", {})
    if "_has_dynamo_dim_marking" in now and any(a in state for a in try_fix_torch.MARK_ATTRIBUTES):  # a flag of 2.13+
        state["_has_dynamo_dim_marking"] = True


_ABSENT = object()


def _names(codes: set[tuple[str, str, int]]) -> str:
    return ", ".join(sorted(n for n, _, _ in codes)) or "the targeted function"
