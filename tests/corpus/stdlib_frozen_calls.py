"""The standard library's frozen modules (``os.path``: ``<frozen posixpath>``), ``os``, ``pathlib``, ``json`` and
``re`` called at the top level and inside a function of the user's that also computes with tensors."""

import json
import os
import pathlib
import re

import torch

base = os.path.join("data", "runs", "exp1.pt")
stem, ext = os.path.splitext(os.path.basename(base))
home = os.getenv("DEFINITELY_NOT_SET_FOR_THIS_TEST", "unset")


def describe(x, name):
    parts = pathlib.PurePosixPath(os.path.join("out", name)).parts
    tag = re.sub(r"[^a-z]", "_", name.lower())
    summary = json.dumps({"tag": tag, "parts": list(parts)})
    return x * len(parts), summary


y, info = describe(torch.ones(2), "Run-1.json")
print(stem, ext, home, y.tolist(), info)
