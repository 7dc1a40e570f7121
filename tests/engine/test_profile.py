"""--profile and --compare-eager on real torch.compile runs: counts known by construction, hits per cache
entry, eager time attributed to the break, the backward split, and nothing left running afterwards."""

from __future__ import annotations

import textwrap

import pytest
import torch

from .helpers import run

# N calls of f: graph [0/0] has k0 = 3 ops (sin, cos, add), the disabled helper runs m = 2 ops (exp, neg)
# eagerly at the break, the resume graph [1/0] has k1 = 1 op (tan); the cell itself runs 1 op (randn).
KNOWN = textwrap.dedent(
    """
    import torch

    @torch._dynamo.disable
    def eager_part(y):
        return y.exp().neg()

    def f(x):
        y = x.sin().cos() + 1
        z = eager_part(y)
        return z.tan()

    x = torch.randn(8)
    for _ in range(N):
        f(x)
    """
)


@pytest.mark.parametrize("n", [1, 4])
def test_coverage_counts_known_by_construction(n: int) -> None:
    report = run(KNOWN.replace("N", str(n)), profile=True).report
    prof = report["profile"]
    k0, k1, m, outside = 3, 1, 2, 1
    cov = prof["coverage"]
    assert cov["unique_graphs"] == 2
    assert cov["graph_calls"] == 2 * n
    assert cov["captured_ops"] == n * (k0 + k1)
    assert cov["total_ops"] == n * (k0 + k1 + m) + outside
    assert cov["pct_ops"] == pytest.approx(n * (k0 + k1) / (n * (k0 + k1 + m) + outside), abs=1e-4)
    assert 0 < cov["pct_time"] <= 1
    by_frame = {c["compile_id"]: c for c in cov["frames"]}
    assert by_frame["0/0"]["captured_ops"] == n * k0 and by_frame["0/0"]["total_ops"] == n * (k0 + m)
    assert by_frame["1/0"]["captured_ops"] == n * k1 and by_frame["1/0"]["pct_ops"] == 1.0

    graphs = {g["compile_id"]: g for g in prof["graphs"]}
    assert graphs["0/0"]["ops"] == k0 and graphs["1/0"]["ops"] == k1
    assert all(g["calls"] == n and g["device_ms"] is None and g["kernels"] == [] for g in prof["graphs"])
    assert [g["total_ms"] for g in prof["graphs"]] == sorted((g["total_ms"] for g in prof["graphs"]), reverse=True)
    ids = {g["graph_id"] for g in prof["graphs"]}
    assert ids == {g["id"] for g in report["graphs"] if g["kind"] == "dynamo"}

    entries = {e["compile_id"]: e for e in prof["entries"]}
    assert entries["0/0"]["hits"] == n and entries["1/0"]["hits"] == n
    assert entries["0/0"]["eager_ops"] == n * m and entries["1/0"]["eager_ops"] == 0
    # [1/0] runs inside [0/0] (the resume function is called from [0/0]'s code)
    assert entries["0/0"]["total_ms"] > entries["0/0"]["self_ms"]
    brk = next(g for g in prof["eager"] if g["cause"] == "graph_break")
    assert (brk["compile_id"], brk["break_index"], brk["calls"], brk["ops"]) == ("0/0", 0, n, n * m)
    assert next(g for g in prof["eager"] if g["cause"] == "outside")["ops"] == outside

    assert prof["compile_ms"] > 0 and prof["compiled_ms"] > 0
    assert prof["wall_ms"] == pytest.approx(prof["compiled_ms"] + prof["eager_ms"] + prof["compile_ms"], abs=0.01)
    assert prof["cache_lookups"] >= 2 * (n - 1)  # one per call of f and of the resume function after the first


