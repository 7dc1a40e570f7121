"""A real JupyterLab server and headless chromium for the browser tests and the render benchmark.

Contents:
- ``REPO``, ``ARTIFACTS``, ``MIME``, ``REPORT_JS`` (the notebook's first report), ``PREFERRED_JS`` (the MIME type
  JupyterLab draws it with), ``LABEXTENSION``, ``CHROMIUM``, ``LAUNCH_ARGS``: paths (screenshots go to the
  git-ignored artifacts/browser/) and the chromium flags that work here.
- ``LabServer``: one ``python -m jupyterlab`` process (``app="notebook"``: ``python -m notebook``, Notebook 7,
  whose pages are ``/tree`` and ``/notebooks/<path>``; ``disabled``: labextensions turned off first, as
  ``jupyter labextension disable`` does) on 127.0.0.1 with every Jupyter directory in a
  temp dir, a private kernelspec (this interpreter, the repository on PYTHONPATH) and the renderer
  exposed through a private JUPYTER_PATH; ``start()`` polls ``/api/status``; ``reset()`` brings it back to
  that state between tests (sessions, kernels, workspaces, settings); ``stop()`` ends the
  server and its children (kernels) by PID and returns the PIDs still alive (none, normally);
  ``notebook_url(name)`` is where a notebook opens in that app.
- ``launch_chromium(playwright)``: /usr/bin/chromium, headless; ``browser_missing()`` says why not.
- ``write_notebook(path, cells)``: a notebook for the private kernel.
- ``open_notebook(page, server, name)``: open it in JupyterLab (or Notebook 7) and wait for an idle kernel.
- ``run_all(page)``: run every cell through JupyterLab's own command.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts" / "browser"
MIME = "application/vnd.dynamo-explorer.report.v1+json"
CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
KERNEL = "dynamo-explorer-browser"
#: in CI (env CI=true) a missing browser, renderer or frontend FAILS the browser tests; elsewhere it skips them
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
#: our labextension's name (package.json "name", kernel_ext.LABEXTENSION_NAME)
LABEXTENSION = "dynamo-explorer"
#: JavaScript for ``page.evaluate``: the report of the first ``%%dynamo`` output of the notebook shown now (or null)
REPORT_JS = f"""() => {{
    for (const cell of window.jupyterapp.shell.currentWidget.content.widgets) {{
        const outputs = cell.model.outputs;
        for (let i = 0; outputs && i < outputs.length; i++) {{
            const data = outputs.get(i).data;
            if (data['{MIME}']) return data['{MIME}'];
        }}
    }}
    return null;
}}"""
#: JavaScript for ``page.evaluate``: the MIME type JupyterLab draws the first ``%%dynamo`` output with (or null)
PREFERRED_JS = f"""() => {{
    const panel = window.jupyterapp.shell.currentWidget;
    for (const cell of panel.content.widgets) {{
        const outputs = cell.model.outputs;
        for (let i = 0; outputs && i < outputs.length; i++) {{
            const data = outputs.get(i).data;
            if (data['{MIME}']) return panel.content.rendermime.preferredMimeType(data, 'any');
        }}
    }}
    return null;
}}"""
BUILT = REPO / "kernel_ext" / "labextension"


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _children(pid: int) -> set[int]:
    """Every descendant PID of ``pid`` (Linux /proc)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        parents.setdefault(ppid, []).append(int(entry.name))
    out: set[int] = set()
    todo = [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            if child not in out:
                out.add(child)
                todo.append(child)
    return out


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def labextension_problem() -> str | None:
    """None when the built renderer exists, else a one-line fix."""
    if (BUILT / "package.json").is_file():
        return None
    return "the JupyterLab renderer is not built: run `npm install && npm run build` (or `pip install -e .`)"


class LabServer:
    """One JupyterLab (or Notebook 7: ``app="notebook"``) server in a temp dir; see the module docstring."""

    def __init__(self, tmp: Path, app: str = "lab", disabled: tuple[str, ...] = ()):
        if app not in ("lab", "notebook"):
            raise ValueError(f"app is 'lab' or 'notebook', not {app!r}")
        self.app = app
        self.disabled = disabled  # labextensions turned off as a user does (``jupyter labextension disable``)
        self.tmp = Path(tmp)
        self.root = self.tmp / "notebooks"
        self.port = free_port()
        self.token = secrets.token_hex(16)
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None
        self._settings_at_start: set[Path] = set()
        self.log_path = self.tmp / f"jupyter{app}.log"

    def notebook_url(self, name: str) -> str:
        """Where notebook ``name`` (relative to ``root``) opens: ``/lab/tree/...`` or Notebook 7's ``/notebooks/...``."""
        path = f"/lab/tree/{name}" if self.app == "lab" else f"/notebooks/{name}"
        return f"{self.url}{path}?token={self.token}"

    def _env(self) -> dict[str, str]:
        jpath = self.tmp / "jupyter_path"
        spec_dir = jpath / "kernels" / KERNEL
        spec_dir.mkdir(parents=True, exist_ok=True)
        pythonpath = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)
        spec = {
            "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
            "display_name": "Dynamo Explorer (browser tests)",
            "language": "python",
            "env": {"PYTHONPATH": pythonpath, "IPYTHONDIR": str(self.tmp / "ipython")},
        }
        (spec_dir / "kernel.json").write_text(json.dumps(spec))
        # No "get notified about Jupyter news?" toast over the screenshots.
        settings = self.tmp / "settings" / "@jupyterlab" / "apputils-extension"
        settings.mkdir(parents=True, exist_ok=True)
        (settings / "notification.jupyterlab-settings").write_text(json.dumps({"fetchNews": "false"}))
        labext = jpath / "labextensions"
        labext.mkdir(exist_ok=True)
        link = labext / LABEXTENSION
        if not link.exists():
            link.symlink_to(BUILT, target_is_directory=True)
        env = dict(os.environ)
        env.update(
            JUPYTER_PATH=os.pathsep.join(p for p in (str(jpath), os.environ.get("JUPYTER_PATH", "")) if p),
            JUPYTER_CONFIG_DIR=str(self.tmp / "config"),
            JUPYTER_RUNTIME_DIR=str(self.tmp / "runtime"),
            JUPYTERLAB_SETTINGS_DIR=str(self.tmp / "settings"),
            JUPYTERLAB_WORKSPACES_DIR=str(self.tmp / "workspaces"),
            JUPYTER_DATA_DIR=str(self.tmp / "data"),
            IPYTHONDIR=str(self.tmp / "ipython"),
            PYTHONPATH=pythonpath,
        )
        return env

    def start(self, timeout: float = 90.0) -> LabServer:
        self.root.mkdir(parents=True, exist_ok=True)
        cmd = [
            sys.executable,
            "-m",
            "jupyterlab" if self.app == "lab" else "notebook",
            "--no-browser",
            "--allow-root",
            "--ServerApp.ip=127.0.0.1",
            "--ServerApp.port_retries=0",
            f"--port={self.port}",
            f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={self.root}",
            f"--MappingKernelManager.default_kernel_name={KERNEL}",
        ]
        if self.app == "lab":
            cmd += [
                "--LabApp.expose_app_in_browser=True",
                "--LabApp.news_url=None",
                "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            ]
        else:  # Notebook 7 (a LabServerApp of its own: the same extensions, another shell)
            cmd += ["--JupyterNotebookApp.expose_app_in_browser=True"]
        log = open(self.log_path, "wb")  # noqa: SIM115 - the server writes to it until stop() closes it
        env = self._env()
        for name in self.disabled:  # --level=user: the server's own temp JUPYTER_CONFIG_DIR, nothing else changes
            subprocess.run(
                [sys.executable, "-m", "jupyter", "labextension", "disable", "--level=user", name],
                env=env,
                check=True,
                capture_output=True,
                timeout=120,
            )
        self._settings_at_start = {p for p in (self.tmp / "settings").rglob("*") if p.is_file()}
        self.proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyter {self.app} exited with {self.proc.returncode}; log:\n{self.log()}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/status?token={self.token}", timeout=2) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.3)
        self.stop()
        raise RuntimeError(f"jupyter {self.app} did not answer within {timeout} s; log:\n{self.log()}")

    def _api(self, method: str, path: str) -> object:
        req = urllib.request.Request(f"{self.url}{path}?token={self.token}", method=method)
        with urllib.request.urlopen(req, timeout=60) as r:
            body = r.read()
        return json.loads(body) if body else None

    def reset(self) -> None:
        """Back to the state ``start()`` left, for the next test on this server: every session and kernel shut
        down, no saved workspace (JupyterLab would reopen the last notebooks), the user settings as written at
        start (a test may switch to the dark theme). The notebooks written under ``root`` stay."""
        for session in self._api("GET", "/api/sessions") or []:
            self._api("DELETE", f"/api/sessions/{session['id']}")
        for kernel in self._api("GET", "/api/kernels") or []:
            self._api("DELETE", f"/api/kernels/{kernel['id']}")
        for kept, folder in ((set(), self.tmp / "workspaces"), (self._settings_at_start, self.tmp / "settings")):
            for path in sorted(folder.rglob("*"), reverse=True) if folder.is_dir() else []:
                if path.is_file() and path not in kept:
                    path.unlink()

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def stop(self) -> list[int]:
        """Stop the server and its kernels by PID; return the PIDs still alive afterwards."""
        if self.proc is None:
            return []
        pid = self.proc.pid
        family = _children(pid)
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        _signal_alive(family, signal.SIGTERM)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_alive(c) for c in family):
            time.sleep(0.2)
        _signal_alive(family, signal.SIGKILL)
        time.sleep(0.2)
        self.proc = None
        return [c for c in family if _alive(c)]


