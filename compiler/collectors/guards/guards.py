"""Collector for guards: every leaf of each compile's guard-manager tree, one row each, plus the tree itself.

[Note: one count of guards] A frame's guards are the leaves of its cache entry's guard-manager tree (``str`` of the
guard manager, read before the run's cache entries are dropped: exactly what ``TORCH_LOGS=guards`` prints and what a
trace's ``dynamo_cpp_guards_str`` holds), one row each (``rows_from_tree``), in the tree's order, with the user line
each came from (a root guard such as the global state has none): the checks Dynamo runs on a call. So the guards
pane, the frame's ``guard_count``, the dispatch view (which compares entries leaf by leaf), a run's ``diff`` and a
report read from a trace count the same thing. The exported ``GuardsSet`` (``guard_export_fn``: GuardBuilder names,
TENSOR_MATCH, ID_MATCH, NN_MODULE, ...) is not what runs: a builder may add no leaf (the hooks dicts of a builtin
module, skipped), one, or several, and it counted 539,093 guards where a 100,000-node graph's tree holds 508,276
leaves. It gives each row its ``origin`` (Dynamo's ``GuardSource``: LOCAL_UNSPECIALIZED_NN_MODULE, ...) by source,
the shape guards (``SHAPE_ENV``'s checks, ``shape_codes``), and the rows of a frame whose tree is gone.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from typing import Any

from ...encoding import Encoded, TextWriter
from ...model import CompileReport, Guard
from ..base import CaptureContext, Collector, gc_paused, line_cut

# A frame over a 10,000-node model guards every parameter: 54,000 guards and a 21 MB tree. Past these
# caps the report keeps the first ones (tree order) and says so; TORCH_LOGS=guards prints all of them.
MAX_GUARDS_PER_FRAME = 5000
MAX_TREE_CHARS = 1_000_000


def export_rows(guards: Any, limit: int | None = None) -> tuple[list[Guard], int]:
    """The first ``limit`` guards of an exported ``GuardsSet`` as rows, and how many it holds."""
    rows: list[Guard] = []
    total = 0
    for g in guards:
        total += 1
        if limit is not None and len(rows) >= limit:
            continue
        kinds = list(getattr(g, "guard_types", None) or [])
        try:
            builder = g.inner_create_fn().__name__
        except Exception:  # noqa: BLE001 - create_fn is a partial or a lambda in some versions
            builder = getattr(g.create_fn, "__name__", "GUARD")
        rows.append(
            Guard(
                type=kinds[-1] if kinds else builder,
                source=g.name or "",
                code=[str(c) for c in (getattr(g, "code_list", None) or [])],
                line=None,
                origin=getattr(g.source, "name", str(g.source)),
            )
        )
    return rows, total


_TREE_LINE = re.compile(
    r"^(?P<indent>[| ]*)\+- (?:"
    r"(?:GuardManager|DictGuardManager|DictSubclassGuardManager|RootGuardManager)(?:: source=(?P<source>.+?), accessed_by=[^\n]*)?"
    r"|(?P<kind>[A-Z][A-Z0-9_]+): (?P<code>[^\n]*))$",
    re.M,
)
# a leaf of the tree (the lines of _TREE_LINE's second branch): how many guards a tree holds, without parsing it; the
# newline first, not a ^ in MULTILINE mode (which tries every character: 4 times slower on a 0.7 MB tree)
_LEAF = re.compile(r"\n[| ]*\+- [A-Z][A-Z0-9_]+: ")
_FIRST_LEAF = re.compile(r"[| ]*\+- [A-Z][A-Z0-9_]+: ")
_WHERE = re.compile(r"(?P<file>[^\s#]+):(?P<line>\d+) in [\w<>.]+")


def user_line(comment: str, filename: str) -> int | None:
    """The user line a guard's comment names (``x + 1  # f.py:3 in f``), when it is a line of ``filename``
    (the frame's own file; Dynamo shortens paths, so the comment's path is a suffix of it)."""
    w = _WHERE.search(comment.rsplit("# ", 1)[-1])
    return int(w.group("line")) if w and filename.endswith(w.group("file")) else None


def parse_tree(text: str, filename: str) -> list[tuple[str, str, str, int | None, str]]:
    """``(source, leaf kind, code, user line, comment)`` for every leaf guard of a guard-tree dump.

    A leaf reads ``KIND: check  # user code  # file:line in fn``. The user line is kept only when
    the comment points into ``filename`` (the frame's own file; the tree shortens paths, so the
    comment's path is a suffix of it). One regex pass: a 10,000-node model's tree has 4 MB.
    """
    parser = TreeParser(filename)
    parser.feed(text)
    return parser.leaves


class TreeParser:
    """``parse_tree``, fed a tree's text in pieces that each end at a line's end (``TreeText``): ``leaves``."""

    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.leaves: list[tuple[str, str, str, int | None, str]] = []
        self._stack: list[tuple[int, str]] = []  # (depth, source)
        self._lines: dict[str, int | None] = {}  # comment -> user line (many leaves share one)
        self._same: dict[str, str] = {}  # one string for each kind and comment: 500,000 leaves repeat a few hundred

    def feed(self, text: str) -> None:
        out, stack, lines, same = self.leaves, self._stack, self._lines, self._same
        for m in _TREE_LINE.finditer(text):
            depth = len(m.group("indent"))
            while stack and stack[-1][0] >= depth:
                stack.pop()
            kind = m.group("kind")
            if kind is None:
                stack.append((depth, m.group("source") or ""))
                continue
            check, sep, comment = m.group("code").partition("  # ")
            line = None
            if sep:
                comment = same.setdefault(comment, comment)
                where = comment.rsplit("# ", 1)[-1]
                if where not in lines:
                    lines[where] = user_line(where, self.filename)
                line = lines[where]
            out.append((stack[-1][1] if stack else "", same.setdefault(kind, kind), check.strip(), line, comment))


class TreeText:
    """[Note: a guard tree never whole] A cache entry's guard tree as torch writes it, a line at a time
    (``guards_torch.write_tree``: what ``str(manager)`` builds, ``TORCH_LOGS=guards``' text), never held whole: a
    100,000-node graph's is 210 MB, and ``str`` held its lines and their join at once (0.5 GB over plain
    ``torch.compile``'s peak, most of the capture's excess: BENCHMARKS.md §2). Its leaves are parsed as it comes
    (``TreeParser``); its first ``cap`` characters are kept as text (what the report holds), the rest written
    compressed as a part is stored (``encoding.TextWriter``); ``close()`` gives the text up to ``cap`` (the whole
    when it is no longer), how many characters it has, and the whole (a string, or its ``Encoded`` form past
    ``cap``), as ``str(manager).strip()`` would."""

    _FLUSH = 8192  # lines joined and handed on at a time

    def __init__(self, filename: str, cap: int) -> None:
        self.parser = TreeParser(filename)
        self._cap = cap
        self._lines: list[str] = []
        self._held: list[str] = []  # the text so far, while it is within cap
        self._head = ""
        self._chars = 0
        self._writer: TextWriter | None = None
        self._started = False
        self._spaces = ""  # white space at the end of what came so far: written only if more text follows

    def append(self, line: str) -> None:  # what torch's buffer calls on its list of lines
        self._lines.append(line)
        if len(self._lines) >= self._FLUSH:
            self._flush()

    def _flush(self) -> None:
        if not self._lines:
            return
        chunk = "\n".join(self._lines) + "\n"
        self._lines = []
        self.parser.feed(chunk)
        if not self._started:
            chunk = chunk.lstrip()
            self._started = bool(chunk)
        body = chunk.rstrip()
        if not body:
            self._spaces += chunk
            return
        text, self._spaces = self._spaces + body, chunk[len(body) :]
        self._chars += len(text)
        if self._writer is not None:
            self._writer.write(text)
            return
        self._held.append(text)
        if self._chars > self._cap:  # past the cap: the text so far and the rest go to the writer
            so_far = "".join(self._held)
            self._head, self._held = so_far[: self._cap], []
            self._writer = TextWriter()
            self._writer.write(so_far)

    def close(self) -> tuple[str, int, str | Encoded]:
        self._flush()
        if self._writer is None:
            whole = "".join(self._held)
            return whole, len(whole), whole
        return self._head, self._chars, self._writer.close()


def count_leaves(text: str) -> int:
    """How many leaf guards a guard-tree dump holds: ``len(parse_tree(text, ...))``, counted without building them."""
    return len(_LEAF.findall(text)) + (_FIRST_LEAF.match(text) is not None)


def rows_from_tree(leaves: list[tuple[str, str, str, int | None, str]], origins: dict[str, str] | None = None) -> list[Guard]:
    """Guard rows from the leaves of a guard tree (``parse_tree``), a row a leaf ([Note: one count of guards]): a live
    run's, or a trace file's ``dynamo_cpp_guards_str``. ``origins``: Dynamo's ``GuardSource`` of a source where the
    export says it (``export_origins``); a source it does not name takes its nearest named parent's (the ``__dict__``
    of a module), else what the source's text says (``L[...]``: LOCAL)."""
    known = origins or {}
    found: dict[str, str] = {}

    def origin(source: str) -> str:
        got = found.get(source)
        if got is not None:
            return got
        chain, at = [], source
        while got is None:
            got = found.get(at) or known.get(at)
            if got is None:
                chain.append(at)
                parent = _PARENT.sub("", at) if at else ""
                at, got = parent, None if parent and parent != at else _origin(source)
        for s in chain:
            found[s] = got
        return got

    return [Guard(type=k, source=s, code=[c], line=ln, origin=origin(s)) for s, k, c, ln, _ in leaves]


