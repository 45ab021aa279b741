"""Sources placed in a trace: ids, positions and the three searchable fields."""

from __future__ import annotations

import pytest

from tracegrade.observations import (
    Document,
    LineObservation,
    Lines,
    Names,
    Observations,
    PathObservation,
    Ranked,
)


def _observations() -> Observations:
    return Observations(
        [
            (2, "list_files", Names(("docs/A.md", "src/b.py"))),
            (4, "web_search", Ranked(
                ("https://a.example/x", "https://b.example/y"), ("Alpha one", "beta TWO")
            )),
            (6, "read_file", Document("src/b.py", "first\r\nSecond alpha\rthird")),
            (6, "read_file", Lines(("notes.md",), (7,), ("alpha\nsplit",))),
        ]
    )  # fmt: skip


def test_ranked_results_interleave_a_path_and_a_line_per_result():
    observed = [obs for obs in _observations() if obs.frame == 4]

    assert observed == [
        PathObservation("f4.1", 4, "web_search", "https://a.example/x"),
        LineObservation("f4.2", 4, "web_search", "https://a.example/x", 1, "Alpha one"),
        PathObservation("f4.3", 4, "web_search", "https://b.example/y"),
        LineObservation("f4.4", 4, "web_search", "https://b.example/y", 2, "beta TWO"),
    ]


def test_positions_continue_across_sources_of_one_frame():
    ids = [obs.id for obs in _observations() if obs.frame == 6]
    assert ids == ["f6.1", "f6.2", "f6.3", "f6.4"]
    assert _observations().count == 2 + 4 + 3 + 1


@pytest.mark.parametrize(
    ("needle", "where", "expected"),
    [
        ("alpha", "text", ["f4.2", "f6.2", "f6.4"]),
        ("TWO", "text", ["f4.4"]),
        ("a.example", "source", ["f4.2"]),
        ("b.py", "source", ["f6.1"]),  # a document's name is cited once, at its first line
        ("b.py", "name", ["f2.2"]),
        ("example", "name", ["f4.1", "f4.3"]),
        ("alpha\nsplit", "text", ["f6.4"]),  # a line break inside an entry: the exact path
        ("second alpha\rthird", "text", []),  # never across a document's lines
        ("nothing", "text", []),
    ],
)
def test_find_ids_by_field(needle: str, where: str, expected: list[str]):
    assert _observations().find_ids(needle, where) == expected  # type: ignore[arg-type]


def test_searches_return_the_observations_behind_the_ids():
    observations = _observations()

    assert [o.id for o in observations.lines_containing("ALPHA")] == ["f4.2", "f6.2", "f6.4"]
    assert [o.text for o in observations.lines_containing("second")] == ["Second alpha"]
    assert [o.id for o in observations.lines_from("notes")] == ["f6.4"]
    assert [o.file for o in observations.names_containing("docs")] == ["docs/A.md"]


def test_ranked_needs_as_many_files_as_texts():
    with pytest.raises(ValueError, match="as many"):
        Ranked(("a",), ())


def test_empty_observations_find_nothing():
    empty = Observations()
    assert (empty.count, list(empty)) == (0, [])
    assert empty.find_ids("", "text") == []
