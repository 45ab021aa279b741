"""Price tables: arithmetic checked by hand, matching rules, unknown is None, bad files."""

from __future__ import annotations

import tomllib
from datetime import date
from importlib import resources
from typing import TYPE_CHECKING

import pytest

from tracegrade.cost import (
    ModelPrice,
    PriceTable,
    Usage,
    cost_of,
    load_prices,
    packaged_prices,
    parse_price_table,
)
from tracegrade.errors import InputError

if TYPE_CHECKING:
    from pathlib import Path


def test_cost_is_each_token_kind_at_its_rate_per_million():
    price = ModelPrice(input=2.50, output=10.00, input_cache_read=1.25, input_cache_write=3.75)
    usage = Usage(
        input_tokens=10_000,
        output_tokens=2_000,
        cached_input_tokens=4_000,
        cache_write_input_tokens=1_000,
    )
    # 5,000 plain x $2.50 + 4,000 read x $1.25 + 1,000 written x $3.75 + 2,000 out x $10, per 1M
    expected = (5_000 * 2.50 + 4_000 * 1.25 + 1_000 * 3.75 + 2_000 * 10.00) / 1_000_000
    assert cost_of(usage, price) == pytest.approx(expected)
    assert expected == pytest.approx(0.04125)


def test_a_missing_cache_rate_bills_those_tokens_as_input():
    price = ModelPrice(input=1.0, output=2.0)
    usage = Usage(1_000_000, 0, cached_input_tokens=400_000, cache_write_input_tokens=100_000)
    assert cost_of(usage, price) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("model", "usage", "dollars"),
    [
        # gpt-4o: $2.50 in, $1.25 cached, $10 out.
        ("gpt-4o", Usage(1_000, 500, 200), (800 * 2.50 + 200 * 1.25 + 500 * 10.00) / 1e6),
        # gpt-4o-mini: $0.15 in, $0.075 cached, $0.60 out.
        ("gpt-4o-mini", Usage(1_200, 90, 1_024), (176 * 0.15 + 1_024 * 0.075 + 90 * 0.60) / 1e6),
        # gpt-4.1-nano: $0.10 in, $0.40 out.
        ("gpt-4.1-nano", Usage(1_000_000, 1_000_000), 0.50),
        # o3: $2 in, $8 out.
        ("o3", Usage(3_000, 7_000), (3_000 * 2.00 + 7_000 * 8.00) / 1e6),
        # claude-sonnet-4: $3 in, $0.30 cache read, $3.75 cache write, $15 out.
        (
            "claude-sonnet-4",
            Usage(10_000, 1_000, 6_000, 2_000),
            (2_000 * 3.00 + 6_000 * 0.30 + 2_000 * 3.75 + 1_000 * 15.00) / 1e6,
        ),
        # claude-opus-4: $15 in, $75 out.
        ("claude-opus-4", Usage(1_000, 1_000), (1_000 * 15 + 1_000 * 75) / 1e6),
        # claude-3-5-haiku: $0.80 in, $4 out.
        ("claude-3-5-haiku", Usage(100_000, 10_000), (100_000 * 0.80 + 10_000 * 4.00) / 1e6),
    ],
)
def test_the_packaged_prices_by_hand(model: str, usage: Usage, dollars: float):
    assert packaged_prices().price(model, usage) == pytest.approx(dollars)


@pytest.mark.parametrize(
    ("model", "key"),
    [
        ("gpt-4o", "openai/gpt-4o"),
        ("openai/gpt-4o", "openai/gpt-4o"),
        ("openai:gpt-4o-mini", "openai/gpt-4o-mini"),
        ("gpt-4o-2024-08-06", "openai/gpt-4o"),
        ("openai/gpt-4o-2024-11-20", "openai/gpt-4o"),
        ("gpt-4o-mini-2024-07-18", "openai/gpt-4o-mini"),
        ("gpt-4.1-2025-04-14", "openai/gpt-4.1"),
        ("o4-mini-2025-04-16", "openai/o4-mini"),
        ("claude-sonnet-4-20250514", "anthropic/claude-sonnet-4"),
        ("anthropic:claude-sonnet-4-20250514", "anthropic/claude-sonnet-4"),
        ("anthropic/claude-3-7-sonnet-20250219", "anthropic/claude-3-7-sonnet"),
        ("claude-3-5-haiku-latest", "anthropic/claude-3-5-haiku"),
        ("claude-opus-4-20250514", "anthropic/claude-opus-4"),
        ("claude-opus-4-1-20250805", "anthropic/claude-opus-4-1"),
        ("GPT-4o", "openai/gpt-4o"),
        # An exact snapshot entry wins over its family (this one had other prices).
        ("gpt-4o-2024-05-13", "openai/gpt-4o-2024-05-13"),
    ],
)
def test_matching_exact_then_provider_prefix_then_snapshot_family(model: str, key: str):
    found = packaged_prices().lookup(model)
    assert found is not None
    assert found[0] == key


