"""After 20 %%dynamo cells in one kernel nothing has accumulated, and the user's compiled code keeps its cache.

The notebook compiles a function of the user's own (torch.compile, eager backend), warms up one
%%dynamo cell, takes a snapshot of every global hook site (logging handlers and levels, Dynamo
bytecode hooks, compile callbacks, the eval-frame callback, Dynamo / inductor / compiler
config, trace/profile functions, warning filters, threads, IPython and display-publisher hooks), runs 20
varied %%dynamo cells (breaks, recompiles, errors, options), and compares.
"""

from __future__ import annotations

import pytest
from kernel_nb import cell, code, execute, last_json, reports

pytestmark = pytest.mark.kernel

SETUP = """%load_ext kernel_ext
import json, logging, sys, threading, warnings
import torch
import torch._dynamo.convert_frame as convert_frame
from torch._C._dynamo.eval_frame import get_eval_frame_callback
from torch._dynamo.callback import callback_handler
from torch._dynamo.eval_frame import _debug_get_cache_entry_list
from torch._dynamo.utils import counters

def user_fn(x):
    return x.cos() + 1

user_compiled = torch.compile(user_fn, backend="eager")
user_compiled(torch.ones(3))
user_codes = [e.code for e in _debug_get_cache_entry_list(user_fn.__code__)]

def snapshot():
    ip = get_ipython()
    loggers = {name: lg for name, lg in logging.root.manager.loggerDict.items() if isinstance(lg, logging.Logger)}
    loggers["<root>"] = logging.root
    return {
        "loggers": {name: (lg.level, lg.propagate, lg.disabled, list(lg.handlers)) for name, lg in loggers.items()},
        "bytecode_hooks": list(convert_frame._bytecode_hooks.values()),
        "compile_callbacks": (list(callback_handler.start_callbacks), list(callback_handler.end_callbacks)),
        "eval_frame_callback": get_eval_frame_callback(),
        "dynamo_config": torch._dynamo.config.get_config_copy(),
        "inductor_config": torch._inductor.config.get_config_copy(),
        "compiler_config": torch.compiler.config.get_config_copy(),
        "trace": (sys.gettrace(), sys.getprofile()),
        "warnings": list(warnings.filters),
        "streams": (sys.stdout, sys.stderr),
        # pyzmq starts its garbage-collector thread on the first large zero-copy send, and tqdm its
        # monitor thread (TMonitor) on the first bar of the process, which torch.fx.Interpreter creates
        # (disabled) in every AOT compile once tqdm is installed (transformers brings it): not ours
        "threads": [t for t in threading.enumerate() if type(t).__name__ not in ("GarbageCollectorThread", "TMonitor")],
        "ipython": ({k: list(v) for k, v in ip.events.callbacks.items()}, list(ip.ast_transformers),
                    list(ip.input_transformers_post)),
        # the progress line listens to the display publisher (for clear_output) while a cell runs
        "display_hooks": list(ip.display_pub._hooks),
    }
"""

WARMUP = "%%dynamo --backend eager\ndef warm(t):\n    return t.exp()\nwarm(torch.ones(2))\n"

