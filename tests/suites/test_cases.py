"""Suite cases: auto extraction, cases without a question, runs of multi-run files, globs."""

from __future__ import annotations

from pathlib import Path

import pytest

from tracegrade.errors import SuiteError
from tracegrade.suites import load_suite, run_suite

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "traces"
TAU = ROOT / "tests" / "fixtures" / "readers" / "tau-bench" / "valid.json"

QUESTION = """
[[questions]]
id = "refund-window"
facts = [{id = "file", text = "billing/config.py"}, {id = "days", text = "45"}]
truth_file = "billing/config.py"
tell = "REFUND_WINDOW_DAYS = 45"
"""


def _suite(tmp_path: Path, cases: str, traces: Path = EXAMPLES) -> Path:
    path = tmp_path / "suite.toml"
    path.write_text(f'[suite]\ntraces = "{traces.as_posix()}"\n{QUESTION}\n{cases}', "utf-8")
    return path


def _results(path: Path) -> dict[str, tuple[str, ...]]:
    """Each result's run name and its mismatches."""
    return {result.run: result.mismatches for result in run_suite(load_suite(path))}


def test_auto_adds_the_answer_s_claims_beside_the_facts_and_checks_unsupported(tmp_path: Path):
    path = _suite(
        tmp_path,
        """
[[cases]]
trace = "grep-only.json"
question = "refund-window"
auto = true
expect = {answer = "success", unsupported = ["45 days"]}

[[cases]]
trace = "read-source.json"
question = "refund-window"
auto = true
expect = {unsupported = ["45 days"]}
""",
    )

    results = list(run_suite(load_suite(path)))

    assert [(c.raw, c.support) for c in results[0].grade.extracted] == [
        ("billing/config.py", "read"),  # grep's output lines name the file
        ("REFUND_WINDOW_DAYS", "read"),
        ("45 days", "unsupported"),
    ]
    assert results[0].grade.claims  # the facts are graded too
    assert results[0].mismatches == ()
    assert results[1].mismatches == ("unsupported: expected [45 days], got []",)


def test_without_auto_no_claims_are_extracted(tmp_path: Path):
    path = _suite(tmp_path, '[[cases]]\ntrace = "grep-only.json"\nquestion = "refund-window"\n')

    (result,) = run_suite(load_suite(path))

    assert result.grade.extracted == ()


def test_a_case_with_auto_and_no_question_is_graded_by_its_claims_alone(tmp_path: Path):
    path = _suite(
        tmp_path,
        '[[cases]]\ntrace = "listing-guess.json"\nauto = true\n'
        'expect = {answer = "ungraded", unsupported = ["45 days"]}\n',
    )

    (result,) = run_suite(load_suite(path))

    assert (result.grade.question_id, result.grade.answer) == ("-", "ungraded")
    assert result.mismatches == ()


def test_a_case_with_neither_question_nor_auto_is_an_error_naming_it(tmp_path: Path):
    path = _suite(tmp_path, '[[cases]]\ntrace = "listing-guess.json"\n')

    with pytest.raises(SuiteError) as caught:
        load_suite(path)

    message = str(caught.value)
    assert "case 1 (listing-guess.json): names no question" in message
    assert "auto = true" in message


def test_run_picks_one_run_of_a_multi_run_file(tmp_path: Path):
    path = _suite(
        tmp_path,
        '[[cases]]\ntrace = "valid.json"\nrun = "task-1-trial-1"\nauto = true\n'
        "expect = {unsupported = []}\n",
        TAU.parent,
    )

    (result,) = run_suite(load_suite(path))

    assert result.run == "valid.json#task-1-trial-1"
    assert result.grade.trace_id == "task-1-trial-1"


def test_run_star_reports_every_run_as_its_own_case(tmp_path: Path):
    path = _suite(
        tmp_path,
        '[[cases]]\ntrace = "valid.json"\nrun = "*"\nauto = true\nexpect = {unsupported = []}\n',
        TAU.parent,
    )

    # Each run is graded on its own: task 0's $120 is sourced by its order's "total": 120
    # (docs/figures.md, structured values), and task 1's answer has no claim.
    results = _results(path)
    assert results == {"valid.json#task-0-trial-0": (), "valid.json#task-1-trial-1": ()}
    graded = {
        r.run: [(c.raw, c.support) for c in r.grade.extracted] for r in run_suite(load_suite(path))
    }
    assert graded == {
        "valid.json#task-0-trial-0": [("O-1", "read"), ("$120", "read")],
        "valid.json#task-1-trial-1": [],
    }


def test_a_run_id_not_in_the_file_names_the_ids_there(tmp_path: Path):
    path = _suite(
        tmp_path, '[[cases]]\ntrace = "valid.json"\nrun = "task-9"\nauto = true\n', TAU.parent
    )

    with pytest.raises(SuiteError) as caught:
        list(run_suite(load_suite(path)))

    message = str(caught.value)
    assert "case 1 (valid.json#task-9): valid.json holds no run 'task-9'" in message
    assert "task-0-trial-0, task-1-trial-1" in message


def test_a_multi_run_file_without_run_says_how_to_pick(tmp_path: Path):
    path = _suite(tmp_path, '[[cases]]\ntrace = "valid.json"\nauto = true\n', TAU.parent)

    with pytest.raises(SuiteError, match=r'holds 2 runs.*run = "\*"'):
        list(run_suite(load_suite(path)))


def test_a_glob_is_one_case_per_matched_file_in_path_order(tmp_path: Path):
    path = _suite(
        tmp_path,
        '[[cases]]\ntrace = "*-s*.json"\nquestion = "refund-window"\n'
        'expect = {provenance = "grounded"}\n',
    )

    assert _results(path) == {
        "docs-and-source.json": ("provenance: expected grounded, got undecidable",),
        "read-source.json": (),
    }


def test_a_glob_matching_nothing_is_an_error(tmp_path: Path):
    path = _suite(tmp_path, '[[cases]]\ntrace = "nothing-*.json"\nquestion = "refund-window"\n')

    with pytest.raises(SuiteError, match=r"case 1 \(nothing-\*\.json\): the glob matches no file"):
        load_suite(path)


def test_a_suite_with_no_cases_is_an_error(tmp_path: Path):
    path = _suite(tmp_path, "")

    with pytest.raises(
        SuiteError, match="the suite has no \\[\\[cases\\]\\], so it grades nothing"
    ):
        load_suite(path)
