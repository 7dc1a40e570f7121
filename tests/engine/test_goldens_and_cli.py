"""Golden reports (shared with the TypeScript and browser tests) and the CLI's exit codes."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

from compiler import RunOptions, run_cell, validate_report
from compiler.summary import one_line
from tests.goldens.cases import CASES, DIFF_CASES, TOY_EXAMPLE, diff_skeleton, skeleton
from tests.goldens.regenerate import HERE, diff_case, run_case
from tests.releases import TORCH, known

GOLDENS = sorted(HERE.glob("*.report.json"))


def test_every_case_has_a_golden():
    assert {p.name.removesuffix(".report.json") for p in GOLDENS} == set(CASES)
    assert {p.name.removesuffix(".diff.json") for p in HERE.glob("*.diff.json")} == set(DIFF_CASES)


@pytest.mark.parametrize("name", sorted(DIFF_CASES))
def test_golden_diff_is_valid_and_a_fresh_one_matches_it(name: str):
    """The golden diffs the TypeScript and browser tests draw: schema-valid, each pair differing as a fresh diff does."""
    from compiler.schema import validate_diff

    golden = json.loads((HERE / f"{name}.diff.json").read_text())
    validate_diff(golden)
    assert all("view" in p for p in golden["frames"] if p["differences"])  # the side-by-side view is drawn from them
    assert diff_skeleton(diff_case(name)) == diff_skeleton(golden)


@pytest.mark.parametrize("path", GOLDENS, ids=lambda p: p.name)
def test_golden_is_schema_valid_and_normalized(path: pathlib.Path):
    report = json.loads(path.read_text())
    validate_report(report)
    text = path.read_text()
    for volatile in ("0x7f", "/tmp/", "site-packages", "_1_b5", '"torch_version": "2.'):
        assert volatile not in text


#: cases whose Dynamo story changed between releases: the goldens are written on the pinned torch (2.13)
_STORY_CHANGED = {
    "own_options": (
        TORCH < (2, 12),
        "torch 2.11: the function the case hands to threading.Thread runs plain (threads that run compiled code at "
        "once crash 2.11's Dynamo, plain torch.compile too: compiler/_compat.py THREADS_RUN_COMPILED_CODE)",
    ),
    "decisions": (
        TORCH < (2, 13),
        "torch 2.11 breaks the graph at copy.deepcopy; 2.11 and 2.12 inline re.match and break inside re's own code; "
        "2.13 to 2.15 inline the one and skip the other (tests/engine/test_decisions.py checks each release's story)",
    ),
}


@pytest.mark.parametrize("name", [known(n, _STORY_CHANGED) for n in CASES if n != "training_step"])
def test_fresh_run_matches_golden_skeleton(name: str):
    golden = json.loads((HERE / f"{name}.report.json").read_text())
    assert skeleton(run_case(name)) == skeleton(golden)


def test_one_line_summary():
    golden = json.loads((HERE / "toy_example.report.json").read_text())
    assert one_line(golden) == "dynamo: 3 frames · 3 graphs · 1 graph break (line 8)"


def _cli(tmp_path, *args, script="import torch\ny = torch.ones(2) * 2\n"):
    path = tmp_path / "script.py"
    path.write_text(script)
    out = tmp_path / "out.json"
    proc = subprocess.run(
        [sys.executable, "-m", "dynamo_explorer", "run", str(path), "--json", str(out), *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    return proc, out


def test_cli_success_writes_a_valid_report(tmp_path):
    proc, out = _cli(tmp_path, "--backend", "eager", "--scope", "cell", "--no-dynamic")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(out.read_text())
    validate_report(report)
    assert report["scope"] == "cell" and report["options"]["dynamic"] is False
    assert proc.stdout.strip().startswith("dynamo: 1 frame")


def test_cli_compare_eager_says_it_reruns_the_script_before_it_runs(tmp_path):
    script = "import sys, torch\nprint('ran', file=sys.stderr)\ndef f(x):\n    return x * 2\ny = f(torch.ones(2))\n"
    proc, out = _cli(tmp_path, "--backend", "eager", "--compare-eager", "--profile", script=script)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    notice = next(i for i, ln in enumerate(lines) if "--compare-eager: this cell runs twice" in ln)
    assert notice < lines.index("ran") and lines.count("ran") == 2  # said first; then it really ran twice
    report = json.loads(out.read_text())
    assert report["eager_baseline"]["functions"][0]["name"] == "f" and report["profile"]["entries"][0]["hits"] == 1
    assert "the speedup understates the compiled side" in report["eager_baseline"]["method"]
    assert " vs eager" in proc.stdout and "of ops captured" in proc.stdout


def test_cli_script_that_raises_exits_1_with_the_report(tmp_path):
    proc, out = _cli(tmp_path, "--backend", "eager", script="import torch\na = torch.ones(1)\nraise ValueError('x')\n")
    assert proc.returncode == 1
    assert json.loads(out.read_text())["error"]["line"] == 3
    assert "ValueError: x" in proc.stderr


@pytest.mark.parametrize(
    ("args", "script", "needle"),
    [
        (("--backend", "nope"), "x = 1\n", "unknown backend 'nope'"),
        (("--decompile", "some"), "x = 1\n", "unknown decompile choice 'some': use one of user, all, none"),
        (("--recompile-limit", "many"), "x = 1\n", "argument --recompile-limit: invalid int value: 'many'"),
        ((), "x = (\n", "script.py:1: syntax error"),
    ],
)
def test_cli_usage_errors_exit_2_with_one_line(tmp_path, args, script, needle):
    proc, out = _cli(tmp_path, *args, script=script)
    assert proc.returncode == 2 and needle in proc.stderr
    assert "Traceback" not in proc.stderr and not out.exists()
    assert len([ln for ln in proc.stderr.splitlines() if "error" in ln]) == 1


def test_engine_never_imports_ipython():
    code = (
        "import sys, compiler, compiler.collectors, dynamo_explorer.cli; assert 'IPython' not in sys.modules, 'IPython imported'"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_huge_guard_lists_are_capped_with_a_diagnostic(monkeypatch):
    from compiler.collectors.guards import guards
    from compiler.encoding import Encoded
    from compiler.model import json_ready

    from .helpers import run

    whole = run(CASES["toy_example"]["source"]).report["frames"][0]
    monkeypatch.setattr(guards, "MAX_GUARDS_PER_FRAME", 3)
    monkeypatch.setattr(guards, "MAX_TREE_CHARS", 400)
    ran = run(CASES["toy_example"]["source"])
    rep = ran.report
    toy = rep["frames"][0]
    assert len(toy["guards"]) == 3 and toy["guard_tree"].endswith("... (truncated)")
    cut = [d for d in rep["diagnostics"] if d["kind"] == "truncated"]
    assert len(cut) >= 2 and all("TORCH_LOGS=guards" in d["message"] for d in cut)
    # the whole of each cut part is kept for the process that ran it (schema minor 9: parts_cut)
    by_part = {(c["part"], c["compile_id"]): c for c in rep["parts_cut"]}
    rows, tree = by_part["guards", toy["compile_id"]], by_part["guard_tree", toy["compile_id"]]
    assert (rows["kept"], rows["total"]) == (3, len(whole["guards"]))
    assert json_ready(ran.parts[rows["key"]]) == whole["guards"]
    assert json_ready(ran.parts[rows["key"]])[:3] == toy["guards"]
    kept_tree = ran.parts[
        tree["key"]
    ]  # past the cap the run never held it whole: its stored form ([Note: a guard tree never whole])
    assert isinstance(kept_tree, Encoded) and len(kept_tree) == tree["total"]
    whole_tree = kept_tree.value()  # the same tree as the uncut run's but for the cell's file name
    assert whole_tree.splitlines()[0] == whole["guard_tree"].splitlines()[0] and tree["total"] == len(whole_tree)
    assert len(whole_tree.splitlines()) == len(whole["guard_tree"].splitlines())
    assert toy["guard_tree"] == whole_tree[: tree["kept"]] + "\n... (truncated)"
    assert len(set(ran.parts)) == len(rep["parts_cut"]) == len(cut)
    # the run's page holds the whole of each ([Note: parts in a page]): every guard in the page too
    import base64
    import gzip

    from kernel_ext.export import PARTS_ID, standalone_html

    page = standalone_html(rep, ran.parts)
    held = json.loads(page.split(f'id="{PARTS_ID}">', 1)[1].split("</script>", 1)[0])
    assert set(held["keys"]) == set(ran.parts)
    for key, at in held["keys"].items():
        blob = held["blobs"][at]
        value = (
            json.loads(gzip.decompress(base64.b64decode(blob["data"]))) if isinstance(blob, dict) and "encoding" in blob else blob
        )
        kept = ran.parts[key]
        assert value == (kept.value() if isinstance(kept, Encoded) else json_ready(kept))
    assert f'id="{PARTS_ID}"' not in standalone_html(rep)  # without the run's parts (a report read back from its JSON): none


def test_long_listings_and_graph_code_are_capped_and_kept_whole(monkeypatch):
    """compiler/caps.py: a bytecode listing past ``MAX_INSTRUCTIONS`` rows and a graph's code past ``MAX_CODE_CHARS``
    (lowered here) are held in part, each with a ``truncated`` diagnostic, the whole kept for a view's Load all, after
    every collector read the whole (the frame's graph links still point into the cut listing)."""
    from compiler import caps
    from compiler.collectors.base import CaptureContext
    from compiler.encoding import Encoded
    from compiler.model import json_ready

    from .helpers import run

    whole = run(CASES["toy_example"]["source"]).report
    monkeypatch.setattr(CaptureContext, "ENCODE_PART_ITEMS", 8)  # a longer listing is kept stored, its rows let go
    monkeypatch.setattr(caps, "MAX_INSTRUCTIONS", 6)
    monkeypatch.setattr(caps, "MAX_CODE_CHARS", 120)
    ran = run(CASES["toy_example"]["source"])
    rep = ran.report
    assert rep["diagnostics"] and not [d for d in rep["diagnostics"] if d["kind"] == "schema_mismatch"]
    cuts = {(c["part"], c["compile_id"], c["graph"]): c for c in rep["parts_cut"]}
    assert len(rep["frames"]) == len(whole["frames"]) and len(rep["graphs"]) == len(whole["graphs"])
    for frame, uncut in zip(rep["frames"], whole["frames"], strict=True):  # the same compiles (ids of another run)
        for part in ("original_bytecode", "modified_bytecode"):
            listing = uncut[part]
            cut = cuts.get((part, frame["compile_id"], None))
            assert (cut is not None) == (len(listing) > 6), (part, frame["compile_id"])
            if cut is not None:
                assert (cut["kept"], cut["total"], len(frame[part])) == (6, len(listing), 6)
                stored = ran.parts[cut["key"]]
                assert isinstance(stored, Encoded) == (len(listing) > 8) and len(stored) == len(listing)
                kept = stored.value() if isinstance(stored, Encoded) else json_ready(stored)  # this run's own names
                assert [(r["offset"], r["opname"]) for r in kept] == [(r["offset"], r["opname"]) for r in listing]
                assert frame[part] == kept[:6]
    graphs = {g["id"]: w for g, w in zip(rep["graphs"], whole["graphs"], strict=True)}
    cut_graphs = [g for g in rep["graphs"] if ("graph_code", g["compile_id"], g["id"]) in cuts]
    assert cut_graphs and all(len(graphs[g["id"]]["code"]) > 120 for g in cut_graphs)
    for graph in cut_graphs:
        cut = cuts["graph_code", graph["compile_id"], graph["id"]]
        code = ran.parts[cut["key"]]
        uncut = graphs[graph["id"]]["code"]  # another run's: the same lines, names may differ in length (torch 2.15)
        assert (
            len(code) == cut["total"]
            and len(code.splitlines()) == len(uncut.splitlines())
            and graph["code"] == code[: cut["kept"]]
        )
        assert code[cut["kept"]] == "\n" and len(graph["nodes"]) == len(graphs[graph["id"]]["nodes"])  # nodes: whole
    said = [d["message"] for d in rep["diagnostics"] if d["kind"] == "truncated"]
    assert len(said) == len(rep["parts_cut"]) and any("TORCH_LOGS=bytecode" in m for m in said)
    assert any("TORCH_LOGS=graph_code" in m for m in said)


def test_a_report_that_breaks_the_contract_gets_a_diagnostic_not_a_crash(monkeypatch):
    """At run time a schema mismatch is reported in the report itself; the user's run goes on."""
    from compiler.collectors import frames

    finalize = frames.FramesCollector.finalize

    def broken(self, ctx, report):
        finalize(self, ctx, report)
        report.frames[0].attempt = "first"  # the schema says integer

    monkeypatch.setattr(frames.FramesCollector, "finalize", broken)
    ns = {"__name__": "__main__"}
    result = run_cell(TOY_EXAMPLE, ns, RunOptions(backend="eager"))
    assert result.exception is None and "out" in ns
    (problem,) = [d for d in result.report["diagnostics"] if d["kind"] == "schema_mismatch"]
    assert problem["message"].startswith("frames/0/attempt: ")


def test_report_errors_names_a_value_json_cannot_hold():
    from compiler.schema import report_errors

    assert report_errors({"schema_version": {"major": 1, "minor": 1}, "frames": {1, 2}})[0].startswith("not JSON: ")
