"""SPEC 11.3 (observation.test.ts) ported, plus the decoding rules of SPEC 3 and 13."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from tests.helpers.builders import (
    approval,
    assistant,
    call,
    command_body,
    failed_body,
    listing_body,
    make_trace,
    one_call,
    read_body,
    result,
    search_body,
    user,
)
from tracegrade.errors import RegistryError, UnreadableResultError
from tracegrade.observations import (
    Document,
    LineObservation,
    PathObservation,
    decoder,
    decoders,
    observe,
    unregister_decoder,
)

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from tracegrade.observations import Observation, Source


def observed(name: str, body: Any, *, ok: bool = True) -> list[Observation]:
    """Observations of one call to ``name`` whose result (frame 2) is ``body``."""
    return list(observe(one_call(name, body, ok=ok)))


def lines(observations: Sequence[Observation]) -> list[tuple[str, int | float, str]]:
    return [(o.file, o.line, o.text) for o in observations if isinstance(o, LineObservation)]


def unreadable(name: str, body: Any, *, ok: bool = True) -> UnreadableResultError:
    with pytest.raises(UnreadableResultError) as caught:
        observe(one_call(name, body, ok=ok))
    return caught.value


# Listing, search, failure ---------------------------------------------------------------------


def test_listing_yields_one_path_per_entry_in_order() -> None:
    found = observed("list_files", listing_body(["src/server.ts", "README.md"]))
    assert found == [
        PathObservation(id="f2.1", frame=2, tool="list_files", file="src/server.ts"),
        PathObservation(id="f2.2", frame=2, tool="list_files", file="README.md"),
    ]
    assert all(o.kind == "path" for o in found)


def test_search_yields_lines_with_file_and_line_number() -> None:
    body = search_body(
        [
            {"file": "src/a.ts", "line": 7, "text": "const PORT = 1"},
            {"file": "src/b.ts", "line": 12.0, "text": "PORT again"},
        ]
    )
    found = observed("search_files", body)
    assert found == [
        LineObservation(
            id="f2.1", frame=2, tool="search_files", file="src/a.ts", line=7, text="const PORT = 1"
        ),
        LineObservation(
            id="f2.2", frame=2, tool="search_files", file="src/b.ts", line=12.0, text="PORT again"
        ),
    ]
    assert all(o.kind == "line" for o in found)


def test_failed_call_with_failure_body_yields_nothing() -> None:
    assert observed("read_file", failed_body("ENOENT"), ok=False) == []
    assert observed("read_file", {"ok": False}, ok=False) == []


def test_observations_count_paths_and_lines_together() -> None:
    trace = make_trace(
        [
            user(),
            call("c1", "list_files"),
            result("c1", True, listing_body(["a", "b", "c"])),
            call("c2", "read_file"),
            result("c2", True, read_body("a", "x\ny")),
            assistant("done"),
        ]
    )
    observations = observe(trace)
    assert observations.count == 5
    assert len(observations) == 5
    assert [o.id for o in observations] == ["f2.1", "f2.2", "f2.3", "f4.1", "f4.2"]


# Unreadable results ---------------------------------------------------------------------------


def test_read_file_with_wrong_field_name_raises_naming_tool_and_frame() -> None:
    error = unreadable("read_file", {"ok": True, "contents": "const PORT = 4321"})
    assert "read_file" in str(error)
    assert "frame 2" in str(error)
    assert (error.frame, error.tool) == (2, "read_file")
    assert isinstance(error, ValueError)


def test_orphan_result_raises_naming_the_frame() -> None:
    trace = make_trace(
        [user(), call("c1", "list_files"), result("c9", True, listing_body(["a"])), assistant("")]
    )
    with pytest.raises(UnreadableResultError) as caught:
        observe(trace)
    assert "frame 2" in str(caught.value)
    assert caught.value.frame == 2


def test_result_before_its_call_is_an_orphan() -> None:
    trace = make_trace(
        [user(), result("c1", True, listing_body(["a"])), call("c1", "list_files"), assistant("")]
    )
    with pytest.raises(UnreadableResultError, match="frame 1"):
        observe(trace)


def test_unknown_result_shape_raises() -> None:
    error = unreadable("move_file", {"ok": True, "from": "a.ts", "to": "b.ts"})
    assert "frame 2" in str(error)
    assert "move_file" in str(error)


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(None, id="null"),
        pytest.param([{"ok": True, "files": ["a"]}], id="array"),
        pytest.param("ok", id="string"),
        pytest.param({"files": ["a"]}, id="no-ok"),
        pytest.param({"ok": 1, "files": ["a"]}, id="ok-is-1"),
        pytest.param({"ok": "true", "files": ["a"]}, id="ok-is-string"),
    ],
)
def test_successful_result_must_be_an_object_whose_ok_is_true(body) -> None:
    error = unreadable("list_files", body)
    assert (error.frame, error.tool) == (2, "list_files")


def test_missing_result_passes_validation_then_fails_decoding() -> None:
    trace = make_trace(
        [
            user(),
            call("c1", "list_files"),
            {"type": "tool_result", "id": "c1", "ok": True},
            assistant("done"),
        ]
    )
    with pytest.raises(UnreadableResultError, match="frame 2"):
        observe(trace)


def test_frame_ok_true_with_result_ok_false_raises() -> None:
    error = unreadable("read_file", failed_body("ENOENT"))
    assert "frame 2" in str(error)
    assert "read_file" in str(error)


@pytest.mark.parametrize(
    "body",
    [
        pytest.param("permission denied", id="string"),
        pytest.param(None, id="null"),
        pytest.param([{"ok": False}], id="array"),
        pytest.param({"error": "boom"}, id="no-ok"),
        pytest.param({"ok": True, "files": ["a"]}, id="ok-true"),
        pytest.param({"ok": 0, "error": "boom"}, id="ok-is-0"),
    ],
)
def test_failed_frame_whose_result_is_not_a_failure_object_raises(body) -> None:
    error = unreadable("run_command", body, ok=False)
    assert "frame 2" in str(error)
    assert "run_command" in str(error)
    assert (error.frame, error.tool) == (2, "run_command")


# Read, write, command -------------------------------------------------------------------------


def test_read_splits_content_and_ignores_the_lines_field() -> None:
    body = read_body("config.json", '{\n  "timeoutMs": 4500\n}', lines=2)
    found = observed("read_file", body)
    assert lines(found) == [
        ("config.json", 1, "{"),
        ("config.json", 2, '  "timeoutMs": 4500'),
        ("config.json", 3, "}"),
    ]
    assert [o.id for o in found] == ["f2.1", "f2.2", "f2.3"]


def test_write_result_yields_nothing_and_does_not_raise() -> None:
    body = {"ok": True, "file": "notes.md", "bytes": 120, "created": False}
    assert observed("write_file", body) == []
    assert observed("edit_file", {**body, "created": True}) == []


def test_command_streams_are_separate_sources_numbered_from_one() -> None:
    body = command_body(
        "grep -r parcel .",
        "a.ts:1:parcel\nb.ts:4:parcel",
        "grep: c: Permission denied\ngrep: d: Permission denied",
    )
    assert lines(observed("run_command", body)) == [
        ("$ grep -r parcel .", 1, "a.ts:1:parcel"),
        ("$ grep -r parcel .", 2, "b.ts:4:parcel"),
        ("$ grep -r parcel . [stderr]", 1, "grep: c: Permission denied"),
        ("$ grep -r parcel . [stderr]", 2, "grep: d: Permission denied"),
    ]


def test_command_skips_empty_streams_only() -> None:
    assert lines(observed("run_command", command_body("true", "", ""))) == []
    assert lines(observed("run_command", command_body("ls", "", "oops"))) == [
        ("$ ls [stderr]", 1, "oops")
    ]
    # A stream of one newline is not empty: it is two empty lines.
    assert lines(observed("run_command", command_body("echo", "\n"))) == [
        ("$ echo", 1, ""),
        ("$ echo", 2, ""),
    ]


def test_refused_command_yields_nothing() -> None:
    body = {"ok": False, "error": "command refused: rm is not allowed"}
    assert observed("run_command", body, ok=False) == []


# Tool path and final answer -------------------------------------------------------------------


def test_tool_path_is_every_call_name_in_order_including_denied_calls() -> None:
    trace = make_trace(
        [
            user(),
            call("c1", "list_files"),
            call("c2", "run_command"),
            approval("run_command", "deny"),
            result("c1", True, listing_body(["a"])),
            call("c3", "read_file"),
            assistant("done"),
        ]
    )
    assert trace.tool_path == ("list_files", "run_command", "read_file")


def test_final_answer_is_the_last_non_blank_assistant_message_untrimmed() -> None:
    trace = make_trace(
        [user(), assistant("first"), assistant("  second\n"), assistant(" \t\n\ufeff\u3000")]
    )
    assert trace.final_answer == "  second\n"


def test_final_answer_uses_the_javascript_whitespace_set() -> None:
    # U+0085 and U+001C are not JavaScript whitespace, so these messages are not blank.
    assert make_trace([assistant("x"), assistant("\x85")]).final_answer == "\x85"
    assert make_trace([assistant("x"), assistant("\x1c")]).final_answer == "\x1c"


def test_final_answer_is_empty_when_no_assistant_message_is_left() -> None:
    assert make_trace([user(), call("c1", "list_files")]).final_answer == ""
    assert make_trace([user(), assistant("   ")]).final_answer == ""


def test_any_tool_failed() -> None:
    failed = one_call("read_file", failed_body(), ok=False)
    fine = one_call("list_files", listing_body([]))
    assert failed.any_tool_failed
    assert not fine.any_tool_failed


# Pairing --------------------------------------------------------------------------------------


def test_parallel_calls_with_results_out_of_order_and_an_approval_between() -> None:
    trace = make_trace(
        [
            user(),
            call("c1", "list_files"),
            call("c2", "read_file"),
            approval("read_file", "allow"),
            result("c2", True, read_body("a.ts", "x")),
            result("c1", True, listing_body(["a.ts"])),
            assistant("done"),
        ]
    )
    assert [(o.id, o.tool, o.kind) for o in observe(trace)] == [
        ("f4.1", "read_file", "line"),
        ("f5.1", "list_files", "path"),
    ]


def test_a_later_call_with_the_same_id_overwrites_the_earlier_one() -> None:
    trace = make_trace(
        [
            user(),
            call("c1", "list_files"),
            call("c1", "read_file"),
            result("c1", True, read_body("a.ts", "x")),
            assistant("done"),
        ]
    )
    assert [o.tool for o in observe(trace)] == ["read_file"]


def test_frames_other_than_results_are_never_observations() -> None:
    trace = make_trace(
        [
            user("src/server.ts 4321"),
            call("c1", "read_file", {"path": "src/server.ts"}),
            {"type": "compaction", "before": 9, "after": 1, "summary": "4321"},
            approval("read_file", "deny"),
            assistant("4321"),
        ]
    )
    assert observe(trace).count == 0


# Shape precedence and strict types ------------------------------------------------------------


def test_search_wins_over_listing() -> None:
    body = {"ok": True, "files": ["x.ts"], "matches": [{"file": "a.ts", "line": 1, "text": "t"}]}
    assert lines(observed("list_files", body)) == [("a.ts", 1, "t")]


def test_extra_keys_never_stop_a_match() -> None:
    body = {**listing_body(["a"]), "truncated": True, "cwd": "/repo", "note": None}
    assert [o.file for o in observed("list_files", body)] == ["a"]


def test_empty_search_is_a_search_not_an_error() -> None:
    assert observed("search_files", search_body([])) == []


def test_bad_search_falls_through_to_later_shapes() -> None:
    # The match's line is a string, so this is no search; the files key makes it a listing.
    body = {"ok": True, "matches": [{"file": "a.ts", "line": "7", "text": "t"}], "files": ["b"]}
    assert [(o.kind, o.file) for o in observed("search_files", body)] == [("path", "b")]


@pytest.mark.parametrize(
    "match",
    [
        pytest.param({"file": "a.ts", "line": "7", "text": "t"}, id="line-string"),
        pytest.param({"file": "a.ts", "line": True, "text": "t"}, id="line-bool"),
        pytest.param({"file": "a.ts", "line": None, "text": "t"}, id="line-null"),
        pytest.param({"file": 1, "line": 7, "text": "t"}, id="file-number"),
        pytest.param({"file": "a.ts", "line": 7}, id="text-missing"),
        pytest.param(["a.ts", 7, "t"], id="match-array"),
    ],
)
def test_search_fields_are_typed_strictly(match) -> None:
    error = unreadable(
        "search_files", search_body([{"file": "ok.ts", "line": 1, "text": "t"}, match])
    )
    assert (error.frame, error.tool) == (2, "search_files")


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(
            {"ok": True, "file": "a", "lines": True, "content": "x"}, id="read-lines-bool"
        ),
        pytest.param({"ok": True, "file": "a", "lines": "1", "content": "x"}, id="read-lines-str"),
        pytest.param(
            {"ok": True, "file": "a", "lines": 1, "content": None}, id="read-content-null"
        ),
        pytest.param(
            {"ok": True, "file": "a", "bytes": False, "created": True}, id="write-bytes-bool"
        ),
        pytest.param({"ok": True, "file": "a", "bytes": 3, "created": 1}, id="write-created-1"),
        pytest.param({"ok": True, "files": ["a", 2]}, id="listing-non-string"),
        pytest.param({"ok": True, "files": "a"}, id="listing-not-array"),
        pytest.param(
            {"ok": True, "url": "u", "title": "t", "chars": True, "content": "x"},
            id="page-chars-bool",
        ),
        pytest.param(
            {"ok": True, "command": "ls", "stdout": None, "stderr": ""}, id="command-null"
        ),
        pytest.param({"ok": True, "results": [{"title": "t", "url": "u"}]}, id="web-no-snippet"),
    ],
)
def test_shape_fields_are_typed_strictly(body) -> None:
    unreadable("any_tool", body)


# Web search and fetched pages -----------------------------------------------------------------


def test_web_search_emits_path_then_line_per_result_numbered_by_rank() -> None:
    body = {
        "ok": True,
        "results": [
            {"title": "One", "url": "https://a.example/1", "snippet": "first snippet"},
            {"title": "Two", "url": "https://b.example/2", "snippet": "second snippet"},
        ],
    }
    found = observed("web_search", body)
    assert [(o.id, o.kind, o.file) for o in found] == [
        ("f2.1", "path", "https://a.example/1"),
        ("f2.2", "line", "https://a.example/1"),
        ("f2.3", "path", "https://b.example/2"),
        ("f2.4", "line", "https://b.example/2"),
    ]
    assert lines(found) == [
        ("https://a.example/1", 1, "first snippet"),
        ("https://b.example/2", 2, "second snippet"),
    ]
    assert not any("One" in getattr(o, "text", "") for o in found)  # titles are ignored


def test_fetched_page_is_split_into_lines_numbered_from_one() -> None:
    body = {
        "ok": True,
        "url": "https://docs.example/port",
        "title": "Ports",
        "chars": 30,
        "content": "<<fetched page>>\nThe port is 4321.\n",
    }
    assert lines(observed("fetch_page", body)) == [
        ("https://docs.example/port", 1, "<<fetched page>>"),
        ("https://docs.example/port", 2, "The port is 4321."),
        ("https://docs.example/port", 3, ""),
    ]


# Line splitting -------------------------------------------------------------------------------


NOT_BREAKS = "a\vb\fc\u2028d\u2029e\x85f\x1cg\x1dh\x1ei"


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        pytest.param("a\r\nb\rc\nd", ["a", "b", "c", "d"], id="crlf-cr-lf"),
        pytest.param("a\n", ["a", ""], id="trailing-newline"),
        pytest.param("a\r\n", ["a", ""], id="trailing-crlf"),
        pytest.param("\n\r", ["", "", ""], id="lf-then-cr"),
        pytest.param("\r\r\n", ["", "", ""], id="cr-then-crlf"),
        pytest.param("", [""], id="empty"),
        pytest.param(NOT_BREAKS, [NOT_BREAKS], id="no-other-breaks"),
    ],
)
def test_read_content_splits_only_on_crlf_cr_and_lf(content, expected) -> None:
    found = lines(observed("read_file", read_body("f.txt", content)))
    assert found == [("f.txt", number, text) for number, text in enumerate(expected, start=1)]


def test_lines_containing_on_a_document_with_carriage_returns() -> None:
    observations = observe(one_call("read_file", read_body("f", "x 4321\r\ny\r4321 z\rw")))
    assert [(o.line, o.text) for o in observations.lines_containing("4321")] == [
        (1, "x 4321"),
        (3, "4321 z"),
    ]
    assert observations.lines_containing("4321\r") == []
    assert observations.lines_containing("\n") == []


# Searching observations -----------------------------------------------------------------------


def test_lines_containing_counts_one_sighting_per_observation() -> None:
    observations = observe(
        one_call("read_file", read_body("f", "4321 and 4321 again\nnothing\n4321"))
    )
    assert [o.line for o in observations.lines_containing("4321")] == [1, 3]
    search = observe(
        one_call("search_files", search_body([{"file": "f", "line": 1, "text": "4321 4321"}]))
    )
    assert len(search.lines_containing("4321")) == 1


def test_the_same_line_in_two_frames_counts_twice() -> None:
    body = read_body("src/server.ts", "export const PORT = 4321;")
    trace = make_trace(
        [
            user(),
            call("c1", "read_file"),
            result("c1", True, body),
            call("c2", "read_file"),
            result("c2", True, body),
            assistant("4321"),
        ]
    )
    assert [o.id for o in observe(trace).lines_containing("PORT = 4321")] == ["f2.1", "f4.1"]


def test_lines_containing_is_case_insensitive_and_ignores_paths() -> None:
    body = search_body(
        [
            {"file": "src/PORT.ts", "line": 1, "text": "nothing here"},
            {"file": "a.ts", "line": 2, "text": "The Port Is Set"},
        ]
    )
    observations = observe(one_call("search_files", body))
    assert [o.id for o in observations.lines_containing("PORT is")] == ["f2.2"]
    assert [o.id for o in observations.lines_from("port.ts")] == ["f2.1"]


def test_names_containing_only_sees_path_observations() -> None:
    trace = make_trace(
        [
            user(),
            call("c1", "list_files"),
            result("c1", True, listing_body(["src/server.ts", "README.md"])),
            call("c2", "search_files"),
            result("c2", True, search_body([{"file": "src/server.ts", "line": 1, "text": "x"}])),
            assistant(""),
        ]
    )
    observations = observe(trace)
    assert [o.id for o in observations.names_containing("SERVER")] == ["f2.1"]
    assert [o.id for o in observations.lines_from("server")] == ["f4.1"]


def test_lines_from_cites_a_document_once_by_its_first_line() -> None:
    observations = observe(one_call("read_file", read_body("src/server.ts", "a\nb\nc")))
    assert [o.id for o in observations.lines_from("server.ts")] == ["f2.1"]


def test_search_entries_containing_nul_are_still_searched_per_entry() -> None:
    body = search_body(
        [
            {"file": "a.ts", "line": 1, "text": "x\x00y"},
            {"file": "b.ts", "line": 2, "text": "PORT 4321"},
            {"file": "c\x00.ts", "line": 3, "text": "y 4321 \x00"},
            {"file": "d.ts", "line": 4, "text": "xa"},
            {"file": "e.ts", "line": 5, "text": "by"},
        ]
    )
    observations = observe(one_call("search_files", body))
    assert [o.line for o in observations.lines_containing("4321")] == [2, 3]
    assert [o.line for o in observations.lines_containing("x\x00y")] == [1]
    assert [o.line for o in observations.lines_containing("y")] == [1, 3, 5]
    assert [o.line for o in observations.lines_containing("a\x00b")] == []
    assert [o.line for o in observations.lines_from("\x00")] == [3]
    assert [o.line for o in observations.lines_from("c\x00.ts")] == [3]


def test_needle_with_nul_never_matches_across_entries() -> None:
    body = search_body(
        [{"file": "a.ts", "line": 1, "text": "xa"}, {"file": "b.ts", "line": 2, "text": "by"}]
    )
    observations = observe(one_call("search_files", body))
    assert observations.lines_containing("a\x00b") == []
    assert observations.lines_from("ts\x00b") == []
    listing = observe(one_call("list_files", listing_body(["xa", "by", "n\x00m"])))
    assert listing.names_containing("a\x00b") == []
    assert [o.file for o in listing.names_containing("\x00")] == ["n\x00m"]


# Decoder registry -----------------------------------------------------------------------------


def decode_ticket(result: object) -> Sequence[Source] | None:
    if isinstance(result, dict) and isinstance(result.get("ticket"), dict):
        ticket = result["ticket"]
        return [Document(ticket["key"], ticket["body"])]
    return None


@pytest.fixture
def ticket_decoder() -> Iterator[str]:
    name = "test-ticket"
    decoder(name, tools=["get_ticket"], description="{ticket: {key, body}}")(decode_ticket)
    try:
        yield name
    finally:
        unregister_decoder(name)


@pytest.mark.usefixtures("ticket_decoder")
def test_custom_decoder_is_used_for_its_tool() -> None:
    body = {"ticket": {"key": "OPS-7", "body": "Port is 4321\nOwner: ops"}}
    assert lines(observed("get_ticket", body)) == [
        ("OPS-7", 1, "Port is 4321"),
        ("OPS-7", 2, "Owner: ops"),
    ]


@pytest.mark.usefixtures("ticket_decoder")
def test_custom_decoder_does_not_apply_to_other_tools() -> None:
    unreadable("other_tool", {"ticket": {"key": "OPS-7", "body": "x"}})


@pytest.mark.usefixtures("ticket_decoder")
def test_general_decoders_still_apply_to_a_tool_with_its_own_decoder() -> None:
    assert [o.file for o in observed("get_ticket", listing_body(["a"]))] == ["a"]


def test_a_tool_specific_decoder_is_tried_before_the_built_in_shapes() -> None:
    name = "test-silent-listing"
    decoder(name, tools=["list_files"])(lambda result: [])
    try:
        assert observed("list_files", listing_body(["a", "b"])) == []
        assert len(observed("other_listing", listing_body(["a", "b"]))) == 2
    finally:
        unregister_decoder(name)
    assert len(observed("list_files", listing_body(["a", "b"]))) == 2


def test_duplicate_decoder_name_raises_and_keeps_the_first() -> None:
    before = decoders()
    with pytest.raises(RegistryError, match="search"):
        decoder("search")(lambda result: [])
    assert decoders() == before
    assert lines(observed("search_files", search_body([{"file": "a", "line": 1, "text": "t"}])))


@pytest.mark.usefixtures("ticket_decoder")
def test_duplicate_custom_decoder_name_raises() -> None:
    with pytest.raises(RegistryError):
        decoder("test-ticket", tools=["get_ticket"])(decode_ticket)
    assert isinstance(RegistryError("x"), ValueError)


def test_built_in_decoders_are_tried_in_spec_order() -> None:
    names = [d.name for d in decoders() if not d.tools]
    assert names[:7] == [
        "search",
        "listing",
        "read",
        "web_search",
        "fetched_page",
        "command",
        "mutation",
    ]
