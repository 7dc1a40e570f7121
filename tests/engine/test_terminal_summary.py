"""Issue 40, item 2: ``dynamo-explorer run SCRIPT.py`` with no output flag prints the report's summary to the
terminal (``dynamo_explorer/terminal.py``): the header, a table of the frames with Dynamo's compile ids, each distinct
graph break at its ``file:line`` with its type, reason, line of code and hint, each recompile with the guard that
failed, and the one-line summary. Plain text when piped (no escape codes), rich's tables and colour on a terminal;
``open`` of a trace does the same; ``--json`` / ``--html`` write as before and print the one line only.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

from dynamo_explorer.terminal import print_summary

REPO = Path(__file__).resolve().parents[2]
GOLDENS = REPO / "tests" / "goldens"
ANSI = re.compile(r"\x1b\[[0-9;]*m")

TOY = """import torch


def toy(a, b):
    x = a / (torch.abs(a) + 1)
    if b.sum() < 0:
        b = b * -1
    return x * b


toy(torch.ones(10), -torch.ones(10))
toy(torch.ones(10, dtype=torch.float64), -torch.ones(10, dtype=torch.float64))
print("done")
"""


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TORCH_LOGS") and k != "TORCH_TRACE"}
    env["PYTHONPATH"] = str(REPO)
    return env


def _run(cwd: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "dynamo_explorer", *args],
        cwd=cwd,
        env=env or _env(),
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_run_without_an_output_prints_the_summary(tmp_path):
    (tmp_path / "toy.py").write_text(TOY)
    proc = _run(tmp_path, "run", "toy.py", "--backend", "eager")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert not ANSI.search(out), "piped: plain text"
    assert out.startswith("done\ntoy.py · torch ")
    assert "backend eager" in out and "scope calls" in out
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.startswith("[")}
    assert rows["[0/0]"][:4] == ["[0/0]", "toy", "toy.py:4", "graph_break"]
    assert rows["[0/1]"][:4] == ["[0/1]", "toy", "toy.py:4", "graph_break"]  # the float64 call's recompile
    assert "graph breaks (1 distinct)" in out
    assert re.search(r"^  toy\.py:6  Data-dependent branching  \[0/0\], \[0/1\]$", out, re.M), out
    assert "      if b.sum() < 0:" in out and "      hint: " in out
    assert re.search(r"^  \[0/1\] toy: tensor 'a' dtype mismatch\. expected Float, actual Double$", out, re.M), out
    assert out.rstrip().splitlines()[-1].startswith("dynamo: ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["toy.py"], "no output flag: nothing written"


def test_an_output_flag_prints_the_one_line_and_the_file_written(tmp_path):
    (tmp_path / "toy.py").write_text(TOY)
    proc = _run(tmp_path, "run", "toy.py", "--backend", "eager", "--json", "r.json")
    assert proc.returncode == 0, proc.stderr
    done, summary, wrote = proc.stdout.splitlines()
    assert done == "done"
    assert summary.startswith("dynamo: ")
    assert re.fullmatch(r"dynamo-explorer: wrote r\.json \(\d+ KB\)", wrote), wrote
    assert json.loads((tmp_path / "r.json").read_text())["frames"]


def test_open_without_an_output_prints_the_summary(tmp_path):
    (tmp_path / "toy.py").write_text(TOY)
    trace = tmp_path / "trace"
    plain = subprocess.run(
        [sys.executable, "-c", TOY.replace("toy(torch", "torch.compile(toy, backend='eager')(torch")],
        cwd=tmp_path,
        env={**_env(), "TORCH_TRACE": str(trace)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert plain.returncode == 0, plain.stderr
    proc = _run(tmp_path, "open", str(trace))
    assert proc.returncode == 0, proc.stderr
    assert "\ntrace · torch " in proc.stdout or f"\n{trace} · torch " in proc.stdout, proc.stdout
    assert re.search(r"^\[0/0\] +toy ", proc.stdout, re.M), proc.stdout
    assert "Data-dependent branching" in proc.stdout


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_the_summary_has_a_table_and_colour():
    report = json.loads((GOLDENS / "recompile_dtype.report.json").read_text())
    out = _Terminal()
    print_summary(report, file=out, title="cell")
    text = out.getvalue()
    assert ANSI.search(text), "colour on a terminal"
    plain = ANSI.sub("", text)
    assert "─" in plain, "rich's table rule under the header"
    assert re.search(r"\[0/1\] +scale ", plain) and "recompiles (1)" in plain
    assert "tensor 'x' dtype mismatch. expected Float, actual Double" in plain


def test_a_long_report_says_how_many_rows_it_left_out():
    report = json.loads((GOLDENS / "recompile_dtype.report.json").read_text())
    frame = report["frames"][0]
    report["frames"] = [{**frame, "compile_id": f"0/{i}"} for i in range(45)]
    out = io.StringIO()
    print_summary(report, file=out)
    text = out.getvalue()
    assert len([line for line in text.splitlines() if line.startswith("[0/")]) == 40
    assert "... and 5 frames more (--json or --html for all of them)" in text
