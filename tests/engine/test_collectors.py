"""The collector extension point: a collector declares its Dynamo hooks by overriding them, owns its
state, and reads another collector only through ``ctx.get`` of one it ``requires`` (docs/architecture.md)."""

from __future__ import annotations

import ast
import importlib
import pathlib
from typing import Any, ClassVar

import pytest
import torch

from compiler import RunOptions, run_cell
from compiler.collectors import REGISTRY, CaptureContext, Collector
from compiler.collectors.base import HOOKS, CodeRecord, declares
from compiler.collectors.dispatch import Dispatcher
from compiler.collectors.frames import FramesCollector
from compiler.collectors.fx_graphs import FxGraphsCollector
from compiler.collectors.guards.guards import GuardsCollector
from compiler.model import CompileReport
from tests.engine.helpers import run

ROOT = pathlib.Path(__file__).resolve().parents[2]

TWO_FRAMES = """
import torch

def f(x):
    y = torch.sin(x) + 1
    print("break")
    return torch.cos(y) * 2

out = f(torch.ones(4))
"""


class OpCount(Collector):
    """A new artifact kind written outside compiler/: call_function nodes per graph, as the backend saw them."""

    name = "op_count"
    requires = ("fx_graphs",)
    seen: ClassVar[list[OpCount]] = []

    def __init__(self) -> None:
        self.ops: dict[str, int] = {}
        self.codes: list[str] = []
        self.seen.append(self)

    def on_graph(self, ctx: CaptureContext, compile_id: str, gm: Any, example_inputs: list[Any]) -> None:
        self.ops[compile_id] = sum(n.op == "call_function" for n in gm.graph.nodes)

    def on_code(self, ctx: CaptureContext, record: CodeRecord) -> None:
        self.codes.append(record.compile_id)

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        self.graphs = len(ctx.get(FxGraphsCollector).records)


def test_a_new_artifact_kind_is_one_collector():
    OpCount.seen.clear()
    result = run(TWO_FRAMES, collectors=(*REGISTRY, OpCount))
    (collector,) = OpCount.seen
    report = result.report
    dynamo = [g for g in report["graphs"] if g["kind"] == "dynamo"]
    assert collector.ops == {g["compile_id"]: sum(n["op"] == "call_function" for n in g["nodes"]) for g in dynamo}
    assert collector.ops and all(n > 0 for n in collector.ops.values())
    assert collector.codes == [f["compile_id"] for f in report["frames"] if f["modified_bytecode"]]
    assert collector.graphs == len(dynamo)


def test_reading_a_collector_not_in_requires_is_refused_with_the_fix():
    class Sneaky(Collector):
        name = "sneaky"
        requires = ()

        def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
            ctx.get(FramesCollector)

    result = run_cell(TWO_FRAMES, {"__name__": "__main__"}, RunOptions(backend="eager"), collectors=(*REGISTRY, Sneaky))
    assert result.exception is None
    (failed,) = [d["message"] for d in result.report["diagnostics"] if d["kind"] == "collector_failed"]
    assert failed == "sneaky: LookupError: collector 'sneaky' reads 'frames' but does not list it in requires"


def test_a_hook_that_raises_never_reaches_dynamo():
    class Broken(Collector):
        name = "broken"

        def on_graph(self, ctx: CaptureContext, compile_id: str, gm: Any, example_inputs: list[Any]) -> None:
            raise RuntimeError("bug in a collector")

        def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
            return None

    ns: dict[str, Any] = {"__name__": "__main__"}
    # the calls scope raises what the backend raises: a leaked hook error would fail the user's cell
    result = run_cell(TWO_FRAMES, ns, RunOptions(backend="eager"), collectors=(*REGISTRY, Broken))
    assert result.exception is None and torch.equal(ns["out"], torch.cos(torch.sin(torch.ones(4)) + 1) * 2)
    failed = [d["message"] for d in result.report["diagnostics"] if d["kind"] == "collector_failed"]
    assert failed and all(m == "broken.on_graph: RuntimeError: bug in a collector" for m in failed)
    assert len([g for g in result.report["graphs"] if g["kind"] == "dynamo"]) == 2  # the others still captured


def test_dynamo_is_observed_only_where_some_collector_declares_a_hook():
    from torch._dynamo import guards
    from torch._dynamo.guards import CheckFunctionManager

    ctx = CaptureContext(program=None, options=RunOptions())  # type: ignore[arg-type]
    build, explain = CheckFunctionManager.__init__, guards.get_guard_fail_reason
    without_guards = Dispatcher(ctx, [FramesCollector(), FxGraphsCollector()])
    with without_guards.install():
        assert CheckFunctionManager.__init__ is build and guards.get_guard_fail_reason is explain
    with_guards = Dispatcher(ctx, [FramesCollector(), GuardsCollector()])
    with with_guards.install():
        assert CheckFunctionManager.__init__ is not build and guards.get_guard_fail_reason is explain
    assert CheckFunctionManager.__init__ is build  # put back
    assert [c.name for c in with_guards.by_hook["on_guards"]] == ["guards"]