def test_hits_per_cache_entry_after_a_recompile() -> None:
    src = textwrap.dedent(
        """
        import torch
        def f(x):
            return x * 2 + 1
        for _ in range(3):
            f(torch.ones(4))
        for _ in range(5):
            f(torch.ones(4, dtype=torch.float64))
        """
    )
    prof = run(src, profile=True).report["profile"]
    hits = {e["compile_id"]: e["hits"] for e in prof["entries"]}
    assert hits == {"0/0": 3, "0/1": 5}
    assert [g["compile_id"] for g in prof["graphs"] if g["calls"] == 5] == ["0/1"]


def test_training_step_splits_compiled_and_eager_backward() -> None:
    src = textwrap.dedent(
        """
        import torch
        model = torch.nn.Linear(4, 2)
        def step(x):
            return model(x).relu().sum()
        for _ in range(3):
            loss = step(torch.randn(8, 4))
            (loss * 2).backward()
        """
    )
    prof = run(src, backend="aot_eager", profile=True).report["profile"]
    assert prof["backward"]["compiled_calls"] == 3
    assert prof["backward"]["compiled_ms"] > 0
    assert prof["backward"]["eager_nodes"] >= 3  # MulBackward0 of `loss * 2`, at least
    assert any(g["cause"] == "backward" for g in prof["eager"])
    # the first compiled backward call compiles the backward (AOTAutograd's lazy compile): compile time in the split
    bwd = prof["backward"]
    assert 0 < bwd["compile_ms"] < bwd["compiled_ms"] and bwd["other_thread_calls"] == 0
    assert prof["compiled_ms"] >= bwd["compiled_ms"] - bwd["compile_ms"]
    assert prof["compile_ms"] >= bwd["compile_ms"]


def test_profile_is_off_by_default_and_leaves_no_profiler_running() -> None:
    report = run(KNOWN.replace("N", "2")).report
    assert report.get("profile") is None and report.get("eager_baseline") is None
    result = run("import torch\ndef f(x):\n    return x + 1\nf(torch.ones(2))\nraise ValueError('boom')\n", profile=True)
    assert isinstance(result.exception, ValueError)
    assert result.report["profile"]["entries"][0]["hits"] == 1
    assert not torch.autograd.profiler._is_profiler_enabled


def test_compare_eager_times_both_runs_per_callee() -> None:
    src = textwrap.dedent(
        """
        import torch
        runs.append(1)
        def f(x):
            for _ in range(5):
                x = torch.sin(x) * 1.01
            return x
        for _ in range(4):
            y = f(torch.randn(16))
        """
    )
    ns = {"__name__": "__main__", "runs": []}
    report = run(src, ns, compare_eager=True).report
    base = report["eager_baseline"]
    assert ns["runs"] == [1, 1]  # the cell really ran twice: the plain run re-executed it
    assert base["eager_ms"] > 0 and base["compiled_ms"] > 0 and base["compile_ms"] > 0
    assert base["speedup"] == pytest.approx(base["eager_ms"] / base["compiled_ms"], rel=1e-2, abs=1e-3)
    (fn,) = base["functions"]
    assert (fn["name"], fn["calls"], fn["compile_ids"]) == ("f", 4, ["0/0"])
    assert base["eager_ms"] == fn["eager_ms"] and base["compiled_ms"] == fn["compiled_ms"]  # scope calls: its callees
    assert fn["eager_ms"] > 0 and fn["compiled_ms"] > 0
    assert fn["compiled_ms"] < base["compiled_ms"] + base["compile_ms"]  # compile time is taken out


def test_compare_eager_in_cell_scope_and_a_failing_plain_run() -> None:
    base = run("import torch\nx = torch.ones(3)\ny = (x * 2).sum()\n", compare_eager=True, scope="cell").report["eager_baseline"]
    assert base["functions"] == [] and base["eager_ms"] > 0
    src = "import torch\nstate['n'] += 1\nif state['n'] == 2:\n    raise RuntimeError('second run')\ndef g(x):\n    return x + 1\ng(torch.ones(2))\n"
    result = run(src, {"__name__": "__main__", "state": {"n": 0}}, compare_eager=True)
    assert result.exception is None and result.report["eager_baseline"] is None
    (diag,) = [d for d in result.report["diagnostics"] if d["kind"] == "eager_baseline_failed"]
    assert "RuntimeError: second run" in diag["message"]


