"""The zoo through ``%%dynamo`` in a real kernel: the same story as plain ``torch.compile``.

Each tests/zoo program runs as one ``%%dynamo --backend eager`` cell in a fresh kernel (fresh, so
Dynamo's compile ids start at 0 as in the reference process). The report's lines are notebook
lines (line 1 is ``%%dynamo``) in IPython's cell file: they are mapped back to the script's before
comparing with tests/zoo/reference.py. ``counters['frames']`` is left out: it also counts frames
Dynamo only looked at and skipped, and the kernel runs its own Python (ipykernel shows a warning
through its streams) where the script process does not (tests/zoo/compare.py).

Four of the zoo's programs run here, chosen for what differs between them in a kernel: graph breaks on
``.item()`` with a recompile (attention_masks), a training step with its optimizer and backward (bert_train_step), a
top-level loop that recompiles three times (layer_loop), a transformers model whose recompile comes from a new
length (llama_forward). Every program, these four included, runs through the CLI's zoo against plain
``torch.compile`` (tests/zoo/test_zoo_cli.py); in a kernel the others take the very code path of these (one
``%%dynamo`` cell, the same engine), so they are left to the CLI to keep CI under 30 minutes (the two
``generate()`` programs took 102 and 172 s here, and convnet_train, qwen2_forward_backward and vit_forward 20 to 30 s
each, BENCHMARKS.md §11).
"""

from __future__ import annotations

import re

import pytest
from kernel_nb import cell, code, execute, last_json

from tests.zoo.harness import SCRIPTS, expected_callee, reference_differences, script_path

pytestmark = pytest.mark.kernel


def _as_script(report: dict, script: str) -> dict:
    """Notebook cell lines -> the script's own file and lines (resume functions are named after lines)."""
    cell_file = report["cell"]["filename"]
    renamed = {}
    for frame in report["frames"]:
        name = frame["code"]["name"]
        m = re.fullmatch(r"(torch_dynamo_resume_in_\w+_at_)(\d+)", name)
        if m and frame["code"]["filename"] == cell_file:
            renamed[name] = frame["code"]["name"] = f"{m.group(1)}{int(m.group(2)) - 1}"
        for gb in frame["graph_breaks"]:
            if gb["filename"] == cell_file:
                gb["filename"], gb["line"] = script, gb["line"] - 1
            for fs in gb["user_stack"]:
                if fs["filename"] == cell_file:
                    fs["filename"], fs["line"] = script, fs["line"] - 1
    cell_fns = {f["code"]["name"] for f in report["frames"] if f["code"]["filename"] == cell_file}

    def counted(key: str) -> str:  # resumes Dynamo counted, compiled or not
        m = re.fullmatch(r"torch_dynamo_resume_in_(\w+)_at_(\d+)", key)
        return (
            f"torch_dynamo_resume_in_{m.group(1)}_at_{int(m.group(2)) - 1}"
            if m and m.group(1) in cell_fns
            else renamed.get(key, key)
        )

    resumes = report["dynamo_counters"].get("resumes", {})
    report["dynamo_counters"]["resumes"] = {counted(k): v for k, v in resumes.items()}
    report["cell"]["filename"] = script
    return report


#: the zoo's programs this file runs (why not all of them: the module's docstring)
KERNEL_SCRIPTS = ["attention_masks", "bert_train_step", "layer_loop", "llama_forward"]


def test_the_kernel_zoo_programs_exist():
    assert set(KERNEL_SCRIPTS) <= set(SCRIPTS)


@pytest.mark.parametrize("name", KERNEL_SCRIPTS)
def test_kernel_report_equals_torch_compile(name, kernel_name):
    path = script_path(name)
    nb = execute(
        [
            code("%load_ext kernel_ext"),
            code("%%dynamo --backend eager --quiet --out rep\n" + path.read_text(), name="run"),
            code("import json\nprint(json.dumps(rep))", name="dump"),
        ],
        kernel_name,
    )
    report = last_json(cell(nb, "dump"))
    assert not any(o.output_type == "error" for o in cell(nb, "run").outputs)
    assert [d for d in report["diagnostics"] if d["kind"] in ("collector_failed", "schema_mismatch")] == []
    assert [c["name"] for c in report["callees"] if c["compiled"]] == [expected_callee(name)]
    assert reference_differences(_as_script(report, str(path)), name, host_frames=False) == []
