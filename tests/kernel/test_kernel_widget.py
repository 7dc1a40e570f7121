"""The explorer as a widget, and ``explore(fn)(*args)``, in a real kernel (issue 24).

One notebook, one kernel (nbclient, which stores widget state by default as papermill does):
- a ``%%dynamo`` output carries, in one bundle, our MIME type, the widget view, ``text/html`` and ``text/plain``;
- the widget answers a view's ``{"kind": "report?"}`` with the very payload the output's MIME entry holds;
- the saved widget state does not hold the report a second time (only the module, its CSS and the summary);
- Try it: the widget gets the ``%%dynamo`` cell's text with the report, and runs that cell with ``--try NAME`` when a
  view asks (``{"kind": "run"}``), answering with the run's report, its printed lines and no error;
- ``explore(fn, **torch_compile_kwargs)(*args)`` compiles ``fn`` as ``torch.compile`` does, returns ``.value``
  and ``.report``, and shows the same bundle as the last expression of a cell; when ``fn`` raises, the cell
  fails as a plain call does and ``explore.last`` holds the report;
- ``with explore.capture(**kwargs) as ex:`` in a notebook cell runs the block once under the explorer: its names
  land in the notebook's namespace, its prints show once, the report's lines are the cell's (``In [n]``), and
  ``ex`` shows the same bundle;
- a report that holds a frame's guards and guard tree only in part (``parts_cut``): the kernel keeps the whole, and
  answers a widget's ``{"kind": "part?", "key"}`` and a comm of our JupyterLab renderer's target with it (a big
  one gzip + base64), and says so in one line for a key it does not keep.
"""

from __future__ import annotations

import hashlib
import json

import pytest
from kernel_nb import BUNDLE, MIME, WIDGET_VIEW, cell, code, execute, last_json, outputs, reports, result

from tests.goldens.cases import TOY_EXAMPLE_CELL

pytestmark = pytest.mark.kernel


ANSWER = """
from ipywidgets import Widget
w = Widget.widgets[_view["model_id"]]
sent = []
w.send = lambda content, buffers=None: sent.append(content)
w._handle_custom_msg({"kind": "report?"}, [])
w._handle_custom_msg({"kind": "something else"}, [])
import hashlib
print(json.dumps({"answers": len(sent), "kind": sent[0]["kind"], "same": sent[0]["report"] == _payload,
                  "class": type(w).__name__, "summary": w.summary,
                  "digest": hashlib.sha256(json.dumps(_payload, sort_keys=True).encode()).hexdigest()}))
"""

ITEM = (
    "%%dynamo --backend eager\nimport torch\n\ndef normalize(x):\n    return x / x.sum().item()\n\ny = normalize(torch.ones(4))\n"
)

TRY = """
from ipywidgets import Widget
from compiler.encoding import decode_report
w = [w for w in Widget.widgets.values() if type(w).__name__ == "ExplorerWidget"][-1]
sent = []
w.send = lambda content, buffers=None: sent.append(content)
w._handle_custom_msg({"kind": "report?"}, [])
cell = sent[0]["cell"]
source = cell.replace("%%dynamo --backend eager", "%%dynamo --backend eager --try capture_scalar_outputs", 1)
w._handle_custom_msg({"kind": "run", "source": source}, [])
ran = sent[1]
after = decode_report(ran["report"])
print(json.dumps({"cell": cell, "kind": ran["kind"], "same_source": ran["source"] == source, "error": ran["error"],
                  "notice": "RUNS AGAIN" in ran["stdout"], "fix": after["try_fix"]["fix"]["name"],
                  "breaks": [after["try_fix"]["before"]["graph_breaks"], after["try_fix"]["after"]["graph_breaks"]],
                  "left": [n for n in globals() if n.startswith("_dynamo_explorer")], "y": y.tolist()}))
"""