def test_without_the_guards_collector_the_run_has_no_guards_and_is_otherwise_whole():
    kinds = tuple(c for c in REGISTRY if c.name not in ("guards", "dynamic_shapes", "dispatch_view"))
    result = run_cell(TWO_FRAMES, {"__name__": "__main__"}, RunOptions(backend="eager"), collectors=kinds)
    assert result.exception is None
    assert all(f["guards"] == [] for f in result.report["frames"])
    assert [g["kind"] for g in result.report["graphs"]] == ["dynamo", "dynamo"]


def _reads(tree: ast.AST) -> set[str]:
    """Class names ``X`` of every ``ctx.get(X)`` in a module."""
    return {
        node.args[0].id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "ctx"
        and node.args
        and isinstance(node.args[0], ast.Name)
    }


@pytest.mark.parametrize("cls", REGISTRY, ids=lambda c: c.name)
def test_a_collector_reads_only_what_it_requires_and_declares_hooks_by_overriding(cls):
    module = importlib.import_module(cls.__module__)
    tree = ast.parse(pathlib.Path(module.__file__).read_text())
    read = {getattr(module, name).name for name in _reads(tree)}
    assert read <= set(cls.requires), f"{cls.name} reads {read - set(cls.requires)} without requiring it"
    assert issubclass(cls, Collector)
    declared = {h for h in HOOKS if declares(cls(), h)}
    wrong = {m for m in vars(cls) if m.startswith("on_") and m not in HOOKS}
    assert not wrong, f"{cls.name} defines {wrong}, which no Dynamo hook calls (HOOKS: {HOOKS})"
    assert declared <= set(HOOKS)


def test_the_base_module_imports_no_concrete_collector():
    tree = ast.parse((ROOT / "compiler/collectors/base.py").read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    concrete = {c.__module__.rsplit(".", 1)[1] for c in REGISTRY}
    assert not imported & concrete, imported & concrete
    typing_only = {  # ``if TYPE_CHECKING:`` imports never run (base.py names a live run's CellProgram so)
        id(n)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING"
        for n in ast.walk(block)
    }
    nested = [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom) and n.col_offset > 0]
    assert not [n for n in nested if id(n) not in typing_only]


def test_a_collector_this_torch_cannot_install_is_named_and_the_rest_of_the_run_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """A release that moved what one collector patches (here: the decisions collector's install raises as a missing
    private name would) costs that pane only: the cell runs, every other artifact is captured, and the report
    names the collector, this torch's version and what was missing."""
    from compiler.collectors.decisions.decisions import DecisionsCollector

    def moved(self: Any, ctx: Any) -> Any:
        raise AttributeError("type object 'InliningInstructionTranslator' has no attribute 'inline_call'")

    monkeypatch.setattr(DecisionsCollector, "install", moved)
    ns: dict[str, Any] = {"__name__": "__main__"}
    src = "import torch\n\ndef f(x):\n    return x.sin() + 1\n\ny = f(torch.ones(3))\n"
    rep = run_cell(src, ns, RunOptions(backend="eager", decisions=True)).report
    assert rep["error"] is None and torch.equal(ns["y"], torch.ones(3).sin() + 1)
    (frame,) = rep["frames"]
    assert frame["status"] == "ok" and frame["graph_ids"] and frame["guards"] and frame["decisions"] == []
    (said,) = [d["message"] for d in rep["diagnostics"] if d["kind"] == "collector_failed"]
    assert said.startswith(f"decisions: not captured, it cannot run on torch {torch.__version__}: AttributeError: ")
    assert "inline_call" in said


def test_a_piece_every_run_needs_and_this_torch_lacks_fails_once_naming_the_torch_and_the_piece() -> None:
    from compiler import _compat

    with pytest.raises(_compat.TorchUnsupported) as caught:
        _compat._require("torch._dynamo.eval_frame", "_a_name_a_release_moved")
    said = str(caught.value)
    assert said.startswith(f"dynamo-explorer cannot run on torch {torch.__version__}: it has no ")
    assert "torch._dynamo.eval_frame._a_name_a_release_moved" in said and "pip install torch==" in said
    with pytest.raises(_compat.TorchUnsupported, match=r"no torch\._no_such_module\.x"):
        _compat._require("torch._no_such_module", "x")
