"""Collector for AOTAutograd's joint / forward / backward / inference graphs.

The structured events ``aot_joint_graph``, ``aot_forward_graph``, ``aot_backward_graph`` and
``aot_inference_graph`` carry each graph's ``print_readable`` text for every AOT-based backend
(inductor, aot_eager, ...), also on AOTAutograd / FX-graph cache hits where no compiler callback
runs. ``parse_readable`` reads that FX code back into node rows: one op per line,
``name: "f32[4, 2][2, 1]cpu" = torch.ops.aten.mm.default(a, b)``, placeholders in the signature.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from ..dot import graph_dot
from ..model import CompileReport, Node

KINDS = {
    "aot_joint_graph": "aot_joint",
    "aot_forward_graph": "aot_forward",
    "aot_backward_graph": "aot_backward",
    "aot_inference_graph": "aot_inference",
}
_DTYPES = {
    "f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64", "i8": "int8", "i16": "int16",
    "i32": "int32", "i64": "int64", "u8": "uint8", "b8": "bool", "c64": "complex64", "c128": "complex128",
}
_PARAM = re.compile(r'(?P<name>\w+): "(?P<ann>[^"]*)"')
_ASSIGN = re.compile(r'^\s+(?P<name>[A-Za-z_]\w*)(?:: "(?P<ann>[^"]*)")? = (?P<rhs>.+?)(?:;  .*)?$')
_FILE = re.compile(r"# File: (?P<file>.+?):(?P<line>\d+) in ")
_IDENT = re.compile(r"[A-Za-z_]\w*")


def _ann(ann: str | None) -> tuple[list[int | str] | None, str | None]:
    if not ann:
        return None, None
    m = re.match(r"(?P<dt>[a-z]+\d*)\[(?P<shape>[^\]]*)\]", ann)
    if not m:
        return None, ann.split("(")[0] or None
    shape = [int(s) if s.strip().lstrip("-").isdigit() else s.strip() for s in m.group("shape").split(",") if s.strip()]
    return shape, _DTYPES.get(m.group("dt"), m.group("dt"))


def parse_readable(text: str) -> list[Node]:
    nodes: list[Node] = []
    names: set[str] = set()
    start = text.find("def forward(")
    sig_end = text.find("):", start) if start >= 0 else -1
    if start >= 0 and sig_end > start:
        for p in _PARAM.finditer(text[start:sig_end]):
            shape, dtype = _ann(p.group("ann"))
            nodes.append(Node(name=p.group("name"), op="placeholder", target=p.group("name"), args="()", kwargs="{}",
                              users=[], shape=shape, dtype=dtype, line=None, filename=None, nn_module_stack=[]))
            names.add(p.group("name"))
    file = line = None
    body = text[sig_end + 2:] if sig_end > 0 else text
    ret_args = ""
    for raw in body.splitlines():
        fm = _FILE.search(raw)
        if fm:
            file, line = fm.group("file"), int(fm.group("line"))
            continue
        stripped = raw.strip()
        if stripped.startswith("return "):
            ret_args += stripped[len("return "):]
            continue
        if ret_args and not stripped.startswith(("class ", "def ")):
            ret_args += " " + stripped.split("#")[0]
            continue
        m = _ASSIGN.match(raw)
        if not m or stripped.startswith("#"):
            continue
        rhs = m.group("rhs")
        target, _, args = rhs.partition("(")
        args = "(" + args if args else "()"
        shape, dtype = _ann(m.group("ann"))
        nodes.append(Node(name=m.group("name"), op="call_function", target=target.strip(), args=args, kwargs="{}",
                          users=[], shape=shape, dtype=dtype, line=line, filename=file, nn_module_stack=[]))
        names.add(m.group("name"))
    if nodes:
        nodes.append(Node(name="output", op="output", target="output", args=ret_args.strip() or "()", kwargs="{}",
                          users=[], shape=None, dtype=None, line=None, filename=None, nn_module_stack=[]))
    by_name = {n.name: n for n in nodes}
    for n in nodes:
        for ident in dict.fromkeys(_IDENT.findall(n.args)):
            if ident in names and ident != n.name and n.name not in by_name[ident].users:
                by_name[ident].users.append(n.name)
    return nodes


class AotGraphsCollector:
    name = "aot_graphs"

    def install(self, ctx: Any) -> contextlib.AbstractContextManager[Any]:
        return contextlib.nullcontext()

    def finalize(self, ctx: Any, report: CompileReport) -> None:
        for ev in ctx.stream.named(*KINDS):
            if ev.compile_id is None or not ev.payload:
                continue
            nodes = parse_readable(ev.payload)
            report.add_graph(compile_id=ev.compile_id, kind=KINDS[ev.name], nodes=nodes, code=ev.payload, dot=graph_dot(nodes))
