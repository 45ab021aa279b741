"""``tracegrade baseline import``: a folder of JSON baselines into the store, in one command."""

from __future__ import annotations

import json
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import pytest

from tests.cli.runner import run_cli
from tracegrade.store import open_store

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from tracegrade.store import Store


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'store.db'}"


@contextmanager
def _opened(url: str) -> Iterator[Store]:
    store = open_store(url)
    try:
        yield store
    finally:
        store.close()


def _write(folder: Path, name: str, document: Any) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_a_folder_becomes_finished_runs_and_current_baselines(
    tmp_path: Path, url: str, capsys: pytest.CaptureFixture[str]
):
    folder = tmp_path / "baselines"
    _write(
        folder,
        "refunds.json",
        {
            "touchpoint": "refunds",
            "metric": 0.75,
            "cases": {"a": "passed", "b": True, "c": "passed", "d": False},
        },
    )
    _write(folder, "search.json", {"cases": {"q1": "failed", "q2": ["passed", "failed"]}})
    (folder / "notes.txt").write_text("ignored", encoding="utf-8")

    result = run_cli(capsys, "baseline", "import", str(folder), "--store", url)

    assert result.code == 0, result.err
    lines = result.out.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("refunds: baseline 0.75 from run import-refunds-")
    assert lines[0].endswith("(4 cases, refunds.json)")
    assert lines[1].startswith("search: baseline 0.333 from run import-search-")
    with _opened(url) as store:
        refunds = store.baseline("refunds")
        search = store.baseline("search")
        assert refunds is not None
        assert search is not None
        assert refunds.metric == 0.75
        assert refunds.outcomes == {
            "a": ("passed",),
            "b": ("passed",),
            "c": ("passed",),
            "d": ("failed",),
        }
        assert search.outcomes == {"q1": ("failed",), "q2": ("passed", "failed")}
        run = store.get_run(refunds.run_id)
        assert run is not None
        assert run.status == "finished"
        assert run.summary["metric"] == 0.75
        assert len(store.case_results(search.run_id)) == 3


def test_importing_the_same_folder_again_stores_nothing_new(
    tmp_path: Path, url: str, capsys: pytest.CaptureFixture[str]
):
    folder = tmp_path / "b"
    _write(folder, "refunds.json", {"cases": {"a": "passed"}})
    assert run_cli(capsys, "baseline", "import", str(folder), "--store", url).code == 0
    again = run_cli(capsys, "baseline", "import", str(folder), "--store", url)
    assert again.code == 0, again.err
    assert "already imported from refunds.json, skipped" in again.out
    with _opened(url) as store:
        assert len(store.list_runs()) == 1
        assert len(store.baseline_history("refunds")) == 1


def test_json_output_lists_each_file(tmp_path: Path, url: str, capsys: pytest.CaptureFixture[str]):
    folder = tmp_path / "b"
    _write(folder, "refunds.json", {"metric": 1, "cases": {"a": True}})
    result = run_cli(capsys, "baseline", "import", str(folder), "--store", url, "--format", "json")
    assert result.code == 0, result.err
    [item] = json.loads(result.out)
    assert item["file"].endswith("refunds.json")
    assert item["imported"] is True
    assert [b["metric"] for b in item["baselines"]] == [1.0]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "is not valid JSON"),
        ("[]", "is not a JSON object"),
        (json.dumps({"cases": {}}), "'cases' must be a non-empty object"),
        (json.dumps({"cases": {"a": "maybe"}}), "case 'a' has the outcome 'maybe'"),
        (json.dumps({"cases": {"a": True}, "metric": "high"}), "'metric' must be a number"),
        (json.dumps({"cases": {"a": True, "b": False}, "metric": 0.9}), "'metric' 0.9 is not"),
        (json.dumps({"cases": {"a": True}, "extra": 1}), "unknown keys extra"),
        (json.dumps({"touchpoint": "", "cases": {"a": True}}), "'touchpoint' must be"),
    ],
)
def test_a_bad_file_is_named_exits_2_and_nothing_is_stored(
    tmp_path: Path, url: str, capsys: pytest.CaptureFixture[str], content: str, message: str
):
    folder = tmp_path / "b"
    _write(folder, "a_good.json", {"cases": {"x": "passed"}})
    (folder / "broken.json").write_text(content, encoding="utf-8")

    result = run_cli(capsys, "baseline", "import", str(folder), "--store", url)

    assert result.code == 2
    assert "broken.json" in result.err
    assert message in result.err
    with _opened(url) as store:
        assert store.list_runs() == []


def test_two_files_for_one_touchpoint_are_refused(
    tmp_path: Path, url: str, capsys: pytest.CaptureFixture[str]
):
    folder = tmp_path / "b"
    _write(folder, "one.json", {"touchpoint": "refunds", "cases": {"x": "passed"}})
    _write(folder, "two.json", {"touchpoint": "refunds", "cases": {"y": "passed"}})
    result = run_cli(capsys, "baseline", "import", str(folder), "--store", url)
    assert result.code == 2
    assert "two.json" in result.err
    assert "one.json" in result.err


def test_an_empty_or_missing_folder_exits_2(
    tmp_path: Path, url: str, capsys: pytest.CaptureFixture[str]
):
    (tmp_path / "empty").mkdir()
    empty = run_cli(capsys, "baseline", "import", str(tmp_path / "empty"), "--store", url)
    assert empty.code == 2
    assert "holds no .json files" in empty.err
    missing = run_cli(capsys, "baseline", "import", str(tmp_path / "nope"), "--store", url)
    assert missing.code == 2
