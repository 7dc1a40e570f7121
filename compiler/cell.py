"""Turning a notebook cell's source into something Dynamo can run, with notebook semantics.

Holds:
- ``CellProgram``: the parsed cell, for any scope (``calls``, ``cell`` or ``all-frames``);
- ``prepare``: parse, reject what cannot run, pick the scope for ``auto`` (and say why);
- ``UNBOUND``: the sentinel used for names a compiled cell creates or deletes.

[Note: cell scope] The cell body becomes ``def __dynamo_cell__(): global <every bound name>; <body>``
compiled with the cell's filename and original line numbers, and built with the user namespace as its
globals. The code object is then renamed ``<module>`` and starts at line 1, as a plain cell's code
does: IPython's traceback reads the source of a ``<module>`` frame as the whole cell, and shows the
same ``Cell In[n], line N`` listing a plain cell would. Every store writes straight into the namespace, so assignments made before an exception persist
and later cells see them. Three Dynamo traps are handled here (docs/dynamo-capture.md §13):
- resume functions of a frame whose locals hold no tensor are skipped (``has_tensor_in_frame``):
  the body starts by loading the hidden global ``__dynamo_torch__`` so ``co_names`` names torch;
- ``LOAD_GLOBAL`` of a name first stored earlier in the same traced frame fails with GB0354: every
  name the cell binds that does not exist yet is pre-seeded with ``UNBOUND`` (removed afterwards);
- ``DELETE_GLOBAL`` has no Dynamo handler: top-level ``del name`` becomes ``name = UNBOUND`` and such
  names are deleted from the namespace when the run ends.

[Note: calls scope] (the default for a cell that calls something) is in calls.py: the cell runs as
plain module code whose calls go through ``__dynamo_call__``, which applies ``torch.compile``'s
``optimize(...)`` to each function and ``nn.Module`` the cell calls.

[Note: all-frames scope] (opt-in) The cell runs as plain module code in the namespace; every Python
frame it calls is compiled by Dynamo (the original ``torchdynamo.optimize(...)`` context manager),
library ``__init__``s and class bodies included: it shows what Dynamo does to *every* frame, which is
not the story ``torch.compile`` tells.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import sys
import types
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import torch

from . import _compat
from .errors import UsageError
from .user_code import is_user_file

OUT_NAME = "__dynamo_cell_out__"
ANCHOR_NAME = "__dynamo_torch__"
UNBOUND_NAME = "__dynamo_unbound__"
CELL_FN_NAME = "__dynamo_cell__"
CELL_CODE_NAME = "<module>"
CALL_NAME = "__dynamo_call__"  # the calls scope's hook (calls.CallCompiler)

__all__ = ["UNBOUND", "CellProgram", "prepare"]


class _Unbound:
    """Value of a name the compiled cell will create, or has deleted (see [Note: cell scope])."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<unbound>"


UNBOUND = _Unbound()


@dataclass
class CellProgram:
    """A cell ready to run: ``scope`` decides which of ``function`` / ``module_code`` is used."""

    source: str
    filename: str
    scope: str
    scope_reason: str
    bound_names: list[str] = field(default_factory=list)
    module_code: types.CodeType | None = None  # calls and all-frames scopes
    function_code: types.CodeType | None = None
    has_last_expr: bool = False


def prepare(source: str, filename: str, namespace: dict[str, Any], scope: str) -> CellProgram:
    """Parse ``source`` and build the code for ``scope`` ('auto', 'calls', 'cell' or 'all-frames').

    Raises ``SyntaxError`` for invalid Python and ``UsageError`` for constructs that cannot run in
    the chosen scope, before anything runs.
    """
    tree = ast.parse(source, filename=filename, mode="exec")
    _reject_everywhere(tree.body, filename)
    if scope == "auto":
        scope, reason = _auto_scope(tree.body, namespace)
    else:
        reason = f"scope '{scope}' was requested"
    prog = CellProgram(source=source, filename=filename, scope=scope, scope_reason=reason)
    body = list(tree.body)
    if body and isinstance(body[-1], ast.Expr):
        last = body[-1]
        body[-1] = ast.copy_location(ast.Assign(targets=[ast.Name(OUT_NAME, ast.Store())], value=last.value), last)
        prog.has_last_expr = True
    if scope == "calls":
        body = [_CallRewriter().visit(stmt) for stmt in body]
    if scope in ("calls", "all-frames"):
        mod = ast.fix_missing_locations(ast.Module(body=body, type_ignores=[]))
        prog.module_code = compile(mod, filename, "exec", dont_inherit=True)
        return prog
    _reject_in_cell_scope(body, filename)
    body = [s for s in body if not isinstance(s, ast.Global)]  # no-ops at module level; ours covers them
    body = _DelRewriter().visit(ast.Module(body=body, type_ignores=[])).body
    names = _bound_names(body)
    if prog.has_last_expr and OUT_NAME not in names:
        names.append(OUT_NAME)
    prog.bound_names = names
    prog.function_code = _function_code(body, names, filename)
    return prog


