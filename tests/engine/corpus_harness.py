"""Running a folder of programs twice, each in a fresh process (``tests/engine/corpus_run.py``): as ``python CELL.py``
and through the CLI's code path, and what tells the two runs apart. Used by ``test_corpus.py`` (tests/corpus/: cells
that must behave as plain Python) and ``test_self_compiling.py`` (tests/compiles_itself/: programs that call
``torch.compile`` themselves, whose Dynamo story must be plain's too).

``outcomes(folder, cells, story=...)`` runs every selected cell in both modes, a few at a time (``CORPUS_WORKERS``,
default the CPU count up to 4). Each process is forked from a server that imported torch, ``torch._dynamo``, the
backends (and for the CLI the explorer) and ran nothing, its objects frozen out of the collector's sight (a child's
exit does not walk them): about 1 minute for the corpus on 2 cores instead of 9 (``CORPUS_FORK=0``: a new
interpreter per run, the same verdicts). With ``story``, each run also records Dynamo's own account of what it
compiled (``Run.story``: corpus_run.py's ``DynamoStory``).
"""

from __future__ import annotations

import difflib
import json
import os
import re
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compiler.schema import report_errors
from kernel_ext import static_html

REPO = Path(__file__).resolve().parents[2]
RUNNER = REPO / "tests" / "engine" / "corpus_run.py"
TIMEOUT_S = 300
# the CLI's own lines on stdout: the one-line summary and what it says about its outputs
_CLI_LINES = re.compile(r"^dynamo(?:-explorer)?: .*(?:\n|\Z)", re.M)
OUR_FRAME = re.compile(rf'File "(?P<path>{re.escape(str(REPO))}/(?:compiler|kernel_ext)/[^"]+)", line \d+')
_STDLIB = os.path.realpath(sysconfig.get_paths()["stdlib"]) + os.sep


def cells_of(folder: Path) -> list[str]:
    """The programs of a folder (a file whose name starts with ``_`` is a helper, not a cell)."""
    return sorted(p.stem for p in folder.glob("*.py") if not p.name.startswith("_"))


def selected(request: Any, module: str) -> list[str]:
    """The cells the session's selected tests of the test module ``module`` (its ``__name__``) take as their
    ``cell`` parameter: ``-k`` runs only those."""
    return sorted(
        {
            item.callspec.params["cell"]
            for item in request.session.items
            if getattr(item, "module", None) is sys.modules[module] and hasattr(item, "callspec")
        }
    )


@dataclass
class Run:
    status: int | None
    stdout: str
    stderr: str
    globals: dict[str, Any] | None
    problem: str | None  # the run itself failed: a timeout, no summary written
    seconds: float = 0.0
    report: dict[str, Any] | None = None
    story: list[dict[str, Any]] | None = None  # Dynamo's own record of the run (corpus_run.DynamoStory)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["OMP_NUM_THREADS"] = "1"  # the same in both runs; several cells' processes share the cores
    env["PYTHONHASHSEED"] = "0"
    env.pop("PYTHONPATH", None)  # as ``python CELL.py`` from a shell; the cli mode adds the repository itself
    for name in [n for n in env if n.startswith("TORCH_LOGS") or n == "TORCH_TRACE"]:
        del env[name]  # both runs under torch's default logging
    return env


