"""Issue 25 item 1: a report read from torch's structured trace (``dynamo-explorer open``) tells what the live run told.

One process writes both: ``TORCH_TRACE=DIR dynamo-explorer run PROGRAM.py --json live.json`` captures the program live
and torch writes its structured trace beside it. The trace's report must name exactly the compile ids of the
log's own ``compilation_metrics`` (Dynamo's record on that process), and pane by pane agree with the live report:
frames and their status, Dynamo graphs' nodes, AOT graphs, inductor's output code, guards, graph breaks (type and
user line), recompile reasons, dynamic-shape symbols. What a trace does not hold is named in ``trace.missing``.
Then the CLI's usage errors, a gzip log, a log with torn lines, and ``open_trace`` / ``%dynamo_open``.
"""

from __future__ import annotations

import base64
import gzip
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from compiler.schema import PANES, report_errors, validate_report
from compiler.trace import read_trace
from dynamo_explorer.cli import main as cli_main
from kernel_ext import parts
from kernel_ext.open_trace import TraceError, open_trace, parse_open_line

REPO = Path(__file__).resolve().parents[2]

PROGRAM = """\
import torch


def f(x, n):
    y = torch.sin(x) * 2
    print("break")
    if n > 2:
        y = y + 1
    return y.cos()


cf = torch.compile(f, backend="aot_eager")
cf(torch.randn(4), 3)
cf(torch.randn(5), 3)
cf(torch.randn(6), 1)


def g(a):
    return (a @ a.T).relu()


cg = torch.compile(g)
cg(torch.randn(8, 8, requires_grad=True)).sum().backward()
"""