# --- rejection -------------------------------------------------------------------------------------


def _reject_everywhere(stmts: list[ast.stmt], filename: str) -> None:
    """Constructs that cannot run at a cell's top level in either scope."""

    class Visitor(ast.NodeVisitor):
        def visit_FunctionDef(self, node: ast.AST) -> None:  # nested scopes may use all of these
            for dec in getattr(node, "decorator_list", []):
                self.visit(dec)

        visit_AsyncFunctionDef = visit_FunctionDef
        visit_Lambda = visit_FunctionDef

        def visit_ClassDef(self, node: ast.ClassDef) -> None:
            for dec in node.decorator_list:
                self.visit(dec)

        def _fail(self, node: ast.AST, what: str, fix: str) -> None:
            line = getattr(node, "lineno", None)
            raise UsageError(f"{what} at line {line} cannot run in a %%dynamo cell: {fix}", line=line, filename=filename)

        def visit_Return(self, node: ast.Return) -> None:
            self._fail(node, "top-level `return`", "remove it, or move the code into a function and call it")

        def visit_Yield(self, node: ast.AST) -> None:
            self._fail(node, "top-level `yield`", "move the generator into a function and call it")

        visit_YieldFrom = visit_Yield

        def visit_Await(self, node: ast.AST) -> None:
            self._fail(node, "top-level `await`", "run it with asyncio.run(...) inside a function, or in a plain cell")

        visit_AsyncFor = visit_Await
        visit_AsyncWith = visit_Await

        def visit_Nonlocal(self, node: ast.AST) -> None:
            self._fail(node, "`nonlocal`", "use `global` at the top level of a cell")

    v = Visitor()
    for s in stmts:
        v.visit(s)


def _reject_in_cell_scope(stmts: list[ast.stmt], filename: str) -> None:
    for node in _toplevel_nodes(stmts):
        if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            raise UsageError(
                f"`from {node.module} import *` at line {node.lineno} cannot run inside a compiled cell: "
                "import names explicitly, move it to a plain cell, or use --scope calls",
                line=node.lineno,
                filename=filename,
            )


def _toplevel_nodes(stmts: list[ast.stmt]) -> Iterator[ast.AST]:
    """Every node of the cell's own scope (not inside nested defs, classes or lambdas)."""
    stack: list[ast.AST] = list(reversed(stmts))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


# --- scope 'auto' --------------------------------------------------------------------------------


def _auto_scope(stmts: list[ast.stmt], namespace: dict[str, Any]) -> tuple[str, str]:
    """``calls`` when the cell's own code calls a function or ``nn.Module`` ([Note: calls scope]), else ``cell``.

    A call counts when its callee is a name the cell binds (``model = Net()`` ... ``model(x)``,
    ``def step(...)`` ... ``step(x)``, ``for layer in layers: layer(x)``), a method of a class the cell
    defines called on an instance the cell makes (``cfg = Cfg(); cfg.apply(x)``, ``Svc().run(x)``), or
    resolves, without running anything, to a function, method or module Dynamo would compile (``model(x)``,
    ``trainer.step(x)`` with ``model`` / ``trainer`` from an earlier cell). Calls of classes, builtins,
    imported names and library attributes (``torch.randn``, ``x.sin()``, ``model.generate``) do not count.
    """
    from .targets import compile_target

    classes = {s.name for s in _toplevel_nodes(stmts) if isinstance(s, ast.ClassDef)}
    imported = {
        (a.asname or a.name).split(".")[0]
        for s in _toplevel_nodes(stmts)
        if isinstance(s, (ast.Import, ast.ImportFrom))
        for a in s.names
    }
    bound = set(_bound_names(stmts)) - classes - imported
    methods = _cell_methods(stmts, namespace)
    instances = _instances(stmts, methods)
    rule = "torch.compile is applied to each function and nn.Module the cell calls; the rest of the cell runs as plain Python"
    functions = {s.name for s in _toplevel_nodes(stmts) if isinstance(s, ast.FunctionDef)}
    for node in _toplevel_nodes(stmts):
        if not isinstance(node, ast.Call):
            continue
        handed = _handed_to_thread(node, functions, namespace)
        if handed is not None:
            on = "" if _compat.THREADS_RUN_COMPILED_CODE else f" (on torch {torch.__version__} it runs plain there)"
            return "calls", f"the cell hands {handed} (line {node.lineno}), which calls it on another thread{on}: {rule}"
        method = _method_called(node.func, instances, methods)
        if method is not None:
            return "calls", f"the cell calls {method}() (line {node.lineno}), a method of a class it defines: {rule}"
        dotted = _dotted_name(node.func)
        if dotted is None:
            continue
        if "." not in dotted and dotted in bound:
            return "calls", f"the cell calls {dotted}() (line {node.lineno}): {rule}"
        obj = _resolve_static(dotted, namespace)
        if obj is not _MISSING and dotted.split(".")[0] not in bound | imported:
            try:
                target, _ = compile_target(obj)
            except Exception:  # noqa: BLE001 - an exotic object: decide at run time
                target = None
            if target is not None:
                return "calls", f"the cell calls {dotted}() (line {node.lineno}): {rule}"
    star = next(
        (n for n in _toplevel_nodes(stmts) if isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names)), None
    )
    if star is not None:  # a compiled frame cannot hold it (scope 'cell' refuses it): run the cell as plain Python
        return "calls", (
            f"the cell calls no function or nn.Module of its own, and its `from {star.module} import *` (line "
            f"{star.lineno}) cannot run inside one compiled frame: {rule}"
        )
    return (
        "cell",
        "the cell's top level calls no function or nn.Module of its own, so its top-level code is compiled as one frame, as torch.compile on a function holding it would",
    )


