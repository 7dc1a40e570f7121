"""Re-run the teaching notebooks and save their outputs in place: ``python notebooks/refresh.py [NAME ...]``.

The series in ``notebooks/series/`` is committed with its outputs, so that the static view reads well on
GitHub. This runs each notebook (all of them, or those whose file name contains a NAME) top to bottom in a
fresh kernel of this interpreter, with this checkout first on ``PYTHONPATH``, and writes it back. A cell that
raises stops the refresh of that notebook with the cell's error and leaves the file as it was.
``tests/kernel/test_notebook_series.py`` runs the same notebooks and checks what each one claims.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

REPO = Path(__file__).resolve().parents[1]
SERIES = REPO / "notebooks" / "series"
KERNEL = "dynamo-explorer-refresh"


def kernelspec(root: Path) -> str:
    """Write a kernelspec for this interpreter under ``root`` (put first on JUPYTER_PATH); its name."""
    spec = root / "kernels" / KERNEL
    spec.mkdir(parents=True)
    pythonpath = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)
    (spec / "kernel.json").write_text(
        json.dumps(
            {
                "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
                "display_name": "Dynamo Explorer notebooks",
                "language": "python",
                "env": {"PYTHONPATH": pythonpath},
            }
        )
    )
    os.environ["JUPYTER_PATH"] = os.pathsep.join(p for p in (str(root), os.environ.get("JUPYTER_PATH", "")) if p)
    return KERNEL


def refresh(path: Path, kernel_name: str) -> float:
    """Execute ``path`` in a new kernel and save it with its outputs; the seconds it took."""
    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    # no widget state: each %%dynamo output's widget would store the explorer's module (1.2 MB) in the notebook, and
    # nbconvert, GitHub and nbviewer then show a widget they cannot draw offline instead of the static view
    NotebookClient(
        nb, kernel_name=kernel_name, timeout=900, resources={"metadata": {"path": str(REPO)}}, store_widget_state=False
    ).execute()
    for cell in nb.cells:  # the execution times and the kernel's name are noise in a diff
        cell.metadata.pop("execution", None)
    nb.metadata["kernelspec"] = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
    nbformat.write(nb, path)
    return time.perf_counter() - start


def main(names: list[str]) -> int:
    paths = sorted(SERIES.glob("[0-9][0-9]_*.ipynb"))
    if names:
        paths = [p for p in paths if any(n in p.name for n in names)]
        if not paths:
            print(f"refresh: no notebook in {SERIES} matches {names}", file=sys.stderr)
            return 2
    with tempfile.TemporaryDirectory() as tmp:
        kernel = kernelspec(Path(tmp))
        for path in paths:
            print(f"{path.relative_to(REPO)}: {refresh(path, kernel):.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
