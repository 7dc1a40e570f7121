"""Turning a notebook cell's source into something Dynamo can run, with notebook semantics.

Holds:
- ``CellProgram``: the parsed cell, for any scope (``watch``, ``calls``, ``cell`` or ``all-frames``);
- ``prepare``: parse, reject what cannot run, pick the scope for ``auto`` (``auto_scope.py``, and say why);
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

[Note: watch scope] (the default for code that compiles itself) is in calls.py: the cell runs as plain module
code, unchanged, and every compile its own code makes is captured as it happens.

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
import sys
import types
from dataclasses import dataclass, field
from typing import Any, cast

from .auto_scope import auto_scope, bound_names, cell_properties, runtime_namespace
from .errors import UsageError
from .model import ReportScope

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
    scope: ReportScope
    scope_reason: str
    bound_names: list[str] = field(default_factory=list)
    module_code: types.CodeType | None = None  # watch, calls and all-frames scopes
    function_code: types.CodeType | None = None
    has_last_expr: bool = False


def prepare(source: str, filename: str, namespace: dict[str, Any], scope: str, watch: bool = True) -> CellProgram:
    """Parse ``source`` and build the code for ``scope`` ('auto', 'watch', 'calls', 'cell' or 'all-frames'); for
    'auto', ``watch`` False leaves 'watch' out (``--override-compile-options``: the explorer compiles).

    Raises ``SyntaxError`` for invalid Python and ``UsageError`` for constructs that cannot run in
    the chosen scope, before anything runs.
    """
    tree = ast.parse(source, filename=filename, mode="exec")
    _reject_everywhere(tree.body, filename)
    if scope == "auto":
        scope, reason = auto_scope(tree.body, namespace, watch=watch)
    else:
        reason = f"scope '{scope}' was requested"
    # 'auto' is resolved above; a scope asked for by name was checked by RunOptions.validate
    prog = CellProgram(source=source, filename=filename, scope=cast("ReportScope", scope), scope_reason=reason)
    body = list(tree.body)
    if body and isinstance(body[-1], ast.Expr):
        last = body[-1]
        body[-1] = ast.copy_location(ast.Assign(targets=[ast.Name(OUT_NAME, ast.Store())], value=last.value), last)
        prog.has_last_expr = True
    if scope == "calls":
        rewriter = _CallRewriter(cell_properties(tree.body))
        body = [rewriter.visit(stmt) for stmt in body]
    if scope in ("watch", "calls", "all-frames"):
        mod = ast.fix_missing_locations(ast.Module(body=body, type_ignores=[]))
        prog.module_code = compile(mod, filename, "exec", dont_inherit=True)
        return prog
    _reject_in_cell_scope(body, filename)
    body = [s for s in body if not isinstance(s, ast.Global)]  # no-ops at module level; ours covers them
    body = _DelRewriter().visit(ast.Module(body=body, type_ignores=[])).body
    names = bound_names(body)
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
    """What one compiled frame cannot hold (``auto_scope.runtime_namespace``: scope auto runs such a cell as plain
    module code instead), as a one-line error naming the fix."""
    dynamic = runtime_namespace(stmts)
    if dynamic is not None:
        what, line = dynamic
        raise UsageError(
            f"the cell's {what.removeprefix('its ')}: run it with --scope calls (or without --scope), or move it to a plain cell",
            line=line,
            filename=filename,
        )


# --- cell scope: the generated function -------------------------------------------------------------


class _CallRewriter(ast.NodeTransformer):
    """``f(a)`` -> ``__dynamo_call__(f, 'f', line)(a)`` in the cell's own scope ([Note: calls scope]); reading
    ``obj.p`` where ``p`` is the name of a property of a class the cell defines -> ``__dynamo_call__.attribute(obj,
    'p', 'obj.p', line)`` (``CallCompiler.attribute``: the getter compiled when ``p`` is such a property at run time)."""

    def __init__(self, properties: set[str]) -> None:
        self.properties = properties

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.ctx, ast.Load) or node.attr not in self.properties:
            return node
        text = ast.unparse(node)
        text = text if len(text) <= 60 else text[:57] + "..."
        call = ast.Call(
            func=ast.Attribute(ast.Name(CALL_NAME, ast.Load()), "attribute", ast.Load()),
            args=[node.value, ast.Constant(node.attr), ast.Constant(text), ast.Constant(node.lineno)],
            keywords=[],
        )
        return ast.copy_location(call, node)

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
