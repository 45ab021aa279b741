"""Start-up: a command imports what it runs, not what the other commands need.

benchmarks/_cli.py (item 3) times ``tracegrade grade SUITE --format tsv``; these tests pin
the import set behind that time, so a module-level import that drags the store, the web
app or the claim scanners back into the grade command turns them red.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import click  # noqa: TID251 - the test asks the CLI's own group
import pytest

from tests.cli.runner import run_cli
from tracegrade.cli import cli
from tracegrade.cli._main import _COMMANDS
from tracegrade.redact import PACKAGED_RULES

REPO = Path(__file__).resolve().parents[2]
SUITE = REPO / "examples" / "suite.toml"

# Imported only by other commands or other formats: never by a suite graded as TSV.
NOT_FOR_A_TSV_SUITE = (
    "sqlalchemy",
    "starlette",
    "uvicorn",
    "httpx",
    "rich",
    "xml.etree.ElementTree",
    "tracegrade.store",
    "tracegrade.web",
    "tracegrade.evals",
    "tracegrade.contract",
    "tracegrade.judges",
    "tracegrade.proposals",
    "tracegrade.cli._baseline",
    "tracegrade.cli._proposals",
    "tracegrade.cli._run",
    "tracegrade.cli._serve",
    "tracegrade.cli._show",
    "tracegrade.claims._scan",
    "tracegrade.suites._bulk",
    "tracegrade.suites._discover",
    "tracegrade.traces._openai",
    "tracegrade.observations._views",
)


@dataclass(frozen=True)
class _Probe:
    modules: set[str]
    """``sys.modules`` after the command."""
    compiled: set[str]
    """tracegrade's module-level patterns that are compiled, as ``module.NAME``: every
    ``re.Pattern`` (compiled at import) and each ``LazyPattern`` the command used."""
    rules_compiled: int
    """How many packaged redaction rules have a compiled pattern (or ``beside`` pattern)."""


def _probe(*args: str, engine: str | None = None) -> _Probe:
    """What ``tracegrade ARGS`` loaded in a fresh interpreter, after checking its exit code 0.

    ``engine`` sets ``TRACEGRADE_CORE`` (``python``: the reference engine).
    """
    script = (
        "import json, re, sys\n"
        "from tracegrade._lazy_pattern import LazyPattern\n"
        "from tracegrade.cli import main\n"
        "code = 0\n"
        "try:\n"
        "    main(sys.argv[1:])\n"
        "except SystemExit as exc:\n"
        "    code = exc.code\n"
        "compiled = [\n"
        "    f'{name}.{attribute}'\n"
        "    for name, module in list(sys.modules.items()) if name.startswith('tracegrade')\n"
        "    for attribute, value in vars(module).items()\n"
        "    if isinstance(value, re.Pattern)\n"
        "    or (isinstance(value, LazyPattern) and value.is_compiled)\n"
        "]\n"
        "from tracegrade.redact import PACKAGED_RULES\n"
        "rules = sum(\n"
        "    any(isinstance(p, re.Pattern) or p.is_compiled for p in (r.pattern, r.beside) if p)\n"
        "    for r in PACKAGED_RULES\n"
        ")\n"
        "print(json.dumps({'code': code, 'modules': sorted(sys.modules), 'compiled': compiled,"
        " 'rules': rules}))\n"
    )
    env = {key: value for key, value in os.environ.items() if key != "TRACEGRADE_CORE"}
    if engine is not None:
        env["TRACEGRADE_CORE"] = engine
    done = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, check=False, env=env
    )
    assert done.returncode == 0, done.stderr
    last = json.loads(done.stdout.splitlines()[-1])
    assert last["code"] == 0, done.stderr
    return _Probe(set(last["modules"]), set(last["compiled"]), last["rules"])


def _modules_after(*args: str) -> set[str]:
    """``sys.modules`` after ``tracegrade ARGS`` ran in a fresh interpreter, and its exit code 0."""
    return _probe(*args).modules


def _loaded(modules: set[str], name: str) -> bool:
    return name in modules or any(module.startswith(f"{name}.") for module in modules)


def test_a_tsv_suite_grade_imports_none_of_the_other_commands_modules():
    modules = _modules_after("grade", str(SUITE), "--format", "tsv")

    assert "tracegrade.verdicts" in modules  # it did grade
    assert [name for name in NOT_FOR_A_TSV_SUITE if _loaded(modules, name)] == []


@pytest.mark.parametrize(
    ("args", "needed"),
    [
        (("grade", str(SUITE), "--format", "junit"), "xml.etree.ElementTree"),
        # A lenient run is the reference's (the core grades strictly): it scans in Python.
        (("grade", str(REPO / "examples" / "traces"), "--lenient"), "tracegrade.claims._scan"),
        (("grade", str(REPO / "examples" / "traces")), "tracegrade.suites._bulk"),
        (("show", str(REPO / "examples" / "traces" / "grep-only.json")), "tracegrade.cli._show"),
    ],
)
def test_the_check_sees_a_module_a_command_does_import(args: tuple[str, ...], needed: str):
    # The other side of the test above: the same check finds what a command does need.
    assert _loaded(_modules_after(*args), needed)


def test_grading_native_traces_leaves_the_python_claim_scanners_unloaded():
    # Each file is graded by the core's one call (docs/design/0019), claims included.
    modules = _modules_after("grade", str(REPO / "examples" / "traces"))

    assert "tracegrade.suites._bulk" in modules  # it did grade the folder
    assert not _loaded(modules, "tracegrade.claims._scan")


# The reference's figure shapes: the compiled core is built from their text and runs them.
FIGURE_SHAPES = {
    "tracegrade.figures._extract._SYMBOL_LED",
    "tracegrade.figures._extract._WORD_LED",
    "tracegrade.figures._extract._HEDGE",
}


def test_a_grade_with_the_compiled_core_never_compiles_the_reference_figure_shapes():
    probe = _probe("grade", str(SUITE), "--format", "tsv")

    assert "tracegrade.figures._extract" in probe.modules  # figures were extracted
    assert probe.compiled & FIGURE_SHAPES == set()


def test_a_grade_compiles_only_the_redaction_rules_its_traces_trigger():
    probe = _probe("grade", str(SUITE), "--format", "tsv")

    assert probe.rules_compiled < len(PACKAGED_RULES)


def test_a_trace_holding_every_trigger_compiles_every_rule(tmp_path: Path):
    # The other side: a trace whose text holds every packaged trigger compiles every rule.
    triggers = " ".join(sorted({t for rule in PACKAGED_RULES for t in rule.triggers}))
    trace = {
        "id": "t",
        "commit": "c",
        "model": "m",
        "task": "q",
        "outcome": "success",
        "tokens": [1, 2],
        "frames": [
            {"type": "user", "content": f"q {triggers}"},
            {"type": "assistant", "content": "a"},
        ],
    }
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(trace), encoding="utf-8")

    assert _probe("show", str(path)).rules_compiled == len(PACKAGED_RULES)


def test_the_reference_engine_does_compile_them():
    # The other side: the same probe sees the shapes compiled when Python runs them.
    probe = _probe("grade", str(SUITE), "--format", "tsv", engine="python")

    assert probe.compiled >= {
        "tracegrade.figures._extract._SYMBOL_LED",
        "tracegrade.figures._extract._WORD_LED",
    }


def test_a_lenient_run_with_a_file_view_does_import_the_view_decoder(tmp_path: Path):
    # The other side of NOT_FOR_A_TSV_SUITE's _views: a result no decoder knows, read leniently.
    trace = {
        "id": "t",
        "commit": "c",
        "model": "m",
        "task": "what is x?",
        "outcome": "success",
        "tokens": [1, 2, 3, 4],
        "frames": [
            {"type": "user", "content": "what is x?"},
            {"type": "tool_call", "id": "c1", "name": "open", "args": {"path": "a.py"}},
            {
                "type": "tool_result",
                "id": "c1",
                "ok": True,
                "result": "[File: a.py (1 lines total)]\n1:x = 1\n",
            },
            {"type": "assistant", "content": "x is 1"},
        ],
    }
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(trace), encoding="utf-8")

    assert "tracegrade.observations._views" in _modules_after("grade", str(path), "--lenient")


def test_every_command_loads_under_the_name_it_is_listed_by():
    ctx = click.Context(cli)

    assert cli.list_commands(ctx) == sorted(_COMMANDS)
    for name in _COMMANDS:
        command = cli.get_command(ctx, name)
        assert isinstance(command, click.Command), name
        assert command.name == name


def test_an_unknown_command_is_still_a_usage_error(capsys: pytest.CaptureFixture[str]):
    outcome = run_cli(capsys, "grades", str(SUITE))

    assert outcome.code == 2
    assert "No such command 'grades'" in outcome.err
