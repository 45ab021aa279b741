"""Support (SPEC 6): read, named-only or unsupported, with the ids of the evidence."""

from __future__ import annotations

from tests.helpers.builders import (
    assistant,
    call,
    command_body,
    listing_body,
    make_trace,
    one_call,
    read_body,
    result,
    search_body,
    user,
)
from tracegrade.claims import Claim
from tracegrade.observations import observe
from tracegrade.support import ClaimSupport, support, support_claim


def claim(text: str, *, in_answer: bool = True) -> Claim:
    return Claim(id="c", text=text, in_answer=in_answer)


def test_line_text_reads_the_claim() -> None:
    observations = observe(one_call("read_file", read_body("a.ts", "x\nPORT = 4321")))
    assert support_claim(claim("4321"), observations) == ClaimSupport(
        claim("4321"), "read", ("f2.2",)
    )


def test_line_source_name_reads_the_claim() -> None:
    observations = observe(one_call("read_file", read_body("src/server.ts", "x\ny")))
    found = support_claim(claim("server.ts"), observations)
    assert (found.support, found.evidence) == ("read", ("f2.1",))


def test_command_line_reads_what_it_mentions() -> None:
    observations = observe(one_call("run_command", command_body("wc -l README.md", "3")))
    assert support_claim(claim("README.md"), observations).support == "read"


def test_command_without_output_reads_nothing() -> None:
    observations = observe(one_call("run_command", command_body("wc -l README.md", "")))
    assert support_claim(claim("README.md"), observations).support == "unsupported"


def test_listed_name_only_names_the_claim() -> None:
    observations = observe(one_call("list_files", listing_body(["a.ts", "src/server.ts"])))
    found = support_claim(claim("SERVER.ts"), observations)
    assert (found.support, found.evidence) == ("named-only", ("f2.2",))


def test_web_result_url_is_named_and_its_snippet_reads() -> None:
    body = {
        "ok": True,
        "results": [{"title": "T", "url": "https://x.example/avif", "snippet": "a format"}],
    }
    observations = observe(one_call("web_search", body))
    # The snippet line's source is the URL, so the path rule reads the URL too.
    assert support_claim(claim("x.example"), observations).support == "read"
    assert support_claim(claim("format"), observations).evidence == ("f2.2",)


def test_nothing_shown_is_unsupported_with_no_evidence() -> None:
    observations = observe(one_call("search_files", search_body([])))
    assert support_claim(claim("4321"), observations) == ClaimSupport(
        claim("4321"), "unsupported", ()
    )


def test_unread_needs_the_claim_in_the_answer() -> None:
    observations = observe(one_call("list_files", listing_body(["a.ts"])))
    assert support_claim(claim("a.ts"), observations).unread
    assert not support_claim(claim("a.ts", in_answer=False), observations).unread
    assert not support_claim(claim("zzz", in_answer=False), observations).unread
    assert support_claim(claim("zzz"), observations).unread


def test_support_keeps_claim_order() -> None:
    trace = make_trace(
        [
            user(),
            call("c1", "list_files"),
            result("c1", True, listing_body(["b"])),
            assistant("a b c"),
        ]
    )
    claims = [Claim("x", "a", True), Claim("y", "b", True), Claim("z", "f2", True)]
    assert [s.support for s in support(claims, observe(trace))] == [
        "unsupported",
        "named-only",
        "unsupported",
    ]
