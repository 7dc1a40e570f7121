"""The static view's Dispatch section (issue 13 item 3) on the golden ``dispatch``: one ``transformed_<fn>`` text per
compiled code, the entries in the cache's order, the fallback, escaped; nothing for a report without the field."""

from __future__ import annotations

import copy
import json
import pathlib

from kernel_ext.static_dispatch import dispatch_section
from kernel_ext.static_html import render

GOLDEN = json.loads((pathlib.Path(__file__).parents[1] / "goldens" / "dispatch.report.json").read_text())


def test_each_compiled_code_gets_its_transformed_text_in_the_order_dynamo_tries_its_entries():
    html = render(GOLDEN)
    section = html[html.index('<div class="dx-dispatch">') :]
    assert "<h4>Dispatch (2)</h4>" in section
    assert "<code>scale</code>: 3 cache entries, then recompile" in section
    assert "<code>torch_dynamo_resume_in_scale_at_5</code>: 2 cache entries, then recompile" in section
    text = section[section.index("def transformed_scale(x, n):") :]
    at = [text.index(f"__guard_0_{i}_for_scale(x, n)") for i in (2, 1, 0)]
    assert at == sorted(at)
    assert "# [0/1] L[&#x27;n&#x27;] == 2; L[&#x27;x&#x27;] dtype torch.float64, 1 hit" in text  # escaped quotes


def test_report_strings_are_escaped_and_an_old_report_has_no_section():
    report = copy.deepcopy(GOLDEN)
    report["dispatch"][0]["text"] = "<script>alert(1)</script>"
    report["dispatch"][0]["code"]["name"] = "<b>x</b>"
    out = dispatch_section(report, None)
    assert "<script>" not in out and "&lt;script&gt;" in out and "&lt;b&gt;x&lt;/b&gt;" in out
    del report["dispatch"]
    assert dispatch_section(report, None) == ""
