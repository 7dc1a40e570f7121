"""Every %%dynamo option, in one real kernel: each option reaches the engine and changes the run.

Each option cell stores its report with --out; the last cell prints the facts of all reports
as JSON, and the tests read them (and the cells' own outputs).
"""

from __future__ import annotations

import base64
import gzip
import json
import re
from pathlib import Path

import pytest
from kernel_nb import MIME, cell, code, error, execute, last_json, outputs, reports, result, stream

from compiler.schema import PARTS_MIME_TYPE

pytestmark = pytest.mark.kernel

FACTS = """
def facts(rep):
    return {
        "options": rep["options"], "backend": rep["backend"], "scope": rep["scope"],
        "scope_reason": rep["scope_reason"],
        "frames": [[f["compile_id"], f["code"]["name"], f["status"]] for f in rep["frames"]],
        "graph_kinds": sorted({g["kind"] for g in rep["graphs"]}),
        "symbols": [s["source"] for s in rep["symbols"]],
        "diagnostics": [d["kind"] for d in rep["diagnostics"]],
        "recompile_reasons": [r["reason"] for f in rep["frames"] for r in f["recompile_reasons"]],
        "output_code": len(rep["output_code"]), "error": rep["error"],
    }
"""

CELLS = {
    "backend": "%%dynamo --backend aot_eager --out r_backend\n"
    "def f_aot(t):\n    return (t * 2).relu()\nf_aot(torch.randn(4, requires_grad=True)).sum().backward()\n",
    "mode": "%%dynamo --mode reduce-overhead --out r_mode\nm = torch.ones(8).sin() + 1\n",
    "dynamic": "%%dynamo --backend eager --dynamic --out r_dynamic\n"
    "def f_dyn(t):\n    return t * 2\nfor n in (8, 16):\n    f_dyn(torch.ones(n))\n",
    "no_dynamic": "%%dynamo --backend eager --no-dynamic --out r_no_dynamic\n"
    "def f_static(t):\n    return t * 2\nfor n in (8, 16, 32):\n    f_static(torch.ones(n))\n",
    "fullgraph": "%%dynamo --backend eager --fullgraph --out r_fullgraph\n"
    'def f_full(t):\n    print("inside")\n    return t + 1\nbefore_full = 1\nf_full(torch.ones(2))\n',
    "scope_cell": "%%dynamo --backend eager --scope cell --out r_scope_cell\nc1 = torch.ones(3)\nc2 = c1 * 2\n",
    "scope_frames": "%%dynamo --backend eager --scope all-frames --out r_scope_frames\n"
    "def f_fr(t):\n    return t + 1\nfr = f_fr(torch.ones(2))\n",
    "scope_auto": "%%dynamo --backend eager --out r_scope_auto\na1 = torch.ones(3) * 3\n",
    "recompile_limit": "%%dynamo --backend eager --no-dynamic --recompile-limit 2 --out r_recompile_limit\n"
    "def f_lim(t):\n    return t * 3\nfor n in range(1, 6):\n    f_lim(torch.ones(n))\n",
    "quiet": "%%dynamo --backend eager --quiet --out r_quiet\nqv = torch.ones(2) * 5\nqv.sum()\n",
    "strict_fails": "%%dynamo --backend eager --no-dynamic --recompile-limit 1 --strict --out r_strict_fails\n"
    "def f_st(t):\n    return t - 1\nfor n in (2, 3, 4):\n    f_st(torch.ones(n))\n",
    "strict_clean": "%%dynamo --backend eager --strict --out r_strict_clean\nclean = torch.ones(2) + 1\nclean\n",
    # {HTML}: a temp folder; the quotes keep the space of the file name
    "html": '%%dynamo --backend eager --html "{HTML}/cell report.html" --out r_html\n'
    "def f_html(t):\n    return t * 3\nhv = f_html(torch.ones(2))\nhv\n",
    "all_parts": "%%dynamo --backend eager --all-parts --out r_all_parts\n"
    "def f_parts(t):\n    return t * 4\npv = f_parts(torch.ones(2))\n",
}
# the html cell's report holds 2 guards and 300 characters of each tree (its page holds the rest): set before it, and back
AROUND = {
    "html": (
        "from compiler.collectors.guards import guards as _g\n"
        "_caps, (_g.MAX_GUARDS_PER_FRAME, _g.MAX_TREE_CHARS) = (_g.MAX_GUARDS_PER_FRAME, _g.MAX_TREE_CHARS), (2, 300)\n",
        "_g.MAX_GUARDS_PER_FRAME, _g.MAX_TREE_CHARS = _caps\n",
    ),
    # and no part fits the output's first budget: --all-parts holds them all the same
    "all_parts": (
        "from kernel_ext import parts as _p\n_g.MAX_GUARDS_PER_FRAME, _g.MAX_TREE_CHARS = 2, 300\n"
        "_budget, _p.OUTPUT_PARTS_BYTES = _p.OUTPUT_PARTS_BYTES, 0\n",
        "_g.MAX_GUARDS_PER_FRAME, _g.MAX_TREE_CHARS = _caps\n_p.OUTPUT_PARTS_BYTES = _budget\n",
    ),
}
RAISES = {"fullgraph", "strict_fails"}
# refused before the cell runs: a folder that does not exist
HTML_BAD = "%%dynamo --backend eager --html {HTML}/missing/r.html\nhtml_ran = True\n"


