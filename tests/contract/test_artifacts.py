"""The artifact models: what a valid touch and document read are, and how invalid ones fail."""

from __future__ import annotations

from typing import Any

import pytest

from tracegrade.contract import DocumentRead, Touch, merge_ranges, parse_artifact
from tracegrade.errors import ArtifactError, InputError

TOUCH: dict[str, Any] = {
    "kind": "touch",
    "tool": "search_documents",
    "query": "loan interest",
    "result_ids": ["r1", "r2"],
}
READ: dict[str, Any] = {
    "kind": "document_read",
    "resource_type": "loan_agreement",
    "resource_key": "loan-2023",
    "title": "Loan Agreement",
    "total_chars": 9200,
    "body_served_range": [0, 4000],
}
DEEP: dict[str, Any] = {
    "kind": "document_read",
    "resource_type": "loan_agreement",
    "resource_key": "loan-2023",
    "title": "Loan Agreement",
    "total_chars": 9200,
    "coverage_mode": "deep-read",
    "read_evidence": [[0, 4000], [6000, 9200]],
}


def test_a_valid_touch_keeps_ids_in_rank_order():
    touch = parse_artifact(
        TOUCH | {"stages": [{"name": "rerank", "result_ids": ["r2", "r1"]}]},
        tool="search_documents",
        call_id="c1",
    )

    assert isinstance(touch, Touch)
    assert touch.result_ids == ("r1", "r2")
    assert touch.stages[0].result_ids == ("r2", "r1")


def test_a_direct_read_serves_one_range_and_is_complete_only_when_it_covers_all():
    partial = parse_artifact(READ, tool="read_document", call_id="c2")
    whole = parse_artifact(READ | {"body_served_range": [0, 9200]}, tool="t", call_id="c3")

    assert isinstance(partial, DocumentRead)
    assert partial.served == ((0, 4000),)
    assert not partial.complete
    assert whole.complete  # type: ignore[union-attr]


def test_a_deep_read_is_complete_only_without_gaps():
    gappy = parse_artifact(DEEP, tool="deep_read", call_id="c4")
    whole = parse_artifact(DEEP | {"read_evidence": [[0, 9200]]}, tool="deep_read", call_id="c5")

    assert isinstance(gappy, DocumentRead)
    assert gappy.served == ((0, 4000), (6000, 9200))
    assert not gappy.complete
    assert whole.complete  # type: ignore[union-attr]


def test_an_empty_document_is_complete():
    empty = parse_artifact(
        READ | {"total_chars": 0, "body_served_range": [0, 0]}, tool="t", call_id="c"
    )

    assert empty.complete  # type: ignore[union-attr]


def test_parsed_models_pass_through():
    touch = Touch(tool="search", query="q", result_ids=("r1",))

    assert parse_artifact(touch, tool="search", call_id="c1") is touch


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("r1", "an artifact is an object with kind 'touch' or 'document_read'"),
        ({"kind": "note"}, "an artifact is an object with kind 'touch' or 'document_read'"),
        (
            TOUCH | {"result_ids": ["r1", ""]},
            "result_ids.1: String should have at least 1 character",
        ),
        (TOUCH | {"result_ids": ["r1", "r1"]}, "result id 'r1' appears twice"),
        (TOUCH | {"result_ids": [1]}, "result_ids.0: Input should be a valid string"),
        (TOUCH | {"text": "the whole page"}, "text: is not allowed in an artifact"),
        ({k: v for k, v in TOUCH.items() if k != "query"}, "query: Field required"),
        (
            TOUCH | {"stages": [{"name": "pool", "result_ids": ["a", "a"]}]},
            "stage 'pool': result id 'a' appears twice",
        ),
        (READ | {"body_served_range": [0, 9300]}, "served range [0, 9300) is not inside [0, 9200]"),
        (READ | {"body_served_range": [50, 10]}, "served range [50, 10) is not inside"),
        (READ | {"total_chars": -1}, "total_chars: Input should be greater than or equal to 0"),
        (READ | {"coverage_mode": "deep-read"}, "give either body_served_range"),
        ({k: v for k, v in READ.items() if k != "body_served_range"}, "give either"),
        (READ | {"read_evidence": [[0, 10]]}, "read_evidence belongs to a deep read"),
        (DEEP | {"read_evidence": [[6000, 9200], [0, 4000]]}, "must be merged and sorted"),
        (DEEP | {"read_evidence": [[0, 4000], [4000, 9200]]}, "must be merged and sorted"),
        (READ | {"resource_key": ""}, "resource_key: String should have at least 1 character"),
        (READ | {"content": "text"}, "content: is not allowed in an artifact"),
        (READ | {"schema_version": 2}, "schema_version: Input should be 1"),
    ],
)
def test_an_invalid_artifact_names_the_call_and_the_field(data: Any, message: str):
    with pytest.raises(ArtifactError) as caught:
        parse_artifact(data, tool="read_document", call_id="call-7")

    error = caught.value
    assert isinstance(error, InputError)
    assert error.tool == "read_document"
    assert error.exit_code == 2
    assert str(error).startswith("tool 'read_document': artifact of call 'call-7': ")
    assert message in str(error)
    assert "docs/contract.md" in str(error)


@pytest.mark.parametrize(
    ("ranges", "merged"),
    [
        ([], ()),
        ([(0, 10)], ((0, 10),)),
        ([(20, 30), (0, 10)], ((0, 10), (20, 30))),
        ([(0, 10), (10, 20)], ((0, 20),)),  # touching ranges merge
        ([(0, 10), (5, 8)], ((0, 10),)),  # contained
        ([(0, 10), (5, 15), (30, 40), (35, 50)], ((0, 15), (30, 50))),
        (((5, 6), (0, 1)), ((0, 1), (5, 6))),  # a tuple works too
    ],
)
def test_merge_ranges_sorts_and_merges_overlapping_or_touching_ranges(ranges, merged):
    assert merge_ranges(ranges) == merged