def test_backward_at_a_graph_break_inside_the_compiled_step() -> None:
    # the lazy backward compile starts inside the compiled region (Dynamo's frame evaluation live):
    # the explorer's compile callbacks must not be traced by Dynamo (they deadlocked on its lock)
    src = textwrap.dedent(
        """
        import torch
        model = torch.nn.Linear(4, 2)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        def step(x):
            loss = model(x).relu().sum()
            loss.backward()
            opt.step()
            opt.zero_grad()
            return loss
        for _ in range(3):
            step(torch.randn(8, 4))
        """
    )
    prof = run(src, backend="aot_eager", profile=True).report["profile"]
    assert prof["backward"]["compiled_calls"] == 3
    assert any(e["compile_id"] == "0/0" and e["hits"] == 3 for e in prof["entries"])


def test_profile_keeps_kinetos_start_and_stop_lines_out_of_the_cells_output(capfd) -> None:
    # torch 2.13's kineto writes "USDT: ... profiler_start" to fd 2 on every start and stop; under a kernel that is
    # the cell's output. A line the cell itself writes to fd 2 meanwhile still shows.
    report = run(
        "import os, torch\ndef f(x):\n    return x + 1\nf(torch.ones(2))\nos.write(2, b'mine\\n')\n", profile=True
    ).report
    assert report["profile"]["coverage"]["graph_calls"] == 1
    err = capfd.readouterr().err
    assert "profiler_start" not in err and "profiler_stop" not in err and "USDT" not in err
    assert "mine" in err


def test_a_backward_run_on_another_thread_is_profiled() -> None:
    # as autograd's device thread on a GPU: the backward, and its lazy compile, run on a thread of their own
    src = textwrap.dedent(
        """
        import threading, torch
        model = torch.nn.Linear(4, 2)
        def step(x):
            return model(x).relu().sum()
        for _ in range(3):
            loss = step(torch.randn(8, 4))
            t = threading.Thread(target=loss.backward)
            t.start()
            t.join()
        """
    )
    prof = run(src, backend="aot_eager", profile=True).report["profile"]
    bwd = prof["backward"]
    assert bwd["compiled_calls"] == 3 and bwd["other_thread_calls"] == 3
    assert 0 < bwd["compile_ms"] < bwd["compiled_ms"]  # the lazy backward compile, on that thread
    assert bwd["eager_nodes"] >= 3  # AccumulateGrad, there too
    # the cell's thread waited in t.join(): that time is the backward's, in the split, not the cell's eager time
    assert prof["compile_ms"] >= bwd["compile_ms"]
    assert prof["compiled_ms"] >= bwd["compiled_ms"] - bwd["compile_ms"]
    outside = next(g for g in prof["eager"] if g["cause"] == "outside")
    assert outside["ms"] <= prof["eager_ms"] + 0.01
    assert prof["wall_ms"] == pytest.approx(prof["compiled_ms"] + prof["eager_ms"] + prof["compile_ms"], abs=0.01)


def test_the_profile_does_not_depend_on_a_visible_gpu(monkeypatch) -> None:
    # a GPU machine records CUDA activity too; a CPU program launches no kernel there: the same profile (issue 28)
    from compiler.collectors.profile import profile_torch

    start = profile_torch.start_profiler
    monkeypatch.setattr(profile_torch, "start_profiler", lambda: (start()[0], True))
    prof = run(KNOWN.replace("N", "2"), profile=True).report["profile"]
    assert prof["device"] == "cpu" and prof["eager_device_ms"] is None and prof["compile_device_ms"] is None
    assert all(g["device_ms"] is None and g["first_call"]["device_ms"] is None for g in prof["graphs"])
    assert prof["coverage"]["total_ops"] == 2 * (3 + 1 + 2) + 1
