"""Normalizing a report for golden files: drop what changes from run to run, keep the structure.

Replaced by fixed tokens: memory addresses and object ids, uuid suffixes of ``__compiled_fn_*``,
temp and site-packages paths, timings (``*_ms`` and the ratios of times, a cache hit's time saved), versions,
inductor cache paths and hashes; ``profile``'s rows ranked by time are put in a fixed order. Compile ids are
renumbered from the first frame id of the run, so a golden does not depend on what ran before.
"""

from __future__ import annotations

import copy
import re
import sysconfig
from typing import Any

__all__ = ["normalize_report", "stable_text"]

_SUBS = [
    (re.compile(r"0x[0-9a-fA-F]{6,}"), "0xADDR"),
    (re.compile(r"__compiled_fn_\d+_[0-9a-f]{8}_[0-9a-f]{4}_[0-9a-f]{4}_[0-9a-f]{4}_[0-9a-f]{12}"), "__compiled_fn_N_UUID"),
    (re.compile(r"(__builtins_dict___|__resume_at_\d+_)\d+"), r"\1N"),
    (re.compile(r"(___check_obj_id\([^,]+, )\d+"), r"\1ID"),
    (re.compile(r"(___check_type_id\([^,]+, )\d+"), r"\1ID"),
    (re.compile(r"(id\(type\([^)]*\)\) == )\d+"), r"\1ID"),
    (re.compile(r"(?:/[\w.\-+]+)*/site-packages/"), "SITE/"),
    # the standard library's files (copy.py, re/): Dynamo's trace_rules name them in decisions' rules
    (re.compile(re.escape(sysconfig.get_paths()["stdlib"]) + "/"), "STDLIB/"),
    (re.compile(r"/tmp/[\w./\-]+"), "TMP"),
    # graphs replayed from inductor's caches carry the cell filename of the run that first compiled them
    (re.compile(r"<dynamo-cell-\d+>|<golden:\w+>|<ipython-input-[\w-]+>"), "<cell>"),
    (re.compile(r"\b[a-z0-9]{52}\b"), "HASH"),
    (re.compile(r"\b__temp_\d+\b"), "__temp_N"),  # depyf numbers its temporaries process-wide
    (re.compile(r"(is the object with id )\d+"), r"\1ID"),  # the dispatch view's words for ___check_obj_id
    (re.compile(r"\(\d+(?:\.\d+)? m?s saved\)"), "(T saved)"),  # a cache hit's time saved, in a cache story
]
_DISPATCH_NAME = re.compile(r"(__(?:guard|transformed_code)_)(\d+)(_\d+_for_)")  # __guard_3_1_for_f
_GLOBAL_LINE = re.compile(r"^(\s*global )(.+)$", re.M)  # depyf orders these names by hash seed
_NUMERIC_TIMES = {"compile_time_s", "ms", "wall_s", "compile_s", "capture_s", "pct_time", "speedup"}


def _is_time(key: str) -> bool:
    return key in _NUMERIC_TIMES or key.endswith("_ms")


def _text(s: str, replacements: dict[str, str]) -> str:
    for pat, rep in _SUBS:
        s = pat.sub(rep, s)
    for old, new in replacements.items():
        s = s.replace(old, new)
    return s


def stable_text(s: str) -> str:
    """``s`` without what changes from run to run and means nothing (addresses, object ids, uuids, temporary paths,
    a hit's time saved): two runs' texts compared after it differ only where their stories do (``compiler/diff``)."""
    return _text(s, {})


def _walk(obj: Any, replacements: dict[str, str]) -> Any:
    if isinstance(obj, dict):
        return {k: (0 if _is_time(k) and isinstance(v, (int, float)) else _walk(v, replacements)) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_walk(v, replacements) for v in obj]
    if isinstance(obj, str):
        return _text(obj, replacements)
    return obj