@pytest.fixture(scope="module")
def html_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("html")


@pytest.fixture(scope="module")
def nb(kernel_name, html_dir):
    cells = [code("%load_ext kernel_ext\nimport json, torch\n" + FACTS, name="setup")]
    for name, src in CELLS.items():
        before, after = AROUND.get(name, (None, None))
        cells += [code(before)] if before else []
        cells.append(code(src.replace("{HTML}", str(html_dir)), name=name, raises=name in RAISES))
        cells += [code(after)] if after else []
    cells.append(code(HTML_BAD.replace("{HTML}", str(html_dir)), name="html_bad", raises=True))
    cells.append(code("print(json.dumps({'html_ran': 'html_ran' in globals()}))", name="html_ran"))
    cells.append(
        code(
            "print(json.dumps({name[2:]: facts(value) for name, value in sorted(globals().items())"
            " if name.startswith('r_')}))\n"
            "print(json.dumps({'before_full': before_full, 'qv': qv.tolist()}))",
            name="facts",
        )
    )
    return execute(cells, kernel_name)


@pytest.fixture(scope="module")
def facts(nb):
    lines = [line for line in stream(cell(nb, "facts")).splitlines() if line.strip()]
    return json.loads(lines[0])


def test_every_option_cell_stored_its_report(facts):
    assert sorted(facts) == sorted(CELLS)


def test_backend(facts):
    f = facts["backend"]
    assert f["backend"] == f["options"]["backend"] == "aot_eager"
    assert {"aot_forward", "aot_backward"} <= set(f["graph_kinds"]), f["graph_kinds"]


def test_default_backend_is_inductor_and_mode_is_passed(facts):
    f = facts["mode"]
    assert f["options"]["backend"] == "inductor" and f["options"]["mode"] == "reduce-overhead"
    assert f["output_code"] >= 1


def test_dynamic(facts):
    f = facts["dynamic"]
    assert f["options"]["dynamic"] is True
    assert [fr[1] for fr in f["frames"]] == ["f_dyn"], f["frames"]
    assert any("size()" in s for s in f["symbols"]), f["symbols"]


def test_no_dynamic(facts):
    f = facts["no_dynamic"]
    assert f["options"]["dynamic"] is False
    assert [fr[1] for fr in f["frames"]] == ["f_static"] * 3, f["frames"]
    assert f["symbols"] == []
    assert all("size mismatch" in r for r in f["recompile_reasons"]), f["recompile_reasons"]
    assert len(f["recompile_reasons"]) >= 2


def test_automatic_dynamic_by_default(facts):
    assert facts["scope_auto"]["options"]["dynamic"] is None


def test_fullgraph_error_names_the_line_and_keeps_partial_report(nb, facts):
    c = cell(nb, "fullgraph")
    assert c.metadata["reply"]["status"] == "error"
    assert len(reports(c)) == 1
    f = facts["fullgraph"]
    assert f["options"]["fullgraph"] is True
    assert f["error"] is not None and f["error"]["line"] == 3, f["error"]
    assert "line 3" in re.sub(r"\x1b\[[0-9;]*m", "", "\n".join(error(c).traceback))


