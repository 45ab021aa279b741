"""Proposals, apply and rollback through the API, and what the runner feeds the loop."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

import pytest

from tests.proposals.project import BETTER, PROMPT, write_project
from tracegrade.errors import InputError
from tracegrade.evals import load_project, run_evals
from tracegrade.proposals import (
    apply_proposal,
    approve_proposal,
    content_version,
    propose,
    reject_proposal,
    rollback,
)
from tracegrade.store import TouchpointVersionRecord

if TYPE_CHECKING:
    from pathlib import Path

    from tracegrade.evals import Project
    from tracegrade.store import Store

FILE = "prompts/answer.md"


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return load_project(write_project(tmp_path / "shop") / "tracegrade.toml")


def prompt(project: Project) -> str:
    return project.resolve(FILE).read_text(encoding="utf-8")


def test_a_proposal_keeps_both_contents_and_a_diff(store: Store, project: Project) -> None:
    made = propose(store, project, "answer_prompt", FILE, BETTER, rationale="cite", author="ana")
    assert made.id is not None
    assert store.get_proposal(made.id) == made
    assert (made.base_sha256, made.proposed_sha256) == (sha(PROMPT), sha(BETTER))
    assert store.file_blob(sha(PROMPT)) == PROMPT
    assert store.file_blob(sha(BETTER)) == BETTER
    assert made.diff.splitlines()[:2] == [f"--- a/{FILE}", f"+++ b/{FILE}"]
    assert "+Cite the source of every figure you give." in made.diff.splitlines()


def test_a_path_to_the_file_is_accepted_as_its_contract_name(
    store: Store, project: Project
) -> None:
    made = propose(
        store, project, "answer_prompt", str(project.resolve(FILE)), BETTER,
        rationale="cite", author="ana",
    )  # fmt: skip
    assert made.file == FILE


@pytest.mark.parametrize(
    ("touchpoint", "file", "text", "match"),
    [
        ("nope", FILE, BETTER, "no touchpoint 'nope'"),
        ("answer_prompt", "tracegrade.toml", BETTER, "is not one of touchpoint"),
        ("answer_prompt", FILE, PROMPT, "is the same as the current one"),
    ],
)
def test_a_bad_proposal_is_refused_and_stores_nothing(
    store: Store, project: Project, *, touchpoint: str, file: str, text: str, match: str
) -> None:
    with pytest.raises(InputError, match=match):
        propose(store, project, touchpoint, file, text, rationale="r", author="ana")
    assert store.proposals() == []


def test_signals_answered_must_be_open_signals_of_the_touchpoint(
    store: Store, project: Project
) -> None:
    run_evals(project, store)
    open_ids = [signal.id or 0 for signal in store.signals("answer_prompt")]
    with pytest.raises(InputError, match="signal 999 is not an unprocessed signal"):
        propose(store, project, "answer_prompt", FILE, BETTER, rationale="r", author="a",
                signal_ids=[999])  # fmt: skip
    with pytest.raises(InputError, match="no unprocessed signal with fingerprint nope"):
        propose(store, project, "answer_prompt", FILE, BETTER, rationale="r", author="a",
                pattern="nope")  # fmt: skip
    made = propose(store, project, "answer_prompt", FILE, BETTER, rationale="r", author="a",
                   signal_ids=open_ids[:2])  # fmt: skip
    assert made.signal_ids == open_ids[:2]
    assert [s.id for s in store.signals(processed=True)] == open_ids[:2]
    with pytest.raises(InputError, match="is not an unprocessed signal"):
        propose(store, project, "answer_prompt", FILE, BETTER, rationale="r", author="a",
                signal_ids=open_ids[:1])  # fmt: skip


def test_apply_writes_the_file_and_records_the_version_the_runner_would(
    store: Store, project: Project
) -> None:
    made = propose(store, project, "answer_prompt", FILE, BETTER, rationale="r", author="a")
    assert made.id is not None
    approve_proposal(store, made.id, by="ana")
    applied = apply_proposal(store, project, made.id, by="cy")
    assert prompt(project) == BETTER
    # Who approved and who applied are both kept, and the version says who made it.
    assert (applied.decided_by, applied.applied_by) == ("ana", "cy")
    assert applied.applied_at is not None
    assert applied.decided_at is not None
    assert applied.applied_at >= applied.decided_at
    [version] = store.touchpoint_versions("answer_prompt")
    assert version.recorded_by == "cy"
    contract = project.touchpoints[0]
    assert applied.applied_version == content_version(contract, {FILE: sha(BETTER)})
    assert applied.status == "applied"
    report = run_evals(project, store)
    assert report.touchpoints[0].version == applied.applied_version
    assert len(store.touchpoint_versions("answer_prompt")) == 1  # the run found it recorded


def test_a_rejected_proposal_is_final(store: Store, project: Project) -> None:
    made = propose(store, project, "answer_prompt", FILE, BETTER, rationale="r", author="a")
    assert made.id is not None
    assert reject_proposal(store, made.id, by="bo").status == "rejected"
    with pytest.raises(InputError, match="is rejected; it cannot become approved"):
        approve_proposal(store, made.id, by="ana")
    with pytest.raises(InputError, match="no proposal 99"):
        approve_proposal(store, 99, by="ana")


def test_rollback_restores_the_files_and_records_the_state(store: Store, project: Project) -> None:
    first = run_evals(project, store).touchpoints[0].version
    made = propose(store, project, "answer_prompt", FILE, BETTER, rationale="r", author="a")
    assert made.id is not None
    approve_proposal(store, made.id, by="ana")
    apply_proposal(store, project, made.id, by="ana")
    done = rollback(store, project, "answer_prompt", first, by="bo")
    assert prompt(project) == PROMPT
    assert (done.restored_from, done.version, done.changed) == (first, f"{first}.r1", (FILE,))
    again = rollback(store, project, "answer_prompt", first, by="bo")
    assert (again.version, again.changed) == (f"{first}.r2", ())
    assert [v.version for v in store.touchpoint_versions("answer_prompt")][:2] == [
        f"{first}.r2",
        f"{first}.r1",
    ]
    by_version = {v.version: v.recorded_by for v in store.touchpoint_versions("answer_prompt")}
    assert by_version[first] is None  # a run found it
    assert by_version[f"{first}.r1"] == "bo"


def test_rollback_of_a_version_without_kept_content_names_the_file(
    store: Store, project: Project
) -> None:
    missing = sha("an old prompt nobody kept\n")
    store.record_touchpoint_version(
        TouchpointVersionRecord(
            touchpoint="answer_prompt", version="old", registry_version="r", hashes={FILE: missing}
        )
    )
    with pytest.raises(InputError, match=f"no stored content for {FILE} \\(sha256 {missing}\\)"):
        rollback(store, project, "answer_prompt", "old", by="bo")
    assert prompt(project) == PROMPT


def test_rollback_refuses_a_file_outside_the_project(store: Store, project: Project) -> None:
    text = "escaped\n"
    store.put_file_blob(sha(text), text)
    store.record_touchpoint_version(
        TouchpointVersionRecord(
            touchpoint="answer_prompt",
            version="evil",
            registry_version="r",
            hashes={"../outside.md": sha(text)},
        )
    )
    with pytest.raises(InputError, match="outside the project folder"):
        rollback(store, project, "answer_prompt", "evil", by="bo")
    assert not (project.root.parent / "outside.md").exists()


@pytest.mark.parametrize(("severity", "signals"), [("block", 20), ("warn", 20), ("info", 0)])
def test_the_runner_signals_failing_cases_of_failed_block_and_warn_touchpoints(
    tmp_path: Path, store: Store, severity: str, signals: int
) -> None:
    folder = write_project(tmp_path / f"p-{severity}", severity=severity)
    project = load_project(folder / "tracegrade.toml")
    report = run_evals(project, store)
    assert report.touchpoints[0].verdict.failed
    found = store.signals("answer_prompt")
    assert len(found) == signals
    assert all(signal.run_id == report.run_id for signal in found)
    assert store.file_blob(sha(PROMPT)) == PROMPT  # kept for rollback


def test_a_passing_run_records_no_signal(tmp_path: Path, store: Store) -> None:
    folder = write_project(tmp_path / "good", prompt=BETTER)
    run_evals(load_project(folder / "tracegrade.toml"), store)
    assert store.signals() == []


def test_a_resumed_run_does_not_signal_twice(tmp_path: Path, store: Store) -> None:
    project = load_project(write_project(tmp_path / "p") / "tracegrade.toml")
    report = run_evals(project, store)
    run_evals(project, store, resume=report.run_id)
    assert len(store.signals("answer_prompt")) == 20