def normalize_report(report: dict[str, Any], cell_filename: str = "<cell>") -> dict[str, Any]:
    rep = copy.deepcopy(report)
    replacements = {rep["cell"]["filename"]: cell_filename} if rep["cell"]["filename"] else {}
    rep["torch_version"] = "TORCH"
    rep["python_version"] = "PYTHON"
    frame_ids = sorted({int(f["compile_id"].split("/")[0]) for f in rep["frames"]})
    remap = {str(fid): str(i) for i, fid in enumerate(frame_ids)}

    def cid(s: str | None) -> str | None:
        if s is None:
            return None
        head, _, tail = s.partition("/")
        return f"{remap.get(head, head)}/{tail}"

    id_re = re.compile(r"\b(\d+)/(\d+)\b")

    def renumber_text(s: str) -> str:
        return id_re.sub(lambda m: f"{remap.get(m.group(1), m.group(1))}/{m.group(2)}", s)

    for f in rep["frames"]:
        f["compile_id"] = cid(f["compile_id"])
        f["parent_compile_id"] = cid(f["parent_compile_id"])
        for r in f["recompile_reasons"]:
            r["failed_compile_id"] = cid(r["failed_compile_id"])
        for ins in f["modified_bytecode"]:
            if ins["ref"]:
                ins["ref"]["compile_id"] = cid(ins["ref"]["compile_id"])
        f["phases"] = []  # which phases run (gc, cache loads, ...) varies from run to run
        for c in f.get("caches") or []:  # a key's parts hash what differs from machine to machine (torch, the system)
            if c.get("hashes"):
                c["hashes"] = dict.fromkeys(c["hashes"], "HASH")
        f["start_time"] = None  # a date
        if f["decompiled_source"]:
            f["decompiled_source"] = _GLOBAL_LINE.sub(
                lambda m: m.group(1) + ", ".join(sorted(m.group(2).split(", "))), f["decompiled_source"]
            )
    for key in ("graphs", "output_code", "symbols", "shape_guards"):
        for item in rep[key]:
            item["compile_id"] = cid(item["compile_id"])
    for item in rep["logs"] + rep["diagnostics"]:
        item["compile_id"] = cid(item.get("compile_id"))
        item["message"] = renumber_text(item["message"])
    if rep["error"]:
        rep["error"]["compile_id"] = cid(rep["error"]["compile_id"])
    prof = rep.get("profile")
    if prof:
        for item in prof["graphs"] + prof["entries"] + prof["eager"] + prof["coverage"]["frames"]:
            item["compile_id"] = cid(item["compile_id"])
        # the order of rows ranked by time changes from run to run: keep a stable one
        prof["graphs"].sort(key=lambda g: (g["compile_id"], g["graph_id"] if g["graph_id"] is not None else -1))
        prof["eager"].sort(key=lambda g: (g["cause"], g["compile_id"] or ""))
        prof["cache_lookups"] = 0  # the first call of a code looks its cache up or not, by torch version
    for d in rep.get("dispatch") or []:  # [Note: dispatch view]: ids in the entries and in the text's names
        for e in d["entries"]:
            e["compile_id"] = cid(e["compile_id"])
        d["text"] = _DISPATCH_NAME.sub(lambda m: f"{m[1]}{remap.get(m[2], m[2])}{m[3]}", renumber_text(d["text"]))
    for fix in rep.get("fixes") or []:  # this run's frames (try_fix.fix's targets name the run before it: left)
        for t in fix["targets"]:
            t["compile_id"] = cid(t["compile_id"])
    for call in rep.get("exports") or []:  # minor 23: the compiles within a call (strict mode's)
        call["compile_ids"] = [cid(i) for i in call.get("compile_ids") or []]
    steps = rep.get("trace_steps")
    if steps:  # [Note: trace steps]: the frame it recorded, and the ids its note names
        steps["compile_id"] = cid(steps["compile_id"])
        if steps.get("note"):
            steps["note"] = renumber_text(steps["note"])
    base = rep.get("eager_baseline")
    if base:
        for fn in base["functions"]:
            fn["compile_ids"] = [cid(c) for c in fn["compile_ids"]]
    out = _walk(rep, replacements)
    # Dynamo's counters are keyed by text (a graph break's message, with its file paths and addresses)
    out["dynamo_counters"] = {
        group: {_text(k, replacements): v for k, v in counts.items()} for group, counts in out["dynamo_counters"].items()
    }
    sources: dict[str, Any] = {}  # two files may normalize to one name (a cell and a cache's stale copy of it)
    for s in out.get("sources", []):
        sources.setdefault(s["filename"], s)
    out["sources"] = list(sources.values())
    return out