# What runs a callable on another thread (calls.py, _THREAD_APIS), by the name a cell calls it with: a bare name
# (``Thread(target=f)``) or an attribute (``threading.Thread``, ``pool.submit``, ``loop.run_in_executor``)
_THREAD_NAMES = frozenset({"Thread", "Timer", "to_thread"})
_THREAD_METHODS = _THREAD_NAMES | {
    "submit",
    "map",
    "starmap",
    "apply",
    "apply_async",
    "map_async",
    "imap",
    "imap_unordered",
    "starmap_async",
    "run_in_executor",
}


def _handed_to_thread(call: ast.Call, functions: set[str], namespace: dict[str, Any]) -> str | None:
    """``work to threading.Thread`` when ``call`` hands a function of the user's to a thread API, else None."""
    func = call.func
    if isinstance(func, ast.Name):
        if func.id not in _THREAD_NAMES:
            return None
    elif not (isinstance(func, ast.Attribute) and func.attr in _THREAD_METHODS):
        return None
    for arg in [*call.args, *(k.value for k in call.keywords)]:
        if not isinstance(arg, ast.Name):
            continue
        obj = namespace.get(arg.id)
        mine = arg.id in functions or (isinstance(obj, types.FunctionType) and is_user_file(obj.__code__.co_filename))
        if mine:
            return f"{arg.id} to {ast.unparse(func)}"
    return None


def _cell_methods(stmts: list[ast.stmt], namespace: dict[str, Any]) -> dict[str, set[str]]:
    """Each class the cell defines -> the methods it has: its own, and those of its bases the cell defines or
    that are classes of the user's from the namespace (an earlier cell, the user's files)."""
    defined = {s.name: s for s in _toplevel_nodes(stmts) if isinstance(s, ast.ClassDef)}
    out: dict[str, set[str]] = {}

    def of(name: str, seen: frozenset[str]) -> set[str]:
        node = defined[name]
        found = {b.name for b in node.body if isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef))}
        for base in node.bases:
            base_name = _dotted_name(base)
            if base_name in defined and base_name not in seen:
                found |= of(base_name, seen | {base_name})
            elif base_name is not None and "." not in base_name:
                cls = namespace.get(base_name)
                if isinstance(cls, type):
                    found |= _user_methods(cls)
        return found

    for name in defined:
        out[name] = of(name, frozenset({name}))
    return out


def _user_methods(cls: type) -> set[str]:
    """The names of the methods a class (and its bases) defines in the user's own code."""
    names: set[str] = set()
    for klass in cls.__mro__:
        for attr, value in vars(klass).items():
            fn = value.__func__ if isinstance(value, (staticmethod, classmethod)) else value
            if isinstance(fn, types.FunctionType) and is_user_file(fn.__code__.co_filename):
                names.add(attr)
    return names


def _instances(stmts: list[ast.stmt], methods: dict[str, set[str]]) -> dict[str, str]:
    """Names the cell's own code binds to an instance of a class it defines (``cfg = Cfg()``) -> the class."""
    out: dict[str, str] = {}
    for node in _toplevel_nodes(stmts):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Call):
            cls = _dotted_name(node.value.func)
            if cls not in methods:
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Name):
                    out[t.id] = cls
    return out


def _method_called(func: ast.AST, instances: dict[str, str], methods: dict[str, set[str]]) -> str | None:
    """``cfg.apply`` / ``Svc().run`` when ``func`` calls a method of a class the cell defines, else None."""
    if not isinstance(func, ast.Attribute):
        return None
    owner = func.value
    if isinstance(owner, ast.Name) and owner.id in instances:
        cls = instances[owner.id]
    elif isinstance(owner, ast.Call) and _dotted_name(owner.func) in methods:
        cls = str(_dotted_name(owner.func))
    else:
        return None
    return ast.unparse(func) if func.attr in methods[cls] else None


