"""Whose code a file holds: the user's (a notebook cell, a script, a module of theirs) or a library's.

``is_user_file(filename)``: True for exec'd and IPython cell code (``<...>``) and for any file outside the
standard library, the installed packages, Python's prefixes and the explorer's own code. The calls scope, the
frames, the sources and the fixes all ask it; it imports nothing of the explorer. ``is_explorer_file(filename)``:
a module of the explorer's own (``compiler/``, ``kernel_ext/``, any folder below them), never traced by Dynamo and
never shown in a user stack; ``EXPLORER_FILES`` lists them.
"""

from __future__ import annotations

import os
import sys
import sysconfig

__all__ = ["EXPLORER_FILES", "is_explorer_file", "is_user_file"]

_HERE = os.path.dirname(os.path.abspath(__file__))
#: the explorer's own packages, each with its real path
_EXPLORER_DIRS = tuple(
    {
        d
        for p in (_HERE, os.path.join(os.path.dirname(_HERE), "kernel_ext"))
        for d in (os.path.abspath(p) + os.sep, os.path.realpath(p) + os.sep)
    }
)
_LIBRARY_DIRS = tuple(
    os.path.realpath(p) + os.sep
    for p in {
        sysconfig.get_paths()["stdlib"],
        sysconfig.get_paths()["purelib"],
        sysconfig.get_paths()["platlib"],
        sys.prefix,
        sys.base_prefix,
        _HERE,  # the explorer's own code is never the user's, even from a checkout (an editable install)
        os.path.join(os.path.dirname(_HERE), "kernel_ext"),
    }
)


def is_explorer_file(filename: str | None) -> bool:
    """Is ``filename`` a module of the explorer's own (``compiler/``, ``kernel_ext/``, their subfolders)?"""
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


def is_user_file(filename: str | None) -> bool:
    """Is ``filename`` the user's code (a cell, a script, a module of theirs), not a library's or the explorer's?"""
    if not filename:
        return False
    if filename.startswith("<"):
        return True  # exec'd / IPython cell code
    return not os.path.realpath(filename).startswith(_LIBRARY_DIRS)