@pytest.mark.parametrize(
    "model",
    [
        "llama-3-70b",
        "gpt-4o-audio",  # a sibling, not a snapshot of gpt-4o
        "gpt-4o-2024",  # not a date
        "ft:gpt-4o-mini:acme::abc123",  # a fine-tune has its own price
        "mistral/gpt-4o",  # not a provider prefix this table knows
        "unknown",
    ],
)
def test_an_unknown_model_costs_none_never_zero(model: str):
    table = packaged_prices()
    assert table.lookup(model) is None
    assert table.price(model, Usage(1_000, 1_000)) is None


def test_the_packaged_table_states_its_source_and_date():
    text = resources.files("tracegrade.cost").joinpath("prices.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    assert isinstance(data["as_of"], date)
    assert "openai.com" in data["source"]
    assert "anthropic.com" in data["source"]
    wanted = [
        "openai/gpt-4o",
        "openai/gpt-4o-mini",
        "openai/gpt-4.1",
        "openai/gpt-4.1-mini",
        "openai/gpt-4.1-nano",
        "openai/o3",
        "openai/o4-mini",
        "anthropic/claude-3-5-haiku",
        "anthropic/claude-3-7-sonnet",
        "anthropic/claude-sonnet-4",
        "anthropic/claude-opus-4",
    ]
    assert set(wanted) <= set(packaged_prices().prices)
    for price in packaged_prices().prices.values():
        assert price.output >= price.input > 0
        assert price.input_cache_read is None or price.input_cache_read < price.input


def test_a_user_file_overrides_and_extends_the_packaged_table(tmp_path: Path):
    path = tmp_path / "prices.toml"
    path.write_text(
        "as_of = 2025-06-01\n"
        '[models."gpt-4o"]\ninput = 1.0\noutput = 4.0\n'
        '[models."acme/house-model"]\ninput = 0.5\noutput = 0.5\n',
        encoding="utf-8",
    )
    table = load_prices(path)
    found = table.lookup("openai/gpt-4o-2024-08-06")
    assert found == ("gpt-4o", ModelPrice(1.0, 4.0))
    assert table.price("gpt-4o", Usage(1_000_000, 0)) == pytest.approx(1.0)
    assert table.price("acme/house-model", Usage(1_000_000, 1_000_000)) == pytest.approx(1.0)
    assert table.price("house-model", Usage(2_000_000, 0)) == pytest.approx(1.0)
    assert table.lookup("claude-sonnet-4") is not None  # the rest of the packaged table stays
    assert table.sources[-1] == f"{path} (as of 2025-06-01)"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('[models."gpt-x"]\ninput = "cheap"\noutput = 1.0\n', ["'gpt-x'", "input", "number"]),
        ('[models."gpt-x"]\ninput = 1.0\n', ["'gpt-x'", "no output price"]),
        ('[models."gpt-x"]\ninput = -1.0\noutput = 1.0\n', ["'gpt-x'", "zero or more"]),
        ('[models."gpt-x"]\ninput = 1.0\noutput = 1.0\ncached = 0.5\n', ["'gpt-x'", "'cached'"]),
        ('[models]\n"gpt-x" = 3\n', ["'gpt-x'", "not a table"]),
        ("[gpt-x]\ninput = 1.0\n", ["unknown top-level key 'gpt-x'"]),
        ('currency = "EUR"\n', ["'EUR'"]),
        ("[models\n", ["not valid TOML"]),
    ],
)
def test_a_malformed_price_file_is_one_clear_error_naming_file_and_model(
    tmp_path: Path, text: str, words: list[str]
):
    path = tmp_path / "bad-prices.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_prices(path)
    assert caught.value.exit_code == 2
    assert caught.value.path == str(path)
    for word in words:
        assert word in str(caught.value)


def test_a_missing_price_file_is_bad_input(tmp_path: Path):
    with pytest.raises(InputError, match="cannot read"):
        load_prices(tmp_path / "nope.toml")


def test_parsing_is_pure_and_names_its_origin():
    table = parse_price_table({"models": {"m": {"input": 1, "output": 2}}}, "inline")
    assert table == PriceTable({"m": ModelPrice(1.0, 2.0)}, ("inline",))


def test_usage_refuses_impossible_counts():
    with pytest.raises(ValueError, match="negative"):
        Usage(-1, 0)
    with pytest.raises(ValueError, match="exceed"):
        Usage(10, 0, cached_input_tokens=8, cache_write_input_tokens=5)
