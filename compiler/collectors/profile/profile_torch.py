"""torch.profiler for ``--profile`` ([Note: profile] in ``collectors/profile/profile.py``): starting it, stopping it and reading
kineto's raw events, and the marks on its timeline.

Moved out of ``_compat.py`` (issue 26): ``_compat`` keeps the torch differences every part shares; what serves one
collector lives beside it, with the probes of torch it needs.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import torch
import torch._dynamo


@dataclass(frozen=True, slots=True)
class ProfilerEvent:
    """One kineto event, in the fields the profile collector reads (ns since the epoch)."""

    name: str
    start: int
    end: int
    thread: int
    device_type: str  # 'cpu', or the device's name in lower case ('cuda')
    correlation: int
    # a kernel's or a runtime call's link: the correlation of the CPU op (RecordFunction) that was innermost
    # on the launching thread when it was launched (0: none); 0 for the CPU ops themselves
    linked_correlation: int
    # kineto's activity type: 'cpu_op' and 'user_annotation' (RecordFunctions), 'cuda_runtime' and
    # 'cuda_driver' (cudaLaunchKernel, cuLaunchKernel), 'kernel', 'gpu_memcpy', 'gpu_memset',
    # 'gpu_user_annotation', ...; '' where this torch does not say
    kind: str = ""


# Kineto's own log lines: "USDT:2026-11-23 17:41:31 21082:21082 SyncActivityProfilerHandler.cpp:52] profiler_start".
_KINETO_LINE = re.compile(r"^(?:USDT|STAGE|INFO|WARNING):\S+ \S+ \d+:\d+ \w+\.cpp:\d+\] ")


@contextlib.contextmanager
def _without_kineto_lines() -> Iterator[None]:
    """Keep kineto's start/stop lines out of the user's output; pass anything else written meanwhile on.

    torch 2.13's kineto writes a ``USDT: ... profiler_start`` / ``profiler_stop`` line to the process's
    stderr (file descriptor 2, under the kernel: the cell's output) on every start and stop. Its level comes
    from ``KINETO_LOG_LEVEL``, read only when torch is imported, so it cannot be set here: fd 2 goes to a
    temporary file while the profiler starts or stops, and the lines that are not kineto's go to stderr.
    """
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):  # no real fd 2 (an embedded interpreter): nothing to redirect
        yield
        return
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            tmp.seek(0)
            rest = [ln for ln in tmp.read().decode(errors="replace").splitlines(True) if not _KINETO_LINE.match(ln)]
            if rest:
                sys.stderr.write("".join(rest))


def start_profiler() -> tuple[Any, bool]:
    """Start ``torch.profiler`` on CPU activity (and CUDA where there is a GPU), on every thread; ``(profiler, cuda)``.

    Every thread: a backward that autograd runs on another thread than the cell's (its device thread on a
    GPU, or a ``threading.Thread(target=loss.backward)``), and the lazy backward compile it starts there, are
    recorded too. Without ``profile_all_threads`` (``_ExperimentalConfig``, torch 2.8 and later) the profiler
    records only the thread that started it and the threads that inherit its state (autograd's device
    threads).
    """
    from torch.profiler import ProfilerActivity, profile

    cuda = torch.cuda.is_available()
    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if cuda else [])
    options: dict[str, Any] = {}
    try:
        from torch._C._profiler import _ExperimentalConfig

        options["experimental_config"] = _ExperimentalConfig(profile_all_threads=True)
    except (ImportError, TypeError):  # an older torch: the cell's thread and those that inherit it
        pass
    prof = profile(activities=activities, record_shapes=False, with_stack=False, profile_memory=False, **options)
    with _without_kineto_lines():
        prof.start()
    return prof, cuda


def stop_profiler(prof: Any) -> list[ProfilerEvent]:
    """Stop ``prof`` and read kineto's raw events (building ``FunctionEvent`` trees costs far more)."""
    with _without_kineto_lines():
        prof.stop()
    results = getattr(prof.profiler, "kineto_results", None)
    if results is None:
        return []
    out = []
    events = results.events()
    kind = bool(events) and hasattr(events[0], "activity_type")  # 2.13; 2.11 only tells user annotations
    annotated = bool(events) and hasattr(events[0], "is_user_annotation")
    for e in events:
        start = e.start_ns()
        device = str(e.device_type()).rsplit(".", 1)[-1].lower()
        if kind:
            activity = e.activity_type()
        elif annotated and e.is_user_annotation():  # a record_function range, and its GPU-side twin
            activity = "user_annotation" if device == "cpu" else "gpu_user_annotation"
        else:
            activity = ""
        out.append(
            ProfilerEvent(
                name=e.name(),
                start=start,
                end=start + e.duration_ns(),
                thread=e.start_thread_id(),
                device_type=device,
                correlation=e.correlation_id(),
                linked_correlation=e.linked_correlation_id(),
                kind=activity,
            )
        )
    return out


def profiler_mark(name: str) -> contextlib.AbstractContextManager[Any]:
    """A profiler span named ``name`` (a no-op costing ~1 µs when no profiler runs)."""
    return torch._C._profiler._RecordFunctionFast(name)


def marked_call(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``fn`` with each call inside a profiler span ``name``."""
    mark = torch._C._profiler._RecordFunctionFast

    def call(*args: Any, **kwargs: Any) -> Any:
        with mark(name):
            return fn(*args, **kwargs)

    call.__name__ = getattr(fn, "__name__", "compiled_fn")
    call.__wrapped__ = fn  # type: ignore[attr-defined]
    return call