# the last accessor of a source: ``.attr`` or ``[key]`` (``L['self']._modules['l'].__dict__`` -> ``L['self']._modules['l']``)
_PARENT = re.compile(r"(?:\.[A-Za-z_]\w*|\[[^\[\]]*\])$")


def _origin(source: str) -> str:
    if source.startswith("L["):
        return "LOCAL"
    if source.startswith("G[") or source == "G":
        return "GLOBAL"
    return "GLOBAL_STATE" if not source else "OTHER"


def export_origins(rows: list[Guard]) -> dict[str, str]:
    """The ``GuardSource`` of each exported guard's source where it says more than the source's text
    (``LOCAL_UNSPECIALIZED_NN_MODULE`` for ``L['self']._modules['l']``, not ``LOCAL`` for ``L['x']``)."""
    return {g.source: g.origin for g in rows if g.source and g.origin != _origin(g.source)}


def read_tree(manager: Any, filename: str) -> tuple[str, int, str | Encoded, list[tuple[str, str, str, int | None, str]]]:
    """A cache entry's guard tree ([Note: a guard tree never whole]): its text up to ``MAX_TREE_CHARS`` (all of it
    when no longer), its characters, the whole (a string, or ``Encoded`` past the cap) and its leaves; through
    ``str(manager)`` where this torch writes its tree otherwise."""
    from .guards_torch import write_tree

    sink = TreeText(filename, MAX_TREE_CHARS)
    if write_tree(manager, sink):
        head, chars, whole = sink.close()
        return head, chars, whole, sink.parser.leaves
    text = str(manager).strip()
    return text, len(text), text, parse_tree(text, filename)