class _Server:
    """A ``corpus_run.py serve MODE`` process: it imports torch (and the explorer) once and forks a fresh
    child per run, which saves each run those seconds of imports (``CORPUS_FORK=0``: a new interpreter per run)."""

    def __init__(self, mode: str, tmp: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(RUNNER), "serve", mode],
            cwd=tmp,
            env=_env(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def run(self, args: list[str], cwd: Path, stdout: Path, stderr: Path) -> int | None:
        job = {"args": args, "cwd": str(cwd), "stdout": str(stdout), "stderr": str(stderr), "timeout": TIMEOUT_S}
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(job) + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        assert answer, f"the corpus server {self.proc.args} died (status {self.proc.poll()})"
        return json.loads(answer)["status"]

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


class _Runner:
    """The servers of one ``outcomes`` call, one per mode and worker thread."""

    def __init__(self, folder: Path, tmp: Path, fork: bool, story: bool, as_is: bool) -> None:
        self.folder, self.tmp, self.fork, self.story, self.as_is = folder, tmp, fork, story, as_is
        self._local = threading.local()
        self._all: list[_Server] = []
        self._lock = threading.Lock()

    def run(self, mode: str, cell: str) -> Run:
        tmp = self.tmp
        out = tmp / f"{cell}.{mode}.json"
        report_path = tmp / f"{cell}.report.json"
        story_path = tmp / f"{cell}.{mode}.story.json"
        args = [str(self.folder / f"{cell}.py"), str(out)]
        if mode == "cli":
            args.append(str(report_path))
        if self.story:
            args.append(f"--story={story_path}")
        if self.as_is:
            args.append("--as-is")
        started = time.perf_counter()
        stdout_path, stderr_path = tmp / f"{cell}.{mode}.stdout", tmp / f"{cell}.{mode}.stderr"
        if self.fork:
            servers = self._local.__dict__.setdefault("by_mode", {})
            if mode not in servers:
                servers[mode] = _Server(mode, tmp)
                with self._lock:
                    self._all.append(servers[mode])
            status = servers[mode].run(args, tmp, stdout_path, stderr_path)
        else:
            with open(stdout_path, "w") as so, open(stderr_path, "w") as se:
                try:
                    status = subprocess.run(
                        [sys.executable, str(RUNNER), mode, *args], cwd=tmp, env=_env(), stdout=so, stderr=se, timeout=TIMEOUT_S
                    ).returncode
                except subprocess.TimeoutExpired:
                    status = None
        stdout = stdout_path.read_text(errors="replace")
        stderr = stderr_path.read_text(errors="replace")
        seconds = time.perf_counter() - started
        if status is None:
            return Run(None, stdout, stderr, None, f"{mode} run timed out after {TIMEOUT_S} s", seconds)
        recorded = json.loads(out.read_text()) if out.exists() else None
        problem = None
        if recorded is None:
            problem = f"{mode} run wrote no summary (process status {status})"
        elif recorded["summary_failed"]:
            problem = f"{mode} run: summarizing the globals failed: {recorded['summary_failed']}"
        if mode == "cli" and recorded is not None and recorded["status"] != status:
            problem = f"cli main() gave {recorded['status']} but the process exited {status}"
        run = Run(status, stdout, stderr, recorded and recorded["globals"], problem, seconds)
        if mode == "cli" and report_path.exists():
            run.report = json.loads(report_path.read_text())
        if self.story:
            run.story = json.loads(story_path.read_text()) if story_path.exists() else None
            if run.story is None and run.problem is None:
                run.problem = f"{mode} run wrote no story of Dynamo's"
        return run

    def close(self) -> None:
        while self._all:
            self._all.pop().close()


def outcomes(
    folder: Path, cells: list[str], story: bool = False, as_is: bool = False, first: tuple[str, ...] = ()
) -> dict[str, dict[str, Run]]:
    """Both runs (``plain``, ``cli``) of every cell of ``cells``, those starting with a prefix of ``first`` first (the
    costly ones, so the pool ends together). ``as_is``: the CLI with its default options (else a cell's first-line
    ``# dynamo-explorer: ...`` options, ``--backend eager`` when it names none: corpus_run.cli_options)."""
    selected = sorted(cells, key=lambda c: (not c.startswith(first) if first else False, c))
    workers = int(os.environ.get("CORPUS_WORKERS", min(os.cpu_count() or 2, 4)))
    fork = os.environ.get("CORPUS_FORK", "1") != "0" and hasattr(os, "fork")
    results: dict[str, dict[str, Run]] = {c: {} for c in selected}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="corpus-") as tmp:
        runner = _Runner(folder, Path(tmp), fork, story, as_is)
        try:
            with ThreadPoolExecutor(workers) as pool:
                jobs = {(c, m): pool.submit(runner.run, m, c) for c in selected for m in ("cli", "plain")}
                for (cell, mode), job in jobs.items():
                    results[cell][mode] = job.result()
        finally:
            runner.close()
    slowest = sorted(((r.seconds, f"{c} {m}") for c, runs in results.items() for m, r in runs.items()), reverse=True)[:5]
    print(
        f"\n{folder.name}: {len(selected)} cells, {2 * len(selected)} processes, {workers} workers: "
        f"{time.perf_counter() - started:.0f} s; slowest: {', '.join(f'{what} {s:.0f} s' for s, what in slowest)}"
    )
    return results