EXPLORE = """
import torch
from kernel_ext import explore

def toy(a, b):
    x = a / (torch.abs(a) + 1)
    if b.sum() < 0:
        b = b * -1
    return x * b

a, b = torch.randn(10), -torch.ones(10)
ex = explore(toy, backend="eager")(a, b)
print(json.dumps({"value": torch.equal(ex.value, toy(a, b)), "scope": ex.report["scope"],
                  "callees": [(c["name"], c["compile"]["backend"]) for c in ex.report["callees"]],
                  "frames": [f["code"]["name"] for f in ex.report["frames"]]}))
"""

CAPTURE = """
printed = []
with explore.capture(backend="eager") as cap:
    print("the block runs")
    for _ in range(2):
        z = toy(a, b)
    printed.append(1)
print(json.dumps({"z": torch.equal(z, toy(a, b)), "printed": printed, "scope": cap.report["scope"],
                  "frames": [f["code"]["name"] for f in cap.report["frames"]],
                  "label": cap.report["sources"][0]["label"] if cap.report.get("sources") else None}))
"""

CUT = """
from compiler.collectors.guards import guards as _guards
_caps = _guards.MAX_GUARDS_PER_FRAME, _guards.MAX_TREE_CHARS
_guards.MAX_GUARDS_PER_FRAME, _guards.MAX_TREE_CHARS = 2, 300
"""

PARTS = """
_guards.MAX_GUARDS_PER_FRAME, _guards.MAX_TREE_CHARS = _caps
import base64, gzip
from ipywidgets import Widget
from kernel_ext.parts import COMM_TARGET
w = [w for w in Widget.widgets.values() if type(w).__name__ == "ExplorerWidget"][-1]
sent = []
w.send = lambda content, buffers=None: sent.append(content)
w._handle_custom_msg({"kind": "report?"}, [])
cuts = sent[0]["report"]["parts_cut"]
def whole(answer):
    part = answer["part"]
    if isinstance(part, dict) and part.get("encoding"):
        return json.loads(gzip.decompress(base64.b64decode(part["data"])))
    return part
for c in cuts:
    w._handle_custom_msg({"kind": "part?", "key": c["key"]}, [])
w._handle_custom_msg({"kind": "part?", "key": "no-such-key"}, [])
answers = sent[1:]
class FakeComm:
    def __init__(self): self.sent, self.closed = [], False
    def send(self, data): self.sent.append(data)
    def close(self): self.closed = True
comm = FakeComm()
manager = get_ipython().kernel.comm_manager
manager.targets[COMM_TARGET](comm, {"content": {"data": {"key": cuts[0]["key"]}}})
print(json.dumps({
    "cuts": [(c["part"], c["compile_id"], c["kept"], c["total"]) for c in cuts],
    "shown": [len(f["guards"]) for f in sent[0]["report"]["frames"]],
    "kinds": [a["kind"] for a in answers], "keys": [a["key"] for a in answers] == [c["key"] for c in cuts] + ["no-such-key"],
    "sizes": [len(whole(a)) for a in answers[:-1]], "missing": answers[-1]["error"], "none": answers[-1]["part"] is None,
    "comm": [len(whole(comm.sent[0])), comm.closed],
}))
"""

# [Note: an output completed once drawn]: an output shown with none of its parts (a budget of 0 bytes), then completed
# as the drawn renderer asks (parts.complete, as the comm calls it): nbclient applies the display update to it
LACKING = """
from kernel_ext import parts as _parts
_guards.MAX_GUARDS_PER_FRAME, _guards.MAX_TREE_CHARS = 2, 300
_budget, _parts.OUTPUT_PARTS_BYTES = _parts.OUTPUT_PARTS_BYTES, 0
"""

COMPLETE = """
_guards.MAX_GUARDS_PER_FRAME, _guards.MAX_TREE_CHARS = _caps
_parts.OUTPUT_PARTS_BYTES = _budget
_key = lacking["parts_cut"][0]["key"]
_comm = FakeComm()
manager.targets[COMM_TARGET](_comm, {"content": {"data": {"complete": _key}}})
print(json.dumps({"first": _comm.sent[0], "again": _parts.complete(_key), "closed": _comm.closed,
                  "cuts": len(lacking["parts_cut"])}))
"""


