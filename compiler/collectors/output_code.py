"""Collector for inductor's generated code: the wrapper module and each kernel in it.

``inductor_output_code`` carries the whole wrapper (``# AOT ID: ['0_forward']`` names the graph
kind). Kernels are embedded in it: ``async_compile.cpp_pybinding([...], r'''<C++>''')`` on the CPU,
``async_compile.triton('name', '''<Triton>''')`` on the GPU. On an FX-graph cache hit the code is
the cached one; its ``# File:`` comments, if any, are moved to this run's code ([Note: warm cache]
in aot_graphs.py).
"""

from __future__ import annotations

import re

from ..model import CompileReport, Kernel, OutputCode
from .aot_graphs import ran_from, relocate
from .base import CaptureContext, Collector
from .stream import StreamCollector

_AOT_ID = re.compile(r"# AOT ID: \['\d+_(?P<kind>forward|backward|inference)'\]")
_KERNEL = re.compile(
    r"^(?P<name>\w+) = async_compile\.(?P<api>cpp_pybinding|cpp|triton|pallas|mps)\((?P<pre>.*?)(?P<q>r?'''|r?\"\"\")(?P<src>.*?)(?P=q)",
    re.S | re.M,
)
_LANG = {"cpp_pybinding": "cpp", "cpp": "cpp", "triton": "triton"}


def split_kernels(source: str) -> list[Kernel]:
    out = []
    for m in _KERNEL.finditer(source):
        q = m.group("q").lstrip("r")
        src = m.group("src")
        if q not in ('"""', "'''"):
            continue
        out.append(Kernel(name=m.group("name"), language=_LANG.get(m.group("api"), "python"), source=src.strip("\n")))
    return out


class OutputCodeCollector(Collector):
    name = "output_code"
    requires = ("stream", "fx_graphs")

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        for ev in ctx.get(StreamCollector).stream.named("inductor_output_code"):
            if ev.compile_id is None or not ev.payload:
                continue
            source = relocate(ev.payload, ran_from(report, ev.compile_id)) if "# File: " in ev.payload else ev.payload
            m = _AOT_ID.search(source)
            kind = m.group("kind") if m else "inference"
            report.output_code.append(
                OutputCode(compile_id=ev.compile_id, kind=kind, source=source, kernels=split_kernels(source))
            )
