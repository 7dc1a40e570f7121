"""Collector for AOTAutograd's joint / forward / backward / inference graphs.

The structured events ``aot_joint_graph``, ``aot_forward_graph``, ``aot_backward_graph`` and
``aot_inference_graph`` carry each graph's ``print_readable`` text for every AOT-based backend
(inductor, aot_eager, ...), also on AOTAutograd / FX-graph cache hits where no compiler callback
runs. ``parse_readable`` reads that FX code back into node rows: one op per line,
``name: "f32[4, 2][2, 1]cpu" = torch.ops.aten.mm.default(a, b)``, placeholders in the signature.
``relocate`` points the ``# File:`` comments of a graph that came from a warm cache at the code of
this run ([Note: warm cache]); ``output_code.py`` uses it too.
"""

from __future__ import annotations

import functools
import linecache
import re
from collections import Counter, defaultdict
from collections.abc import Iterable

from ..events import TraceEvent
from ..model import CompileReport, GraphKind, Node
from .base import CaptureContext, Collector
from .stream import StreamCollector

KINDS: dict[str, GraphKind] = {
    "aot_joint_graph": "aot_joint",
    "aot_forward_graph": "aot_forward",
    "aot_backward_graph": "aot_backward",
    "aot_inference_graph": "aot_inference",
}
_DTYPES = {
    "f16": "float16",
    "bf16": "bfloat16",
    "f32": "float32",
    "f64": "float64",
    "i8": "int8",
    "i16": "int16",
    "i32": "int32",
    "i64": "int64",
    "u8": "uint8",
    "b8": "bool",
    "c64": "complex64",
    "c128": "complex128",
}
_PARAM = re.compile(r'(?P<name>\w+): "(?P<ann>[^"]*)"')
# a node's line up to its right-hand side, which runs to the first ";  " (the comment FX puts after it) or the end
_ASSIGN = re.compile(r'\s+(?P<name>[A-Za-z_]\w*)(?:: "(?P<ann>[^"]*)")? = ')
_FILE = re.compile(r"# File: (?P<file>.+?):(?P<line>\d+) in ")
_IDENT = re.compile(r"[A-Za-z_]\w*")
_OPERATOR = re.compile(r"[^\w.]")  # a target that is an expression, not a dotted path
# FX's summary of a node's stack trace (``torch.fx.graph._ParsedStackTrace.get_summary_str``).
_LOCATION = re.compile(r"# File: (?P<file>.+?):(?P<line>\d+) in (?P<fn>.+?), code: (?P<code>[^\n]*)")

Location = tuple[str, int]  # (filename, line)

# [Note: warm cache] AOTAutogradCache and FXGraphCache (on disk, TORCHINDUCTOR_CACHE_DIR) key an
# entry on the Dynamo graph's ops, not on its stack traces. On a hit the AOT graphs' text (the
# ``aot_*_graph`` events replay the cached strings) and inductor's output code are those of the run
# that filled the cache: their ``# File: path:line in fn, code: ...`` comments name that run's file
# (another script path, an earlier ``<dynamo-cell-N>``, an old IPython cell file), line and function.
# Dynamo's own graph is traced afresh every run, so its locations are this run's. ``relocate`` moves
# each stale location to the one of this run that holds the same code:
# - a location is stale when the Dynamo graph of the same compile id does not come from it with that
#   code, and its file is not one that graph comes from or no longer holds that code at that line
#   (``linecache``); a location the Dynamo graph does not name but whose file still says that code
#   (a higher-order op's body in a graph too big for annotated code) is left as it is;
# - each stale file moves to the (file, line shift) most of its stale locations agree on, matched by
#   code text; each location then takes the line of that file holding its code nearest to its
#   shifted line (so a repeated line of code finds its own copy), else the shifted line;
# - a file no location of this run matches stays as it is: no evidence, no guess.
# The node rows are parsed from the relocated text, so rows and code agree. Cost: two regex passes
# over a text, and only texts with a stale location are rewritten.


def ran_from(report: CompileReport, compile_id: str) -> dict[Location, tuple[str, str | None]]:
    """``(file, line) -> (code, function)`` of every location the Dynamo graph of ``compile_id`` comes
    from in this run: its ``# File:`` comments, and its node rows (code read from ``linecache``)."""
    here: dict[Location, tuple[str, str | None]] = {}
    for graph in report.graphs_of(compile_id):
        if graph.kind != "dynamo":
            continue
        for node in graph.nodes:
            if node.filename and node.line and (node.filename, node.line) not in here:
                here[node.filename, node.line] = (linecache.getline(node.filename, node.line).strip(), None)
        for m in _LOCATION.finditer(graph.code):
            here[m["file"], int(m["line"])] = (m["code"].strip(), m["fn"])
    return here