def _stdout_diff(plain: str, ours: str) -> str:
    diff = difflib.unified_diff(plain.splitlines(True), ours.splitlines(True), "python CELL.py", "dynamo-explorer run", n=1)
    text = "".join(diff)
    return text if len(text) < 3000 else text[:3000] + "\n[... diff cut]"


def _globals_diff(plain: dict[str, Any], ours: dict[str, Any]) -> list[str]:
    out = []
    for name in sorted(set(plain) | set(ours)):
        if name not in ours:
            out.append(f"{name}: missing in the explorer's run (plain: {json.dumps(plain[name])[:300]})")
        elif name not in plain:
            out.append(f"{name}: only in the explorer's run: {json.dumps(ours[name])[:300]}")
        elif plain[name] != ours[name]:
            out.append(f"{name}: plain {json.dumps(plain[name])[:300]} != explorer {json.dumps(ours[name])[:300]}")
    return out


def differences(plain: Run, ours: Run) -> list[str]:
    """Everything that tells the explorer's run from the plain one, one line (or block) each."""
    found = [p for p in (plain.problem, ours.problem) if p]
    if plain.problem:  # the cell itself is broken: nothing else to compare
        return [*found, f"plain stderr:\n{plain.stderr[-2000:]}"]
    if plain.status != ours.status:
        found.append(f"exit status: plain {plain.status}, explorer {ours.status}")
    stdout = _CLI_LINES.sub("", ours.stdout)
    if plain.stdout and not plain.stdout.endswith("\n") and stdout == plain.stdout + "\n":
        stdout = plain.stdout  # the CLI starts its summary on a line of its own: that newline is the CLI's
    if stdout != plain.stdout:
        found.append(f"stdout differs:\n{_stdout_diff(plain.stdout, stdout)}")
    if plain.globals is not None and ours.globals is not None:
        found += [f"globals: {d}" for d in _globals_diff(plain.globals, ours.globals)]
    frames = sorted({m.group("path").replace(str(REPO) + "/", "") for m in OUR_FRAME.finditer(ours.stderr + ours.stdout)})
    if frames:
        found.append(f"traceback through the explorer's code ({', '.join(frames)}):\n{ours.stderr[-3000:]}")
    report = ours.report
    if report is None:
        found.append("no report written")
    else:
        found += [f"invalid report: {e}" for e in report_errors(report)]
        found += [
            f"diagnostic {d['kind']}: {d['message'][:500]}"
            for d in report.get("diagnostics", [])
            if d["kind"] in ("collector_failed", "schema_mismatch")
        ]
        stdlib = sorted(
            {
                f"{f['code']['name']} ({f['code']['filename']}) [{f['compile_id']}]"
                for f in report.get("frames", [])
                if os.path.realpath(f["code"]["filename"]).startswith(_STDLIB)
            }
        )
        found += [f"compiled a standard-library frame: {s}" for s in stdlib]
        # what the README (and docs/what-gets-compiled.md) says runs plain (a coroutine or generator function, a function a standard-library
        # decorator wraps) has no frame of its own in the report
        plain_names = {c["name"].rsplit(".", 1)[-1] for c in report.get("callees", []) if "runs as plain Python" in c["why"]}
        found += [
            f"compiled {f['code']['name']} [{f['compile_id']}], which the report says ran plain"
            for f in report.get("frames", [])
            if f["code"]["name"] in plain_names and not f["code"]["is_resume"]
        ]
        try:  # the static summary of every report: display.bundle would hide a failure behind its fallback line
            static_html.render(report)
        except Exception as exc:  # noqa: BLE001 - named in the verdict with the rest
            found.append(f"the static view failed: {type(exc).__name__}: {exc}")
    if found and ours.stderr and not frames:
        found.append(f"explorer stderr (tail):\n{ours.stderr[-1500:]}")
    return found
