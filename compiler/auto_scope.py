"""Scope ``auto``: which scope a cell runs under, decided from its code before anything runs, and why:
``watch`` when the code compiles itself ([Note: watch scope] in ``calls.py``: the cell mentions ``torch.compile`` or
another way in to Dynamo, or calls a callable already compiled or one whose source compiles itself, resolved
without running anything: ``self_compile``); else ``calls`` ([Note: calls scope]) when the cell's own code calls a
function, method or ``nn.Module`` Dynamo would compile (a name the cell binds, a method of a class it defines called
on an instance it makes, or a callee that resolves to one: ``targets.compile_target``); else ``cell``.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import types
from collections.abc import Iterator
from typing import Any

import torch

from . import _compat
from .self_compile import compiles_itself, dotted_name, mentions
from .user_code import is_user_file

__all__ = ["WATCH_RULE", "auto_scope", "bound_names", "cell_properties", "runtime_namespace", "toplevel_nodes"]

#: what scope ``watch`` does, in the words of its reason
WATCH_RULE = (
    "nothing is added: the cell runs as plain Python and every compile Dynamo makes while it runs is shown as it "
    "happens, with your own backend and options (watching your torch.compile calls)"
)


def toplevel_nodes(stmts: list[ast.stmt]) -> Iterator[ast.AST]:
    """Every node of the cell's own scope (not inside nested defs, classes or lambdas)."""
    stack: list[ast.AST] = list(reversed(stmts))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def auto_scope(stmts: list[ast.stmt], namespace: dict[str, Any], watch: bool = True) -> tuple[str, str]:
    """``watch`` when the code compiles itself (unless ``watch`` is False: ``--override-compile-options``), else
    ``calls`` when the cell's own code calls a function or ``nn.Module`` ([Note: calls scope]), else ``cell``.

    A call counts when its callee is a name the cell binds (``model = Net()`` ... ``model(x)``,
    ``def step(...)`` ... ``step(x)``, ``for layer in layers: layer(x)``), a method of a class the cell
    defines called on an instance the cell makes (``cfg = Cfg(); cfg.apply(x)``, ``Svc().run(x)``), or
    resolves, without running anything, to a function, method or module Dynamo would compile (``model(x)``,
    ``trainer.step(x)`` with ``model`` / ``trainer`` from an earlier cell). Calls of classes, builtins,
    imported names and library attributes (``torch.randn``, ``x.sin()``, ``model.generate``) do not count.
    """
    from .targets import compile_target

    classes = {s.name for s in toplevel_nodes(stmts) if isinstance(s, ast.ClassDef)}
    imported = {
        (a.asname or a.name).split(".")[0]
        for s in toplevel_nodes(stmts)
        if isinstance(s, (ast.Import, ast.ImportFrom))
        for a in s.names
    }
    bound = set(bound_names(stmts)) - classes - imported
    if watch:
        watching = _compiles_itself(stmts, namespace, bound | imported)
        if watching is not None:
            return "watch", f"{watching}: {WATCH_RULE}"
    methods = _cell_methods(stmts, namespace)
    instances = _instances(stmts, methods)
    rule = "torch.compile is applied to each function and nn.Module the cell calls; the rest of the cell runs as plain Python"
    functions = {s.name for s in toplevel_nodes(stmts) if isinstance(s, ast.FunctionDef)}
    properties = cell_properties(stmts)
    for node in toplevel_nodes(stmts):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and node.attr in properties:
            return "calls", f"the cell reads {ast.unparse(node)} (line {node.lineno}), a property of a class it defines: {rule}"
        if not isinstance(node, ast.Call):
            continue
        handed = _handed_to_thread(node, functions, namespace)
        if handed is not None:
            on = "" if _compat.THREADS_RUN_COMPILED_CODE else f" (on torch {torch.__version__} it runs plain there)"
            return "calls", f"the cell hands {handed} (line {node.lineno}), which calls it on another thread{on}: {rule}"
        method = _method_called(node.func, instances, methods)
        if method is not None:
            return "calls", f"the cell calls {method}() (line {node.lineno}), a method of a class it defines: {rule}"
        dotted = dotted_name(node.func)
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
    dynamic = runtime_namespace(stmts)
    if dynamic is not None:  # a compiled frame cannot hold it (scope 'cell' refuses it): run the cell as plain Python
        return "calls", f"the cell calls no function or nn.Module of its own, and {dynamic[0]}: {rule}"
    return (
        "cell",
        "the cell's top level calls no function or nn.Module of its own, so its top-level code is compiled as one frame, as torch.compile on a function holding it would",
    )


#: builtins through which a cell's top level reads or writes its namespace at run time (with no namespace of its own
#: given: ``exec(src)``, ``locals()``); the names they make exist only in a module's namespace, not in a compiled frame
_NAMESPACE_BUILTINS = ("exec", "eval", "globals", "locals", "vars")


_PROPERTY_DECORATORS = ("property", "cached_property")


