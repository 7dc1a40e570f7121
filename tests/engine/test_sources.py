"""``report.sources`` (issue 9, item 6): code that lives in earlier cells, the user's files and libraries.

An "earlier cell" here is what IPython makes of one: code compiled under its own filename with its text
in ``linecache``; the kernel's labeller (``In [2]``) is tested through a real kernel in
tests/kernel/test_kernel_semantics.py.
"""

from __future__ import annotations

import linecache

from compiler import RunOptions, run_cell
from compiler.schema import validate_report

EARLIER = (
    "import torch\n"
    "\n"
    "class Block(torch.nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.lin = torch.nn.Linear(4, 4)\n"
    "\n"
    "    def forward(self, x):\n"
    "        y = self.lin(x)\n"
    "        if y.sum().item() > 0:\n"
    "            y = y * 2\n"
    "        return y\n"
)


def _earlier_cell(tmp_name: str) -> dict:
    linecache.cache[tmp_name] = (len(EARLIER), None, EARLIER.splitlines(True), tmp_name)
    ns: dict = {"__name__": "__main__"}
    exec(compile(EARLIER, tmp_name, "exec"), ns)  # noqa: S102 - an earlier cell, as IPython runs it
    return ns


def test_code_of_an_earlier_cell_is_shown_under_its_label():
    earlier, current = "/tmp/ipykernel_7/111.py", "/tmp/ipykernel_7/222.py"
    ns = _earlier_cell(earlier)
    labels = {earlier: "In [2]", current: "In [3]"}
    run = run_cell(
        "block = Block()\nout = block(torch.randn(2, 4))\n",
        ns,
        RunOptions(backend="eager"),
        filename=current,
        label_file=labels.get,
    )
    rep = run.report
    validate_report(rep)
    sources = {s["filename"]: s for s in rep["sources"]}
    assert sources[current] == {"filename": current, "label": "In [3]", "kind": "cell", "excerpts": []}
    cell = sources[earlier]
    assert (cell["label"], cell["kind"]) == ("In [2]", "notebook-cell")
    assert cell["excerpts"] == [{"first_line": 1, "text": EARLIER.rstrip("\n")}]
    # the frames of forward and of its resume function both live in that cell; so does the break
    names = {f["code"]["name"]: f for f in rep["frames"]}
    assert names["forward"]["code"]["filename"] == earlier
    breaks = [gb for f in rep["frames"] for gb in f["graph_breaks"]]
    assert breaks and breaks[0]["filename"] == earlier and breaks[0]["line"] == 10


def test_library_and_user_files_get_short_labels_and_the_compiled_functions(tmp_path):
    mod = tmp_path / "mylayers.py"
    mod.write_text(
        "import torch\n\n\ndef helper(x):\n    return x * 3\n\n\n"
        "def g(x):\n    y = x.sum().item()\n    if y > 0:\n        return helper(x) + 1\n    return x - 1\n"
    )
    ns = {"__name__": "__main__"}
    src = (
        "import sys, torch\n"
        f"sys.path.insert(0, {str(tmp_path)!r})\n"
        "import mylayers\n"
        "seq = torch.nn.Sequential(torch.nn.Linear(4, 4))\n"
        "a = seq(torch.randn(2, 4))\n"
        "b = mylayers.g(torch.ones(3))\n"
    )
    try:
        rep = run_cell(src, ns, RunOptions(backend="eager")).report
    finally:
        import sys

        sys.path.remove(str(tmp_path))
        sys.modules.pop("mylayers", None)
    validate_report(rep)
    sources = {s["filename"]: s for s in rep["sources"]}
    user = sources[str(mod)]
    assert user["kind"] == "file"
    # g and its resume function (which starts at the break, line 9) are one excerpt: g's whole body
    assert user["excerpts"] == [
        {
            "first_line": 8,
            "text": "def g(x):\n    y = x.sum().item()\n    if y > 0:\n        return helper(x) + 1\n    return x - 1",
        }
    ]
    library = [s for s in rep["sources"] if s["kind"] == "library"]
    assert library and all(s["label"].startswith("torch/") and not s["label"].startswith("/") for s in library)
    lib_frame = next(f for f in rep["frames"] if f["code"]["filename"] in {s["filename"] for s in library})
    excerpt = next(
        e for e in sources[lib_frame["code"]["filename"]]["excerpts"] if e["first_line"] <= lib_frame["code"]["firstlineno"]
    )
    assert f"def {lib_frame['code']['name']}(" in excerpt["text"]
