"""Whose code a file holds: the user's (a notebook cell, a script, a module of theirs) or a library's.

``is_user_file(filename)``: True for a notebook cell, exec'd code and a script (a ``<...>`` name such as
``<dynamo-cell-3>``, ``<ipython-input-2-...>``, ``<string>``; an IPython cell's ``/tmp/ipykernel_.../*.py``) and for any
file outside the standard library, the installed packages, Python's prefixes and the explorer's own code; False for
the ``<...>`` names of code Python or a library generated (``<frozen posixpath>``, ``<built-in>``, torch.fx's
``<eval_with_key>.3``: ``LIBRARY_PSEUDO_FILES``). The calls scope, the
frames, the sources and the fixes all ask it; it imports nothing of the explorer. ``is_explorer_file(filename)``:
a module of the explorer's own (``compiler/``, ``kernel_ext/``, ``dynamo_explorer/``, any folder below them), never traced by Dynamo and
never shown in a user stack; ``EXPLORER_FILES`` lists them.
"""

from __future__ import annotations

import os
import sys
import sysconfig

__all__ = ["EXPLORER_FILES", "LIBRARY_PSEUDO_FILES", "is_explorer_file", "is_user_file"]

_HERE = os.path.dirname(os.path.abspath(__file__))
#: the explorer's own packages: the engine, the notebook layer, the command line
_PACKAGES = (_HERE, *(os.path.join(os.path.dirname(_HERE), name) for name in ("kernel_ext", "dynamo_explorer")))
#: the same, each with its real path
_EXPLORER_DIRS = tuple({d for p in _PACKAGES for d in (os.path.abspath(p) + os.sep, os.path.realpath(p) + os.sep)})
_LIBRARY_DIRS = tuple(
    os.path.realpath(p) + os.sep
    for p in {
        sysconfig.get_paths()["stdlib"],
        sysconfig.get_paths()["purelib"],
        sysconfig.get_paths()["platlib"],
        sys.prefix,
        sys.base_prefix,
        *_PACKAGES,  # the explorer's own code is never the user's, even from a checkout (an editable install)
    }
)


def is_explorer_file(filename: str | None) -> bool:
    """Is ``filename`` a module of the explorer's own (``compiler/``, ``kernel_ext/``, ``dynamo_explorer/``, below)?"""
    return bool(filename) and str(filename).startswith(_EXPLORER_DIRS)


#: every Python file of the explorer's packages, subfolders included, by its path and its real path
EXPLORER_FILES: tuple[str, ...] = tuple(
    sorted(
        {
            path
            for root in _EXPLORER_DIRS
            for folder, _, names in os.walk(root)
            for name in names
            if name.endswith(".py")
            for path in (os.path.join(folder, name), os.path.realpath(os.path.join(folder, name)))
        }
    )
)


#: the ``<...>`` names of code that is not the user's: Python's frozen and built-in modules (``os.path.join`` is
#: ``<frozen posixpath>``), torch.fx's generated ``forward``, attrs' and numpy's generated functions
LIBRARY_PSEUDO_FILES = ("<frozen ", "<built-in>", "<eval_with_key>", "<attrs generated", "<__array_function__", "<torch_package")


def is_user_file(filename: str | None) -> bool:
    """Is ``filename`` the user's code (a cell, a script, a module of theirs), not a library's or the explorer's?"""
    if not filename:
        return False
    if filename.startswith("<"):
        return not filename.startswith(LIBRARY_PSEUDO_FILES)  # a cell's or exec'd code; not a frozen module's
    return not os.path.realpath(filename).startswith(_LIBRARY_DIRS)
