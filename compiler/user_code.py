"""Whose code a file holds: the user's (a notebook cell, a script, a module of theirs) or a library's.

``is_user_file(filename)``: True for exec'd and IPython cell code (``<...>``) and for any file outside the
standard library, the installed packages, Python's prefixes and the explorer's own code. The calls scope, the
frames, the sources and the fixes all ask it; it imports nothing of the explorer.
"""

from __future__ import annotations

import os
import sys
import sysconfig

__all__ = ["is_user_file"]

_HERE = os.path.dirname(os.path.abspath(__file__))
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


def is_user_file(filename: str | None) -> bool:
    """Is ``filename`` the user's code (a cell, a script, a module of theirs), not a library's or the explorer's?"""
    if not filename:
        return False
    if filename.startswith("<"):
        return True  # exec'd / IPython cell code
    return not os.path.realpath(filename).startswith(_LIBRARY_DIRS)
