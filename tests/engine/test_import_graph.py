"""The house in order (issue 26 item 2, issue 40 item 1): no import circle in ``compiler/``, ``kernel_ext/`` or
``dynamo_explorer/``; the engine never imports IPython, nor the layers above it (``kernel_ext``, the command line);
the IPython layer does not import the command line.

The graph is read from the source (``ast``), every import counted: those at module level and those inside a function
(an import made when a function runs still ties the two modules together: the base layer would depend on a
feature). ``from pkg import name`` counts as an import of ``pkg.name`` when that is a module, else of ``pkg``; a
package above the importing module is not an edge (Python initializes it first anyway).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("compiler", "kernel_ext", "dynamo_explorer")


def _modules() -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for path in (ROOT / pkg).rglob("*.py"):
            rel = path.relative_to(ROOT).with_suffix("")
            if "labextension" in rel.parts:
                continue
            name = ".".join(rel.parts)
            out[name.removesuffix(".__init__")] = path
    return out


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    is_package = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_package else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            subs = [f"{module}.{a.name}" for a in node.names if f"{module}.{a.name}" in modules]
            targets = subs or [module]
        else:
            continue
        found.update(t for t in targets if t in modules and t != name and not name.startswith(t + "."))
    return found


def graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_no_import_circle_in_the_engine_or_the_ipython_layer():
    edges = graph()
    assert len(edges) > 60 and edges["compiler.runner"], "the graph was read"
    assert cycles(edges) == []


def test_the_check_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_engine_never_imports_ipython():
    for name, path in _modules().items():
        if not name.startswith("compiler"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                roots = [a.name.split(".")[0] for a in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                roots = [(node.module or "").split(".")[0]]
            else:
                continue
            assert "IPython" not in roots and "ipykernel" not in roots, f"{name} imports IPython"


#: what each layer must not import: the engine is below both front ends, the notebook layer beside the command line
FORBIDDEN = {"compiler": ("kernel_ext", "dynamo_explorer"), "kernel_ext": ("dynamo_explorer",)}


def test_each_layer_imports_only_those_below_it():
    edges = graph()
    assert any(n.startswith("dynamo_explorer.") for n in edges), "the command line was read"
    wrong = [
        f"{name} imports {target}"
        for name, targets in edges.items()
        for target in targets
        if target.split(".")[0] in FORBIDDEN.get(name.split(".")[0], ())
    ]
    assert wrong == []


def test_the_layer_check_finds_an_engine_import_of_a_front_end(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("def f():\n    from kernel_ext.outputs import Outputs\n")
    modules = {**_modules(), "compiler.m": path}
    assert "kernel_ext.outputs" in _imports("compiler.m", path, modules)
