"""``tracegrade cost`` and the cost parts of ``tracegrade run``: text, JSON, limits, bad prices."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from examples.legal_assistant import gate
from tests.cli.runner import run_cli
from tracegrade.store import AiCallRecord, open_store

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "project"
# gpt-4o-mini ($0.15 in, $0.075 cached, $0.60 out) at the example's scripted usage per call:
# 176 plain + 1,024 cached input tokens, 90 output tokens.
EXAMPLE_CALL = (176 * 0.15 + 1_024 * 0.075 + 90 * 0.60) / 1e6

DAY1 = datetime(2025, 3, 1, 12, tzinfo=UTC)
DAY2 = datetime(2025, 3, 2, 12, tzinfo=UTC)
CALLS = [
    AiCallRecord(
        run_id="r1",
        touchpoint="search",
        model="gpt-4o",
        role="agent",
        input_tokens=12_000,
        output_tokens=800,
        cost_usd=0.038,
        recorded_at=DAY1,
    ),
    AiCallRecord(
        run_id="r1",
        touchpoint="search",
        model="house-llm",
        role="agent",
        input_tokens=500,
        output_tokens=40,
        cost_usd=None,
        recorded_at=DAY1,
    ),
    AiCallRecord(
        run_id="r2",
        touchpoint="answer",
        model="claude-sonnet-4",
        role="judge",
        input_tokens=3_000,
        output_tokens=200,
        cost_usd=1.5,
        recorded_at=DAY2,
    ),
    AiCallRecord(
        run_id="r2",
        touchpoint="answer",
        model="house-llm",
        role="agent",
        input_tokens=100,
        output_tokens=10,
        cost_usd=None,
        recorded_at=DAY2,
    ),
]


@pytest.fixture
def seeded(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'costs.db'}"
    store = open_store(url)
    store.add_ai_calls(CALLS)
    store.close()
    return url


def test_cost_by_touchpoint_shows_unpriced_never_as_zero(
    capsys: pytest.CaptureFixture[str], seeded: str
):
    result = run_cli(capsys, "cost", "--store", seeded)
    assert result.code == 0
    assert result.out == (
        "touchpoint   calls  input tokens  output tokens  cost\n"
        "answer           2         3,100            210  $1.50 (1 unpriced)\n"
        "search           2        12,500            840  $0.0380 (1 unpriced)\n"
        "total            4        15,600          1,050  $1.54 (2 calls unpriced)\n"
    )
    assert "$0.00" not in result.out


def test_cost_by_model_day_and_role_with_filters(capsys: pytest.CaptureFixture[str], seeded: str):
    by_model = run_cli(capsys, "cost", "--store", seeded, "--by", "model").out
    assert "house-llm             2           600             50  unpriced (2 calls)\n" in by_model
    by_day = run_cli(capsys, "cost", "--store", seeded, "--by", "day", "--since", "2025-03-02")
    assert by_day.out.splitlines()[1:] == [
        "2025-03-02       2         3,100            210  $1.50 (1 unpriced)",
        "total            2         3,100            210  $1.50 (1 call unpriced)",
    ]
    by_role = run_cli(capsys, "cost", "--store", seeded, "--by", "role", "--run", "r1").out
    agent_row = "agent       2        12,500            840  $0.0380 (1 unpriced)"
    assert by_role.splitlines()[1] == agent_row
    one = run_cli(capsys, "cost", "--store", seeded, "--touchpoint", "nope")
    assert (one.code, one.out) == (0, "no model calls recorded\n")


def test_cost_as_json(capsys: pytest.CaptureFixture[str], seeded: str):
    result = run_cli(capsys, "cost", "--store", seeded, "--by", "role", "--format", "json")
    data = json.loads(result.out)
    assert data["by"] == "role"
    assert data["filters"] == {"run": None, "touchpoint": None, "since": None}
    assert data["rows"] == [
        {
            "key": "agent",
            "calls": 3,
            "input_tokens": 12_600,
            "output_tokens": 850,
            "cost_usd": pytest.approx(0.038),
            "unpriced_calls": 2,
        },
        {
            "key": "judge",
            "calls": 1,
            "input_tokens": 3_000,
            "output_tokens": 200,
            "cost_usd": pytest.approx(1.5),
            "unpriced_calls": 0,
        },
    ]
    assert data["total"]["unpriced_calls"] == 2
    assert data["total"]["cost_usd"] == pytest.approx(1.538)


def test_cost_needs_a_project_or_a_store(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    result = run_cli(capsys, "cost", "--project", str(tmp_path))
    assert result.code == 2
    assert f"there is no store at {tmp_path}/.tracegrade/tracegrade.db (the default" in result.err


def test_the_example_project_reports_agent_cost(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    url = f"sqlite:///{tmp_path / 'r.db'}"
    result = run_cli(
        capsys, "run", str(EXAMPLE), "--store", url, "--touchpoint", "legal_assistant_gate"
    )
    assert result.code == 0
    found = re.search(
        r"^cost: agent \$(\d+\.\d{4}) \((\d+) calls\), judge no calls; total \$(\d+\.\d{4})$",
        result.out,
        re.M,
    )
    assert found is not None, result.out
    calls = int(found[2])
    assert calls >= 12  # at least one model turn per case run (6 cases x 2 repeats)
    assert float(found[1]) == pytest.approx(calls * EXAMPLE_CALL, abs=5e-5)
    assert (
        f"  legal_assistant_gate: agent ${float(found[1]):.4f} ({calls} calls), judge no calls\n"
        in result.out
    )
    listed = run_cli(capsys, "cost", "--store", url, "--by", "model", "--format", "json")
    [row] = json.loads(listed.out)["rows"]
    assert (row["key"], row["calls"], row["unpriced_calls"]) == ("gpt-4o-mini", calls, 0)
    assert row["cost_usd"] == pytest.approx(calls * EXAMPLE_CALL)


def test_the_example_with_an_unpriced_model_reports_it_unpriced(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setattr(gate, "SCRIPTED_MODEL", "house-llm-7b")
    url = f"sqlite:///{tmp_path / 'r.db'}"
    result = run_cli(
        capsys,
        "run",
        str(EXAMPLE),
        "--store",
        url,
        "--touchpoint",
        "legal_assistant_gate",
        "--format",
        "json",
    )
    assert result.code == 0
    report = json.loads(result.out)
    agent = report["cost"]["agent"]
    assert agent["cost_usd"] is None
    assert agent["unpriced_calls"] == agent["calls"] > 0
    assert report["touchpoints"][0]["cost"]["agent"]["cost_usd"] is None
    text = run_cli(capsys, "cost", "--store", url).out
    assert f"unpriced ({agent['calls']} calls)" in text
    assert f"unpriced ({agent['calls']} calls unpriced)" in text


SUITE_PROJECT = """
[[touchpoints]]
id = "nano"
kind = "agent_recipe"
owner = "t"
suite_kind = "callable"
call = "tests.cost.suites:ten_cents"
severity_on_fail = "block"
repeats = 5
"""


def test_run_cost_limit_stops_exits_1_and_resume_finishes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
):
    (tmp_path / "tracegrade.toml").write_text(SUITE_PROJECT, encoding="utf-8")
    url = f"sqlite:///{tmp_path / 'r.db'}"
    stopped = run_cli(capsys, "run", str(tmp_path), "--store", url, "--cost-limit", "0.15")
    assert stopped.code == 1
    assert "stopped: cost limit $0.1500 reached ($0.2000 spent)\n" in stopped.out
    assert "stopped: cost limit $0.1500 reached ($0.2000 spent) (exit 1)" in stopped.err
    run_id = stopped.err.rsplit("run id ", 1)[1].strip()
    store = open_store(url)
    try:
        assert len(store.case_results(run_id)) == 2
    finally:
        store.close()
    resumed = run_cli(
        capsys, "run", str(tmp_path), "--store", url, "--resume", run_id, "--format", "json"
    )
    assert resumed.code == 0
    report = json.loads(resumed.out)
    assert (report["stopped"], report["units_skipped"]) == (None, 2)
    assert report["cost"]["agent"]["calls"] == 5
    assert report["cost"]["agent"]["cost_usd"] == pytest.approx(0.50)


@pytest.mark.parametrize("where", ["option", "project"])
def test_a_malformed_price_file_is_exit_2_naming_file_and_model_and_writes_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, where: str
):
    bad = tmp_path / "prices.toml"
    bad.write_text('[models."house-llm"]\ninput = 1.0\noutput = "lots"\n', encoding="utf-8")
    project = (
        SUITE_PROJECT if where == "option" else '[cost]\nprices = "prices.toml"\n' + SUITE_PROJECT
    )
    (tmp_path / "tracegrade.toml").write_text(project, encoding="utf-8")
    db = tmp_path / "r.db"
    args = ["run", str(tmp_path), "--store", f"sqlite:///{db}"]
    if where == "option":
        args += ["--prices", str(bad)]
    result = run_cli(capsys, *args)
    assert result.code == 2
    assert str(bad) in result.err
    assert "model 'house-llm': output must be a number" in result.err
    assert len(result.err.strip().splitlines()) == 1
    assert not db.exists()


def test_cost_reads_the_projects_store(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    (tmp_path / "tracegrade.toml").write_text(SUITE_PROJECT, encoding="utf-8")
    ran = run_cli(capsys, "run", str(tmp_path))
    assert ran.code == 0
    assert (tmp_path / ".tracegrade" / "tracegrade.db").is_file()
    listed = run_cli(capsys, "cost", "--project", str(tmp_path), "--by", "model")
    assert listed.out.splitlines()[1:] == [
        "gpt-4.1-nano       5     5,000,000              0  $0.5000",
        "total              5     5,000,000              0  $0.5000",
    ]


def test_cost_reads_the_store_from_tracegrade_store_url(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.chdir(tmp_path)  # no project here: only the variable names a store
    url = f"sqlite:///{tmp_path / 'from-env.db'}"
    monkeypatch.setenv("TRACEGRADE_STORE_URL", url)
    missing = run_cli(capsys, "cost", "--format", "json")
    open_store(url).close()

    result = run_cli(capsys, "cost", "--format", "json")

    assert missing.code == 2  # a read-only command never creates the store it was pointed at
    assert not (tmp_path / "from-env.db").with_suffix(".db-wal").exists()
    assert result.code == 0, result.err
    assert json.loads(result.out)["total"]["calls"] == 0


def test_reprice_prices_stored_calls_with_todays_table_and_changes_nothing_stored(
    capsys: pytest.CaptureFixture[str], seeded: str, tmp_path: Path
):
    prices = tmp_path / "prices.toml"
    prices.write_text('[models."house-llm"]\ninput = 1.0\noutput = 2.0\n', encoding="utf-8")
    before = run_cli(capsys, "cost", "--store", seeded, "--by", "model").out

    result = run_cli(
        capsys, "cost", "--store", seeded, "--by", "model", "--reprice", "--prices", str(prices)
    )

    assert result.code == 0, result.err
    # claude-sonnet-4 at the packaged $3/$15: 3,000 in + 200 out = $0.0120 (stored as $1.50);
    # gpt-4o at $2.50/$10: $0.0380; house-llm, now priced at $1/$2: 600 in + 50 out = $0.0007.
    note, _header, *rows = result.out.splitlines()
    assert (
        note
        == "(priced again with today's prices; the calls keep the prices they were recorded with)"
    )
    assert rows == [
        "claude-sonnet-4       1         3,000            200  $0.0120",
        "gpt-4o                1        12,000            800  $0.0380",
        "house-llm             2           600             50  $0.0007",
        "total                 4        15,600          1,050  $0.0507",
    ]
    assert run_cli(capsys, "cost", "--store", seeded, "--by", "model").out == before
    data = json.loads(
        run_cli(capsys, "cost", "--store", seeded, "--reprice", "--format", "json").out
    )
    assert data["repriced"] is True
    assert data["total"]["unpriced_calls"] == 2  # the packaged table has no house-llm


def test_prices_without_reprice_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], seeded: str, tmp_path: Path
):
    result = run_cli(capsys, "cost", "--store", seeded, "--prices", str(tmp_path / "p.toml"))
    assert result.code == 2
    assert "--reprice" in result.err