def _signal_alive(pids: list[int], sig: int) -> None:
    """Send ``sig`` to each pid still alive (one may exit in between)."""
    for pid in pids:
        if _alive(pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)


def browser_missing() -> str | None:
    """None when chromium and playwright are usable, else why not."""
    if not CHROMIUM.exists():
        return f"{CHROMIUM} is missing: apt-get install chromium"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "python playwright is missing: pip install -e '.[test]'"
    return None


def launch_chromium(playwright):
    """Headless Debian chromium with the flags that work on this machine."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=LAUNCH_ARGS)


def write_notebook(path: Path, cells: list[str]) -> Path:
    """A notebook of code cells for the private kernel."""
    nb = {
        "cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": src} for src in cells],
        "metadata": {
            "kernelspec": {"name": KERNEL, "display_name": "Dynamo Explorer (browser tests)", "language": "python"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(nb))
    return path


def open_notebook(page, server: LabServer, name: str, timeout_ms: int = 120_000) -> None:
    """Open a notebook in JupyterLab (or Notebook 7) and wait until its kernel is idle."""
    page.goto(server.notebook_url(name))
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell", timeout=timeout_ms)
    page.wait_for_function(
        """() => {
            const w = window.jupyterapp.shell.currentWidget;
            const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
            return !!k && k.status === 'idle';
        }""",
        timeout=timeout_ms,
    )
    page.evaluate(
        """() => {
            const shell = window.jupyterapp.shell;
            if (shell.collapseLeft && !shell.leftCollapsed) { shell.collapseLeft(); }
        }"""
    )


def run_all(page) -> None:
    """Run every cell with JupyterLab's own command."""
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