def test_fullgraph_top_level_code_before_the_call_ran(nb):
    assert last_json(cell(nb, "facts")) == {"before_full": 1, "qv": [5.0, 5.0]}


def test_scope_cell(facts):
    f = facts["scope_cell"]
    assert f["scope"] == f["options"]["scope"] == "cell"
    assert len(f["frames"]) >= 1


def test_scope_frames(facts):
    f = facts["scope_frames"]
    assert f["scope"] == f["options"]["scope"] == "all-frames"
    assert [fr[1] for fr in f["frames"]] == ["f_fr"]


def test_scope_auto_picks_cell_without_user_calls(facts):
    f = facts["scope_auto"]
    assert f["options"]["scope"] == "auto" and f["scope"] == "cell"
    assert f["scope_reason"]


def test_recompile_limit(nb, facts):
    f = facts["recompile_limit"]
    assert f["options"]["recompile_limit"] == 2
    assert "recompile_limit" in f["diagnostics"]
    assert len([fr for fr in f["frames"] if fr[1] == "f_lim"]) <= 3
    assert stream(cell(nb, "recompile_limit"), "stderr") == ""


def test_quiet_shows_no_report_but_keeps_out_and_value(nb, facts):
    c = cell(nb, "quiet")
    assert reports(c) == []
    assert outputs(c, "display_data") == []  # no report, and no progress line: nothing to take its place
    assert result(c).data["text/plain"] == "tensor(10.)"
    assert facts["quiet"]["frames"]


def test_strict_turns_diagnostics_into_an_error(nb, facts):
    c = cell(nb, "strict_fails")
    assert "recompile_limit" in facts["strict_fails"]["diagnostics"]
    assert len(reports(c)) == 1
    err = error(c)
    assert err.ename == "StrictCaptureError" and "recompile_limit" in err.evalue
    assert c.metadata["reply"]["status"] == "error"


def test_strict_passes_a_clean_capture(nb, facts):
    c = cell(nb, "strict_clean")
    assert facts["strict_clean"]["diagnostics"] == []
    assert outputs(c, "error") == []
    assert result(c).data["text/plain"] == "tensor([2., 2.])"
    assert MIME in reports(c)[0].data


def test_html_writes_the_page_says_where_and_still_shows_the_report(nb, facts, html_dir):
    c = cell(nb, "html")
    page = html_dir / "cell report.html"
    shown = [o.output_type for o in c.outputs if o.output_type != "display_data" or o.data]  # not the progress line
    assert shown == ["display_data", "stream", "execute_result"], c.outputs
    assert len(reports(c)) == 1
    line = stream(c)
    assert line.startswith(f"%%dynamo: wrote {page} (") and line.endswith("open it in any browser, it needs no network\n")
    assert result(c).data["text/plain"] == "tensor([3., 3.])"
    text = page.read_text(encoding="utf-8")
    (embedded,) = re.findall(r'<script type="application/json" id="dynamo-explorer-report">(.*?)</script>', text, re.S)
    report = json.loads(embedded)
    assert [[f["compile_id"], f["code"]["name"], f["status"]] for f in report["frames"]] == facts["html"]["frames"]
    assert report == reports(c)[0].data[MIME]
    assert "<title>Dynamo Explorer · In [" in text and "· f_html · torch 2." in text
    # the page holds the whole of each part, as the kernel stored it (the output's parts are the same blobs)
    (held,) = re.findall(r'<script type="application/json" id="dynamo-explorer-parts">(.*?)</script>', text, re.S)
    held = json.loads(held)
    cuts = report["parts_cut"]
    assert cuts and set(held["keys"]) == {c["key"] for c in cuts}
    for cut in cuts:
        blob = held["blobs"][held["keys"][cut["key"]]]
        whole = json.loads(gzip.decompress(base64.b64decode(blob["data"]))) if isinstance(blob, dict) else blob
        assert len(whole) == cut["total"] > cut["kept"], cut["part"]
    shown = reports(c)[0].data[PARTS_MIME_TYPE]
    assert [shown["blobs"][shown["keys"][k]] for k in held["keys"]] == [held["blobs"][i] for i in held["keys"].values()]


