"""The first ten minutes (issue #14, item 5): each friction a newcomer met, as a test.

Every "did nothing" input is an error, every missing extra is one line naming what to
install, every usage error is one line, and the demo installs only what it runs.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import uvicorn

from tests.cli.runner import run_cli
from tracegrade.store import open_store
from tracegrade.traces import trace_readers

if TYPE_CHECKING:
    from tests.cli.runner import Outcome

ROOT = Path(__file__).resolve().parents[2]


def _one_line_error(result: Outcome, *needles: str) -> None:
    assert result.code == 2, (result.out, result.err)
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, result.err
    assert lines[0].startswith("tracegrade: error: ")
    for needle in needles:
        assert needle in lines[0]


# -- missing extras -----------------------------------------------------------------------


def test_serve_without_the_web_extra_names_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
):
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn now fails, as uninstalled

    result = run_cli(capsys, "serve", "--store", f"sqlite:///{tmp_path / 'r.db'}")

    _one_line_error(result, "tracegrade serve needs the web extra", "pip install 'tracegrade[web]'")


def test_run_without_the_langgraph_extra_names_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
):
    # As if uninstalled: the packages and any submodule an earlier test imported.
    extra = ("langgraph", "langchain_core", "langchain")
    for module in [*extra, *(name for name in sys.modules if name.startswith(extra))]:
        monkeypatch.setitem(sys.modules, module, None)
    for module in [name for name in sys.modules if name.startswith("examples.legal_assistant")]:
        monkeypatch.delitem(sys.modules, module)
    monkeypatch.delitem(sys.modules, "examples.project.legal_gate", raising=False)

    result = run_cli(capsys, "run", "examples/project", "--store", f"sqlite:///{tmp_path / 'r.db'}")

    _one_line_error(result, "legal_assistant_gate", "pip install 'tracegrade[langgraph]'")


def test_a_postgres_store_without_the_postgres_extra_names_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setitem(sys.modules, "psycopg", None)

    result = run_cli(capsys, "cost", "--store", "postgresql+psycopg://grader@127.0.0.1:1/results")

    _one_line_error(result, "needs the postgres extra", "pip install 'tracegrade[postgres]'")


def test_the_ray_executor_without_the_ray_extra_names_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
):
    monkeypatch.setitem(sys.modules, "ray", None)
    store = f"sqlite:///{tmp_path / 'r.db'}"

    result = run_cli(capsys, "run", "examples/project", "--executor", "ray", "--store", store)

    _one_line_error(result, "needs the ray extra", "pip install 'tracegrade[ray]'")


# -- the store of a folder with no tracegrade.toml ----------------------------------------

READ_COMMANDS = [
    ("cost",),
    ("proposals", "list"),
    ("signals", "list"),
    ("patterns",),
    ("baseline", "history", "refund_window_grader"),
]


@pytest.mark.parametrize("command", READ_COMMANDS, ids=" ".join)
def test_read_commands_fall_back_to_the_folder_s_default_store(
    command: tuple[str, ...],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TRACEGRADE_STORE_URL", raising=False)
    missing = run_cli(capsys, *command)
    open_store("sqlite:///.tracegrade/tracegrade.db").close()

    found = run_cli(capsys, *command)

    _one_line_error(missing, "there is no store at .tracegrade/tracegrade.db (the default store")
    assert found.code == 0, found.err


@pytest.mark.parametrize("command", READ_COMMANDS, ids=" ".join)
def test_a_mistyped_store_path_is_an_error_not_an_empty_store(
    command: tuple[str, ...], capsys: pytest.CaptureFixture[str], tmp_path: Path
):
    result = run_cli(capsys, *command, "--store", f"sqlite:///{tmp_path / 'reslts.db'}")

    _one_line_error(result, "there is no store at", "reslts.db")
    assert not (tmp_path / "reslts.db").exists()


def test_a_sqlite_url_never_creates_folders_it_points_into(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
):
    url = f"sqlite:///{tmp_path / 'typo' / 'deeper' / 'r.db'}"

    result = run_cli(
        capsys, "run", "examples/project", "--touchpoint", "legacy_evals", "--store", url
    )

    _one_line_error(result, "which does not exist")
    assert list(tmp_path.iterdir()) == []


def test_the_default_store_folder_is_still_made(tmp_path: Path):
    open_store(f"sqlite:///{tmp_path / '.tracegrade' / 'tracegrade.db'}").close()

    assert (tmp_path / ".tracegrade" / "tracegrade.db").is_file()


# -- "did nothing" inputs -----------------------------------------------------------------


def test_an_empty_project_file_is_an_error(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    (tmp_path / "tracegrade.toml").write_text("", "utf-8")

    _one_line_error(run_cli(capsys, "run", str(tmp_path)), "the project file is empty")


def test_a_project_with_no_touchpoints_runs_nothing_so_it_is_an_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
):
    (tmp_path / "tracegrade.toml").write_text('[store]\nurl = "sqlite:///r.db"\n', "utf-8")

    _one_line_error(run_cli(capsys, "run", str(tmp_path)), "declares no touchpoints")
    assert not (tmp_path / "r.db").exists()


def test_an_empty_policy_is_an_error(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    policy = tmp_path / "policy.toml"
    policy.write_text("[sources]\n", "utf-8")
    trace = str(ROOT / "examples" / "project" / "traces" / "sheet-sourced.json")

    result = run_cli(capsys, "guard", "replay", trace, "--policy", str(policy))

    _one_line_error(result, "the policy guards no tool")


def test_an_empty_suite_is_an_error(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    suite = tmp_path / "suite.toml"
    suite.write_text("", "utf-8")

    _one_line_error(run_cli(capsys, "grade", str(suite)), "the suite has no [[cases]]")


@pytest.mark.parametrize(
    "command",
    [
        ("cost", "--touchpoint", "nope"),
        ("proposals", "list", "--touchpoint", "nope"),
        ("signals", "list", "--touchpoint", "nope"),
        ("patterns", "--touchpoint", "nope"),
        ("baseline", "history", "nope"),
        ("run", "--touchpoint", "nope"),
    ],
    ids=" ".join,
)
def test_an_unknown_touchpoint_id_is_an_error_naming_the_known_ones(
    command: tuple[str, ...], capsys: pytest.CaptureFixture[str], tmp_path: Path
):
    store = f"sqlite:///{tmp_path / 'r.db'}"
    open_store(store).close()
    project = "examples/project"
    args = (
        (command[0], project, *command[1:])
        if command[0] == "run"
        else (*command, "--project", project)
    )

    result = run_cli(capsys, *args, "--store", store)

    _one_line_error(result, "no touchpoint 'nope'", "refund_window_grader")


def test_an_unknown_run_id_is_an_error_naming_the_latest_runs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
):
    store = f"sqlite:///{tmp_path / 'r.db'}"
    open_store(store).close()

    result = run_cli(capsys, "cost", "--run", "20990101T000000Z-000000", "--store", store)

    _one_line_error(result, "the store has no run '20990101T000000Z-000000'")


def test_a_signal_about_an_unknown_run_is_an_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
):
    store = f"sqlite:///{tmp_path / 'r.db'}"
    args = ("signals", "add", "legacy_evals", "--message", "x", "--store", store)

    result = run_cli(capsys, *args, "--run", "20990101T000000Z-000000")

    _one_line_error(result, "the store has no run '20990101T000000Z-000000'")
    assert run_cli(capsys, *args).code == 0  # no --run: recorded


# -- short, one-line errors ----------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [("grade", "--bogus"), ("nope",), ("show",), ("run", "--lane", "weekly")],
    ids=" ".join,
)
def test_usage_errors_are_one_line(args: tuple[str, ...], capsys: pytest.CaptureFixture[str]):
    result = run_cli(capsys, *args)

    _one_line_error(result, "--help")


@pytest.mark.parametrize("content", [b"", b"hello\n", b"{}"[:1]], ids=["empty", "text", "brace"])
def test_an_unrecognised_file_is_a_short_error_pointing_at_tracegrade_formats(
    content: bytes, capsys: pytest.CaptureFixture[str], tmp_path: Path
):
    path = tmp_path / "run.txt"
    path.write_bytes(content)

    result = run_cli(capsys, "show", str(path))

    _one_line_error(result, "tracegrade formats")
    assert len(result.err) - len(str(path)) < 200  # was 1,500 characters
    assert ("the file is empty" in result.err) == (content == b"")


def test_tracegrade_formats_lists_every_reader(capsys: pytest.CaptureFixture[str]):
    result = run_cli(capsys, "formats")

    assert result.code == 0
    names = [line.split()[0] for line in result.out.splitlines()]
    assert names == [reader.name for reader in trace_readers()]


# -- serve --port 0 ------------------------------------------------------------------------


def test_serve_port_zero_prints_the_port_it_serves(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
):
    served: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: served.update(options))

    result = run_cli(capsys, "serve", "--port", "0", "--store", f"sqlite:///{tmp_path / 'r.db'}")

    assert result.code == 0, result.err
    assert served["port"] > 0
    assert f"at http://127.0.0.1:{served['port']}/" in result.out


# -- the scripts -----------------------------------------------------------------------------


def test_the_demo_installs_only_the_core_and_the_langgraph_extra_and_no_apt_package():
    setup = (ROOT / "scripts" / "setup").read_text("utf-8")
    demo = (ROOT / "scripts" / "demo").read_text("utf-8")

    assert "./scripts/setup --demo" in demo
    demo_branch = setup.split('if [ "$MODE" = demo ]; then', 1)[1].split("else", 1)[0]
    assert "-e '.[langgraph]'" in demo_branch
    apt_part = setup.split('if [ "$MODE" = dev ]; then', 1)[1].split("\nfi\n", 1)[0]
    assert apt_part.count("apt_install ") == setup.count("apt_install ") == 2  # dev mode only


def test_the_demo_ends_by_saying_how_to_put_tracegrade_on_path():
    demo = (ROOT / "scripts" / "demo").read_text("utf-8")

    assert 'export PATH=\\"$PWD/.venv/bin:\\$PATH\\"' in demo
    assert demo.rstrip().endswith('exit "$status"')


def test_setup_waits_for_a_held_apt_lock():
    setup = (ROOT / "scripts" / "setup").read_text("utf-8")

    assert "DPkg::Lock::Timeout=" in setup