class GuardsCollector(Collector):
    name = "guards"
    requires = ("frames",)

    def __init__(self) -> None:
        self.exports: dict[str, tuple[list[Guard], int]] = {}  # compile id -> the exported rows, how many
        #: compile id -> the checks of its SHAPE_ENV guard (the shape guards: dynamic_shapes reads them)
        self.shape_codes: dict[str, list[str]] = {}
        self.managers: dict[str, Any] = {}  # compile id -> the cache entry's guard manager
        #: compile id -> the root leaves of its tree (the shape guards among them): check -> (user line, comment)
        self.root_leaves: dict[str, dict[str, tuple[int | None, str]]] = {}
        #: compile id -> every leaf of its tree, as parse_tree gives them (the dispatch view compares entries, and takes
        #: them: they are let go before the report is built)
        self.leaves: dict[str, list[tuple[str, str, str, int | None, str]]] = {}

    def on_guards(self, ctx: CaptureContext, compile_id: str, guards: Any) -> None:
        with gc_paused():  # ~10^4 rows for a large model; copy now: Dynamo clears the set afterwards
            self.exports[compile_id] = export_rows(guards)  # all: those past the cap are kept as a part

    @contextlib.contextmanager
    def install(self, ctx: CaptureContext) -> Iterator[None]:
        try:
            yield
        finally:  # before the runner drops the run's cache entries
            ours = {r.compile_id for r in ctx.code_records}
            from ..._compat import cache_entries  # a live run's: importing this module imports no torch

            for code in ctx.codes_seen:
                for entry in cache_entries(code):
                    cid = ctx.report_id(getattr(entry, "compile_id", ""))
                    if cid in ours:
                        self.managers[cid] = entry.guard_manager

    def finalize(self, ctx: CaptureContext, report: CompileReport) -> None:
        for frame in report.frames:
            manager = self.managers.get(frame.compile_id)
            tree, chars, whole, leaves = read_tree(manager, frame.code.filename) if manager is not None else ("", 0, "", [])
            self.leaves[frame.compile_id] = leaves
            frame.guard_tree = tree or None
            roots = self.root_leaves.setdefault(frame.compile_id, {})
            for s, _, c, ln, comment in leaves:
                if not s:
                    roots.setdefault(c, (ln, comment))
            exported, total = self.exports.pop(frame.compile_id, (None, 0))
            if exported is not None:
                self.shape_codes[frame.compile_id] = [c for g in exported if g.type == "SHAPE_ENV" for c in g.code]
            if manager is not None or exported is None:  # [Note: one count of guards]
                rows, total = rows_from_tree(leaves, export_origins(exported or [])), len(leaves)
                del exported
            else:  # the tree is gone (the cell reset Dynamo): the export's rows, their lines from no tree
                rows = exported
            total = max(total, len(rows))
            if total > MAX_GUARDS_PER_FRAME:
                report.diagnose(
                    "truncated",
                    f"[{frame.compile_id}] {frame.code.name}: kept {MAX_GUARDS_PER_FRAME} of {total} guards; "
                    "run with TORCH_LOGS=guards to print all of them",
                    frame.compile_id,
                )
                ctx.keep_part(report, "guards", frame.compile_id, MAX_GUARDS_PER_FRAME, rows)
                rows = rows[:MAX_GUARDS_PER_FRAME]
            if tree and chars > MAX_TREE_CHARS:
                cut = line_cut(tree, MAX_TREE_CHARS)
                report.diagnose(
                    "truncated",
                    f"[{frame.compile_id}] {frame.code.name}: guard tree cut at {cut} of {chars} characters; "
                    "run with TORCH_LOGS=guards to print all of it",
                    frame.compile_id,
                )
                ctx.keep_part(report, "guard_tree", frame.compile_id, cut, whole)
                frame.guard_tree = tree[:cut] + "\n... (truncated)"
            frame.guards, frame.guard_count = rows, total
