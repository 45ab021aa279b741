"""The pytest plugin in real pytest sessions (pytester): assertions, fixture, marker, report."""

from __future__ import annotations

import json
import tomllib
from typing import TYPE_CHECKING

from tests.conftest import REPO
from tests.testing._runs import GROUNDED, QUESTIONS, UNGROUNDED
from tests.testing.conftest import plugin_args
from tracegrade.testing import plugin

if TYPE_CHECKING:
    import pytest

pytest_plugins = ["pytester"]


def _runs(pytester: pytest.Pytester) -> None:
    (pytester.path / "runs").mkdir()
    (pytester.path / "runs" / "grounded.json").write_text(GROUNDED, encoding="utf-8")
    (pytester.path / "runs" / "guess.json").write_text(UNGROUNDED, encoding="utf-8")
    (pytester.path / "questions.toml").write_text(QUESTIONS, encoding="utf-8")


def test_a_grounded_run_passes_and_an_unsupported_figure_fails_with_its_span(
    pytester: pytest.Pytester,
) -> None:
    _runs(pytester)
    pytester.makepyfile(
        """
        from tracegrade.testing import assert_grounded

        def test_grounded(tracegrade_trace):
            grade = assert_grounded(tracegrade_trace("runs/grounded.json"))
            assert grade.grounded_share == 1.0

        def test_guess():
            assert_grounded("runs/guess.json")
        """
    )
    result = pytester.runpytest(*plugin_args())
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            (
                "E * 2 of 3 claim(s) in the answer of run 'guess-run' are not grounded in what its"
                " tools returned:"
            ),
            "E *   figure '45 days' at 14-21: unsupported",
            "E *     in the answer: The window is [[]45 days] and the fee is $25, or $40 abroad.",
            "E *     the tools showed period figures: 30 days (f2.1 read_file policy.md:1)",
            "E *   figure '$40' at 45-48: unsupported",
            "E *     the tools showed money figures: $25 (f2.2 read_file policy.md:2)",
            "E *   the tool results:",
            "E *     f2 read_file: 3 line(s), first: 'Refunds are accepted within 30 days of*",
        ]
    )
    assert "'$25'" not in result.stdout.str()  # the read figure is not listed as failing


def test_allow_and_kinds_narrow_what_fails(pytester: pytest.Pytester) -> None:
    _runs(pytester)
    pytester.makepyfile(
        """
        from tracegrade.testing import assert_grounded

        def test_allowed():
            assert_grounded("runs/guess.json", allow=["45 days", "$40"])

        def test_one_allowed():
            assert_grounded("runs/guess.json", allow=["45 days"])

        def test_other_kinds_only():
            assert_grounded("runs/guess.json", kinds={"path", "url"})
        """
    )
    result = pytester.runpytest(*plugin_args())
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["E * 1 of 3 claim(s)*", "E *   figure '$40' at 45-48*"])


def test_unsourced_figures_and_provenance_from_a_question_file(pytester: pytest.Pytester) -> None:
    _runs(pytester)
    pytester.makepyfile(
        """
        from tracegrade.testing import assert_no_unsourced_figures, assert_provenance

        def test_figures_sourced():
            assert_no_unsourced_figures("runs/grounded.json")

        def test_figures_unsourced():
            assert_no_unsourced_figures("runs/guess.json", allow=["$40"])

        def test_provenance_grounded():
            assert_provenance("runs/grounded.json", "grounded", question="questions.toml",
                              question_id="window")

        def test_provenance_elsewhere():
            assert_provenance("runs/grounded.json", "grounded", question="questions.toml",
                              question_id="fee")
        """
    )
    result = pytester.runpytest(*plugin_args())
    result.assert_outcomes(passed=2, failed=2)
    result.stdout.fnmatch_lines(
        [
            (
                "E * 1 of 3 figure(s) in the answer of run 'guess-run' came from no tool result or"
                " user message:"
            ),
            "E *   period '45 days' (= 45 days) at 14-21",
            "E *     the tools showed period figures: 30 days (f2.1 read_file policy.md:1)",
        ]
    )
    result.stdout.fnmatch_lines(
        [
            (
                "E * run 'grounded-run' against question 'fee': provenance is from-copy, expected"
                " grounded"
            ),
            "E *   true source: fees.md",
            "E *   tell: '$25'",
            "E *   seen in the true source: never",
            "E *   seen elsewhere (copies): f2.2 policy.md:2 'The restocking fee is $25.'",
        ]
    )


