"""%%dynamo in a real kernel behaves like a plain cell, plus one report bundle.

One notebook, one kernel (nbclient): the seed's toy_example (acceptance), `%%dynamo?`, print
order, Out[n], `;`, namespace persistence, the exception case, syntax errors, `from m import *`,
bad options, escaped HTML, the --out object, a second run of the same cell, stderr, the progress
line that the report takes the place of (no empty or spent output left), a cell that clears its output, and cells
that compile themselves (issue 38: scope watch, a torch.compile in a loop compiled once, set_stance).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from kernel_nb import (
    BUNDLE,
    MAGIC_OPTIONS,
    MIME,
    WIDGET_VIEW,
    cell,
    code,
    error,
    execute,
    last_json,
    outputs,
    reports,
    result,
    stream,
)

from tests.goldens.cases import TOY_EXAMPLE_CELL, line_of

pytestmark = pytest.mark.kernel

TOY = TOY_EXAMPLE_CELL
TOY_IF_LINE = line_of(TOY, "if b.sum() < 0:")

BAD_OPTIONS = {
    "bad_unknown": "--bogus",
    "bad_scope": "--scope nowhere",
    "bad_limit": "--recompile-limit 0",
    "bad_limit_type": "--recompile-limit many",
    "bad_backend": "--backend no_such_backend",
    "bad_mode": "--mode fastest",
    "bad_mode_backend": "--backend eager --mode max-autotune",
    "bad_out": "--out 2-reports",
}

XSS_CELL = """%%dynamo --backend eager
def shout(t):
    tag = "<script>alert('code')</script>"
    return t * len(tag)
shout.__code__ = shout.__code__.replace(co_name="<img src=x onerror=alert('name')>",
                                        co_qualname="<img src=x onerror=alert('name')>")
loud = shout(torch.ones(2))
raise RuntimeError("<script>alert('message')</script><img src=x onerror=alert('message')>")
"""

SHARED_RUN = "%%dynamo --backend eager\nshared(torch.ones(4))\n"

# the code compiles itself: torch.compile called again at every iteration compiles once, as without the explorer
WATCH_LOOP = """%%dynamo
def g(t):
    return t.sin() + 1
for _ in range(10):
    w = torch.compile(g, backend="eager")(torch.ones(3))
print("loop done")
"""
# a function under set_stance("force_eager") that calls a compiled one: it runs, as it does without the explorer
WATCH_STANCE = """%%dynamo
@torch.compile(backend="eager")
def doubled(t):
    return t * 2
@torch.compiler.set_stance("force_eager")
def eager_caller(t):
    return doubled(t) + 1
