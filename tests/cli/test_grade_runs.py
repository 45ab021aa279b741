"""``tracegrade grade PATH...`` with no question file: formats, --run, --fail-on, bad input.

Expected counts are computed here from ``verdicts.grade`` on the same traces, so the tests
hold whatever the claim scanners find.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, get_args

import pytest

from tests.cli.runner import run_cli
from tests.helpers.ray import local_ray
from tracegrade.claims import ClaimKind
from tracegrade.report import RUN_TSV_COLUMNS
from tracegrade.suites import find_trace_files
from tracegrade.traces import read_traces
from tracegrade.verdicts import grade

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tracegrade.verdicts import Grade

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "traces"
READERS = REPO / "tests" / "fixtures" / "readers"
TAU_BENCH = READERS / "tau-bench" / "valid.json"
TRUNCATED = REPO / "tests" / "fixtures" / "traces" / "truncated.json"


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[None]:
    """One local Ray instance (2 CPUs) for the module."""
    yield from local_ray()


def _grades(*paths: Path) -> list[tuple[str, Grade]]:
    """(file, grade) of every run of the files, graded here with no question."""
    return [(str(path), grade(trace)) for path in paths for trace in read_traces(path)]


def _examples() -> list[Path]:
    return sorted(EXAMPLES.glob("*.json"))


def _error_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("tracegrade: error: ")]


def test_a_folder_gives_a_block_per_run_in_sorted_order(capsys: pytest.CaptureFixture[str]):
    result = run_cli(capsys, "grade", str(EXAMPLES))

    assert result.code == 0
    blocks = result.out.rstrip("\n").split("\n\n")
    assert [block.split("\n")[0] for block in blocks] == [str(p) for p in _examples()]
    for block, (_, graded) in zip(blocks, _grades(*_examples()), strict=True):
        lines = block.split("\n")
        assert lines[1].startswith("  claims       ")
        assert lines[2].startswith("  grounded     ")
        listed = lines[3:]  # one line per claim, unsupported first
        assert len(listed) == len(graded.extracted)
        unsupported = len(graded.unsupported_claims)
        assert all(line.startswith("  unsupported  ") for line in listed[:unsupported])
        assert not any(line.startswith("  unsupported  ") for line in listed[unsupported:])
    assert result.err.startswith(f"\n{len(blocks)} run(s) from {len(blocks)} file(s): ")
    assert _error_lines(result.err) == []


def test_a_glob_grades_what_the_folder_grades(capsys: pytest.CaptureFixture[str]):
    folder = run_cli(capsys, "grade", str(EXAMPLES), "--format", "tsv")
    glob = run_cli(capsys, "grade", str(EXAMPLES / "*.json"), "--format", "tsv")

    assert glob.code == folder.code == 0
    assert glob.out == folder.out


def test_tsv_has_its_columns_and_counts_add_up(capsys: pytest.CaptureFixture[str]):
    result = run_cli(capsys, "grade", str(EXAMPLES), str(TAU_BENCH), "--format", "tsv")

    rows = [line.split("\t") for line in result.out.rstrip("\n").split("\n")]
    assert result.code == 0
    assert result.err == ""
    assert tuple(rows[0]) == RUN_TSV_COLUMNS
    graded = _grades(*_examples(), TAU_BENCH)
    assert len(rows) == 1 + len(graded)
    for row, (_, verdict) in zip(rows[1:], graded, strict=True):
        assert len(row) == len(RUN_TSV_COLUMNS)
        cell = dict(zip(RUN_TSV_COLUMNS, row, strict=True))
        assert int(cell["claims"]) == len(verdict.extracted)
        parts = ("read", "named_only", "unsupported", "given")
        assert sum(int(cell[name]) for name in parts) == len(verdict.extracted)
        share = verdict.grounded_share
        assert cell["grounded_share"] == ("-" if share is None else f"{share:.4f}")
        assert (cell["unsupported_claims"] == "-") == (not verdict.unsupported_claims)


def test_json_parses_back_with_runs_and_a_summary(capsys: pytest.CaptureFixture[str]):
    result = run_cli(capsys, "grade", str(EXAMPLES), str(TAU_BENCH), "--format", "json")

    report = json.loads(result.out)
    graded = _grades(*_examples(), TAU_BENCH)
    assert result.code == 0
    assert report["schema_version"] == 1
    assert len(report["runs"]) == len(graded)
    for entry, (path, verdict) in zip(report["runs"], graded, strict=True):
        assert entry["path"] == path
        assert entry["error"] is None
        assert entry["trace_id"] == verdict.trace_id
        assert len(entry["claims"]) == len(verdict.extracted)
        assert [c["raw"] for c in entry["unsupported"]] == [
            c.raw for c in verdict.unsupported_claims
        ]
        assert entry["grounded_share"] == verdict.grounded_share
    tau = [entry["run"] for entry in report["runs"] if entry["path"] == str(TAU_BENCH)]
    assert tau == [f"{TAU_BENCH}#{trace.id}" for trace in read_traces(TAU_BENCH)]
    summary = report["summary"]
    assert summary["files"] == len(_examples()) + 1
    assert summary["runs"] == len(graded)
    assert summary["errors"] == 0
    assert sum(summary["claims"].values()) == sum(len(v.extracted) for _, v in graded)


def test_jsonl_is_one_object_per_run_as_json_lists_them(capsys: pytest.CaptureFixture[str]):
    whole = run_cli(capsys, "grade", str(EXAMPLES), str(TAU_BENCH), "--format", "json")
    lines = run_cli(capsys, "grade", str(EXAMPLES), str(TAU_BENCH), "--format", "jsonl")

    assert lines.code == 0
    assert [json.loads(line) for line in lines.out.splitlines()] == json.loads(whole.out)["runs"]


def test_run_selects_one_run_of_a_multi_run_file(capsys: pytest.CaptureFixture[str]):
    ids = [trace.id for trace in read_traces(TAU_BENCH)]

    by_id = run_cli(capsys, "grade", str(TAU_BENCH), "--run", ids[1], "--format", "jsonl")
    by_position = run_cli(capsys, "grade", str(TAU_BENCH), "--run", "2", "--format", "jsonl")

    assert by_id.code == 0
    assert [json.loads(line)["trace_id"] for line in by_id.out.splitlines()] == [ids[1]]
    assert by_position.out == by_id.out


def test_run_that_matches_nothing_exits_2(capsys: pytest.CaptureFixture[str]):
    result = run_cli(capsys, "grade", str(TAU_BENCH), "--run", "no-such-run")

    assert result.code == 2
    assert result.out == ""
    (line,) = result.err.strip().splitlines()
    assert "'no-such-run'" in line


def _kinds_unsupported(paths: list[Path]) -> set[str]:
    return {claim.kind for _, verdict in _grades(*paths) for claim in verdict.unsupported_claims}


def test_fail_on_unsupported_exits_1_and_names_the_runs(capsys: pytest.CaptureFixture[str]):
    failing = [path for path in _examples() if _kinds_unsupported([path])]
    assert failing  # listing-guess answers a period no tool showed

    result = run_cli(capsys, "grade", str(EXAMPLES), "--fail-on", "unsupported")

    assert result.code == 1
    last = result.err.strip().splitlines()[-1]
    assert last.startswith(f"{len(failing)} run(s) with unsupported claims (unsupported): ")
    for path in failing:
        assert str(path) in last


def test_fail_on_keeps_0_when_no_run_has_such_a_claim(capsys: pytest.CaptureFixture[str]):
    grounded = [path for path in _examples() if not _kinds_unsupported([path])]
    assert grounded  # read-source reads everything it answers
    present = _kinds_unsupported(_examples())
    absent = next(kind for kind in get_args(ClaimKind) if kind not in present)
    some = sorted(present)[0]

    clean = run_cli(capsys, "grade", *map(str, grounded), "--fail-on", "unsupported")
    other_kind = run_cli(capsys, "grade", str(EXAMPLES), "--fail-on", f"unsupported:{absent}")
    that_kind = run_cli(capsys, "grade", str(EXAMPLES), "--fail-on", f"unsupported:{some}")

    assert clean.code == 0
    assert other_kind.code == 0
    assert that_kind.code == 1


@pytest.mark.parametrize(
    ("value", "expected"),
    [("unsupported:figure,colour", ["'colour'", "figure, path, url"]), ("unread", ["'unread'"])],
)
def test_fail_on_with_an_unknown_kind_or_rule_exits_2_listing_the_valid_ones(
    capsys: pytest.CaptureFixture[str], value: str, expected: list[str]
):
    result = run_cli(capsys, "grade", str(EXAMPLES), "--fail-on", value)

    assert result.code == 2
    assert result.out == ""
    for part in expected:
        assert part in result.err


def test_an_unreadable_file_among_good_ones_is_one_line_and_the_rest_go_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    for path in _examples():
        shutil.copy(path, tmp_path)
    shutil.copy(TRUNCATED, tmp_path / "cut.json")

    text = run_cli(capsys, "grade", str(tmp_path))
    as_json = run_cli(capsys, "grade", str(tmp_path), "--format", "json")
    failing = run_cli(capsys, "grade", str(tmp_path), "--fail-on", "unsupported")

    assert text.code == 0
    assert len(text.out.rstrip("\n").split("\n\n")) == len(_examples())
    (line,) = _error_lines(text.err)
    assert line.startswith(f"tracegrade: error: {tmp_path / 'cut.json'}: not valid JSON")
    assert "Traceback" not in text.err
    report = json.loads(as_json.out)
    errors = [entry for entry in report["runs"] if entry["error"] is not None]
    assert [entry["run"] for entry in errors] == [str(tmp_path / "cut.json")]
    assert report["summary"]["errors"] == 1
    assert report["summary"]["runs"] == len(_examples())
    assert failing.code == 1


@pytest.mark.parametrize("output_format", ["text", "json"])
def test_nothing_readable_exits_2_with_the_count_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], output_format: str
):
    shutil.copy(TRUNCATED, tmp_path / "a.json")
    (tmp_path / "b.json").write_text("[1, 2]", encoding="utf-8")

    result = run_cli(capsys, "grade", str(tmp_path), "--format", output_format)

    assert result.code == 2
    assert result.out == ""
    lines = _error_lines(result.err)
    assert len(lines) == 3
    assert str(tmp_path / "a.json") in lines[0]
    assert str(tmp_path / "b.json") in lines[1]
    assert "no trace could be read: 2 file(s)" in lines[2]


def test_no_trace_file_found_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")

    empty = run_cli(capsys, "grade", str(tmp_path))
    glob = run_cli(capsys, "grade", str(tmp_path / "*.jsonl"))

    for result in (empty, glob):
        assert result.code == 2
        assert result.out == ""
        (line,) = result.err.strip().splitlines()
        assert line.startswith("tracegrade: error: no trace files found in ")


def test_a_target_that_names_nothing_beside_others_is_an_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    result = run_cli(capsys, "grade", str(EXAMPLES), str(tmp_path))

    assert result.code == 0
    (line,) = _error_lines(result.err)
    assert line.startswith(f"tracegrade: error: {tmp_path}: no trace files")


@pytest.mark.parametrize(
    "args",
    [
        ["--workers", "2"],
        ["--fail-on", "unsupported"],
    ],
)
def test_bulk_options_do_not_go_with_a_suite(capsys: pytest.CaptureFixture[str], args: list[str]):
    result = run_cli(capsys, "grade", str(REPO / "examples" / "suite.toml"), *args)

    assert result.code == 2
    assert "go with grading without a question file" in result.err


def test_question_needs_a_question_file(capsys: pytest.CaptureFixture[str]):
    result = run_cli(capsys, "grade", str(EXAMPLES), "--question", "refund-window")

    assert result.code == 2
    assert "--question goes with --question-file" in result.err


@pytest.mark.parametrize("output_format", ["tsv", "json"])
def test_two_workers_write_what_one_writes(capsys: pytest.CaptureFixture[str], output_format: str):
    args = ["grade", str(EXAMPLES), str(READERS), "--format", output_format]
    one = run_cli(capsys, *args)
    two = run_cli(capsys, *args, "--workers", "2")

    assert one.code == two.code == 0
    assert two.out == one.out
    assert two.err == one.err
    assert len(_error_lines(one.err)) > 0  # the readers' invalid fixtures are among them


def test_ray_writes_what_one_worker_writes(ray_instance: None, capsys: pytest.CaptureFixture[str]):
    args = ["grade", str(EXAMPLES), str(READERS), "--format", "jsonl"]
    one = run_cli(capsys, *args)
    ray = run_cli(capsys, *args, "--executor", "ray", "--workers", "2")

    assert ray.code == one.code == 0
    assert ray.out == one.out


def test_jsonl_streams_and_eval_logs_in_a_folder_name_each_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    sources = [READERS / "openai-chat" / "valid.jsonl", READERS / "inspect" / "valid.eval"]
    for source in sources:
        shutil.copy(source, tmp_path / source.name)
    copies = sorted(tmp_path.iterdir())
    expected = [f"{path}#{trace.id}" for path in copies for trace in read_traces(path)]
    assert len(expected) > len(copies)

    result = run_cli(capsys, "grade", str(tmp_path), "--format", "jsonl")

    assert result.code == 0
    assert [json.loads(line)["run"] for line in result.out.splitlines()] == expected


def test_from_reads_every_file_with_that_reader(capsys: pytest.CaptureFixture[str]):
    detected = run_cli(capsys, "grade", str(TAU_BENCH), "--format", "tsv")
    forced = run_cli(capsys, "grade", str(TAU_BENCH), "--from", "tau-bench", "--format", "tsv")
    wrong = run_cli(capsys, "grade", str(TAU_BENCH), "--from", "atif")

    assert forced.code == detected.code == 0
    assert forced.out == detected.out
    assert wrong.code == 2  # the only file, read as ATIF, is not one
    assert str(TAU_BENCH) in _error_lines(wrong.err)[0]


@pytest.mark.corpus
def test_every_real_nine_commits_trace_is_graded(
    nine_commits: Path, capsys: pytest.CaptureFixture[str]
):
    files = find_trace_files([nine_commits]).files
    assert len(files) >= 18

    result = run_cli(capsys, "grade", str(nine_commits), "--format", "jsonl", "--workers", "2")

    runs = [json.loads(line) for line in result.out.splitlines()]
    assert result.code == 0
    assert [run["run"] for run in runs] == [str(path) for path in files]
    assert [run["error"] for run in runs] == [None] * len(files)
