from __future__ import annotations

import pytest

from challenges.engine.errors import TemplateError
from challenges.engine.render import expand_to_lines, line_span, render

TEXT = """def total(rows):
    {{[}}
    result = 0
    {{!loop}}
    {{!extra}}
    return {{name}}
    {{]}}
"""


def test_multiline_snippet_is_indented_to_the_placeholder_column():
    out = render(TEXT, {"name": "result"}, {"loop": "for row in rows:\n    result += row", "extra": ""})
    assert out.text == "def total(rows):\n    result = 0\n    for row in rows:\n        result += row\n    return result\n"


def test_empty_snippet_alone_on_its_line_removes_the_line_and_spans_are_tracked():
    out = render(TEXT, {"name": "result"}, {"loop": "pass", "extra": ""}, mark=("loop", "extra"))
    start, end = out.spans["loop"]
    assert out.text[start:end] == "pass"
    assert out.spans["extra"][0] == out.spans["extra"][1]
    assert out.text[out.spans["extra"][0]:].startswith("    return result")
    region = out.region
    assert out.text[region[0]:region[1]] == "    result = 0\n    pass\n    return result\n"


def test_markers_never_reach_the_output():
    out = render(TEXT, {"name": "x"}, {"loop": "a = 1", "extra": "b = 2"}, mark=("loop",))
    assert "{{" not in out.text and "\ue000" not in out.text and "\ue002" not in out.text


def test_unknown_name_and_site_are_errors():
    with pytest.raises(TemplateError) as exc:
        render("x = {{missing}}\n", {}, {})
    assert exc.value.code == "template_name_unknown"
    with pytest.raises(TemplateError) as exc:
        render("{{!nowhere}}\n", {}, {})
    assert exc.value.code == "template_site_unknown"


def test_imports_placeholder_is_filled_or_dropped():
    assert render("{{imports}}\nx = 1\n", {}, {}, imports="import os").text == "import os\nx = 1\n"
    assert render("{{imports}}\nx = 1\n", {}, {}, imports="").text == "x = 1\n"


def test_line_helpers():
    text = "a\nbb\nccc\n"
    assert line_span(text, (2, 4)) == (2, 2)
    assert line_span(text, (2, 7)) == (2, 3)
    assert expand_to_lines(text, (3, 4)) == (2, 4)
