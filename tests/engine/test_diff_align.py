"""How two runs' compiles are paired (``compiler/diff/align.py``), on facts made by hand: by function and file, then
by name in another file, then by the order of a function's compiles with equal ones first; a compile of one side alone
stands where it stood."""

from __future__ import annotations

from collections import Counter

from compiler.diff.align import align, align_compiles
from compiler.diff.facts import CompileFacts, function_name


def _c(index: int, name: str, graph: str = "g", filename: str = "v1.py", status: str = "ok") -> CompileFacts:
    return CompileFacts(
        compile_id=f"{index}/0",
        index=index,
        function=function_name(name),
        filename=filename,
        status=status,
        graph=(graph,),
        ops=Counter(),
        breaks=(),
        guards=(),
        symbols=(),
        failed=(),
        caches=(),
        cache_keys={},
        kernels=0,
        compile_s=None,
        phases=(),
    )


def _names(pairs) -> list[tuple[str | None, str | None]]:
    return [(a.compile_id if a else None, b.compile_id if b else None) for a, b in pairs]


def test_align_matches_equal_items_first_and_pairs_the_rest_in_order():
    assert align("abc", "abc", str) == [("a", "a"), ("b", "b"), ("c", "c")]
    assert align("abc", "axbc", str) == [("a", "a"), (None, "x"), ("b", "b"), ("c", "c")]
    assert align("abc", "ayc", str) == [("a", "a"), ("b", "y"), ("c", "c")]
    assert align("ab", "", str) == [("a", None), ("b", None)]


def test_a_resume_function_is_paired_whatever_line_it_resumes_at():
    a = [_c(0, "f"), _c(1, "torch_dynamo_resume_in_f_at_6")]
    b = [_c(0, "f"), _c(1, "torch_dynamo_resume_in_f_at_9")]
    assert _names(align_compiles(a, b)) == [("0/0", "0/0"), ("1/0", "1/0")]


def test_the_same_function_in_a_file_of_another_name_is_paired():
    a = [_c(0, "f", filename="v1.py")]
    b = [_c(0, "f", filename="v2.py")]
    assert _names(align_compiles(a, b)) == [("0/0", "0/0")]


def test_a_recompile_added_in_the_middle_shifts_nothing_after_it():
    a = [_c(0, "f", "one"), _c(1, "f", "two")]
    b = [_c(0, "f", "one"), _c(1, "f", "new", status="recompile"), _c(2, "f", "two")]
    assert _names(align_compiles(a, b)) == [("0/0", "0/0"), (None, "1/0"), ("1/0", "2/0")]


def test_a_compile_of_a_alone_stands_after_the_compile_before_it():
    a = [_c(0, "f"), _c(1, "gone"), _c(2, "h")]
    b = [_c(0, "f"), _c(1, "h"), _c(2, "new")]
    assert _names(align_compiles(a, b)) == [("0/0", "0/0"), ("1/0", None), ("2/0", "1/0"), (None, "2/0")]


def test_a_functions_source_is_its_own_block():
    """The diff view shows a compile's function: from its ``def`` (a decorator's line included) while the lines are
    indented deeper; a resume function, which starts where it resumes, shows its enclosing function."""
    from compiler.diff.facts import _block

    lines = [
        "import torch",
        "",
        "@torch.compile",
        "def f(x, n):",
        "    y = x.sin()",
        "    if n:",
        "        print(n)",
        "",
        "    return y",
        "",
        "x = 1",
    ]
    whole = (2, lines[2:9])
    assert _block(lines, 2) == whole  # the decorator's line, then its def
    assert _block(lines, 3) == (3, lines[3:9])
    assert _block(lines, 6) == (3, lines[3:9])  # a resume function at print(n), inside an if
    assert _block(lines, 10) == (10, ["x = 1"])  # module code: the rest
