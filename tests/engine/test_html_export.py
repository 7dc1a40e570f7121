"""The standalone HTML export (``kernel_ext.export``) and the CLI's ``--html``: escaping, refusals, the page.

The page opened in a real browser, offline, is tests/browser/test_standalone.py.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from compiler.encoding import decode_report
from compiler.options import OUTPUTS
from dynamo_explorer.cli import build_parser
from kernel_ext import export
from tests.goldens.regenerate import HERE

BREAKOUT = "</script><!--<script>alert(1)</script>--> & \u2028\u2029 </SCRIPT >"
EMBEDDED = re.compile(r'<script type="application/json" id="dynamo-explorer-report">(.*?)</script>', re.S)


def _xss_report() -> dict:
    report = json.loads((HERE / "xss_strings.report.json").read_text())
    report["cell"]["source"] += f"\n# {BREAKOUT}\n"
    report["frames"][0]["code"]["name"] = BREAKOUT
    report["frames"][0]["guards"][0]["code"] = [BREAKOUT]
    return report


def test_script_json_cannot_end_its_script_element():
    value = {"s": BREAKOUT, "k" + BREAKOUT: [BREAKOUT]}
    text = export.script_json(value)
    for raw in ("<", ">", "&", "\u2028", "\u2029"):
        assert raw not in text
    assert "\\u003c/script\\u003e\\u003c!--" in text
    assert json.loads(text) == value


def test_page_embeds_a_hostile_report_intact(built):
    report = _xss_report()
    page = export.standalone_html(report)
    (embedded,) = EMBEDDED.findall(page)
    assert decode_report(json.loads(embedded)) == report
    # exactly the two script elements the page opens: the report and the renderer, and no comment opener
    assert len(re.findall(r"<script\b", page, re.I)) == 2
    assert len(re.findall(r"</script", page, re.I)) == 2
    assert "<!--" not in page
    assert "<script>alert" not in page and "&lt;/script&gt;&lt;!--" in page  # the title names the frame, escaped


def test_page_head_names_the_run_and_allows_only_its_own_script(built):
    report = json.loads((HERE / "toy_example.report.json").read_text())
    page = export.standalone_html(report)
    assert "<title>Dynamo Explorer · toy_example · torch TORCH</title>" in page
    (policy,) = re.findall(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page)
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["default-src"] == "'none'"
    assert re.fullmatch(r"'sha256-[A-Za-z0-9+/]+=*' 'wasm-unsafe-eval'", directives["script-src"])
    assert export.BUNDLE_JS.read_text(encoding="utf-8") in page
    assert export.BUNDLE_CSS.read_text(encoding="utf-8") in page


def test_theme_defines_every_jupyterlab_variable_the_renderer_reads(built):
    css = export.BUNDLE_CSS.read_text(encoding="utf-8")
    read = set(re.findall(r"var\(\s*(--jp-[\w-]+)", css))
    own = set(re.findall(r"(--jp-[\w-]+)\s*:", css))  # the renderer's own variables (--jp-DynamoExplorer-*)
    assert read, "the built CSS reads no --jp-* variable: is it the renderer's CSS?"
    assert sorted(read - own - set(export.THEME)) == []


def test_a_report_that_breaks_the_schema_is_refused(built, tmp_path):
    report = json.loads((HERE / "toy_example.report.json").read_text())
    report["frames"][0]["attempt"] = "first"
    with pytest.raises(export.ExportError, match=r"does not follow the compile-report schema \(frames/0/attempt: "):
        export.write_html(report, tmp_path / "r.html")
    assert not (tmp_path / "r.html").exists()


def test_a_missing_bundle_names_the_fix(monkeypatch, tmp_path):
    monkeypatch.setattr(export, "BUNDLE_JS", tmp_path / "dynamo-explorer.js")
    problem = export.renderer_problem()
    assert problem is not None and "run `npm run build`" in problem and "\n" not in problem
    with pytest.raises(export.ExportError, match="the standalone renderer is not built"):
        export.standalone_html(json.loads((HERE / "toy_example.report.json").read_text()))


def test_html_is_declared_once_for_the_cli_and_the_magic(capsys):
    assert [o.flag for o in OUTPUTS] == ["--html"]
    args = build_parser().parse_args(["run", "s.py", "--html", "r.html"])
    assert args.html == "r.html" and args.json is None
    with pytest.raises(SystemExit):
        build_parser().parse_args(["run", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--html OUT.html" in help_text and "Example: dynamo-explorer run s.py --json r.json --html report.html" in help_text


def _cli(tmp_path, *args, script="import torch\ny = torch.ones(2) * 2\n"):
    path = tmp_path / "script.py"
    path.write_text(script)
    return subprocess.run(
        [sys.executable, "-m", "dynamo_explorer", "run", str(path), *args], capture_output=True, text=True, timeout=300
    )


def test_cli_html_writes_the_page_alone_or_with_json(built, tmp_path):
    html, out = tmp_path / "report.html", tmp_path / "report.json"
    proc = _cli(tmp_path, "--backend", "eager", "--json", str(out), "--html", str(html))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert lines[0].startswith("dynamo: 1 frame")
    # one line a file written, in the order of the flags' declaration (kernel_ext/outputs.py): the JSON, then the page
    assert lines[1].startswith(f"dynamo-explorer: wrote {out} (") and lines[1].endswith(" KB)")
    assert lines[2].startswith(f"dynamo-explorer: wrote {html} (") and lines[2].endswith(
        "open it in any browser, it needs no network"
    )
    (embedded,) = EMBEDDED.findall(html.read_text(encoding="utf-8"))
    assert decode_report(json.loads(embedded)) == json.loads(out.read_text())

    alone = tmp_path / "alone.html"
    proc = _cli(tmp_path, "--backend", "eager", "--html", str(alone))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(EMBEDDED.findall(alone.read_text(encoding="utf-8"))[0])["backend"] == "eager"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (
            ("--html", "{tmp}/missing/r.html"),
            "cannot write the report to {tmp}/missing/r.html: the directory {tmp}/missing does not exist; create it or pick another --html path",
        ),
        (("--html", "{tmp}"), "it is a directory; name a file, e.g. --html report.html"),
        (("--json", "{tmp}/r.json", "--html", "{tmp}/r.json"), "--json and --html name the same file"),
    ],
)
def test_cli_refuses_a_bad_html_output_before_the_script_runs(tmp_path, args, needle):
    marker = tmp_path / "ran"
    proc = _cli(tmp_path, *(a.format(tmp=tmp_path) for a in args), script=f"open({str(marker)!r}, 'w').close()\n")
    assert proc.returncode == 2, proc.stderr
    assert needle.format(tmp=tmp_path) in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert not marker.exists(), "the script ran before the output was refused"


def test_cli_refuses_html_when_the_renderer_is_not_built(tmp_path):
    """Run in a subprocess whose ``kernel_ext.export`` looks for the bundle in an empty folder."""
    marker = tmp_path / "ran"
    script = tmp_path / "script.py"
    script.write_text(f"open({str(marker)!r}, 'w').close()\n")
    code = (
        "import sys, pathlib; from kernel_ext import export; "
        f"export.BUNDLE_JS = pathlib.Path({str(tmp_path / 'none.js')!r}); "
        "from dynamo_explorer.cli import main; "
        f"sys.exit(main(['run', {str(script)!r}, '--html', {str(tmp_path / 'r.html')!r}]))"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2
    assert proc.stderr.startswith("dynamo-explorer: error: --html: the standalone renderer is not built")
    assert "run `npm run build`" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert not marker.exists() and not (tmp_path / "r.html").exists()
