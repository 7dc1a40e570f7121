"""Kernel provenance ([Note: kernel origins] in ``collectors/output_code/output_code.py``): inductor's switches that make it record
which FX nodes each kernel computes, for that collector.

Moved out of ``_compat.py`` (issue 26): ``_compat`` keeps the torch differences every part shares; what serves one
collector lives beside it, with the probes of torch it needs.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator


@contextlib.contextmanager
def kernel_provenance() -> Iterator[None]:
    """Have inductor record which FX nodes each kernel it generates computes, while the run lasts.

    ``torch._inductor.config.trace.provenance_tracking_level`` 2 ("basic", 2.11 and 2.13; what
    ``INDUCTOR_PROVENANCE=2`` sets): every kernel call in the wrapper gets a
    ``# [Provenance debug handles] <kernel>:<n>`` comment and each compile emits the structured artifact
    ``inductor_provenance_tracking_node_mappings`` (kernel -> post-grad nodes -> Dynamo graph nodes), also
    replayed on an FX-graph cache hit. Level 1 would also copy node metadata through every pattern
    replacement; level 2 adds no work to tracing or lowering. A level the user set is kept.
    """
    from torch._inductor import config as inductor_config

    if inductor_config.trace.provenance_tracking_level != 0:
        yield
        return
    with inductor_config.patch({"trace.provenance_tracking_level": 2}):
        yield


@contextlib.contextmanager
def backward_provenance() -> Iterator[None]:
    """Let the provenance of a lazily compiled backward be written, from a clean slate (2.11 and 2.13).

    ``debug.dump_inductor_provenance_info`` writes the kernel -> node mapping only while
    ``debug._pre_grad_graph_id`` is set, and ``compile_fx`` sets it for the forward compile alone, inside
    ``debug.reset_provenance_globals()``: a backward AOTAutograd compiles at its first call would get
    ``{"version": 2.0}``, and its kernels would pile up in the module's globals from one backward to the
    next. The same context around the backward compile gives it what the forward gets: fresh globals and
    ``_pre_grad_graph_id`` -1 ("no pre-grad graph": the kernel -> post-grad mapping is written, the
    post-grad -> pre-grad one stays empty), all put back afterwards.
    """
    from torch._inductor import debug

    with debug.reset_provenance_globals():
        yield