def relocate(text: str, here: dict[Location, tuple[str, str | None]]) -> str:
    """``text`` with each stale ``# File:`` location moved to this run's ([Note: warm cache])."""
    named = {(m["file"], int(m["line"])): m["code"].strip() for m in _LOCATION.finditer(text)}
    files = {f for f, _ in here}
    stale = {
        (f, ln): code
        for (f, ln), code in named.items()
        if here.get((f, ln), ("",))[0] != code and (f not in files or linecache.getline(f, ln).strip() != code)
    }
    if not stale:
        return text
    by_code: dict[str, list[Location]] = defaultdict(list)
    for loc, (code, _) in here.items():
        by_code[code].append(loc)
    votes: dict[str, Counter[tuple[str, int]]] = defaultdict(Counter)
    for (f, ln), code in stale.items():
        for f2, ln2 in by_code.get(code, ()):
            votes[f][f2, ln2 - ln] += 1
    moves: dict[Location, Location] = {}
    for (f, ln), code in stale.items():
        if votes[f]:
            f2, shift = votes[f].most_common(1)[0][0]
            same = [c for c in by_code.get(code, ()) if c[0] == f2]
            moves[f, ln] = min(same, key=lambda c: abs(c[1] - ln - shift), default=(f2, ln + shift))

    def moved(m: re.Match[str]) -> str:
        to = moves.get((m["file"], int(m["line"])))
        if to is None:
            return m[0]
        fn = here.get(to, ("", None))[1] or m["fn"]
        return f"# File: {to[0]}:{to[1]} in {fn}, code: {m['code']}"

    return _LOCATION.sub(moved, text) if moves else text


@functools.lru_cache(maxsize=4096)  # a graph repeats a handful of annotations over its thousands of nodes
def _ann_of(ann: str) -> tuple[tuple[int | str, ...] | None, str | None]:
    shape, dtype = _parse_ann(ann)
    return (tuple(shape) if shape is not None else None), dtype


def _ann(ann: str | None) -> tuple[list[int | str] | None, str | None]:
    if not ann:
        return None, None
    shape, dtype = _ann_of(ann)
    return (list(shape) if shape is not None else None), dtype


def _parse_ann(ann: str | None) -> tuple[list[int | str] | None, str | None]:
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
            nodes.append(
                Node(
                    name=p.group("name"),
                    op="placeholder",
                    target=p.group("name"),
                    args="()",
                    kwargs="{}",
                    users=[],
                    shape=shape,
                    dtype=dtype,
                    line=None,
                    filename=None,
                    nn_module_stack=[],
                )
            )
            names.add(p.group("name"))
    aliases: dict[str, str] = {}  # Dynamo's readable code renames its inputs: ``l_x_ = L_x_``
    file = line = None
    body = text[sig_end + 2 :] if sig_end > 0 else text
    ret_args = ""
    for raw in body.splitlines():
        fm = _FILE.search(raw) if "# File: " in raw else None
        if fm:
            file, line = fm.group("file"), int(fm.group("line"))
            continue
        stripped = raw.strip()
        if stripped.startswith("return "):
            ret_args += stripped[len("return ") :]
            continue
        if ret_args and not stripped.startswith(("class ", "def ")):
            ret_args += " " + stripped.split("#")[0]
            continue
        m = _ASSIGN.match(raw)
        if not m or stripped.startswith("#") or m.end() == len(raw):
            continue
        cut = raw.find(";  ", m.end() + 1)
        rhs = raw[m.end() : cut] if cut >= 0 else raw[m.end() :]
        if m.group("ann") is None and (rhs.strip() in names or rhs.strip() in aliases):
            aliases[m.group("name")] = aliases.get(rhs.strip(), rhs.strip())
            continue
        target, _, args = rhs.partition("(")
        args = "(" + args if args else "()"
        shape, dtype = _ann(m.group("ann"))
        nodes.append(
            Node(
                name=m.group("name"),
                op="call_function",
                target=target.strip(),
                args=args,
                kwargs="{}",
                users=[],
                shape=shape,
                dtype=dtype,
                line=line,
                filename=file,
                nn_module_stack=[],
            )
        )
        names.add(m.group("name"))
    if nodes:
        nodes.append(
            Node(
                name="output",
                op="output",
                target="output",
                args=ret_args.strip() or "()",
                kwargs="{}",
                users=[],
                shape=None,
                dtype=None,
                line=None,
                filename=None,
                nn_module_stack=[],
            )
        )
    by_name = {n.name: n for n in nodes}
    for n in nodes:
        if n.op == "placeholder":  # reads nothing (most of a big model's nodes: its parameters)
            continue
        # the target reads names as an operator expression (``sin * 2``) or a method's receiver (``y.sum()``);
        # a function's dotted path (``torch.ops.aten.permute.default``) reads none
        if n.op != "call_function":
            read = []
        elif _OPERATOR.search(n.target):
            read = _IDENT.findall(n.target)
        else:
            read = n.target.split(".")[:1]
        for ident in dict.fromkeys(aliases.get(i, i) for i in [*read, *_IDENT.findall(n.args)]):
            if ident in names and ident != n.name and n.name not in by_name[ident].users:
                by_name[ident].users.append(n.name)
    return nodes


def add_aot_graphs(report: CompileReport, events: Iterable[TraceEvent]) -> None:
    """The AOT graphs of ``events`` (a live run's stream, or a trace file's events) into ``report``."""
    here: dict[str, dict[Location, tuple[str, str | None]]] = {}
    for ev in events:
        if ev.name not in KINDS or ev.compile_id is None or not ev.payload:
            continue
        if ev.compile_id not in here:
            here[ev.compile_id] = ran_from(report, ev.compile_id)
        code = relocate(ev.payload, here[ev.compile_id])
        nodes = parse_readable(code)
        report.add_graph(compile_id=ev.compile_id, kind=KINDS[ev.name], nodes=nodes, code=code)


class AotGraphsCollector(Collector):
    name = "aot_graphs"
    requires = ("stream", "fx_graphs")

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        add_aot_graphs(report, ctx.get(StreamCollector).stream.named(*KINDS))
