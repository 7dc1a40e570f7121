"""Does the code compile itself? The rule behind scope ``watch`` ([Note: watch scope] in ``calls.py``).

Code compiles itself when its source mentions one of torch's ways in to Dynamo (``ENTRY_POINTS``: ``torch.compile``,
``nn.Module.compile``, ``torch._dynamo.optimize``, ``explain``, ``set_stance``, ``error_on_graph_break``, compiled
autograd, ``torch.export``), called or not (``@torch.compile``, ``compile_fn = torch.compile``), in any function or
class it defines too, or names a callable already compiled (``cg(x)`` where ``cg = torch.compile(g)`` ran before).
A name counts by what it is bound to: an import
in the same source (``import torch as t``, ``from torch import compile``, ``from torch._dynamo import optimize``) or,
failing that, the value the namespace gives it (a cell's namespace, a function's globals). ``x.compile(...)`` counts
as ``nn.Module.compile`` unless ``x`` is known to be something else (``re.compile``: a module other than torch; an
object that is no ``nn.Module``).

``mentions(source, namespace)`` reads a source; ``function_mentions(code, globals)`` a function's (its file's lines,
as ``inspect`` finds them: a notebook cell's too), once per code object. Nothing of the user's runs.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
import types
import weakref
from typing import Any

import torch

from .user_code import is_user_file

__all__ = ["ENTRY_POINTS", "Mention", "compiles_itself", "dotted_name", "function_mentions", "mentions"]

#: torch's ways in to Dynamo, by the dotted name the code reaches them with -> how the report names them
ENTRY_POINTS: dict[str, str] = {
    "torch.compile": "torch.compile",
    "torch._dynamo.optimize": "torch._dynamo.optimize",
    "torch._dynamo.optimize_assert": "torch._dynamo.optimize",
    "torch._dynamo.explain": "torch._dynamo.explain",
    "torch.compiler.set_stance": "torch.compiler.set_stance",
    "torch._dynamo.set_stance": "torch.compiler.set_stance",
    "torch._dynamo.error_on_graph_break": "torch._dynamo.error_on_graph_break",
    "torch._dynamo.compiled_autograd": "compiled autograd",
    "torch._dynamo.config.compiled_autograd": "compiled autograd",
    "torch.export.export": "torch.export",
    "torch.export.draft_export": "torch.export",
    "torch._dynamo.export": "torch.export",
}
MODULE_COMPILE = "nn.Module.compile"

#: (what, line): one mention, e.g. ("torch.compile", 7)
Mention = tuple[str, int]

_MISSING = object()


def dotted_name(node: ast.AST) -> str | None:
    """``a.b.c`` for an attribute chain on a name, else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _aliases(tree: ast.AST) -> dict[str, str]:
    """Each name an import of ``tree`` binds -> the dotted name it stands for (``t`` -> ``torch``, ``compile`` ->
    ``torch.compile``); imports in nested functions included (a name is rarely bound to two things)."""
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    out[a.asname] = a.name
                else:
                    head = a.name.split(".")[0]
                    out[head] = head
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for a in node.names:
                if a.name != "*":
                    out[a.asname or a.name] = f"{node.module}.{a.name}"
    return out


def _name_of(value: Any) -> str | None:
    """The dotted name of a torch module or entry point a namespace value is, else None."""
    if isinstance(value, types.ModuleType):
        return value.__name__
    if not callable(value):
        return None  # a config value (``compiled_autograd``'s flag) is not the entry point itself
    for dotted in ENTRY_POINTS:
        module, _, attr = dotted.rpartition(".")
        try:
            if value is getattr(_module(module), attr, _MISSING):
                return dotted
        except Exception:  # noqa: BLE001 - a torch without that piece
            continue
    return None


def _is_compiled(value: Any) -> bool:
    """Is ``value`` what ``torch.compile`` returned (a compiled function, an ``OptimizedModule``), or a module that
    ``model.compile()`` compiled in place? (A ``torch.compiler.disable``d function is not.)"""
    if value is None or getattr(value, "_torchdynamo_disable", False):
        return False
    if isinstance(value, torch.nn.Module):
        return isinstance(value, torch._dynamo.eval_frame.OptimizedModule) or bool(value.__dict__.get("_compiled_call_impl"))
    return callable(value) and getattr(value, "_torchdynamo_orig_callable", None) is not None


def _module(dotted: str) -> Any:
    obj: Any = torch
    for part in dotted.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


def _entry(dotted: str) -> str | None:
    """How the report names the entry point ``dotted`` reaches (a name under one counts: compiled autograd's)."""
    for name, what in ENTRY_POINTS.items():
        if dotted == name or dotted.startswith(name + "."):
            return what
    return None


