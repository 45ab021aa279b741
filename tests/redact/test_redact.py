"""Secrets are replaced by ``[REDACTED:kind]``, recorded, and nothing else changes."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.helpers.builders import assistant, call, make_trace, result, user
from tracegrade.errors import ProjectError
from tracegrade.evals import load_project
from tracegrade.redact import (
    PACKAGED_RULES,
    Redactor,
    redact_trace,
    sensitive_name,
    trace_redactions,
    user_rule,
)
from tracegrade.redact._rules import names_a_credential
from tracegrade.traces import read_trace
from tracegrade.verdicts import grade

if TYPE_CHECKING:
    from pathlib import Path

# One example of every packaged kind, as it would sit in a tool result or a message.
SECRETS = {
    "openai-key": "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z",
    "anthropic-key": "sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe",
    "github-token": "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R",
    "slack-token": "xoxb-2048-4096-Qm8ZkT0pLw",
    "stripe-key": "sk_live_51HcQk2Lp9Xy8Wv7Ut6",
    "google-api-key": "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY",
    "aws-access-key-id": "AKIAIOSFODNN7EXAMPLE",
    "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9",
}
IN_CONTEXT = {
    "bearer-token": ("Authorization: Bearer 9f8e7d6c5b4a39281706", "9f8e7d6c5b4a39281706"),
    "basic-credentials": (
        "Authorization: Basic YWxhZGRpbjpvcGVuc2VzYW1l",
        "YWxhZGRpbjpvcGVuc2VzYW1l",
    ),
    "aws-secret-key": (
        "AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    ),
    "private-key": (
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----",
        "MIIEpAIBAAKCAQEA7",
    ),
    "password": ("db url uses password=hunter2!x", "hunter2!x"),
    "secret": ('{"client_secret": "cs-88c1d"}', "cs-88c1d"),
    "token": ("GET /feed?token=tk_42aa91&page=2", "tk_42aa91"),
    "api-key": ("curl -d api_key=ab12cd34ef", "ab12cd34ef"),
    "url-credentials": ("postgres://app:pw0rd9@db.internal/prod", "pw0rd9"),
    "cookie": ("Cookie: session=8a7b6c5d; theme=dark", "session=8a7b6c5d"),
}
# Not secrets by the rules: they must come through untouched.
ORDINARY = [
    "ZFA04Y",
    "3f2a9c1d0e4b5a6978877665544332211aabbccd",
    "123e4567-e89b-12d3-a456-426614174000",
    "Bearer authentication is used",
    "Basic information",
    "max_tokens=500",
    "gen_ai.usage.input_tokens",
    "The refund window is 45 days; refunds over $500 need approval.",
    "task-abcdefghijklmnopqrstu1234",
    "token=None",
    "see https://example.com/a:b",
    "AKIA is a prefix",
    "sk-learn",
]


@pytest.mark.parametrize("kind", sorted(SECRETS))
def test_each_provider_key_is_replaced_with_its_kind(kind: str) -> None:
    text, kinds = Redactor().text(f"the tool returned {SECRETS[kind]} as the key.")
    assert text == f"the tool returned [REDACTED:{kind}] as the key."
    assert kinds == (kind,)


@pytest.mark.parametrize("kind", sorted(IN_CONTEXT))
def test_each_credential_in_context_is_replaced(kind: str) -> None:
    text, secret = IN_CONTEXT[kind]
    redacted, kinds = Redactor().text(text)
    assert secret not in redacted
    assert f"[REDACTED:{kind}]" in redacted
    assert kind in kinds


@pytest.mark.parametrize("text", ORDINARY)
def test_what_is_not_a_secret_is_unchanged(text: str) -> None:
    assert Redactor().text(text) == (text, ())


_pieces = st.sampled_from(
    [*SECRETS.values(), *(text for text, _ in IN_CONTEXT.values()), *ORDINARY, " ", "\n", "="]
)


@given(st.lists(_pieces, max_size=12).map("".join))
def test_redacting_twice_is_redacting_once(text: str) -> None:
    redactor = Redactor()
    once, _ = redactor.text(text)
    assert redactor.text(once) == (once, ())


@given(st.lists(st.sampled_from(ORDINARY), max_size=12).map(" ".join))
def test_ordinary_text_never_changes(text: str) -> None:
    assert Redactor().text(text)[0] == text


def test_values_under_credential_names_are_replaced_whole() -> None:
    value = {
        "headers": {"Authorization": "Token abc", "X-Api-Key": ["k1", "k2"], "Accept": "*/*"},
        "gen_ai.usage.input_tokens": 5,
        "max_tokens": "500",
    }
    out, found = Redactor().value(value, "args", frame=2)
    assert out == {
        "headers": {
            "Authorization": "[REDACTED:authorization]",
            "X-Api-Key": ["[REDACTED:api-key]", "[REDACTED:api-key]"],
            "Accept": "*/*",
        },
        "gen_ai.usage.input_tokens": 5,
        "max_tokens": "500",
    }
    assert [(r.kind, r.field, r.frame) for r in found] == [
        ("authorization", "args.headers.Authorization", 2),
        ("api-key", "args.headers.X-Api-Key[0]", 2),
        ("api-key", "args.headers.X-Api-Key[1]", 2),
    ]
    assert Redactor().value(out) == (out, [])


KEY = SECRETS["openai-key"]


def _secret_trace() -> dict[str, object]:
    return {
        "id": "leaky",
        "task": "Check the billing config",
        "frames": [
            user(f"use my key {KEY} and find the refund window"),
            call("c1", "http_get", {"url": "/cfg", "headers": {"Authorization": f"Bearer {KEY}"}}),
            result("c1", True, f"REFUND_WINDOW = '45 days'\nSTRIPE = '{SECRETS['stripe-key']}'"),
            assistant(f"The refund window is 45 days (key {KEY})."),
        ],
    }


def test_a_trace_is_redacted_in_messages_tool_args_and_results_and_records_where() -> None:
    raw = _secret_trace()
    trace = redact_trace(make_trace(raw["frames"], id="leaky"), Redactor())  # type: ignore[arg-type]
    dumped = trace.model_dump_json()
    assert KEY not in dumped
    assert SECRETS["stripe-key"] not in dumped
    assert [(r["kind"], r.get("frame"), r["field"]) for r in trace_redactions(trace)] == [
        ("openai-key", 0, "content"),
        ("authorization", 1, "args.headers.Authorization"),
        ("stripe-key", 2, "result"),
        ("openai-key", 3, "content"),
    ]
    assert redact_trace(trace, Redactor()) is trace  # twice is once


def test_a_trace_file_is_redacted_as_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "leaky.json"
    frames = _secret_trace()["frames"]
    raw = {"commit": "v1", "model": "m", "outcome": "success", "tokens": [0] * 4}
    path.write_bytes(orjson.dumps({**_secret_trace(), **raw, "frames": frames}))
    trace = read_trace(path)
    assert KEY not in trace.model_dump_json()
    assert trace.frames[2].result == "REFUND_WINDOW = '45 days'\nSTRIPE = '[REDACTED:stripe-key]'"  # type: ignore[union-attr]
    assert len(trace_redactions(trace)) == 4


def test_a_secret_beside_a_figure_does_not_change_the_figures_grade() -> None:
    frames = _secret_trace()["frames"]
    with_secret = redact_trace(make_trace(frames, id="leaky"), Redactor())  # type: ignore[arg-type]
    clean_frames = [
        user("use my key and find the refund window"),
        call("c1", "http_get", {"url": "/cfg", "headers": {}}),
        result("c1", True, "REFUND_WINDOW = '45 days'\nSTRIPE = ''"),
        assistant("The refund window is 45 days (key )."),
    ]
    without = make_trace(clean_frames, id="leaky")

    def claims(trace: object) -> list[tuple[str, str, str]]:
        graded = grade(trace, strict=False)  # type: ignore[arg-type]
        return [(c.kind, c.raw, c.support) for c in graded.extracted if "REDACTED" not in c.raw]

    assert claims(with_secret) == claims(without)
    assert ("figure", "45 days", "read") in claims(with_secret)


def test_a_project_adds_its_own_patterns_and_names(tmp_path: Path) -> None:
    (tmp_path / "tracegrade.toml").write_text(
        '[redact]\npatterns = [{kind = "employee-id", pattern = "EMP-[0-9]{6}"}]\n'
        'names = ["x-internal-key"]\n'
    )
    redactor = load_project(tmp_path / "tracegrade.toml", registered=()).redactor
    assert redactor.text("badge EMP-204113 ok") == (
        "badge [REDACTED:employee-id] ok",
        ("employee-id",),
    )
    assert redactor.value({"X-Internal-Key": "v"})[0] == {"X-Internal-Key": "[REDACTED:credential]"}
    assert redactor.text(KEY)[0] == "[REDACTED:openai-key]"  # the packaged rules still run


@pytest.mark.parametrize(
    ("pattern", "problem"),
    [
        ("EMP-[0-9", "is not a regular expression"),
        ("x*", "matches the empty string"),
        ("REDACTED", "matches its own replacement"),
    ],
)
def test_a_bad_user_pattern_is_a_project_error(tmp_path: Path, pattern: str, problem: str) -> None:
    (tmp_path / "tracegrade.toml").write_text(
        f"[redact]\npatterns = [{{kind = \"emp\", pattern = '{pattern}'}}]\n"
    )
    with pytest.raises(ProjectError, match=problem):
        load_project(tmp_path / "tracegrade.toml", registered=())
    with pytest.raises(ValueError, match=problem):
        user_rule("emp", pattern)


ALL_KINDS = {
    **{kind: (f"the key is {secret} here", secret) for kind, secret in SECRETS.items()},
    **IN_CONTEXT,
}


@pytest.mark.parametrize("kind", sorted(ALL_KINDS))
def test_each_kind_is_redacted_in_a_trace_files_message_and_tool_result(
    tmp_path: Path, kind: str
) -> None:
    text, secret = ALL_KINDS[kind]
    frames = [
        user(f"note:\n{text}"),
        call("c1", "fetch", {"q": "config"}),
        result("c1", True, {"body": text}),
        assistant("The refund window is 45 days."),
    ]
    raw = {"id": "r", "commit": "v1", "model": "m", "task": "t", "outcome": "success"}
    path = tmp_path / "run.json"
    path.write_bytes(orjson.dumps({**raw, "tokens": [0] * 4, "frames": frames}))

    trace = read_trace(path)

    assert secret not in trace.model_dump_json()
    places = {(r["kind"], r["frame"], r["field"]) for r in trace_redactions(trace)}
    assert (kind, 0, "content") in places
    assert (kind, 2, "result.body") in places


@given(st.lists(_pieces, max_size=12).map("".join))
def test_a_redactor_narrowed_to_a_text_redacts_it_the_same(text: str) -> None:
    assert Redactor().narrowed(f"other\x00{text}").text(text) == Redactor().text(text)


_NAME_PIECES = st.sampled_from(
    ["api", "_", "-", "key", "KEY", "\u212aey", "token", "s", "access", "Authorization", "proxy-",
     "set-", "Cookie", "passwd", "PassWord", "secret", "private", ".", " ", "x", "max_tokens"]
)  # fmt: skip


@given(st.lists(_NAME_PIECES, max_size=5).map("".join))
def test_the_quick_name_test_agrees_with_sensitive_name(name: str) -> None:
    assert names_a_credential([name]) is (sensitive_name(name) is not None)
    assert names_a_credential(["call-1", name], ("call-1",)) is True


def test_every_packaged_rule_compiles() -> None:
    # Packaged patterns compile on first use (docs/design/0018-start-up.md): a broken one
    # would otherwise only fail on the first text holding its trigger.
    for rule in PACKAGED_RULES:
        for pattern in (rule.pattern, rule.beside):
            if pattern is not None:
                assert re.compile(pattern.pattern, pattern.flags).groups >= rule.group, rule.kind


def test_a_narrowed_redactor_kept_for_reuse_answers_for_its_own_triggers_and_keys() -> None:
    # narrowed_to keeps each redactor it makes (one per trace read): the next trace must get
    # the one for its own triggers and keys, never the last one made.
    redactor = Redactor()
    trigger = next(t for rule in redactor.rules for t in rule.triggers)
    assert not redactor.narrowed_to(set(), ["api_key"]).idle  # a credential's name
    assert redactor.narrowed_to(set(), ["path"]).idle
    assert not redactor.narrowed_to({trigger}, ["path"]).idle  # a rule may match
    assert redactor.narrowed_to(set(), ["path"]).idle
    assert not redactor.narrowed_to(set()).idle  # keys unknown: a key may name one
    assert redactor.narrowed_to(set(), ["path"]) is redactor.narrowed_to(set(), ["path"])
