"""Where the tables of an array of tables start (what CI annotations point at)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracegrade._toml import array_table_lines
from tracegrade.suites import load_suite

if TYPE_CHECKING:
    from pathlib import Path

TEXT = """\
[suite]
name = "s"

[[cases]]   # the first
trace = "a.json"
[cases.expect]
answer = "success"
id = "not the case's"

[[questions]]
id = "q"

  [[ cases ]]
id = 'second'
trace = "b.json"
"""


def test_each_header_s_line_and_the_id_written_in_its_own_table():
    assert array_table_lines(TEXT, "cases") == ((4, None), (13, "second"))
    assert array_table_lines(TEXT, "questions") == ((10, "q"),)
    assert array_table_lines(TEXT, "touchpoints") == ()


def test_cases_written_inline_have_no_lines(tmp_path: Path):
    (tmp_path / "a.json").write_text("{}", "utf-8")
    path = tmp_path / "suite.toml"
    path.write_text(
        'cases = [{trace = "a.json", question = "q"}]\n\n'
        '[[questions]]\nid = "q"\nprompt = "p"\nfacts = [{id = "f", text = "x"}]\n',
        "utf-8",
    )

    assert load_suite(path).case_lines() is None
