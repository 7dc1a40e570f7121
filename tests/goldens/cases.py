"""The golden cases: small real programs, each run through the engine into ``<name>.report.json``.

Shared by the Python tests (tests/engine), the TypeScript renderer tests (labextension) and the
browser tests. ``regenerate.py`` rewrites the goldens; ``skeleton`` is the part tests compare.
"""

from __future__ import annotations

from typing import Any

TOY_EXAMPLE = """import torch

torch.manual_seed(0)


def toy_example(a, b):
    x = a / (torch.abs(a) + 1)
    if b.sum() < 0:
        b = b * -1
    return x * b

for _ in range(5):
    out = toy_example(torch.randn(10), torch.randn(10))
"""

# The toy_example as typed in a notebook cell: line N of it is notebook line N (the magic is line 1).
TOY_EXAMPLE_CELL = "%%dynamo\n" + TOY_EXAMPLE


def line_of(source: str, text: str) -> int:
    """1-based number of the first line of ``source`` that reads ``text`` (ignoring indentation)."""
    return next(i for i, line in enumerate(source.splitlines(), 1) if line.strip() == text.strip())


# A planted bug (every multiplication by a Python float made 0.1 % larger, as a post-grad pass) for f only; bfloat16
# arithmetic inductor keeps in float32; dropout; a plain graph.
NUMERICS = """import torch


def scale_constants(graph):
    for node in graph.nodes:
        if node.op == "call_function" and node.target is torch.ops.aten.mul.Tensor and isinstance(node.args[1], float):
            node.args = (node.args[0], node.args[1] * 1.001)


def f(x):
    return (x * 2.0).relu()


def h(b):
    for _ in range(6):
        b = b * 1.1 + 0.05
    return b.tanh()


def drop(x):
    return torch.nn.functional.dropout(x, 0.5, training=True) + 1


def g(x, w):
    return (x @ w).tanh()


torch.manual_seed(0)
with torch._inductor.config.patch(post_grad_custom_post_pass=scale_constants):
    y = f(torch.randn(64))
z = h(torch.randn(256, dtype=torch.bfloat16))
d = drop(torch.randn(8))
t = g(torch.randn(2, 32), torch.randn(32, 8))
"""


# issue 43: a cell that exports (scope watch): a non-strict failure on a data-dependent branch, a dynamic success
# (a Dim, a parameter, a buffer the forward changes), and draft_export assuming a data-dependent condition
EXPORTS = """import torch
from torch.export import Dim


class Gate(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x * 2
        return x - 1


class Scale(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.ones(8))
        self.register_buffer("n", torch.zeros(1))

    def forward(self, x):
        self.n.add_(1)
        return (x * self.w).relu().sum(-1)


class Pick(torch.nn.Module):
    def forward(self, x, n):
        if n.item() > 2:
            return x * 2
        return x + 1


try:
    torch.export.export(Gate(), (torch.randn(4),))
except Exception as e:
    failed = type(e).__name__
ep = torch.export.export(Scale(), (torch.randn(4, 8),), dynamic_shapes={"x": {0: Dim("batch", min=2, max=64)}})
draft = torch.export.draft_export(Pick(), (torch.randn(8), torch.tensor(3)))
"""


# strict mode (issue 43, minor 23): Dynamo traces each module as a frame of export's wrapper (a fullgraph capture,
# no compile start callback), the failed one with its break at the cell's line; each strict call resets Dynamo
EXPORTS_STRICT = (
    EXPORTS.split("class Pick")[0]
    + """try:
    torch.export.export(Gate(), (torch.randn(4),), strict=True)
except Exception as e:
    failed = type(e).__name__
ep = torch.export.export(Scale(), (torch.randn(4, 8),), dynamic_shapes={"x": {0: Dim("batch", min=2, max=64)}}, strict=True)
"""
)


