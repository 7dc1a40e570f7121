"""Issue 23, "never turn a working cell into a crash": what plain Python runs, the explorer runs.

Every program in tests/corpus/ (a file whose name starts with ``_`` is a helper, not a cell) runs twice,
each in a fresh process (tests/engine/corpus_run.py): as ``python CELL.py`` and through the CLI's code path
(``dynamo_explorer.cli.main(["run", CELL, "--backend", "eager", "--json", OUT])``, or the options of the cell's
first-line comment ``# dynamo-explorer: ...``). The explorer's run must give the same exit status, the
same stdout (less the CLI's own ``dynamo:`` and ``dynamo-explorer:`` lines) and the same final globals,
write a valid report without a ``collector_failed`` diagnostic whose static summary renders, print no traceback through the explorer's
own code, and compile no frame of the standard library.

All the cells' processes run once per session (``corpus_harness.outcomes``: forked from servers, a few at a time)
in the module-scoped ``outcomes`` fixture; the parametrized test reads one cell's outcome and lists every
difference at once (``corpus_harness.differences``). Selecting cells (``-k``) runs only those.
"""

from __future__ import annotations

import sys

import pytest

from tests.releases import TORCH, known

from .corpus_harness import REPO, Run, cells_of, differences, selected
from .corpus_harness import outcomes as run_all

CORPUS = REPO / "tests" / "corpus"
CELLS = cells_of(CORPUS)


@pytest.fixture(scope="module")
def outcomes(request: pytest.FixtureRequest) -> dict[str, dict[str, Run]]:
    """Both runs of every selected cell, costly cells first so the pool ends together."""
    return run_all(CORPUS, selected(request, __name__), first=("compile_inductor",))


def test_the_corpus_is_big_enough():
    assert len(CELLS) >= 75, CELLS


#: Cells where plain ``torch.compile`` itself does not run what plain Python runs, on some Python or torch, measured:
#: the explorer does what torch.compile does there (strict: the day it passes, this entry must go).
TORCH_COMPILES_OWN_LIMITS = {
    "property_class": (
        TORCH < (2, 12),
        "torch 2.11: a compiled frame that assigns globals already bound (a cell's second run; the explorer's cell "
        "scope binds them first) reads stale property values: plain torch.compile of a function holding the cell "
        "gives 5.0 5.0 5.0 [] for 5.0 4.0 0.0 [(2, 2)] once the globals exist; 2.12 runs it",
    ),
    "train_loop_sgd": (
        TORCH < (2, 12),
        "torch 2.11 compiles a frame of typing.cast (called by torch.optim) after a graph break; the values are plain Python's",
    ),
    "deep_recursion": (
        sys.version_info >= (3, 12),
        "Python 3.12: a frame Dynamo's eval-frame callback runs also counts against CPython's C recursion limit, so "
        "plain torch.compile (suppress_errors=True) raises RecursionError at depth 900 too (ok at 740; torch 2.15.0, "
        "Python 3.12.1); 3.11 runs it",
    ),
}


@pytest.mark.parametrize("cell", [known(c, TORCH_COMPILES_OWN_LIMITS) for c in CELLS])
def test_the_explorer_runs_what_plain_python_runs(cell: str, outcomes: dict[str, dict[str, Run]]):
    runs = outcomes[cell]
    found = differences(runs["plain"], runs["cli"])
    assert not found, f"{cell}.py under dynamo-explorer differs from python {cell}.py:\n" + "\n".join(found)