def mentions(source: str | ast.AST, namespace: dict[str, Any]) -> list[Mention]:
    """Every mention of an entry point in ``source`` (text, or a parsed tree), in line order."""
    tree = ast.parse(source) if isinstance(source, str) else source
    aliases = _aliases(tree)
    found: list[Mention] = []
    seen_lines: set[tuple[str, int]] = set()

    def resolve(root: str) -> str | None:
        if root in aliases:
            return aliases[root]
        value = namespace.get(root, _MISSING)
        return None if value is _MISSING else _name_of(value)

    def known_other(root: str) -> bool:
        """``root`` is bound to something that is neither torch nor an ``nn.Module`` (``re``, a string)."""
        if root in aliases:
            return not aliases[root].startswith("torch")
        value = namespace.get(root, _MISSING)
        if value is _MISSING:
            return False
        if isinstance(value, types.ModuleType):
            return not value.__name__.startswith("torch")
        return not isinstance(value, torch.nn.Module)

    def add(what: str, line: int) -> None:
        if (what, line) not in seen_lines:
            seen_lines.add((what, line))
            found.append((what, line))

    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "compiled_autograd":  # config.patch(compiled_autograd=True)
            add("compiled autograd", getattr(node, "lineno", 0) or getattr(node.value, "lineno", 0))
        elif isinstance(node, ast.Attribute):  # a load, or a store (``config.compiled_autograd = True``)
            dotted = dotted_name(node)
            if dotted is None:
                continue
            parts = dotted.split(".")
            base = resolve(parts[0])
            if base is not None and base.startswith("torch"):
                what = _entry(".".join([base, *parts[1:]]))
                if what is not None:
                    add(what, node.lineno)
                    continue
            if node.attr == "compile" and not (base is not None or known_other(parts[0])) and len(parts) >= 2:
                add(MODULE_COMPILE, node.lineno)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            base = resolve(node.id)
            what = _entry(base) if base is not None and base.startswith("torch.") else None
            if what is not None:
                add(what, node.lineno)
            elif node.id not in aliases and _is_compiled(namespace.get(node.id)):
                add(f"{node.id}, which you compiled", node.lineno)
    return sorted(found, key=lambda m: m[1])  # an attribute chain and the chain inside it count once (``add``)


_BY_CODE: weakref.WeakKeyDictionary[types.CodeType, tuple[Mention, ...]] = weakref.WeakKeyDictionary()


def function_mentions(code: types.CodeType, scope: dict[str, Any] | None) -> list[Mention]:
    """The mentions of an entry point in the source of the function whose code is ``code`` (its nested functions
    included), names resolved in ``scope`` (its globals); lines as in its file; [] when the source cannot be read."""
    hit = _BY_CODE.get(code)
    if hit is not None:
        return list(hit)
    try:
        lines, first = inspect.getsourcelines(code)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        found: tuple[Mention, ...] = ()
    else:
        ast.increment_lineno(tree, first - 1)
        found = tuple(mentions(tree, scope or {}))
    _BY_CODE[code] = found
    return list(found)


def compiles_itself(target: Any) -> str | None:
    """How ``target`` (what the calls scope would compile: a function, a method, an ``nn.Module``, a callable's
    ``__call__``) compiles itself, in a few words (``torch.compile, line 12``; ``its submodule 'block' is compiled``),
    or None: its source mentions an entry point (a module's: every method its classes of the user's own define; a
    library's class, whose methods may compile on some path, ``generate``'s, does not count), or a module holds a
    submodule already compiled (regional compilation done before the call)."""
    if isinstance(target, torch.nn.Module):
        for name, sub in target.named_modules():
            if name and (isinstance(sub, torch._dynamo.eval_frame.OptimizedModule) or sub.__dict__.get("_compiled_call_impl")):
                return f"its submodule {name!r} is compiled"
        for klass in type(target).__mro__:
            found = _class_mentions(klass)
            if found:
                return f"{found[0][0]}, line {found[0][1]}"
        return None
    fn = getattr(target, "__func__", target)
    for _ in range(16):  # the function and those it wraps (a decorator's ``__wrapped__``: its own lines hold it)
        code = getattr(fn, "__code__", None)
        if not isinstance(code, types.CodeType):
            return None
        scope = getattr(fn, "__globals__", None)
        found_fn = function_mentions(code, scope if isinstance(scope, dict) else None) if is_user_file(code.co_filename) else []
        if found_fn:
            return f"{found_fn[0][0]}, line {found_fn[0][1]}"
        fn = getattr(fn, "__wrapped__", None)
    return None


def _class_mentions(klass: type) -> list[Mention]:
    """The mentions in each method a class of the user's defines itself (``__init__`` compiling a layer, ``forward``
    calling a compiled helper); none for a library's class."""
    out: list[Mention] = []
    for value in vars(klass).values():
        fn = value.__func__ if isinstance(value, (staticmethod, classmethod)) else value
        code = getattr(fn, "__code__", None)
        if isinstance(code, types.CodeType) and is_user_file(code.co_filename):
            out += function_mentions(code, getattr(fn, "__globals__", None))
    return sorted(out, key=lambda m: m[1])