CASES: dict[str, dict[str, Any]] = {
    "toy_example": {"source": TOY_EXAMPLE, "options": {"backend": "eager"}},
    # --profile and --compare-eager on the toy_example ([Note: profile], [Note: eager baseline])
    "toy_profile": {"source": TOY_EXAMPLE, "options": {"backend": "eager", "profile": True, "compare_eager": True}},
    "recompile_dtype": {
        "source": "import torch\n\ndef scale(x):\n    return x * 2 + 1\n\na = scale(torch.randn(4))\nb = scale(torch.randn(4, dtype=torch.float64))\n",
        "options": {"backend": "eager"},
    },
    "list_append": {
        "source": "import torch\n\ndef accumulate(x, items):\n    items.append(x.sum())\n    return x * len(items)\n\nitems = []\nfor _ in range(4):\n    y = accumulate(torch.randn(3), items)\n",
        "options": {"backend": "eager"},
    },
    "item_break": {
        "source": "import torch\n\ndef normalize(x):\n    total = x.sum().item()\n    return x / total\n\nz = normalize(torch.rand(5) + 1)\n",
        "options": {"backend": "eager"},
    },
    "training_step": {
        "source": (
            "import torch\n\ntorch.manual_seed(0)\nmodel = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))\n\n"
            "def train_step(x, y):\n    loss = torch.nn.functional.mse_loss(model(x), y)\n    loss.backward()\n    return loss\n\n"
            "loss = train_step(torch.randn(4, 8), torch.randn(4, 1))\n"
        ),
        "options": {"backend": "inductor"},
    },
    "dynamic_sizes": {
        "source": "import torch\n\ndef scaled_relu(x):\n    return torch.relu(x) * x.shape[0]\n\nfor n in (8, 16, 32):\n    r = scaled_relu(torch.randn(n))\n",
        "options": {"backend": "eager"},
    },
    # issue 11 item 6: the dynamic_sizes cell run a second time in the same kernel. Dynamo's automatic dynamic
    # remembers that x changed size, so the one frame starts symbolic and no recompile happens; the report says so
    "rerun_dynamic": {
        "source": "import torch\n\ndef scaled_relu(x):\n    return torch.relu(x) * x.shape[0]\n\nfor n in (8, 16, 32):\n    r = scaled_relu(torch.randn(n))\n",
        "options": {"backend": "eager"},
        "runs_before": 1,
    },
    "cell_scope": {
        "source": "import torch\nx = torch.randn(4)\ny = x * 2\nprint('y is', y.shape)\nz = y.sum()\nz\n",
        "options": {"backend": "eager"},
    },
    # issue 9 item 6: the model lives in an earlier notebook cell (In [1]); the cell that runs is In [2]
    "earlier_cell": {
        "earlier": (
            "import torch\n\nclass Gate(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            "        self.lin = torch.nn.Linear(4, 4)\n\n    def forward(self, x):\n        y = self.lin(x)\n"
            "        if y.sum() > 0:\n            y = y * 2\n        return y.relu()\n"
        ),
        "labels": {"earlier": "In [1]", "cell": "In [2]"},
        "source": "torch.manual_seed(0)\ngate = Gate()\nout = gate(torch.randn(2, 4))\n",
        "options": {"backend": "eager"},
    },
    # fullgraph=True on a data-dependent branch: the cell raises; the partial report keeps the frame's
    # bytecode and the graph Dynamo had traced (kind dynamo_partial)
    "fullgraph_partial": {
        "source": "import torch\n\ndef gate(x):\n    y = x.sin() * 2\n    if y.sum() > 0:\n        y = y + 1\n    return y\n\nout = gate(torch.ones(3))\n",
        "options": {"backend": "eager", "fullgraph": True},
    },
    # issue 12 item 4: the dtype, an int and a flag all change; Dynamo's reason names `n == 2` only, the report
    # every failing guard with expected and actual, and the automatic-dynamic decision on L['n'] it led to
    "recompile_many": {
        "source": (
            "import torch\n\ndef f(x, n, flag):\n    y = x * n\n    if flag:\n        y = y + 1\n    return y\n\n"
            "a = f(torch.ones(2, 3), 2, True)\nb = f(torch.ones(2, 3, dtype=torch.float64), 3, False)\n"
        ),
        "options": {"backend": "eager"},
    },
    # issue 13 item 1: one call of each decision (inline, nested inline, the stdlib inlined by rule, a skip on
    # constants and one that breaks, allow_in_graph, torch._dynamo.disable), with a restart after the break
    "decisions": {
        "source": (
            "import copy\nimport re\n\nimport torch\nfrom networkx.utils.misc import pairwise\n\n\n"
            "def helper2(x):\n    return x * 2\n\n\ndef helper(x):\n    return helper2(x) + 1\n\n\n"
            "@torch._dynamo.disable\ndef disabled(x):\n    return x - 1\n\n\n"
            "@torch._dynamo.allow_in_graph\ndef opaque(x):\n    return x.sin()\n\n\n"
            "def f(x):\n    y = helper(x)\n    d = copy.deepcopy({'a': 1})\n    m = re.match(r'a+', 'aaa')\n"
            "    y = opaque(y) + len(d)\n    z = disabled(y)\n    return list(pairwise([z, z + 1]))\n\n\n"
            "out = f(torch.randn(3))\n"
        ),
        "options": {"backend": "eager", "decisions": True},
    },
    # issue 13 item 4: an .item() break and a shape recompile, each with a fix on offer; the run applies
    # capture_scalar_outputs (--try), so the report holds fixes and try_fix (before: a run made just before)
    "try_fix": {
        "source": (
            "import torch\n\ndef normalize(x):\n    total = x.sum().item()\n    return x / total\n\n"
            "def scale(x):\n    return x * 2\n\nz = normalize(torch.rand(5) + 1)\nfor n in (4, 8, 16):\n    w = scale(torch.rand(n))\n"
        ),
        "options": {"backend": "eager", "try_fix": "capture_scalar_outputs"},
    },
    # issue 13 item 3: three cache entries of one code (float32 and n == 2, float64, then n made dynamic), run
    # with --profile so each entry says how many calls it served; a graph break gives the resume function its own
    "dispatch": {
        "source": (
            "import torch\n\ndef scale(x, n):\n    y = x * n\n    print('break')\n    return y + 1\n\n"
            "for _ in range(2):\n    a = scale(torch.randn(4), 2)\n"
            "b = scale(torch.randn(4, dtype=torch.float64), 2)\nc = scale(torch.randn(4), 3)\n"
        ),
        "options": {"backend": "eager", "profile": True},
    },
    # issue 13 item 2: --trace-steps on f: an inlined helper (depth 1 steps), then a graph break at print, so
    # attempt 0 ends at the break (restart) and attempt 1 compiles the graph there
    "trace_steps": {
        "source": (
            "import torch\n\ndef helper(x):\n    return x.sin() * 2\n\n"
            "def f(x, n):\n    y = helper(x) + n\n    print('between graphs')\n    return y.cos()\n\n"
            "out = f(torch.randn(3, 4), 3)\n"
        ),
        "options": {"backend": "eager", "trace_steps": "f"},
    },
    # issue 23: a reset on the first line, the user's own torch.compile options kept, a thread's function compiled
    # where the thread calls it, a coroutine run plain
    "own_options": {
        "source": (
            "import asyncio\nimport threading\nimport torch\n\ntorch._dynamo.reset()\n\n"
            "def g(x):\n    return torch.tanh(x) * 3\n\n"
            "cg = torch.compile(g, backend='aot_eager', dynamic=False)\n"
            "a = cg(torch.randn(3))\nb = cg(torch.randn(5))\n\n"
            "def work(x):\n    return x.sin() + 1\n\n"
            "t = threading.Thread(target=work, args=(torch.ones(2),))\nt.start()\nt.join()\n\n"
            "async def main():\n    return 1\n\n"
            "n = asyncio.run(main())\n"
        ),
        # scope calls: the cell compiles g itself (auto would watch it); cg runs as the user compiled it
        "options": {"backend": "eager", "scope": "calls"},
    },
    # DDP's graph splits ([Note: DDP splits]): a one-process gloo group (DDP and DDPOptimizer act as on each rank of
    # a job); 2.1 MB of parameters in 1 MB buckets: the forward's graph is compiled in three pieces
    "ddp_split": {
        "source": (
            "import tempfile\nimport torch\nimport torch.distributed as dist\nfrom torch.nn.parallel import DistributedDataParallel as DDP\n\n"
            "dist.init_process_group('gloo', init_method='file://' + tempfile.mkstemp()[1], rank=0, world_size=1)\n\n\n"
            "class MLP(torch.nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            "        self.layers = torch.nn.Sequential(\n"
            "            torch.nn.Linear(16, 512), torch.nn.ReLU(), torch.nn.Linear(512, 512), torch.nn.ReLU(),\n"
            "            torch.nn.Linear(512, 512), torch.nn.ReLU(), torch.nn.Linear(512, 4),\n        )\n\n"
            "    def forward(self, x):\n        return self.layers(x)\n\n\n"
            "torch.manual_seed(0)\nddp = DDP(MLP(), bucket_cap_mb=1)\n\n\n"
            "def step(x):\n    return ddp(x).square().mean()\n\n\n"
            "loss = step(torch.randn(8, 16))\nloss.backward()\ndist.destroy_process_group()\n"
        ),
        "options": {"backend": "eager"},
    },
    # issue 38: a cell that compiles itself (scope watch): its own decorator, a reset between sections, explain (which
    # resets too, and compiles through its own backend), torch.compile with another backend in a loop
    "watch_reset": {
        "source": (
            "import torch\n\n\n@torch.compile(backend='eager')\ndef f(x):\n    return torch.sin(x) + 1\n\n\n"
            "a = f(torch.ones(3))\ntorch._dynamo.reset()\n\n\n"
            "def g(x):\n    y = x.cos()\n    torch._dynamo.graph_break()\n    return y * 2\n\n\n"
            "explanation = torch._dynamo.explain(g)(torch.ones(3))\n"
            "for n in (3, 3, 4):\n    b = torch.compile(g, backend='aot_eager')(torch.ones(n))\n"
        ),
        "options": {},
    },
    "xss_strings": {
        "source": (
            "import torch\n\ndef evil_name_with_script_tag(x):\n    tag = '<script>alert(1)</script>'\n    if x.sum() > 0:\n        x = x + len(tag)\n"
            "    return x\n\nout = evil_name_with_script_tag(torch.ones(3))\nraise ValueError('<img src=x onerror=alert(1)>')\n"
        ),
        "options": {"backend": "eager"},
    },
    # issue 42: --check-numerics with real inductor: a planted post-grad pass (worse than eager), bfloat16 (differs,
    # no worse than eager against float64), dropout (not compared), a plain graph (matches)
    "numerics": {"source": NUMERICS, "options": {"backend": "inductor", "check_numerics": 1}},
    "exports": {"source": EXPORTS, "options": {}},
    "exports_strict": {"source": EXPORTS_STRICT, "options": {}},
}


# The golden diffs (``<name>.diff.json``): two programs, each run as a case is, and B compared with A
# (``compiler.diff``). ``planted_changes``: B's function breaks on a print, calls one more op, and is called with
# another int (a recompile): a new graph break, a new resume function, a changed graph, a new recompile.
DIFF_A = """import torch

def f(x, n):
    y = x.sin() * 2
    return y + n

x = torch.randn(8)
cf = torch.compile(f, backend="eager")
cf(x, 1)
"""

DIFF_B = """import torch

def f(x, n):
    y = x.sin().cos() * 2
    print("between")
    return y + n

x = torch.randn(8)
cf = torch.compile(f, backend="eager")
cf(x, 1)
cf(x, 2)
"""

DIFF_CASES: dict[str, dict[str, Any]] = {
    "planted_changes": {"a": DIFF_A, "b": DIFF_B, "options": {}},
}


def diff_skeleton(diff: dict[str, Any]) -> list[Any]:
    """What a golden diff must keep across runs and machines: each pair and the kinds of its differences."""
    return [[p["function"], p["a"], p["b"], [d["kind"] for d in p["differences"]]] for p in diff["frames"]]


def skeleton(report: dict[str, Any]) -> dict[str, Any]:
    """What must stay the same across runs and machines: structure, names, lines, kinds."""
    frames = []
    for f in report["frames"]:
        frames.append(
            {
                "compile_id": f["compile_id"],
                "status": f["status"],
                "name": f["code"]["name"],
                "in_cell": f["code"]["in_cell"],
                "is_resume": f["code"]["is_resume"],
                "parent": f["parent_compile_id"],
                # a line in torch's or Python's own files (normalized to SITE/, STDLIB/) moves between releases
                "breaks": [
                    [b["gb_id"], b["gb_type"], None if str(b.get("filename")).startswith(("SITE/", "STDLIB/")) else b["line"]]
                    for b in f["graph_breaks"]
                ],
                # a frame of torch's own code (strict export's wrapper) guards torch's internals, release by release;
                # where a check that two inputs are (not) the same object sits moves too (torch 2.13: a root
                # LAMBDA_GUARD; 2.15: an OBJECT_ALIASING leaf under one of them)
                "guards": sorted(
                    {
                        f"{g['type']} {g['source']}"
                        for g in f["guards"]
                        if g["source"].startswith(("L[", "G[")) and not g["type"].endswith("_ALIASING")
                    }
                )
                if not f["code"]["filename"].startswith("SITE/")
                else [],
                "recompiles": [r["failed_compile_id"] for r in f["recompile_reasons"]],
                "failures": [
                    [x["guard_type"], x["source"], x["property"], x["in_reason"]]
                    for r in f["recompile_reasons"]
                    for x in r.get("failures", [])
                ],
                "graph_kinds": [report["graphs"][g]["kind"] for g in f["graph_ids"]],
                "automatic_dynamic": [[d["source"], d["dims"], d["marked_in"]] for d in f.get("automatic_dynamic", [])],
            }
        )
    graphs = [[g["compile_id"], g["kind"], [n["op"] for n in g["nodes"]]] for g in report["graphs"] if g["kind"] == "dynamo"]
    return {
        "scope": report["scope"],
        "frames": frames,
        "dynamo_graphs": graphs,
        "output_code": sorted({(o["compile_id"], o["kind"]) for o in report["output_code"]}),
        "symbols": sorted({(s["compile_id"], s["source"]) for s in report["symbols"]}),
        "error": report["error"] and [report["error"]["type"], report["error"]["line"]],
        "callees": [
            [
                c["name"],
                c["compiled"],
                (c.get("compile") or {}).get("origin"),
                (c.get("compile") or {}).get("backend"),
                c.get("thread_api"),
            ]
            for c in report.get("callees", [])
        ],
        "resets": [[r["line"], r["frames_before"], r.get("epoch")] for r in report.get("resets", [])],
        "numerics": [
            [g["compile_id"], g["call"], g["verdict"], [o["verdict"] for o in g["outputs"]], g.get("location")]
            for g in (report.get("numerics") or {}).get("graphs", [])
        ],
        "exports": [
            [
                c["mode"],
                c["module"],
                c["outcome"],
                (c.get("failure") or {}).get("kind"),
                (c.get("failure") or {}).get("line"),
                [[r["dim"], r["min"], r["max"]] for r in c.get("ranges") or []],
                [[d["kind"], d["line"], d["assumed"]] for d in c.get("draft") or []],
                c.get("compile_ids") or [],
            ]
            for c in report.get("exports") or []
        ],
    }
