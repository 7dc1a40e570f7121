"""Collector for inductor's generated code: the wrapper module and each kernel in it.

``inductor_output_code`` carries the whole wrapper (``# AOT ID: ['0_forward']`` names the graph
kind). Kernels are embedded in it: ``async_compile.cpp_pybinding([...], r'''<C++>''')`` on the CPU,
``async_compile.triton('name', '''<Triton>''')`` on the GPU.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from ..model import CompileReport, Kernel, OutputCode

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


class OutputCodeCollector:
    name = "output_code"

    def install(self, ctx: Any) -> contextlib.AbstractContextManager[Any]:
        return contextlib.nullcontext()

    def finalize(self, ctx: Any, report: CompileReport) -> None:
        for ev in ctx.stream.named("inductor_output_code"):
            if ev.compile_id is None or not ev.payload:
                continue
            m = _AOT_ID.search(ev.payload)
            kind = m.group("kind") if m else "inference"
            report.output_code.append(OutputCode(compile_id=ev.compile_id, kind=kind, source=ev.payload, kernels=split_kernels(ev.payload)))