def cell_properties(stmts: list[ast.stmt]) -> set[str]:
    """The names of the properties (``@property``, ``@functools.cached_property``) the classes the cell defines have:
    reading one runs a function of the user's, which scope ``calls`` compiles (``CallCompiler.attribute``)."""
    out: set[str] = set()
    for node in toplevel_nodes(stmts):
        if not isinstance(node, ast.ClassDef):
            continue
        for item in node.body:
            if isinstance(item, ast.FunctionDef) and any(
                (dotted_name(d) or "").rsplit(".", 1)[-1] in _PROPERTY_DECORATORS for d in item.decorator_list
            ):
                out.add(item.name)
    return out


def runtime_namespace(stmts: list[ast.stmt]) -> tuple[str, int] | None:
    """What in the cell's own scope shapes its namespace at run time, in words, and its line (``(its `exec(...)` (line
    3) reads or makes names at run time, ..., 3)``), or None: a ``from m import *``, or ``exec``/``eval`` without a namespace of their own,
    ``globals()``, ``locals()``, ``vars()`` ([Note: cell scope] in cell.py: one compiled frame cannot hold them, and
    the rest of the cell would not see what they made)."""
    bound = set(bound_names(stmts))
    for node in toplevel_nodes(stmts):
        if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names):
            return f"its `from {node.module} import *` (line {node.lineno}) cannot run inside one compiled frame", node.lineno
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)) or node.func.id in bound:
            continue
        name = node.func.id
        own_namespace = name in ("exec", "eval") and (len(node.args) >= 2 or any(k.arg == "globals" for k in node.keywords))
        if name in _NAMESPACE_BUILTINS and not own_namespace and not (name == "vars" and node.args):
            call = f"{name}({'...' if node.args or node.keywords else ''})"
            return (
                f"its `{call}` (line {node.lineno}) reads or makes names at run time, which one compiled frame cannot hold",
                node.lineno,
            )
    return None


def _compiles_itself(stmts: list[ast.stmt], namespace: dict[str, Any], bound: set[str]) -> str | None:
    """Why the cell's code compiles itself ([Note: watch scope]), or None: it mentions a way in to Dynamo, or its own
    scope calls a callee that resolves (without running anything) to a callable already compiled or to one whose
    source compiles itself."""
    from .targets import ALREADY_COMPILED, compile_target

    found = mentions(ast.Module(body=stmts, type_ignores=[]), namespace)
    if found:
        what, line = found[0]
        return f"the cell compiles itself ({what}, line {line})"
    for node in toplevel_nodes(stmts):
        if not isinstance(node, ast.Call):
            continue
        dotted = dotted_name(node.func)
        if dotted is None or dotted.split(".")[0] in bound:
            continue
        obj = _resolve_static(dotted, namespace)
        if obj is _MISSING:
            continue
        try:
            target, why = compile_target(obj)
            itself = compiles_itself(target) if target is not None else None
        except Exception:  # noqa: BLE001 - an exotic object: decided at run time (calls.py)
            continue
        if target is not None and why.startswith(ALREADY_COMPILED):
            return f"the cell calls {dotted}() (line {node.lineno}), which you compiled"
        if itself is not None:
            return f"the cell calls {dotted}() (line {node.lineno}), which compiles itself ({itself})"
    return None


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
    defined = {s.name: s for s in toplevel_nodes(stmts) if isinstance(s, ast.ClassDef)}
    out: dict[str, set[str]] = {}

    def of(name: str, seen: frozenset[str]) -> set[str]:
        node = defined[name]
        found = {b.name for b in node.body if isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef))}
        for base in node.bases:
            base_name = dotted_name(base)
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
    for node in toplevel_nodes(stmts):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Call):
            cls = dotted_name(node.value.func)
            if cls not in methods:
                continue
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Name):
                    out[t.id] = cls
    return out


def _method_called(func: ast.AST, instances: dict[str, str], methods: dict[str, set[str]]) -> str | None:
    """``cfg.apply`` / ``Svc().run`` / ``Scaler.go`` (a static or class method, or a method called on its class) when
    ``func`` calls a method of a class the cell defines, else None."""
    if not isinstance(func, ast.Attribute):
        return None
    owner = func.value
    if isinstance(owner, ast.Name) and owner.id in instances:
        cls = instances[owner.id]
    elif isinstance(owner, ast.Name) and owner.id in methods:
        cls = owner.id
    elif isinstance(owner, ast.Call) and dotted_name(owner.func) in methods:
        cls = str(dotted_name(owner.func))
    else:
        return None
    return ast.unparse(func) if func.attr in methods[cls] else None


_MISSING = object()


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


def bound_names(stmts: list[ast.stmt]) -> list[str]:
    """Every name the cell's own scope binds (these become globals of the cell function)."""
    names: list[str] = []

    def add(n: str) -> None:
        if n not in names:
            names.append(n)

    for node in toplevel_nodes(stmts):
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