@pytest.fixture(scope="module")
def nb(kernel_name):
    return execute(
        [
            code("%load_ext kernel_ext\nimport json"),
            code(TOY_EXAMPLE_CELL.replace("%%dynamo", "%%dynamo --backend eager --out rep", 1), name="toy"),
            code(
                "from kernel_ext.display import bundle\n"
                "_shown = bundle(rep)\n"
                f"_view, _payload = _shown['{WIDGET_VIEW}'], _shown['{MIME}']\n" + ANSWER,
                name="answer",
            ),
            code(ITEM, name="item"),
            code(TRY, name="try"),
            code(EXPLORE, name="explore"),
            code("ex", name="shown"),
            code(CAPTURE, name="capture"),
            code("cap", name="capture_shown"),
            code(CUT),
            code(TOY_EXAMPLE_CELL.replace("%%dynamo", "%%dynamo --backend eager", 1), name="cut"),
            code(PARTS, name="parts"),
            code(LACKING),
            code(TOY_EXAMPLE_CELL.replace("%%dynamo", "%%dynamo --backend eager --out lacking", 1), name="lacking"),
            code(COMPLETE, name="complete"),
            code(
                "try:\n"
                "    explore(toy, backend='eager', fullgraph=True)(a, b)\n"
                "except Exception as e:\n"
                "    print(json.dumps({'raised': type(e).__name__, 'note': e.__notes__[-1],\n"
                "                      'last': explore.last.report['frames'][0]['code']['name']}))",
                name="raises",
            ),
        ],
        kernel_name,
    )


def _bundle(c) -> dict:
    (shown,) = reports(c)
    return shown.data


def test_a_dynamo_output_carries_the_report_the_widget_the_html_and_the_text(nb):
    data = _bundle(cell(nb, "toy"))
    assert set(data) == BUNDLE
    assert data[WIDGET_VIEW]["model_id"] and data[WIDGET_VIEW]["version_major"] == 2


def test_the_widget_answers_a_view_with_the_outputs_own_payload(nb):
    data = _bundle(cell(nb, "toy"))
    answer = last_json(cell(nb, "answer"))
    digest = answer.pop("digest")
    assert answer == {"answers": 1, "kind": "report", "same": True, "class": "ExplorerWidget", "summary": data["text/plain"]}
    # the payload answered is the one the cell's own output holds
    assert digest == hashlib.sha256(json.dumps(data[MIME], sort_keys=True).encode()).hexdigest()


def test_the_saved_widget_state_does_not_hold_the_report_again(nb):
    data = _bundle(cell(nb, "toy"))
    states = nb.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    state = states[data[WIDGET_VIEW]["model_id"]]["state"]
    assert state["summary"] == data["text/plain"]
    rest = json.dumps({k: v for k, v in state.items() if k not in ("_esm", "_css")})
    assert len(rest) < 2_000 and "toy_example" not in rest, rest  # the summary and ipywidgets' own layout keys
    assert "toy_example" in json.dumps(data[MIME])  # what would be there, were the report in it
    assert 500_000 < len(state["_esm"]) < 5_000_000  # the module itself, stored once per widget


def test_try_it_runs_the_cell_again_with_the_fix_in_the_kernel_and_answers_its_report(nb):
    got = last_json(cell(nb, "try"))
    assert got == {
        "cell": ITEM,
        "kind": "ran",
        "same_source": True,
        "error": None,
        "notice": True,
        "fix": "capture_scalar_outputs",
        "breaks": [1, 0],
        "left": [],
        "y": [0.25, 0.25, 0.25, 0.25],
    }


def test_explore_compiles_fn_as_torch_compile_does_and_returns_its_value(nb):
    got = last_json(cell(nb, "explore"))
    assert got["value"] is True
    assert got["scope"] == "calls"
    assert got["callees"] == [["toy", "eager"]]
    assert got["frames"][0] == "toy" and got["frames"][1].startswith("torch_dynamo_resume_in_toy_at_"), got["frames"]


def test_an_exploration_shows_the_explorer_as_the_last_expression(nb):
    shown = result(cell(nb, "shown"))
    assert shown is not None
    assert set(shown.data) == BUNDLE
    assert shown.data["text/plain"].startswith("dynamo:")
    assert outputs(cell(nb, "shown"), "error") == []


