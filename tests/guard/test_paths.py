"""Argument paths: the slices of a call's arguments the guard scans."""

from __future__ import annotations

import pytest

from tracegrade.guard import ArgPath, PathSyntaxError

SUMMARY = {
    "name": "Summary",
    "header": ["Item", "Amount"],
    "rows": [["Rent", "$12,000"], ["Fees", 1500]],
}
SHEET = {
    "title": "Q3 budget 2024",
    "sheets": [SUMMARY, {"name": "Notes", "rows": [["30 days", None, True]]}],
}


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("title", [("title", "Q3 budget 2024")]),
        (
            "sheets[*].rows[*][*]",
            [
                ("sheets[0].rows[0][0]", "Rent"),
                ("sheets[0].rows[0][1]", "$12,000"),
                ("sheets[0].rows[1][0]", "Fees"),
                ("sheets[0].rows[1][1]", 1500),
                ("sheets[1].rows[0][0]", "30 days"),  # null and true are not values
            ],
        ),
        ("sheets[0].rows[1]", [("sheets[0].rows[1][0]", "Fees"), ("sheets[0].rows[1][1]", 1500)]),
        ("sheets[1].*", [("sheets[1].name", "Notes"), ("sheets[1].rows[0][0]", "30 days")]),
        ("sheets[5].rows", []),  # out of range selects nothing
        ("missing.key", []),
        ("title[*]", []),  # a string is not a list
    ],
)
def test_select_yields_scalars_with_locations(path: str, expected: list[tuple[str, object]]):
    assert list(ArgPath.parse(path).select(SHEET)) == expected


def test_headers_and_names_outside_the_slice_are_not_selected():
    values = [value for _, value in ArgPath.parse("sheets[*].rows[*][*]").select(SHEET)]
    assert "Amount" not in values
    assert "Summary" not in values
    assert "Q3 budget 2024" not in values


@pytest.mark.parametrize("bad", ["", "rows[", "rows[x]", "a..b", "rows[*]x", "[0]", "a.b c"])
def test_bad_syntax_is_an_error_naming_the_segment(bad: str):
    with pytest.raises(PathSyntaxError):
        ArgPath.parse(bad)
