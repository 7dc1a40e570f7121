"""IPython extension for Dynamo Explorer: ``%load_ext kernel_ext`` registers ``%%dynamo``, ``%dynamo_open`` and
``%dynamo_diff``.

Contents:
- ``load_ipython_extension(ipython)``: registers the ``%%dynamo`` cell magic, and in a Jupyter kernel the comm
  target our JupyterLab renderer asks for the parts a report holds in part (kernel_ext/parts.py). The magic
  module (and through it torch) is imported only here, so ``import kernel_ext`` stays cheap.
- ``explore``: the Python API, ``explore(fn, **torch_compile_kwargs)(*args)`` (kernel_ext/python_api.py), imported
  on first use.
- ``open_trace``: a torch.compile structured trace (``TORCH_TRACE``) as a report, ``open_trace(PATH, rank=None)``
  (kernel_ext/open_trace.py); ``%dynamo_open PATH`` shows it.
- ``explore.diff(a, b)`` and ``%dynamo_diff A B``: two runs compared (kernel_ext/comparison.py).
- ``_jupyter_labextension_paths()``: where the prebuilt JupyterLab renderer lives in the package.

Type ``%%dynamo?`` in a notebook for the options, with an example for each.
"""

from __future__ import annotations

__all__ = ["explore", "load_ipython_extension", "open_trace"]

#: npm name of the JupyterLab extension (package.json "name"); also its folder under
#: share/jupyter/labextensions/ (pyproject.toml shared-data). Keep the three in sync.
LABEXTENSION_NAME = "dynamo-explorer"


def load_ipython_extension(ipython) -> None:
    """Register the ``%%dynamo`` cell magic on ``ipython``.

    Parameters
    ----------
    ipython : IPython.core.interactiveshell.InteractiveShell
        The running shell (IPython passes it on ``%load_ext kernel_ext``).
    """
    from .magic import DynamoMagics
    from .parts import register_comm_target

    ipython.register_magics(DynamoMagics)
    register_comm_target(ipython)


def _jupyter_labextension_paths() -> list[dict[str, str]]:
    """Tell Jupyter where the prebuilt labextension is (used by development installs)."""
    return [{"src": "labextension", "dest": LABEXTENSION_NAME}]


def __getattr__(name: str):
    """``kernel_ext.explore`` on first use: importing the package stays cheap (no torch)."""
    if name == "explore":
        from .python_api import explore

        return explore
    if name == "open_trace":
        from .open_trace import open_trace

        return open_trace
    raise AttributeError(f"module 'kernel_ext' has no attribute {name!r}")