_MISSING = object()


def _dotted_name(node: ast.AST) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _resolve_static(dotted: str, namespace: dict[str, Any]) -> Any:
    """Resolve ``a.b.c`` without running user code (no properties, no ``__getattr__``)."""
    head, *rest = dotted.split(".")
    obj = namespace.get(head, getattr(builtins, head, _MISSING))
    for attr in rest:
        if obj is _MISSING:
            return _MISSING
        try:
            obj = inspect.getattr_static(obj, attr)
        except AttributeError:
            return _MISSING
        if isinstance(obj, (staticmethod, classmethod)):
            obj = obj.__func__
    return obj


# --- cell scope: the generated function -------------------------------------------------------------


class _CallRewriter(ast.NodeTransformer):
    """``f(a)`` -> ``__dynamo_call__(f, 'f', line)(a)`` in the cell's own scope ([Note: calls scope])."""

    def visit_FunctionDef(self, node: ast.AST) -> ast.AST:
        return node  # bodies, decorators and defaults run as written

    visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda = visit_FunctionDef

    def visit_Call(self, node: ast.Call) -> ast.AST:
        text = ast.unparse(node.func)  # as written, before the inner calls are rewritten
        self.generic_visit(node)
        text = text if len(text) <= 60 else text[:57] + "..."
        wrapped = ast.Call(
            func=ast.Name(CALL_NAME, ast.Load()), args=[node.func, ast.Constant(text), ast.Constant(node.lineno)], keywords=[]
        )
        node.func = ast.copy_location(wrapped, node.func)
        return node


class _DelRewriter(ast.NodeTransformer):
    """``del name`` -> ``name = __dynamo_unbound__`` in the cell's own scope ([Note: cell scope])."""

    def visit_FunctionDef(self, node: ast.AST) -> ast.AST:
        return node

    visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda = visit_FunctionDef

    def visit_Delete(self, node: ast.Delete) -> ast.AST | list[ast.AST]:
        names = [t for t in node.targets if isinstance(t, ast.Name)]
        others = [t for t in node.targets if not isinstance(t, ast.Name)]
        out: list[ast.AST] = []
        if others:
            out.append(ast.copy_location(ast.Delete(targets=others), node))
        for t in names:
            assign = ast.Assign(targets=[ast.Name(t.id, ast.Store())], value=ast.Name(UNBOUND_NAME, ast.Load()))
            out.append(ast.copy_location(assign, node))
        return out


def _bound_names(stmts: list[ast.stmt]) -> list[str]:
    """Every name the cell's own scope binds (these become globals of the cell function)."""
    names: list[str] = []

    def add(n: str) -> None:
        if n not in names:
            names.append(n)

    for node in _toplevel_nodes(stmts):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            add(node.id)
        elif isinstance(node, ast.alias):
            add((node.asname or node.name).split(".")[0])
        elif (isinstance(node, ast.ExceptHandler) and node.name) or (
            isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name
        ):
            add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            add(node.rest)
        elif isinstance(node, ast.Global):
            for n in node.names:
                add(n)
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            for sub in ast.walk(node):  # only walrus targets leak out of comprehensions
                if isinstance(sub, ast.NamedExpr) and isinstance(sub.target, ast.Name):
                    add(sub.target.id)
    return names


def _function_code(body: list[ast.stmt], names: list[str], filename: str) -> types.CodeType:
    first = body[0].lineno if body else 1
    loc = {"lineno": first, "col_offset": 0, "end_lineno": first, "end_col_offset": 0}
    prologue: list[ast.stmt] = [ast.Expr(value=ast.Name(ANCHOR_NAME, ast.Load(), **loc), **loc)]
    if names:
        prologue.append(ast.Global(names=names, **loc))
    fn_body = prologue + (body or [ast.Pass(**loc)])
    end = max((getattr(s, "end_lineno", None) or first) for s in fn_body)
    kwargs: dict[str, Any] = {}
    if sys.version_info >= (3, 12):
        kwargs["type_params"] = []
    fdef = ast.FunctionDef(
        name=CELL_FN_NAME,
        args=ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]),
        body=fn_body,
        decorator_list=[],
        returns=None,
        type_comment=None,
        lineno=1,
        col_offset=0,
        end_lineno=end,
        end_col_offset=0,
        **kwargs,
    )
    mod = ast.fix_missing_locations(ast.Module(body=[fdef], type_ignores=[]))
    code = compile(mod, filename, "exec", dont_inherit=True)
    fn_code = next(c for c in code.co_consts if isinstance(c, types.CodeType) and c.co_name == CELL_FN_NAME)
    return fn_code.replace(co_name=CELL_CODE_NAME, co_qualname=CELL_CODE_NAME)