def test_all_parts_holds_every_part_in_the_output_at_once(nb, facts):
    """``--all-parts``: a notebook nobody draws (nbclient, papermill) still holds every guard ([Note: an output
    completed once drawn]): here no part fits the first budget (0 bytes), and the output holds them all."""
    c = cell(nb, "all_parts")
    (shown,) = reports(c)
    held = shown.data[PARTS_MIME_TYPE]
    cuts = shown.data[MIME]["parts_cut"]
    assert cuts and set(held["keys"]) == {c["key"] for c in cuts} and len(held["blobs"]) == len(cuts)
    assert facts["all_parts"]["frames"][0][1] == "f_parts"


def test_html_to_a_missing_folder_is_refused_before_the_cell_runs(nb, html_dir):
    c = cell(nb, "html_bad")
    assert c.metadata["reply"]["status"] == "error" and c.metadata["reply"]["ename"] == "UsageError"
    assert outputs(c, "error") == [] and reports(c) == []
    assert stream(c, "stderr") == (
        f"UsageError: %%dynamo: cannot write the report to {html_dir}/missing/r.html: the directory {html_dir}/missing "
        "does not exist; create it or pick another --html path\n"
    )
    assert last_json(cell(nb, "html_ran")) == {"html_ran": False}


def test_help_shows_the_html_option_with_an_example():
    from kernel_ext.magic import DynamoMagics

    doc = " ".join(DynamoMagics.dynamo.__doc__.split())
    assert "--html OUT.html" in doc and "Example: %%dynamo --html report.html" in doc


def test_html_without_the_built_renderer_is_a_usage_error(monkeypatch, tmp_path):
    from IPython.core.error import UsageError

    from kernel_ext import export
    from kernel_ext.magic import DynamoMagics, _parse

    monkeypatch.setattr(export, "BUNDLE_CSS", tmp_path / "dynamo-explorer.css")
    with pytest.raises(UsageError, match=r"^%%dynamo: --html: the standalone renderer is not built .*run `npm run build`"):
        _parse(DynamoMagics.dynamo, f"--html {tmp_path}/r.html")
    assert not (tmp_path / "r.html").exists()


def _flags(parser) -> set[str]:
    return {flag for action in parser._actions for flag in action.option_strings}


def test_cli_and_magic_share_every_option_spelling():
    # issue 11: the CLI took `--dynamic true|false` where the magic took `--dynamic/--no-dynamic`. Every run option
    # and output is declared once (compiler.options) and both parsers are made from it: the same flags, the same values
    from IPython.core.error import UsageError

    from compiler.options import OPTIONS, OUTPUTS, RunOptions
    from dynamo_explorer.cli import build_parser
    from kernel_ext.magic import DynamoMagics, _parse

    cli = build_parser()
    run = cli._subparsers._group_actions[0].choices["run"]
    magic = DynamoMagics.dynamo.parser
    # the CLI's own: --json, and --nproc (a script's ranks under torchrun; a cell runs in the kernel's one process)
    own = {"cli": {"-h", "--help", "--json", "--nproc"}, "magic": {"--out", "--quiet", "--strict", "--all-parts"}}
    assert _flags(run) - own["cli"] == _flags(magic) - own["magic"]
    declared = {o.flag for o in OPTIONS + OUTPUTS} | {f"--no-{o.flag[2:]}" for o in OPTIONS if o.negatable}
    assert _flags(magic) - own["magic"] == declared and {"--dynamic", "--no-dynamic"} <= declared
    for line, dynamic in (("", None), ("--dynamic", True), ("--no-dynamic", False)):
        from_cli = RunOptions.from_args(cli.parse_args(["run", "s.py", *line.split()]))
        from_magic = RunOptions.from_args(_parse(DynamoMagics.dynamo, line))
        assert from_cli == from_magic and from_cli.dynamic is dynamic, line
    with pytest.raises(SystemExit) as exit_:
        cli.parse_args(["run", "s.py", "--dynamic", "true"])
    assert exit_.value.code == 2
    with pytest.raises(UsageError, match="unrecognized arguments: true"):
        _parse(DynamoMagics.dynamo, "--dynamic true")
