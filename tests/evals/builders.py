"""Project folders written by the tests: a tracegrade.toml, its suites and files."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

GRADE_SUITE = """
[[questions]]
id = "q"
facts = [{id = "f", text = "42"}]

[[cases]]
trace = "t.json"
question = "q"
"""

GUARD_POLICY = """
[tools.create_spreadsheet]
scan = ["rows[*][*]"]
"""

CONTRACT_RULES = """
[contract]
whole_document = ["does not mention"]
"""

PROJECT = """
[store]
url = "sqlite:///.tracegrade/tracegrade.db"

[[touchpoints]]
id = "search_knowledge"
kind = "tool"
owner = "retrieval-team"
suite = "suites/grounding.toml"
grounding_shape = "citations"
severity_on_fail = "block"
variance_band = 0.02
repeats = 3
files = ["prompts/search.md"]
baseline = {min = 0.8, max_drop = 0.05}

[[touchpoints]]
id = "spreadsheet_writer"
kind = "tool"
owner = "finance"
suite = "suites/guard.toml"
traces = "traces/*.json"
severity_on_fail = "warn"

[[touchpoints]]
id = "legal_answers"
kind = "agent_recipe"
owner = "legal"
suite = "suites/contract.toml"
traces = "traces/*.json"
severity_on_fail = "info"
lanes = ["nightly"]
nightly_repeats = 5

[[touchpoints]]
id = "old_evals"
kind = "prompt"
owner = "ml"
command = ["python", "run_evals.py", "--junit", "out.xml"]
output_format = "junit"
output = "out.xml"
severity_on_fail = "infra"
"""


def write_project(root: Path, text: str = PROJECT) -> Path:
    """Write a project with every suite kind's files; return the tracegrade.toml path."""
    (root / "suites").mkdir(exist_ok=True)
    (root / "prompts").mkdir(exist_ok=True)
    (root / "traces").mkdir(exist_ok=True)
    (root / "suites" / "grounding.toml").write_text(GRADE_SUITE, encoding="utf-8")
    (root / "suites" / "guard.toml").write_text(GUARD_POLICY, encoding="utf-8")
    (root / "suites" / "contract.toml").write_text(CONTRACT_RULES, encoding="utf-8")
    (root / "prompts" / "search.md").write_text("Search the knowledge base.\n", encoding="utf-8")
    (root / "traces" / "one.json").write_text("{}", encoding="utf-8")
    path = root / "tracegrade.toml"
    path.write_text(text, encoding="utf-8")
    return path


def touchpoint_table(**fields: object) -> str:
    """One [[touchpoints]] table: a valid grade touchpoint with ``fields`` changed.

    A field set to ``None`` is left out.
    """
    base: dict[str, object] = {
        "id": "tp",
        "kind": "tool",
        "owner": "team",
        "suite": "suites/grounding.toml",
        "severity_on_fail": "block",
    }
    base.update(fields)
    lines = ["[[touchpoints]]"]
    for key, value in base.items():
        if value is not None:
            lines.append(f"{key} = {_toml(value)}")
    return "\n".join(lines) + "\n"


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + "}"
    return repr(value)