print(eager_caller(torch.ones(2)).tolist(), doubled(torch.ones(2)).tolist())
"""


def _cells():
    cells = [
        code("%load_ext kernel_ext\nimport json, sys\nimport torch\ntorch.manual_seed(0)", name="setup"),
        code("%%dynamo?", name="help"),
        code(TOY, name="toy"),
        code('print(json.dumps({"out": type(out).__name__, "shape": list(out.shape)}))', name="toy_check"),
        code(
            '%%dynamo --backend eager\nprint("first")\ndef twice(t):\n    return t * 2\nx = twice(torch.ones(3))\n'
            'print("second", int(x.sum()))\nx + 1\n',
            name="print_order",
        ),
        code('print(json.dumps({"x": x.tolist(), "toy": "toy_example" in globals()}))', name="namespace"),
        code("%%dynamo --backend eager\ny = torch.ones(2)\ny.sum();\n", name="semicolon"),
        code(
            '%%dynamo --backend eager\np = torch.ones(2)\nq = p * 3\nraise ValueError("boom on line 4")\n',
            name="raises",
            raises=True,
        ),
        code('print(json.dumps({"p": p.tolist(), "q": q.tolist()}))', name="raises_check"),
        code("%%dynamo --backend eager\nnot_run_syntax = 1\nz = (\n", name="syntax", raises=True),
        code("%%dynamo --backend eager --scope cell\nfrom math import *\nr = pi\n", name="star", raises=True),
        code("%%dynamo --backend eager\nfrom math import *\nr_auto = pi\nprint(r_auto)\n", name="star_auto"),
    ]
    for name, option in BAD_OPTIONS.items():
        cells.append(code(f"%%dynamo {option}\nnot_run_{name} = 1\n", name=name, raises=True))
    cells += [
        code("print(json.dumps(sorted(n for n in globals() if n.startswith('not_run'))))", name="not_run_check"),
        code(XSS_CELL, name="xss", raises=True),
        code("%%dynamo --backend eager --out rep\ndef g(t):\n    return t.sin() + 1\ng(torch.ones(3))\n", name="out"),
        code(
            "from compiler import validate_report\nvalidate_report(rep)\n"
            'print(json.dumps({"type": type(rep).__name__, "dict": isinstance(rep, dict), "backend": rep["backend"],'
            ' "frames": [f["code"]["name"] for f in rep["frames"]], "repr": repr(rep)}))',
            name="out_check",
        ),
        code("rep", name="out_display"),
        code("def shared(t):\n    return t.cos() * 2\n", name="shared_def"),
        code(SHARED_RUN, name="shared_1"),
        code(SHARED_RUN, name="shared_2"),
        code(
            "%%dynamo --backend eager\ndef item_break(t):\n    n = t.sum().item()\n    return t * n\n"
            'print("user stderr line", file=sys.stderr)\nitem_break(torch.ones(3))\n',
            name="stderr",
        ),
        code(
            "%%dynamo --backend eager\nfrom IPython.display import clear_output\ndef bump(t):\n    return t + 1\n"
            'bump(torch.ones(2))\nprint("before the clear")\nclear_output()\nprint("after the clear")\n',
            name="clears",
        ),
        code(WATCH_LOOP, name="watch_loop"),
        code(WATCH_STANCE, name="watch_stance"),
    ]
    return cells


@pytest.fixture(scope="module")
def nb(kernel_name):
    return execute(_cells(), kernel_name)


def _report(c):
    bundles = reports(c)
    assert len(bundles) == 1, f"expected one report bundle, got {c.outputs}"
    return bundles[0]


def _kinds(c) -> list[str]:
    """Output types in order, consecutive repeats merged."""
    kinds = [o.output_type for o in c.outputs]
    return [k for i, k in enumerate(kinds) if i == 0 or kinds[i - 1] != k]


def _plain(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def test_toy_example_bundle_has_the_report_the_widget_the_html_and_the_text(nb):
    data = _report(cell(nb, "toy")).data
    assert set(data) == BUNDLE
    assert data["text/plain"].startswith("dynamo:")
    assert "\n" not in data["text/plain"].strip()
    assert data[MIME]["schema_version"]["major"] == 1
    assert data[MIME]["backend"] == "inductor"


def test_toy_example_out_exists(nb):
    assert last_json(cell(nb, "toy_check")) == {"out": "Tensor", "shape": [10]}


def test_toy_example_html_shows_break_at_if_line(nb):
    data = _report(cell(nb, "toy")).data
    breaks = [b for f in data[MIME]["frames"] if f["code"]["name"] == "toy_example" for b in f["graph_breaks"]]
    assert [b["line"] for b in breaks] == [TOY_IF_LINE]
    assert f"line {TOY_IF_LINE}: <code>if b.sum() &lt; 0:</code>" in data["text/html"]


def test_toy_example_frames_in_html(nb):
    data = _report(cell(nb, "toy")).data
    html = data["text/html"]
    for frame in data[MIME]["frames"]:
        assert f"[{frame['compile_id']}]" in html
    assert "Original bytecode" in html and "Modified bytecode" in html
    assert "TENSOR_MATCH" in html
    assert "<script" not in html


def test_help_lists_every_option_with_an_example(nb):
    reply = cell(nb, "help").metadata["reply"]
    pages = [p["data"]["text/plain"] for p in reply.get("payload", []) if p.get("source") == "page"]
    assert pages, reply
    text = _plain(pages[0])
    assert "Usage: %%dynamo [--backend NAME]" in text and "::" not in text.split("Docstring:", 1)[-1]
    options = " ".join(text.split()).split(" options: ", 1)[1]
    for option in MAGIC_OPTIONS:
        assert f"%%dynamo {option}" in options, option


def test_report_sits_where_dynamo_started_compiling_between_the_prints(nb):
    # [Note: the report takes the progress line's place]: "first" was printed before `twice` compiled, "second"
    # after; the progress line appeared between them and became the report there
    c = cell(nb, "print_order")
    assert stream(c) == "first\nsecond 6\n"
    assert _kinds(c) == ["stream", "display_data", "stream", "execute_result"], c.outputs
    assert [o.text for o in outputs(c, "stream")] == ["first\n", "second 6\n"]
    out = result(c)
    assert out.data["text/plain"] == "tensor([3., 3., 3.])"
    assert out.execution_count == c.execution_count


def test_namespace_persists(nb):
    assert last_json(cell(nb, "namespace")) == {"x": [2.0, 2.0, 2.0], "toy": True}


def test_trailing_semicolon_silences_out(nb):
    c = cell(nb, "semicolon")
    assert result(c) is None
    assert len(reports(c)) == 1


def test_exception_keeps_variables_and_shows_cell_line(nb):
    c = cell(nb, "raises")
    err = error(c)
    assert (err.ename, err.evalue) == ("ValueError", "boom on line 4")
    tb = _plain("\n".join(err.traceback))
    assert "line 4" in tb and 'raise ValueError("boom on line 4")' in tb
    assert "run_cell_magic" not in tb and "compiler" not in tb, tb
    assert c.metadata["reply"]["status"] == "error"
    assert last_json(cell(nb, "raises_check")) == {"p": [1.0, 1.0], "q": [3.0, 3.0]}


def test_exception_still_displays_partial_report(nb):
    c = cell(nb, "raises")
    report = _report(c).data[MIME]
    assert report["error"]["type"] == "ValueError"
    assert report["error"]["line"] == 4
    assert _kinds(c) == ["display_data", "error"], c.outputs


def test_syntax_error_runs_nothing(nb):
    c = cell(nb, "syntax")
    err = error(c)
    assert err.ename == "SyntaxError"
    assert "line 3" in _plain("\n".join(err.traceback))
    assert reports(c) == []
    assert c.metadata["reply"]["status"] == "error"


def _usage_error(c) -> str:
    assert c.metadata["reply"]["status"] == "error"
    assert c.metadata["reply"]["ename"] == "UsageError"
    assert outputs(c, "error") == [] and reports(c) == []
    text = stream(c, "stderr").strip()
    assert text.startswith("UsageError: %%dynamo:") and "\n" not in text, text
    return text


def test_star_import_is_a_usage_error_in_scope_cell_and_runs_plain_in_auto(nb):
    text = _usage_error(cell(nb, "star"))
    assert "import *" in text
    c = cell(nb, "star_auto")  # scope auto: a cell that calls nothing of its own and imports * runs as plain Python
    assert stream(c).startswith("3.14159")
    (rep,) = reports(c)
    assert rep.data[MIME]["scope"] == "calls" and "import *` (line" in rep.data[MIME]["scope_reason"]


@pytest.mark.parametrize("name", sorted(BAD_OPTIONS))
def test_bad_option_is_one_line_usage_error(nb, name):
    _usage_error(cell(nb, name))


def test_failed_usage_runs_nothing(nb):
    assert last_json(cell(nb, "not_run_check")) == []


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.attrs = set(), set()

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attrs.update(name for name, _ in attrs)


def test_user_strings_are_escaped_in_html(nb):
    c = cell(nb, "xss")
    assert error(c).ename == "RuntimeError"
    data = _report(c).data
    parser = _Tags()
    parser.feed(data["text/html"])
    assert not parser.tags & {"script", "img", "iframe", "object"}, parser.tags
    assert not [a for a in parser.attrs if a.startswith("on")], parser.attrs
    html = data["text/html"]
    assert "&lt;img src=x onerror=alert(&#x27;name&#x27;)&gt;" in html  # a frame's name
    assert "&lt;script&gt;alert(&#x27;code&#x27;)&lt;/script&gt;" in html  # a string in code
    assert "&lt;script&gt;alert(&#x27;message&#x27;)&lt;/script&gt;" in html  # the exception message
    names = [f["code"]["name"] for f in data[MIME]["frames"]]
    assert "<img src=x onerror=alert('name')>" in names


def test_out_stores_the_report(nb):
    facts = last_json(cell(nb, "out_check"))
    assert facts["type"] == "CompileReport" and facts["dict"] is True
    assert facts["backend"] == "eager"
    assert "g" in facts["frames"]
    assert facts["repr"].startswith("<CompileReport dynamo:")
    shown = result(cell(nb, "out_display"))
    assert set(shown.data) == BUNDLE
    assert shown.data[MIME] == _report(cell(nb, "out")).data[MIME]


def test_second_run_of_same_cell_gives_fresh_report(nb):
    first, second = (_report(cell(nb, n)).data[MIME] for n in ("shared_1", "shared_2"))
    for report in (first, second):
        frames = [f for f in report["frames"] if f["code"]["name"] == "shared"]
        assert frames and frames[0]["graph_ids"], report["frames"]
        graph = next(g for g in report["graphs"] if g["id"] == frames[0]["graph_ids"][0])
        assert any(n["target"].endswith("cos") for n in graph["nodes"])
    assert first["timings"] != second["timings"]


def test_code_of_an_earlier_cell_is_labelled_as_ipython_labels_it(nb):
    # issue 9, item 6: `shared` lives in the cell shared_def; %%dynamo runs in shared_1 and shared_2
    defined, ran = cell(nb, "shared_def"), cell(nb, "shared_1")
    report = _report(ran).data[MIME]
    sources = {s["filename"]: s for s in report["sources"]}
    frame = next(f for f in report["frames"] if f["code"]["name"] == "shared")
    earlier = sources[frame["code"]["filename"]]
    assert (earlier["label"], earlier["kind"]) == (f"In [{defined.execution_count}]", "notebook-cell")
    assert earlier["excerpts"] == [{"first_line": 1, "text": defined.source.rstrip("\n")}]
    assert sources[report["cell"]["filename"]]["label"] == f"In [{ran.execution_count}]"
    html = _report(ran).data["text/html"]
    assert f"In [{defined.execution_count}], line 1" in html and "/tmp/ipykernel" not in html


def test_dynamo_logs_go_to_report_user_stderr_stays(nb):
    c = cell(nb, "stderr")
    assert stream(c, "stderr") == "user stderr line\n"
    report = _report(c).data[MIME]
    breaks = [b for f in report["frames"] for b in f["graph_breaks"]]
    assert any("item()" in (b["gb_type"] + b["reason"]) for b in breaks), breaks


PROGRESS = re.compile(r"dynamo: \d+ frames? compiled so far · \S.* · \d+\.\d s$")


def test_the_report_takes_the_progress_lines_place(nb):
    # live: the line is shown with a display id, as text and as the explorer widget (pending: its summary is the
    # line, updated as a trait), and the display's last update is the report bundle, drawn by the same widget
    c = cell(nb, "toy")
    displays = c.metadata["displays"]
    assert displays[0][0] == "display_data" and displays[0][1] and PROGRESS.match(displays[0][3]), displays
    assert displays[0][2] == sorted({WIDGET_VIEW, "text/html", "text/plain"}) and displays[0][4], displays
    line_id = displays[0][1]
    assert all(d[1] == line_id for d in displays), displays  # every message of the cell is the line's
    assert displays[-1][:3] == ["update_display_data", line_id, sorted(BUNDLE)]
    assert displays[-1][4] == displays[0][4]  # one widget: the line becomes the explorer in place
    assert all(PROGRESS.match(d[3]) for d in displays[:-1])
    # saved: one output, the report; the only widgets saved are the explorers' (the line is one of them), nothing
    # empty or spent in any cell
    assert [o.output_type for o in c.outputs] == ["display_data"] and MIME in c.outputs[0].data
    states = nb.metadata["widgets"]["application/vnd.jupyter.widget-state+json"]["state"].values()
    assert {s["model_name"] for s in states} <= {"AnyModel", "LayoutModel"}, {s["model_name"] for s in states}
    for other in nb.cells:
        for o in outputs(other, "display_data"):
            assert o.data and MIME in o.data, o.data
            assert not PROGRESS.match(o.data.get("text/plain", ""))


def test_a_cell_that_clears_its_output_still_gets_its_report(nb):
    # the line appeared when `bump` compiled, then the cell cleared its output (the line with it): the report is
    # shown anew at the end instead of updating a line that no longer exists
    c = cell(nb, "clears")
    kinds = [d[0] for d in c.metadata["displays"]]
    assert kinds[0] == "display_data" and "clear_output" in kinds and kinds[-1] == "display_data", kinds
    assert _kinds(c) == ["stream", "display_data"], c.outputs
    assert stream(c) == "after the clear\n"
    assert len(reports(c)) == 1


def test_a_cell_that_compiles_itself_is_watched_and_compiles_as_it_would_alone(nb):
    loop = cell(nb, "watch_loop")
    assert "loop done" in stream(loop)
    data = _report(loop).data
    assert data["text/plain"].startswith("dynamo: watching your torch.compile calls · 1 frame · 1 graph"), data["text/plain"]
    report = data[MIME]
    assert report["scope"] == "watch" and report["backend"] == "eager"
    assert [f["compile_id"].split("/")[1] for f in report["frames"]] == ["0"]  # compiled once: no recompile per call
    stance = cell(nb, "watch_stance")
    assert "[3.0, 3.0] [2.0, 2.0]" in stream(stance) and not outputs(stance, "error")
    assert [f["code"]["name"] for f in _report(stance).data[MIME]["frames"]] == ["doubled"]
