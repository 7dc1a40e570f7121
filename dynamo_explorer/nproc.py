"""``dynamo-explorer run --nproc N SCRIPT.py``: the script under torchrun, each rank captured as ``run`` captures one
process, the ranks' reports merged into one (``compiler.ranks``).

torch's own launcher (``python -m torch.distributed.run --standalone --nproc_per_node N``) starts N processes,
each running ``dynamo_explorer.rank_run``, which runs ``dynamo-explorer run SCRIPT.py`` with the options given and writes
its report to ``rank_<RANK>.json`` in a temporary directory. The script picks its backend as under plain torchrun
(``dist.init_process_group()``: gloo on CPU, nccl on GPUs). When every rank is done the reports are merged: the
lowest rank's report with every rank's compiles beside it and where the ranks first diverge, written to ``--json``
and/or ``--html``. The exit status is torchrun's (a rank that raised fails the job, as under plain torchrun); the
ranks that wrote a report are merged all the same.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence

from kernel_ext.outputs import Outputs

from .say import error, say

__all__ = ["forwarded_options", "run_nproc"]


def forwarded_options(argv: Sequence[str]) -> list[str]:
    """``run``'s arguments for each rank: everything but ``--nproc N`` and the outputs (each rank writes its own)."""
    out: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        name = arg.split("=", 1)[0]
        if name in ("--nproc", "--json", "--html"):
            skip = "=" not in arg
            continue
        out.append(arg)
    return out


def run_nproc(nproc: int, script: str, argv: Sequence[str], outputs: Outputs) -> int:
    from compiler.ranks import merge
    from compiler.summary import one_line

    rank_argv = forwarded_options(argv)
    with tempfile.TemporaryDirectory(prefix="dynamo-explorer-ranks-") as tmp:
        cmd = [
            sys.executable,
            "-m",
            "torch.distributed.run",
            "--standalone",
            "--nproc_per_node",
            str(nproc),
            "-m",
            "dynamo_explorer.rank_run",
            tmp,
            *rank_argv,
        ]
        env = dict(os.environ)
        repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        env["PYTHONPATH"] = os.pathsep.join(p for p in (repo, env.get("PYTHONPATH", "")) if p)
        status = subprocess.call(cmd, env=env)
        reports, sources = {}, {}
        for name in sorted(os.listdir(tmp)):
            if name.startswith("rank_") and name.endswith(".json"):
                rank = int(name[len("rank_") : -len(".json")])
                with open(os.path.join(tmp, name), encoding="utf-8") as fh:
                    reports[rank] = json.load(fh)
                sources[rank] = f"rank {rank} of dynamo-explorer run --nproc {nproc} {script}"
    if not reports:
        error(f"no rank of {script} wrote a report (torchrun exited {status})")
        return status or 1
    missing = [r for r in range(nproc) if r not in reports]
    if missing:
        print(f"dynamo-explorer: ranks {missing} wrote no report (they failed before the script ran)", file=sys.stderr)
    report = merge(reports, sources)
    divergence = report["ranks"]["divergence"]
    print(f"dynamo-explorer: {nproc} ranks: " + one_line(report).removeprefix("dynamo: ") + " (rank 0)")
    print(
        f"dynamo-explorer: ranks: {'first divergence: ' + divergence['summary'] if divergence else 'every rank compiled alike'}"
    )
    if not outputs:
        from .terminal import print_summary

        print_summary(report, title=f"{script}, rank 0 of {nproc}")
    if not outputs.write(report, say=say, ranks=reports, complain=error):  # a page a rank, each linking the others
        return status or 1
    return status