@pytest.fixture(scope="module")
def traced(tmp_path_factory: pytest.TempPathFactory) -> dict:
    tmp = tmp_path_factory.mktemp("traced")
    program, trace_dir, live = tmp / "program.py", tmp / "trace", tmp / "live.json"
    program.write_text(PROGRAM)
    proc = subprocess.run(
        [sys.executable, "-m", "dynamo_explorer", "run", str(program), "--json", str(live)],
        cwd=REPO,
        env={**_env(), "TORCH_TRACE": str(trace_dir)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    [opened] = read_trace([str(trace_dir)])
    return {"dir": trace_dir, "tmp": tmp, "live": json.loads(live.read_text()), "trace": opened.report, "log": opened.log}


def _env() -> dict[str, str]:
    import os

    env = dict(os.environ)
    env.pop("TORCH_TRACE", None)
    return env


def _metrics_ids(log_path: str) -> list[str]:
    """The compile ids of the log's own forward ``compilation_metrics`` records, read with nothing of ours."""
    ids = []
    for line in Path(log_path).read_text().splitlines():
        if '{"compilation_metrics"' in line:
            m = json.loads(line[line.index("{") :])["compilation_metrics"]
            if m.get("is_forward") is not False and not m.get("is_runtime"):
                ids.append(m["compile_id"])
    return ids


_NO_TORCH = """
import sys
from dynamo_explorer.cli import main
code = main(sys.argv[1:])
loaded = sorted(m for m in sys.modules if m == "torch" or m.startswith("torch."))
assert not loaded, loaded[:5]
sys.exit(code)
"""


def test_open_reads_a_trace_without_importing_torch(traced: dict) -> None:
    """Reading a trace needs no torch (its import is most of a small trace's time): open, its JSON, its page and its
    summary run with torch never imported, on the real trace with AOT graphs, output code, breaks and recompiles."""
    out = traced["tmp"] / "no_torch"
    for args in (["--json", str(out) + ".json", "--html", str(out) + ".html"], []):
        proc = subprocess.run(
            [sys.executable, "-c", _NO_TORCH, "open", str(traced["dir"]), *args],
            cwd=REPO,
            env=_env(),
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert proc.returncode == 0, proc.stderr[-3000:]
    assert json.loads((out.parent / "no_torch.json").read_text())["frames"] == traced["trace"]["frames"]


def test_the_report_validates_and_names_dynamos_compile_ids(traced: dict) -> None:
    report = traced["trace"]
    validate_report(report)
    assert report["scope"] == "trace"
    assert [d for d in report["diagnostics"] if d["kind"] == "schema_mismatch"] == []
    assert sorted(f["compile_id"] for f in report["frames"]) == sorted(_metrics_ids(traced["log"].path))
    assert [f["compile_id"] for f in report["frames"]] == [f["compile_id"] for f in traced["live"]["frames"]]
    assert report["trace"]["logs"][0]["skipped"] == 0
    assert {m["pane"] for m in report["trace"]["missing"]} <= set(PANES)


def test_each_frame_tells_what_the_live_run_told(traced: dict) -> None:
    live = {f["compile_id"]: f for f in traced["live"]["frames"]}
    for frame in traced["trace"]["frames"]:
        cid = frame["compile_id"]
        want = live[cid]
        assert (frame["status"], frame["code"]["name"], frame["code"]["firstlineno"]) == (
            want["status"],
            want["code"]["name"],
            want["code"]["firstlineno"],
        ), cid
        assert [(b["gb_type"], b["line"], b["gb_id"]) for b in frame["graph_breaks"]] == [
            (b["gb_type"], b["line"], b["gb_id"]) for b in want["graph_breaks"]
        ], cid
        assert [(r["failed_compile_id"], r["reason"]) for r in frame["recompile_reasons"]] == [
            (r["failed_compile_id"], r["reason"]) for r in want["recompile_reasons"]
        ], cid
        assert frame["guards"], cid
        # the same tree; the live run reads it after the calls, when Dynamo has moved the managers that failed first
        assert sorted(frame["guard_tree"].splitlines()) == sorted(want["guard_tree"].splitlines()), cid
        # [Note: one count of guards]: the same rows and the same count, live or from the trace (a leaf each)
        rows = sorted((g["type"], g["source"], tuple(g["code"])) for g in frame["guards"])
        assert rows == sorted((g["type"], g["source"], tuple(g["code"])) for g in want["guards"]), cid
        assert frame["guard_count"] == want["guard_count"] == len(want["guards"]), cid
        # a resume function's bytecode is in the trace (torch 2.12 on), a top-level frame's is not; the report says which
        if want["code"]["is_resume"] and not any("every frame" in m["what"] for m in traced["trace"]["trace"]["missing"]):
            assert [(i["offset"], i["opname"], i["argrepr"]) for i in frame["original_bytecode"]] == [
                (i["offset"], i["opname"], i["argrepr"]) for i in want["original_bytecode"]
            ], cid
            assert [i["opname"] for i in frame["modified_bytecode"]] == [i["opname"] for i in want["modified_bytecode"]], cid
        assert frame["phases"], cid


def _graphs(report: dict) -> dict[tuple[str, str], list[list[tuple[str, str]]]]:
    out: dict[tuple[str, str], list[list[tuple[str, str]]]] = {}
    for g in report["graphs"]:
        rows = [(n["name"], n["target"].split(".")[-1]) for n in g["nodes"] if n["op"] not in ("placeholder", "output")]
        out.setdefault((g["compile_id"], g["kind"]), []).append(rows)
    return out


def test_graphs_and_output_code_are_the_live_runs(traced: dict) -> None:
    trace, live = traced["trace"], traced["live"]
    assert set(_graphs(trace)) == set(_graphs(live))
    for key, graphs in _graphs(trace).items():
        if key[1] != "dynamo":  # AOT graphs: the same text parsed by the same parser
            assert graphs == _graphs(live)[key], key
        else:  # Dynamo's graph: the same ops, read from its readable code instead of the GraphModule
            assert [len(g) for g in graphs] == [len(g) for g in _graphs(live)[key]], key
    assert [(c["compile_id"], c["kind"], len(c["kernels"])) for c in trace["output_code"]] == [
        (c["compile_id"], c["kind"], len(c["kernels"])) for c in live["output_code"]
    ]
    assert trace["backend"] == "inductor"  # the last compile is inductor's; the trace names no backend
    caches = {(c["cache"], c["compile_id"]) for c in trace["trace"]["caches"]}
    assert ("fx_graph", "2/0") in caches and ("aotautograd", "2/0") in caches


def test_dynamic_shapes_are_the_live_runs(traced: dict) -> None:
    def symbols(report: dict) -> set[tuple[str, str, str]]:
        return {(s["compile_id"], s["symbol"], s["source"]) for s in report["symbols"]}

    assert symbols(traced["trace"]) == symbols(traced["live"]) != set()
    assert traced["trace"]["shape_guards"]


def test_cli_open_writes_json_and_html_and_refuses_bad_input_in_one_line(
    traced: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, page = tmp_path / "r.json", tmp_path / "r.html"
    done = subprocess.run(  # the console entry point, once
        [sys.executable, "-m", "dynamo_explorer", "open", str(traced["dir"]), "--json", str(out), "--html", str(page)],
        cwd=REPO,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "6 frames" in done.stdout and page.stat().st_size > 10_000
    validate_report(json.loads(out.read_text()))
    (tmp_path / "empty").mkdir()
    for args, says in (  # the refusals in this process: dynamo_explorer.cli.main, what the entry point calls
        ([str(tmp_path / "nowhere")], "no such file or directory"),
        ([str(tmp_path / "empty")], "no *.log file"),
        ([str(traced["dir"]), "--rank", "3", "--json", str(out)], "rank 3: the trace holds ranks none (one process)"),
    ):
        capsys.readouterr()
        assert cli_main(["open", *args]) == 2, args
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and says in err and "Traceback" not in err


def test_a_gzip_log_and_a_torn_log_open(traced: dict, tmp_path: Path) -> None:
    log = Path(traced["log"].path)
    gz = tmp_path / (log.name + ".gz")
    with gzip.open(gz, "wb") as fh:
        fh.write(log.read_bytes())
    [opened] = read_trace([str(gz)])
    assert [f["compile_id"] for f in opened.report["frames"]] == [f["compile_id"] for f in traced["trace"]["frames"]]
    torn = tmp_path / "torn.log"
    text = log.read_text()
    half = text[: text.index("\nV", len(text) // 2) + 1]  # whole records: the first half of the run
    torn.write_text("not a trace line\n" + half + 'V1126 00:00:00.000000 1 x.py:1] {"dynamo_st')
    [opened] = read_trace([str(torn)])
    validate_report(opened.report)
    assert opened.report["trace"]["logs"][0]["skipped"] == 2
    assert opened.report["frames"]


def test_open_trace_and_its_magic_line(traced: dict, tmp_path: Path) -> None:
    ex = open_trace(traced["dir"])
    assert ex.report["frames"] == traced["trace"]["frames"] and ex.value is None
    bundle = ex._repr_mimebundle_()
    assert "text/plain" in bundle and "text/html" in bundle
    with pytest.raises(TraceError, match=r"rank 1: the trace holds ranks none \(one process\)"):
        open_trace(traced["dir"], rank=1)
    with pytest.raises(TraceError, match="needs a path"):
        open_trace()
    assert parse_open_line(f'"{traced["dir"]}" --rank 2') == ([str(traced["dir"])], 2)
    with pytest.raises(TraceError, match="--rank needs a number"):
        parse_open_line("x --rank two")
    two = tmp_path / "two"
    two.mkdir()
    for rank in (0, 1):
        shutil.copy(traced["log"].path, two / f"dedicated_log_torch_trace_rank_{rank}_x.log")
    both = open_trace(two).report  # two ranks (the same log twice): rank 0's report, both ranks beside it, alike
    assert both["ranks"]["shown_rank"] == 0 and both["ranks"]["divergence"] is None
    assert [r["rank"] for r in both["ranks"]["ranks"]] == [0, 1]
    assert open_trace(two, rank=1).report["trace"]["rank"] == 1
    # each rank's whole report is kept in the process under its row's `part` (as a run's parts: kernel_ext/parts.py),
    # each with the same ranks view, its own rank shown: what the ranks view asks for to show another rank in place
    keys = [r["part"] for r in both["ranks"]["ranks"]]
    assert len(set(keys)) == 2 and all(k.startswith("rank:") for k in keys)
    for rank, key in enumerate(keys):
        kept = parts.answer(key)
        assert kept["error"] is None
        other = kept["part"]  # as sent: the report, gzip + base64 above 256 KB (compiler.encoding.encode_value)
        if "encoding" in other:
            other = json.loads(gzip.decompress(base64.b64decode(other["data"])))
        assert other["trace"]["rank"] == rank and other["ranks"]["shown_rank"] == rank
        assert [r["part"] for r in other["ranks"]["ranks"]] == keys
        assert report_errors(other) == []
    assert parts.answer("rank:gone:0")["error"].startswith("this part is no longer kept")


OLD_FAILURE = """\
V0404 09:04:28.543000 1 torch/_logging/structured.py:19] {"str": ["/src/test_misc.py", 0]}
V0404 09:04:28.543000 1 torch/_dynamo/convert_frame.py:672] {"dynamo_start": {"stack": [{"line": 9589, "name": "fn", "filename": 0}]}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0}
V0404 09:04:28.553000 1 torch/_dynamo/utils.py:685] {"compilation_metrics": {"co_name": "fn", "co_filename": "/src/test_misc.py", "co_firstlineno": 9589, "fail_type": "<class 'torch._dynamo.exc.BackendCompilerFailed'>", "fail_reason": "backend='broken_backend' raised:\\nRuntimeError: broken backend"}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0}
"""

EXPORT_ONLY = """\
V1125 10:00:00.000000 1 torch/_export/__init__.py:1] {"exported_program": {}, "has_payload": "0"}
\tExportedProgram:
\t    class GraphModule(torch.nn.Module):

\t        def forward(self, a):
V1125 10:00:00.000000 1 torch/fx/experimental/symbolic_shapes.py:1] {"create_unbacked_symbol": {"symbol": "u0"}}
"""


def test_an_old_torchs_failure_and_a_log_without_a_compile(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Records as torch wrote them before 2.4 (the compile id only in the envelope) and a torch.export log (no
    torch.compile frame; a payload whose blank line lost its tab, as tlparse's own test inputs have)."""
    old, export = tmp_path / "old.log", tmp_path / "export.log"
    old.write_text(OLD_FAILURE)
    export.write_text(EXPORT_ONLY)
    [opened] = read_trace([str(old)])
    validate_report(opened.report)
    [frame] = opened.report["frames"]
    assert (frame["compile_id"], frame["status"], frame["code"]["name"]) == ("0/0", "error", "fn")
    assert [d["kind"] for d in opened.report["diagnostics"]] == ["compile_failed"]
    [opened] = read_trace([str(export)])
    validate_report(opened.report)
    assert opened.report["trace"]["logs"][0]["skipped"] == 0 and opened.report["frames"] == []
    assert opened.report["trace"]["missing"][0]["pane"] == "frames"
    capsys.readouterr()
    assert cli_main(["open", str(export)]) == 0
    said = capsys.readouterr().out
    assert "0 frames" in said and "no torch.compile frame in it: its records are exported_program ×1" in said


TLPARSE_LOGS = sorted((REPO / "tests" / "traces" / "tlparse").glob("*/*.log.gz"))
#: what each of tlparse's logs must read as: (compile id, status) of each frame, graphs, cache decisions
TLPARSE_READS = {
    "ezyang/artifacts": ([("0/0", "ok")], 2, 0),
    "ezyang/cache_hit_miss": ([("0/0", "ok"), ("1/0", "ok")], 5, 6),
    "ezyang/chromium_events": ([("0/0", "error")], 1, 0),
    "ezyang/comp_failure": ([("0/0", "error")], 1, 0),
    "ezyang/comp_metrics": ([("0/0", "ok"), ("1/0", "ok"), ("2/0", "ok")], 3, 0),
    "ezyang/export": ([], 1, 0),  # its draft_export's exported program (tests/engine/test_exports.py)
    "ezyang/links": ([("0/0", "ok")], 2, 0),
    "ezyang/simple": ([("0/0", "ok")], 2, 1),
    "meta-pytorch/subgraph_name": ([], 0, 0),
    "meta-pytorch/vllm_post_grad_diff": ([], 0, 0),
}


def test_every_tlparse_test_log_is_kept() -> None:
    assert sorted(f"{p.parent.name}/{p.name.removesuffix('.log.gz')}" for p in TLPARSE_LOGS) == sorted(TLPARSE_READS)


@pytest.mark.parametrize("log", TLPARSE_LOGS, ids=[f"{p.parent.name}/{p.name.removesuffix('.log.gz')}" for p in TLPARSE_LOGS])
def test_tlparse_own_test_logs_open(log: Path) -> None:
    """tlparse's own test inputs (tests/traces/tlparse/README.md: BSD-3-Clause): logs of torch releases from 2024 on,
    torch.export's and vLLM's among them. Each opens into a valid report with every line read; a log without a
    torch.compile frame says what it holds instead."""
    [opened] = read_trace([str(log)])
    report = opened.report
    validate_report(report)
    stats = report["trace"]["logs"][0]
    assert stats["lines"] > 0 and stats["skipped"] == 0 and stats["records"] > 0
    frames, graphs, caches = TLPARSE_READS[f"{log.parent.name}/{log.name.removesuffix('.log.gz')}"]
    assert [(f["compile_id"], f["status"]) for f in report["frames"]] == frames
    assert (len(report["graphs"]), len(report["trace"]["caches"])) == (graphs, caches)
    assert [d for d in report["diagnostics"] if d["kind"] == "schema_mismatch"] == []
    if not frames:
        assert report["trace"]["missing"][0]["pane"] == "frames"


@pytest.mark.parametrize("chunk", [1, 7, 4096])
def test_the_reader_reads_the_same_events_whatever_its_chunk(chunk: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The log is read in chunks and its records found by a scan: a record line, a payload line or a payload cut
    anywhere by a chunk reads as the whole log does (tlparse's logs; one with a blank payload line, a whitespace-only
    line, text before the first record and a torn last line), with the same counts."""
    from compiler.trace import reader

    odd = tmp_path / "odd.log"
    odd.write_text(
        "stray text before any record\n"
        'V1126 23:31:46.666000 9884 torch/_dynamo/utils.py:2350] {"str": ["/x.py", 0]}\n'
        'V1126 23:31:46.666000 9884 a.py:1] {"dynamo_output_graph": {}, "frame_id": 0, "frame_compile_id": 0, "has_payload": "h"}\n'
        "\tdef forward(self, x):\n\n   \n\t    return (x,)\n"
        'V1126 23:31:46.666000 9884 a.py:1] {"artifact": {"name": "x", "encoding": "string"}, "has_payload": "h"}\n'
        "\tone\n\ttwo\n"
        'V1126 23:31:46.666000 9884 a.py:1] {"describe_source": {"id": 1}, "frame_id": 0, "frame_compile_id": 0}\n'
        'V1126 23:31:46.666000 9884 a.py:1] {"describe_storage": {"id": 1}, "frame_id": 0, "frame_compile_id": 0}\n'
        'V1126 23:31:46.666000 9884 a.py:1] {"artifact": {"name": "y", "encoding": "string"}, "has_payload": "h"}\n'
        "\tthree\n"
        '{"torn": '
    )
    logs = [*sorted((REPO / "tests/traces/tlparse").glob("*/*.log.gz")), odd]

    def read(path: Path) -> tuple[list[tuple], tuple]:
        log = reader.TraceLog(path=str(path), rank=None)
        events = [
            (e.name, e.compile_id, e.attempt, json.dumps(e.meta, sort_keys=True), e.payload, e.stack, e.span)
            for e in reader.read_events(log)
        ]
        for e in events:  # where a payload is: read again from there, it is the same
            if e[6] is not None:
                assert reader.read_span(str(path), e[6]) == e[4], (path.name, e[0])
        s = log.stats
        return events, (s.lines, s.records, s.skipped, s.bytes, s.rank)

    whole = {p: read(p) for p in logs}
    monkeypatch.setattr(reader, "_CHUNK", chunk)
    for p in logs:
        assert read(p) == whole[p], p.name
    events, counts = whole[odd]
    assert [e[4] for e in events if e[4] is not None] == ["def forward(self, x):\n\n\n    return (x,)", "one\ntwo", "three"]
    assert counts[:3] == (15, 6, 2), "fifteen lines, six records; the stray line and the torn one skipped"


def test_a_big_guard_tree_stays_in_the_log_until_a_view_asks(
    traced: dict, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """[Note: a trace's big guard trees]: a tree over ``LAZY_TREE_CHARS`` is counted and left in the log (here every
    tree of the test program, the limit lowered): the report holds its count and two parts naming its bytes, and
    reads, when asked (a kernel's view, ``--html``, a diff), exactly what a report holding it whole holds."""
    from compiler.diff import load_side
    from compiler.trace import panes
    from compiler.trace.parts import PageTrees, page_parts, resolve

    monkeypatch.setattr(panes, "LAZY_TREE_CHARS", 200)
    log = tmp_path / "big.log"
    shutil.copy(traced["log"].path, log)
    [opened] = read_trace([str(log)])
    lazy = opened.report
    assert report_errors(lazy) == []
    whole = {f["compile_id"]: f for f in traced["trace"]["frames"]}
    cuts = lazy["parts_cut"]
    assert cuts and all(c["kept"] == 0 and c["log"]["path"] == str(log) for c in cuts)
    for frame in lazy["frames"]:
        want = whole[frame["compile_id"]]
        mine = {c["part"]: c for c in cuts if c["compile_id"] == frame["compile_id"]}
        assert frame["guard_count"] == want["guard_count"] == len(want["guards"]) > 0
        assert (frame["guards"], frame["guard_tree"]) == ([], None)
        assert (mine["guards"]["total"], mine["guard_tree"]["total"]) == (len(want["guards"]), len(want["guard_tree"]))
    # a kernel that opened it answers a view's request from the log
    ex = open_trace(log)
    for cut in ex.report["parts_cut"]:
        got = parts.answer(cut["key"])
        assert got["error"] is None, got
        want = whole[cut["compile_id"]]["guards" if cut["part"] == "guards" else "guard_tree"]
        assert got["part"] == want, cut["part"]
    # the page holds each tree once, compressed, under both parts' keys (its view derives the rows: guardTree.ts,
    # checked against the Python rows on tests/goldens/guard_trees.json)
    from kernel_ext.export import PARTS_ID, standalone_html

    page = standalone_html(lazy)
    held = json.loads(page.split(f'id="{PARTS_ID}">', 1)[1].split("</script>", 1)[0])
    assert set(held["keys"]) == {c["key"] for c in cuts} and len(held["blobs"]) == len(cuts) // 2
    for cut in cuts:
        blob = held["blobs"][held["keys"][cut["key"]]]
        # as the view reads it (partsModel.embeddedLoader): a usual tree as the log holds it, each line after a tab
        assert set(blob) == {"tabbed"}
        tree = gzip.decompress(base64.b64decode(blob["tabbed"])).decode()[1:].replace("\n\t", "\n")
        assert tree == whole[cut["compile_id"]]["guard_tree"]
    # open --html compresses each tree as the log streams by (PageTrees), not read again after: the same blobs
    with PageTrees() as trees:
        [again] = read_trace([str(log)], trees)
        ready = trees.parts([again.report])
    assert set(ready) == {c["key"] for c in again.report["parts_cut"]}
    moved = tmp_path / "moved.log"
    log.rename(moved)  # nothing is read again: the page's blobs were made while reading
    streamed_parts = page_parts(again.report, ready)
    assert streamed_parts is not None and streamed_parts["blobs"] == held["blobs"]
    moved.rename(log)
    streamed = tmp_path / "streamed.html"
    assert cli_main(["open", str(log), "--html", str(streamed)]) == 0
    assert json.loads(streamed.read_text().split(f'id="{PARTS_ID}">', 1)[1].split("</script>", 1)[0])["blobs"] == held["blobs"]
    # a diff holds the whole, the same as a report that held it from the start
    assert resolve(lazy) == len(cuts) and not lazy["parts_cut"]
    assert lazy["frames"] == traced["trace"]["frames"]
    assert load_side(str(log))["frames"] == traced["trace"]["frames"]  # a diff's side read from the trace itself
    out = tmp_path / "lazy.json"
    assert cli_main(["open", str(log), "--json", str(out)]) == 0
    assert [f["guards"] for f in load_side(str(out))["frames"]] == [f["guards"] for f in traced["trace"]["frames"]]
    # the log gone: the view is told why in one line, the kernel goes on
    ex = open_trace(log)
    log.unlink()
    answer = parts.answer(ex.report["parts_cut"][0]["key"])
    assert answer["part"] is None and "cannot read the trace's log" in answer["error"] and "\n" not in answer["error"]


def test_a_big_trees_digest_counts_what_its_text_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    """``lazy_tree`` counts a big tree on its bytes: the same guards and characters as the tree's text would give
    (``count_leaves(tree_text(payload))``), for torch's usual tree and for odd ones (no latency line, a non-ASCII
    character, a line without its tab, white space at either end); the tree it hands a page is that text (the usual
    one's lines as the log holds them: the view drops each line's tab)."""
    from compiler.collectors.guards.guards import count_leaves
    from compiler.trace import panes
    from compiler.trace.reader import payload_of

    monkeypatch.setattr(panes, "LAZY_TREE_CHARS", 10)
    leaves = "".join(f"| | +- TENSOR_MATCH: check_tensor(L['w{i}'])  # y = w{i} + 1  # a.py:{i} in f\n" for i in range(40))
    tree = "TREE_GUARD_MANAGER:\n+- RootGuardManager\n| +- GuardManager: source=L['x'], accessed_by=DictGetItem\n" + leaves
    odd = [
        "\n" + tree + "\nGuard latency = 12.5 us",  # torch's: a blank line first, the latency last
        tree,
        tree.replace("w3", "wé"),
        tree.replace("| | +- TENSOR_MATCH: check_tensor(L['w5'])", "\n+- GuardManager: source=L['é']"),
        "  " + tree + "   \n\nGuard latency = 1 us",
        tree + "  ",
    ]
    for text in odd:
        lines = ("\t" + text.replace("\n", "\n\t") + "\n").encode()
        if text is odd[3]:
            lines = lines.replace(b"\n\t\n", b"\n\n")  # a line a tool stripped of its tab
        want = panes.tree_text(payload_of(lines))
        found = panes.lazy_tree("dynamo_cpp_guards_str", lines)
        assert found is not None and found[0] == panes.TreeDigest(guards=count_leaves(want), chars=len(want))
        held = found[1]
        assert (held.decode()[1:].replace("\n\t", "\n") if isinstance(held, bytes) else held) == want
        assert isinstance(held, bytes) == (text is odd[0])  # torch's own is the usual tree
    assert panes.lazy_tree("dynamo_output_graph", lines) is None


def test_the_views_guard_tree_parser_is_checked_on_current_rows() -> None:
    """tests/goldens/guard_trees.json, on which the view's parser is checked (labextension/tests/guardTree.spec.ts), holds
    the rows the Python parser makes of the golden reports' trees now."""
    from tests.goldens.regenerate import HERE, guard_trees

    stored = json.loads((HERE / "guard_trees.json").read_text(encoding="utf-8"))
    assert stored == guard_trees(), "run python -m tests.goldens.regenerate guard_trees"