# 20 varied cells: graph breaks, recompiles, errors (a KeyboardInterrupt too), fullgraph, limits, dynamic,
# cell/frames scope, and calls of the user's own function, compiled or plain (a code object shared with the user's cache).
RUNS = [
    "%%dynamo --backend eager\nv0 = torch.ones(3) * 2\n",
    "%%dynamo --backend eager\ndef f1(t):\n    print('break')\n    return t + 1\nf1(torch.ones(2))\n",
    "%%dynamo --backend eager\ndef f2(t):\n    return t * t.sum().item()\nf2(torch.ones(2))\n",
    "%%dynamo --backend eager\ndef f3(t):\n    return t - 1\nf3(torch.ones(2))\nf3(torch.ones(2, dtype=torch.float64))\n",
    "%%dynamo --backend eager --no-dynamic --recompile-limit 1\ndef f4(t):\n    return t * 4\nfor n in (1, 2, 3):\n    f4(torch.ones(n))\n",
    "%%dynamo --backend eager\nv5 = torch.ones(2)\nraise ValueError('expected failure')\n",
    "%%dynamo --backend eager --fullgraph\ndef f6(t):\n    print('no')\n    return t\nf6(torch.ones(2))\n",
    "%%dynamo --backend eager\nuser_compiled(torch.ones(3))\n",
    "%%dynamo --backend eager\nuser_fn(torch.ones(3))\n",
    "%%dynamo --backend eager --dynamic\ndef f9(t):\n    return t.sum()\nf9(torch.ones(5))\nf9(torch.ones(7))\n",
    "%%dynamo --backend aot_eager\ndef f10(t):\n    return (t * 3).relu()\nf10(torch.ones(2, requires_grad=True)).sum().backward()\n",
    "%%dynamo --backend eager --scope cell\nv11 = torch.ones(4).sin()\nprint(v11.shape)\n",
    "%%dynamo --backend eager --scope all-frames\ndef f12(t):\n    return t.cos()\nf12(torch.ones(2))\n",
    "%%dynamo --backend eager --quiet --out rep13\nv13 = torch.ones(2) + 13\n",
    "%%dynamo --backend eager --strict\nv14 = torch.ones(2) * 14\n",
    "%%dynamo --backend eager\ndef f15(t, xs):\n    xs.append(1)\n    return t * len(xs)\nxs = []\nfor _ in range(3):\n    f15(torch.ones(2), xs)\n",
    "%%dynamo --backend eager\nimport math\nv16 = torch.ones(2) * math.pi\n",
    "%%dynamo --backend eager\ndef f17(t):\n    return t.view(5)\nf17(torch.ones(4))\n",
    "%%dynamo --backend eager\ndef f18(t):\n    v18 = [t * i for i in range(3)]\n    raise KeyboardInterrupt\nf18(torch.ones(1))\n",
    "%%dynamo --backend eager\nwarm(torch.ones(2))\n",
]
RAISING = {5, 6, 17, 18}

CHECK = """after = snapshot()
diff = sorted(k for k in before if k != "loggers" and before[k] != after[k])
for name, state in after["loggers"].items():
    old = before["loggers"].get(name)
    if old is not None and old != state or old is None and state[3]:
        diff.append(f"logger {name}: {old} -> {state}")
frames_before = counters["frames"]["total"]
user_compiled(torch.ones(3))
now_codes = [e.code for e in _debug_get_cache_entry_list(user_fn.__code__)]
print(json.dumps({"diff": diff, "user_cache_kept": all(any(c is n for n in now_codes) for c in user_codes),
                  "user_entries": len(user_codes), "recompiled": counters["frames"]["total"] - frames_before}))
"""


@pytest.fixture(scope="module")
def nb(kernel_name):
    cells = [code(SETUP, name="setup"), code(WARMUP, name="warmup"), code("before = snapshot()", name="before")]
    cells += [code(src, name=f"run{i}", raises=i in RAISING) for i, src in enumerate(RUNS)]
    cells.append(code(CHECK, name="check"))
    return execute(cells, kernel_name)


def test_twenty_cells_ran_with_a_report_each(nb):
    assert len(RUNS) == 20
    for i in range(20):
        c = cell(nb, f"run{i}")
        assert len(reports(c)) == (0 if "--quiet" in RUNS[i] else 1), (i, c.outputs)
        status = c.metadata["reply"]["status"]
        assert status == ("error" if i in RAISING else "ok"), (i, c.outputs)


def test_nothing_accumulated(nb):
    assert last_json(cell(nb, "check"))["diff"] == []


def test_user_compiled_function_keeps_its_cache(nb):
    facts = last_json(cell(nb, "check"))
    assert facts["user_entries"] >= 1
    assert facts["user_cache_kept"] is True
    assert facts["recompiled"] == 0
