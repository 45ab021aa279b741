"""tracegrade.toml: loading, suite-kind inference, and errors naming file, touchpoint, field."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

import pytest

from tests.evals.builders import touchpoint_table, write_project
from tracegrade.errors import InputError, ProjectError
from tracegrade.evals import (
    DEFAULT_STORE_URL,
    Touchpoint,
    TouchpointEntry,
    file_hashes,
    load_project,
)

if TYPE_CHECKING:
    from pathlib import Path


def test_the_issue_example_loads_with_every_field(tmp_path: Path):
    project = load_project(write_project(tmp_path), registered=())
    first = project.entry("search_knowledge").touchpoint
    assert first.kind == "tool"
    assert first.owner == "retrieval-team"
    assert first.suite_kind == "grade"  # inferred from [[questions]] / [[cases]]
    assert first.grounding_shape == "citations"
    assert first.severity_on_fail == "block"
    assert first.variance_band == 0.02
    assert first.repeats == 3
    assert first.files == ("prompts/search.md",)
    assert (first.baseline.min, first.baseline.max_drop) == (0.8, 0.05)
    assert first.lanes == ("pr", "nightly")
    kinds = {t.id: t.suite_kind for t in project.touchpoints}
    assert kinds == {
        "search_knowledge": "grade",
        "spreadsheet_writer": "guard",  # inferred from [tools]
        "legal_answers": "contract",  # inferred from [contract]
        "old_evals": "command",  # inferred from command
    }
    assert project.entries[1].origin == f"{tmp_path / 'tracegrade.toml'}, touchpoint 2"


def test_lanes_and_repeats(tmp_path: Path):
    project = load_project(write_project(tmp_path), registered=())
    assert [e.touchpoint.id for e in project.in_lane("pr")] == [
        "search_knowledge",
        "spreadsheet_writer",
        "old_evals",
    ]
    assert len(project.in_lane("nightly")) == 4
    legal = project.entry("legal_answers").touchpoint
    assert (legal.repeats_in("pr"), legal.repeats_in("nightly")) == (1, 5)
    search = project.entry("search_knowledge").touchpoint
    assert (search.repeats_in("pr"), search.repeats_in("nightly")) == (3, 3)


def test_paths_resolve_against_the_project_file(tmp_path: Path):
    project = load_project(write_project(tmp_path), registered=())
    assert project.root == tmp_path
    assert project.store_url == f"sqlite:///{tmp_path.as_posix()}/.tracegrade/tracegrade.db"
    writer = project.entry("spreadsheet_writer").touchpoint
    assert project.trace_files(writer) == (tmp_path / "traces" / "one.json",)
    assert project.resolve("suites/guard.toml").is_file()


@pytest.mark.parametrize(
    ("url", "resolved"),
    [
        ("sqlite:////abs/db.sqlite", "sqlite:////abs/db.sqlite"),
        ("sqlite:///:memory:", "sqlite:///:memory:"),
        ("postgresql+psycopg://u@h/db", "postgresql+psycopg://u@h/db"),
    ],
)
def test_other_store_urls_are_kept(tmp_path: Path, url: str, resolved: str):
    path = write_project(tmp_path, f'[store]\nurl = "{url}"\n')
    assert load_project(path, registered=()).store_url == resolved


def test_store_defaults_and_a_project_of_no_touchpoints(tmp_path: Path):
    project = load_project(write_project(tmp_path, "[store]\n"), registered=())
    assert project.config.store.url == DEFAULT_STORE_URL
    assert project.touchpoints == ()


def test_an_empty_project_file_is_an_error_unless_python_declares_touchpoints(tmp_path: Path):
    with pytest.raises(ProjectError, match="the project file is empty and no @touchpoint"):
        load_project(write_project(tmp_path, ""), registered=())


def test_unknown_touchpoint_names_the_known_ones(tmp_path: Path):
    project = load_project(write_project(tmp_path), registered=())
    with pytest.raises(ProjectError, match="Known touchpoints: search_knowledge, "):
        project.entry("nope")


# -- every validation error names the touchpoint and the field ---------------------------

BAD_FIELDS = [
    ({"kind": "tools"}, "kind", "'tool'"),
    ({"owner": ""}, "owner", "at least 1 character"),
    ({"owner": None}, "owner", "is missing"),
    ({"severity_on_fail": "fatal"}, "severity_on_fail", "'block'"),
    ({"severity_on_fail": None}, "severity_on_fail", "is missing"),
    ({"grounding_shape": "json"}, "grounding_shape", "'citations'"),
    ({"suite_kind": "pytest"}, "suite_kind", "'grade'"),
    ({"variance_band": 1.5}, "variance_band", "less than or equal to 1"),
    ({"variance_band": -0.1}, "variance_band", "greater than or equal to 0"),
    ({"variance_band": "0.1"}, "variance_band", "valid number"),
    ({"repeats": 0}, "repeats", "greater than or equal to 1"),
    ({"repeats": 2.5}, "repeats", "valid integer"),
    ({"nightly_repeats": 0}, "nightly_repeats", "greater than or equal to 1"),
    ({"lanes": ["pr", "weekly"]}, "lanes", "'nightly'"),
    ({"lanes": []}, "lanes", "at least 1 item"),
    ({"lanes": ["pr", "pr"]}, "lanes", "lists an entry twice"),
    ({"files": ["prompts/search.md", "prompts/search.md"]}, "files", "twice"),
    ({"baseline": {"min": 1.2}}, "baseline.min", "less than or equal to 1"),
    ({"baseline": {"max_drop": -0.01}}, "baseline.max_drop", "greater than or equal to 0"),
    ({"baseline": {"min": 0.8, "max_dorp": 0.1}}, "baseline.max_dorp", "not a known field"),
    ({"severity": "block"}, "severity", "not a known field"),
    ({"traces": "traces/*.json"}, "traces", "not used by suite_kind 'grade'"),
    ({"suite_kind": "guard"}, "traces", "suite_kind 'guard' needs a glob"),
    ({"suite_kind": "command", "suite": None}, "command", "needs the command"),
    (
        {"suite_kind": "command", "suite": None, "command": ["x"]},
        "output_format",
        "needs 'junit' or 'json'",
    ),
    ({"suite_kind": "gate", "suite": None}, "call", "needs the suite function"),
    ({"suite_kind": "callable", "suite": None, "call": "not a ref"}, "call", "pattern"),
    ({"suite_kind": "grade", "suite": None}, "suite", "needs the suite file"),
]


@pytest.mark.parametrize(("fields", "field", "message"), BAD_FIELDS)
def test_each_bad_field_is_named_with_its_touchpoint(
    tmp_path: Path, fields: dict[str, object], field: str, message: str
):
    path = write_project(tmp_path, touchpoint_table(id="ok") + touchpoint_table(**fields))
    with pytest.raises(ProjectError) as caught:
        load_project(path, registered=())
    error = caught.value
    assert isinstance(error, InputError)
    assert error.exit_code == 2
    assert error.touchpoint == "'tp'"
    assert error.field == field
    assert error.path == str(path)
    assert str(error).startswith(f"{path}: touchpoint 'tp', field {field!r}: ")
    assert message in str(error)
    assert "docs/evals.md" in str(error)


def test_a_touchpoint_without_a_valid_id_is_named_by_position(tmp_path: Path):
    path = write_project(tmp_path, touchpoint_table(id="ok") + touchpoint_table(id="has space"))
    with pytest.raises(ProjectError) as caught:
        load_project(path, registered=())
    assert caught.value.touchpoint == "'has space'"
    assert caught.value.field == "id"
    path = write_project(tmp_path, touchpoint_table(id="ok") + touchpoint_table(id=None))
    with pytest.raises(ProjectError, match=r"touchpoint #2, field 'id': is missing"):
        load_project(path, registered=())


def test_duplicate_ids_in_the_file(tmp_path: Path):
    path = write_project(tmp_path, touchpoint_table(id="tp") + touchpoint_table(id="tp"))
    with pytest.raises(ProjectError, match=r"touchpoint 'tp', field 'id': is declared twice"):
        load_project(path, registered=())


def test_unknown_top_level_key_and_store_field(tmp_path: Path):
    with pytest.raises(ProjectError, match=r"field 'touchpoint': is not a known field"):
        load_project(write_project(tmp_path, "[[touchpoint]]\nid = 'x'\n"), registered=())
    with pytest.raises(ProjectError, match=r"field 'store.uri': is not a known field"):
        load_project(write_project(tmp_path, "[store]\nuri = 'x'\n"), registered=())


def test_missing_suite_file_names_the_touchpoint(tmp_path: Path):
    path = write_project(tmp_path, touchpoint_table(suite="suites/nope.toml"))
    with pytest.raises(ProjectError) as caught:
        load_project(path, registered=())
    assert (caught.value.touchpoint, caught.value.field) == ("'tp'", "suite")
    assert "nope.toml does not exist" in str(caught.value)
    # With suite_kind given, the file is not read for inference and still must exist.
    path = write_project(tmp_path, touchpoint_table(suite="suites/nope.toml", suite_kind="grade"))
    with pytest.raises(ProjectError, match=r"touchpoint 'tp', field 'suite': the suite file"):
        load_project(path, registered=())


def test_a_suite_file_that_does_not_show_its_kind(tmp_path: Path):
    write_project(tmp_path)
    (tmp_path / "suites" / "odd.toml").write_text("[other]\nx = 1\n", encoding="utf-8")
    path = write_project(tmp_path, touchpoint_table(suite="suites/odd.toml"))
    with pytest.raises(ProjectError, match=r"'suite_kind': suite_kind is not set and suites/odd"):
        load_project(path, registered=())
    (tmp_path / "suites" / "odd.toml").write_text("[other\n", encoding="utf-8")
    with pytest.raises(ProjectError, match=r"touchpoint 'tp', field 'suite': .* not valid TOML"):
        load_project(path, registered=())


def test_missing_listed_file_and_empty_traces_glob(tmp_path: Path):
    path = write_project(tmp_path, touchpoint_table(files=["prompts/gone.md"]))
    with pytest.raises(ProjectError, match=r"touchpoint 'tp', field 'files': prompts/gone.md"):
        load_project(path, registered=())
    table = touchpoint_table(suite="suites/guard.toml", traces="runs/*.json")
    with pytest.raises(ProjectError, match=r"field 'traces': the glob 'runs/\*.json' matches no"):
        load_project(write_project(tmp_path, table), registered=())


def test_unreadable_and_invalid_project_files(tmp_path: Path):
    with pytest.raises(ProjectError, match=r"does not exist"):
        load_project(tmp_path / "tracegrade.toml", registered=())
    (tmp_path / "tracegrade.toml").write_text("[store\n", encoding="utf-8")
    with pytest.raises(ProjectError, match=r"not valid TOML"):
        load_project(tmp_path / "tracegrade.toml", registered=())


def _python_entry(touchpoint_id: str, files: tuple[str, ...] = ()) -> TouchpointEntry:
    contract = Touchpoint(
        id=touchpoint_id,
        kind="inline",
        owner="team",
        suite_kind="callable",
        call="pkg.mod:suite",
        severity_on_fail="warn",
        files=files,
    )
    return TouchpointEntry(contract, "python pkg.mod:suite", lambda repeat: [])


def test_python_touchpoints_are_merged_after_the_file_ones(tmp_path: Path):
    path = write_project(tmp_path)
    project = load_project(path, registered=[_python_entry("inline_summary")])
    assert project.touchpoints[-1].id == "inline_summary"
    assert project.entry("inline_summary").function is not None
    assert len(project.touchpoints) == 5


def test_a_python_touchpoint_with_a_file_id_names_both_origins(tmp_path: Path):
    path = write_project(tmp_path)
    with pytest.raises(ProjectError) as caught:
        load_project(path, registered=[_python_entry("search_knowledge")])
    message = str(caught.value)
    assert "touchpoint 'search_knowledge', field 'id': is declared twice" in message
    assert f"in {path}, touchpoint 1 and in python pkg.mod:suite" in message


def test_a_python_touchpoints_files_must_exist(tmp_path: Path):
    path = write_project(tmp_path)
    with pytest.raises(ProjectError, match=r"python pkg.mod:suite: touchpoint 'py', field 'files'"):
        load_project(path, registered=[_python_entry("py", files=("gone.md",))])


def test_file_hashes_are_sha256_of_the_bytes(tmp_path: Path):
    project = load_project(write_project(tmp_path), registered=())
    search = project.entry("search_knowledge").touchpoint
    expected = hashlib.sha256(b"Search the knowledge base.\n").hexdigest()
    assert file_hashes(search, project.root) == {"prompts/search.md": expected}
    (tmp_path / "prompts" / "search.md").write_text("Search it.\n", encoding="utf-8")
    assert file_hashes(search, project.root)["prompts/search.md"] != expected
    (tmp_path / "prompts" / "search.md").unlink()
    with pytest.raises(ProjectError, match=r"touchpoint 'search_knowledge', field 'files'"):
        file_hashes(search, project.root)