def test_explore_raises_as_a_plain_call_and_keeps_the_report(nb):
    got = last_json(cell(nb, "raises"))
    assert got["raised"] == "Unsupported"
    assert "explore.last" in got["note"]
    assert got["last"] == "toy"


def test_capture_runs_a_block_of_a_cell_once_and_shows_the_explorer(nb):
    c = cell(nb, "capture")
    assert outputs(c, "error") == []
    printed = "".join(o.get("text", "") for o in outputs(c, "stream"))
    assert printed.count("the block runs") == 1
    got = last_json(c)
    assert (got["z"], got["printed"], got["scope"]) == (True, [1], "calls")
    assert got["frames"][0] == "toy" and len(got["frames"]) == 2
    assert got["label"] is not None and got["label"].startswith("In ["), got
    shown = result(cell(nb, "capture_shown"))
    assert shown is not None and set(shown.data) == BUNDLE


def test_the_kernel_keeps_the_parts_a_report_holds_in_part_and_hands_them_over(nb):
    got = last_json(cell(nb, "parts"))
    cuts = got["cuts"]
    assert {part for part, *_ in cuts} == {"guards", "guard_tree"}
    assert all(kept < total for _, _, kept, total in cuts)
    assert set(got["shown"]) <= {2}  # each frame's report holds 2 guards
    assert got["kinds"] == ["part"] * (len(cuts) + 1) and got["keys"]
    assert got["sizes"] == [total for *_, total in cuts]  # the whole: every guard row, every character
    assert got["none"] and "run the cell again" in got["missing"]
    assert got["comm"] == [cuts[0][3], True]  # the renderer's comm: one answer, then closed


def test_a_dynamo_output_holds_what_its_report_holds_in_part_for_a_saved_notebook(nb):
    """Beside the report (schema minor 25: ``PARTS_MIME_TYPE``), the output carries the whole of each part the report
    holds in part, as the kernel sends it (gzip + base64 when big): a saved notebook loads every guard without a
    kernel (labextension/tests/parts.spec.ts draws it). An output whose report holds everything carries none."""
    import base64
    import gzip

    from compiler.schema import PARTS_MIME_TYPE

    assert PARTS_MIME_TYPE not in _bundle(cell(nb, "toy"))
    data = _bundle(cell(nb, "cut"))
    held = data[PARTS_MIME_TYPE]
    report = data[MIME]
    if report.get("encoding"):
        report = json.loads(gzip.decompress(base64.b64decode(report["data"])))
    cuts = report["parts_cut"]
    assert set(held["keys"]) == {c["key"] for c in cuts} and len(held["blobs"]) == len(cuts)
    for c in cuts:
        blob = held["blobs"][held["keys"][c["key"]]]
        whole = json.loads(gzip.decompress(base64.b64decode(blob["data"]))) if isinstance(blob, dict) else blob
        assert len(whole) == c["total"] > c["kept"], c["part"]
    assert set(data) == BUNDLE | {PARTS_MIME_TYPE}


def test_an_output_shown_without_its_parts_gets_every_one_once_drawn(nb):
    """[Note: an output completed once drawn]: the output of a run whose parts are past the first display's budget (0
    bytes here) is shown without them; asked on the parts comm (as the drawn renderer asks), the kernel updates it in
    place with every part (nbclient applies the display update to the earlier cell's output), once."""
    from compiler.schema import PARTS_MIME_TYPE

    got = last_json(cell(nb, "complete"))
    assert got["first"]["error"] is None and got["first"]["held"] == got["cuts"] > 0 and got["closed"]
    assert got["again"]["held"] is None and "no output" in got["again"]["error"]  # once: the bundle is let go
    data = _bundle(cell(nb, "lacking"))
    held = data[PARTS_MIME_TYPE]
    assert len(held["keys"]) == got["cuts"] and len(held["blobs"]) == got["cuts"]
    assert set(data) == BUNDLE | {PARTS_MIME_TYPE}  # the report, its views and now its parts, in one output
