"""One rank of ``dynamo-explorer run --nproc`` (nproc.py): ``python -m dynamo_explorer.rank_run OUTDIR SCRIPT.py
[run's options]``, started by torchrun, runs ``dynamo-explorer run`` on this process and writes its report to
``OUTDIR/rank_<RANK>.json``. Its exit status is ``run``'s."""

from __future__ import annotations

import os
import sys

from .cli import main

if __name__ == "__main__":
    outdir, *rest = sys.argv[1:]
    rank = int(os.environ.get("RANK", "0"))
    sys.exit(main(["run", *rest, "--json", os.path.join(outdir, f"rank_{rank}.json")], who=f"rank {rank}: ", quiet_outputs=True))
