"""``os``, ``pathlib``, ``json`` and ``re`` called at the top level and inside the user's functions, beside tensor
code: the standard library runs as plain Python, the user's functions as theirs."""

import json
import os
import pathlib
import re
import tempfile

import torch

PATTERN = re.compile(r"layer(\d+)\.(weight|bias)")


def parse(name):
    m = PATTERN.fullmatch(name)
    return (int(m.group(1)), m.group(2)) if m else None


def save_stats(folder, t):
    path = pathlib.Path(folder) / "stats.json"
    path.write_text(json.dumps({"mean": round(float(t.mean()), 4), "name": os.path.basename(str(path))}))
    return json.loads(path.read_text())


def scaled(x, name):
    layer, kind = parse(name)
    return x * layer if kind == "weight" else x + layer


with tempfile.TemporaryDirectory() as folder:
    stats = save_stats(folder, torch.arange(4.0))
    exists = os.path.exists(os.path.join(folder, "stats.json"))
del folder  # a random name: not a final variable to compare
names = [n for n in ("layer1.weight", "layer2.bias", "head") if re.match(r"layer", n)]
outs = [scaled(torch.ones(2), n).tolist() for n in names]
print(stats, exists, names, outs, os.sep, pathlib.PurePosixPath("a/b.txt").suffix)