def test_a_run_with_no_answer_fails_rather_than_passing_empty(pytester: pytest.Pytester) -> None:
    trace = json.loads(GROUNDED)
    trace["frames"], trace["tokens"] = trace["frames"][:-1], trace["tokens"][:-1]
    (pytester.path / "silent.json").write_text(json.dumps(trace), encoding="utf-8")
    pytester.makepyfile(
        """
        from tracegrade.testing import assert_grounded

        def test_silent():
            assert_grounded("silent.json")
        """
    )
    result = pytester.runpytest(*plugin_args())
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["E * run 'grounded-run' has no final answer*"])


def test_the_report_holds_each_tests_outcome_and_grades(pytester: pytest.Pytester) -> None:
    _runs(pytester)
    pytester.makepyfile(
        """
        import pytest
        from tracegrade.testing import assert_grounded

        def test_grounded():
            assert_grounded("runs/grounded.json")

        def test_guess():
            assert_grounded("runs/guess.json")

        @pytest.mark.skip(reason="not today")
        def test_skipped():
            pass
        """
    )
    result = pytester.runpytest(*plugin_args(), "--tracegrade-report", "out/grades.json")
    result.assert_outcomes(passed=1, failed=1, skipped=1)
    result.stdout.fnmatch_lines(["tracegrade: grades written to out/grades.json"])
    report = json.loads((pytester.path / "out" / "grades.json").read_text(encoding="utf-8"))
    assert report["schema_version"] == 1
    assert [(case["id"].split("::")[1], case["outcome"]) for case in report["cases"]] == [
        ("test_grounded", "passed"),
        ("test_guess", "failed"),
    ]
    assert report["cases"][1]["detail"].startswith("AssertionError: 2 of 3 claim(s)")
    grades = [(g["test"].split("::")[1], g["passed"], g["trace_id"]) for g in report["grades"]]
    assert grades == [("test_grounded", True, "grounded-run"), ("test_guess", False, "guess-run")]
    unsupported = [
        claim["raw"]
        for claim in report["grades"][1]["grade"]["extracted"]
        if claim["support"] == "unsupported"
    ]
    assert unsupported == ["45 days", "$40"]
    assert report["run"] is None  # nothing marked: nothing stored


def test_the_fixture_reads_other_formats_and_every_run_of_a_file(
    pytester: pytest.Pytester,
) -> None:
    fixture = REPO / "tests" / "fixtures" / "readers" / "openinference" / "valid.json"
    pytester.makepyfile(
        f"""
        import pytest
        from tracegrade.errors import TraceFormatError

        def test_read(tracegrade_trace):
            traces = tracegrade_trace.all({str(fixture)!r})
            assert [t.source_format for t in traces] == ["openinference"] * 2
            with pytest.raises(TraceFormatError, match="expected one trace, found 2"):
                tracegrade_trace({str(fixture)!r})
        """
    )
    pytester.runpytest(*plugin_args()).assert_outcomes(passed=1)


def test_without_the_plugin_the_fixture_is_missing(pytester: pytest.Pytester) -> None:
    # The gate above can fail: the fixture comes from the plugin, not from anywhere else.
    pytester.makepyfile("def test_read(tracegrade_trace):\n    pass\n")
    result = pytester.runpytest("-p", "no:tracegrade", "-p", "no:tracegrade.testing.plugin")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*fixture 'tracegrade_trace' not found*"])


def test_the_package_declares_the_pytest11_entry_point() -> None:
    declared = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    entry_points = declared["project"]["entry-points"]["pytest11"]
    assert entry_points == {"tracegrade": "tracegrade.testing.plugin"}
    assert callable(plugin.pytest_addoption)
    assert callable(plugin.pytest_configure)


def test_the_marker_is_registered_under_strict_markers(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_plain():\n    pass\n")
    result = pytester.runpytest(*plugin_args(), "--strict-markers", "--markers")
    result.stdout.fnmatch_lines(["@pytest.mark.tracegrade(touchpoint): record the test's*"])
