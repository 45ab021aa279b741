"""Structured values: a JSON number under a money key sources the amount written in prose."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from tracegrade.figures import (
    FigureIndex,
    FigureSources,
    amount_values,
    anchor_pattern,
    extract_figures,
)
from tracegrade.figures._structured import key_names_money
from tracegrade.traces import Frame, ToolCallFrame, ToolResultFrame, UserFrame

# The shape of a tau-bench airline reservation, as its get_reservation_details returns it.
RESERVATION = {
    "reservation_id": "4WQ150",
    "user_id": "chen_jackson_3290",
    "flights": [
        {"flight_number": "HAT170", "date": "2024-05-22", "price": 466.75},
        {"flight_number": "HAT022", "date": "2024-05-26", "price": 280},
    ],
    "passengers": [{"first_name": "Chen", "dob": "1956-07-07"}],
    "payment_history": [{"payment_id": "gift_card_3576581", "amount": "747.75"}],
    "total_baggages": 3,
    "nonfree_baggages": 1,
    "insurance": "no",
}
SEARCH = [
    {
        "flight_number": "HAT136",
        "available_seats": {"basic_economy": 17, "economy": 12, "business": 3},
        "prices": {"basic_economy": 87, "economy": 122, "business": 445},
    }
]


def _unsourced(text: str, result: object) -> list[str]:
    index = FigureIndex()
    index.add_values(result, "f1")
    return [figure.raw for figure in index.unsourced(text)]


def test_money_keys_source_the_amount_in_prose() -> None:
    answer = "Flights $466.75 and $280.00; you paid $747.75. Economy is $122, business $445."
    assert _unsourced(answer, RESERVATION) == ["$122", "$445"]
    assert _unsourced(answer, [RESERVATION, SEARCH]) == []


def test_ids_counts_and_dates_never_source_an_amount() -> None:
    answer = "That is $3 for bags, $1 extra, $17 or $12 a seat, $170, $22, $7."
    assert _unsourced(answer, [RESERVATION, SEARCH]) == [
        "$3", "$1", "$17", "$12", "$170", "$22", "$7",
    ]  # fmt: skip


def test_a_string_result_holding_json_or_one_number_is_read_too() -> None:
    assert _unsourced("$466.75", '{"flights": [{"price": 466.75}]}') == []
    assert _unsourced("$255", "255.0") == []  # a calculator's answer
    assert _unsourced("$255", "[255]") == []
    assert _unsourced("$255", "Total: 255") == ["$255"]  # prose: the text rules alone
    assert _unsourced("$255", "[not json] 255") == ["$255"]


def test_keys_with_no_say_inherit_or_do_not_source() -> None:
    assert _unsourced("$122", {"prices": {"economy": 122}}) == []
    assert _unsourced("$122", {"available_seats": {"economy": 122}}) == ["$122"]
    assert _unsourced("$122", {"economy": 122}) == ["$122"]  # no key said money
    assert _unsourced("$122", {"prices": {"seat_count": 122}}) == ["$122"]  # nearest key wins


def test_the_head_word_of_a_key_decides() -> None:
    assert key_names_money("total_baggages") is False
    assert key_names_money("amount_paid") is True
    assert key_names_money("seatPrice") is True
    assert key_names_money("price_per_night") is True
    assert key_names_money("payment_id") is False
    assert key_names_money("last_four") is False
    assert key_names_money("created_at") is False
    assert key_names_money("economy") is None


def test_hedged_amounts_round_as_for_prose_sources() -> None:
    assert _unsourced("about $470", {"price": 466.75}) == []
    assert _unsourced("over $460", {"price": 466.75}) == []
    assert _unsourced("over $470", {"price": 466.75}) == ["$470"]


def test_only_money_is_sourced_by_a_value() -> None:
    assert _unsourced("12% for 30 days", {"rate_percent": 12, "fee": 30}) == ["12%", "30 days"]
    assert list(amount_values({"fee": True, "price": None, "cost": "n/a"})) == []


def test_sources_index_values_of_results_not_of_user_messages() -> None:
    frames: list[Frame] = [
        UserFrame(content='{"price": 99}'),
        ToolCallFrame(id="c1", name="get_reservation_details", args={"reservation_id": "X"}),
        ToolResultFrame(id="c1", ok=True, result='{"price": 466.75}'),
    ]
    sources = FigureSources().extend(frames)
    answer = "$466.75, not $99"
    assert [f.raw for f in sources.index.unsourced(answer)] == ["$99"]
    (figure,) = extract_figures("$466.75")
    assert sources.index.evidence_for(figure) == "f2"


def test_a_failed_result_does_not_vouch_for_its_own_calls_amount() -> None:
    frames: list[Frame] = [
        ToolCallFrame(id="b1", name="book", args={"amount": 304}),
        ToolResultFrame(id="b1", ok=False, result={"error": "mismatch", "total": 608, "paid": 304}),
    ]
    sources = FigureSources().extend(frames)
    assert [f.raw for f in sources.index.unsourced("$608 or $304")] == ["$304"]


def test_windowed_sources_still_read_values() -> None:
    # grade_figures reads only the text around anchors; the values come from the whole result.
    figures = extract_figures("$466.75")
    frames: list[Frame] = [
        ToolCallFrame(id="c1", name="get", args={}),
        ToolResultFrame(id="c1", ok=True, result=RESERVATION),
    ]
    sources = FigureSources(lines_matching=anchor_pattern(figures), bare_numbers=False)
    sources.extend(frames)
    assert sources.index.unsourced("$466.75") == ()


# --- Properties -------------------------------------------------------------------------------

# Amounts in cents: whole dollars or two decimals, up to ten million dollars.
amounts = st.integers(min_value=0, max_value=10**9).map(lambda cents: Decimal(cents) / 100)
MONEY_KEYS = ["price", "amount", "total_price", "refundAmount", "balance", "fee", "cost_usd"]
OTHER_KEYS = ["id", "user_id", "flight_number", "count", "total_baggages", "seats", "date", "age"]
NEUTRAL_KEYS = ["economy", "value", "x", "data"]


def _written(amount: Decimal) -> str:
    return f"${amount:,}"


@given(amounts, st.sampled_from(MONEY_KEYS), st.sampled_from([*NEUTRAL_KEYS, None]), st.booleans())
def test_money_key_sources_the_prose_amount(
    amount: Decimal, key: str, inner: str | None, as_string: bool
) -> None:
    value: object = str(amount) if as_string else float(amount)
    result = {key: {inner: value} if inner else value}
    assert _unsourced(_written(amount), result) == []


@given(st.integers(min_value=0, max_value=999), st.sampled_from(OTHER_KEYS), st.booleans())
def test_an_id_or_count_key_never_sources_an_amount(amount: int, key: str, as_string: bool) -> None:
    # Under 1,000: a larger number is a figure in the JSON text itself, by the prose rules.
    result = {key: str(amount) if as_string else amount, "prices": {key: amount}}
    written = f"${amount}"
    assert _unsourced(written, result) == [written]


KEYS = st.sampled_from(MONEY_KEYS + OTHER_KEYS + NEUTRAL_KEYS)
json_values = st.recursive(
    st.one_of(st.integers(0, 2000), st.sampled_from(["12", "466.75", "n/a"]), st.none()),
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.dictionaries(
            st.sampled_from(MONEY_KEYS + OTHER_KEYS + NEUTRAL_KEYS), children, max_size=3
        ),
    ),
    max_leaves=8,
)
answers = st.lists(st.integers(0, 2000), min_size=1, max_size=4).map(
    lambda numbers: " ".join(f"${number}" for number in numbers)
)


@given(answers, st.lists(json_values, max_size=3), json_values)
def test_adding_a_source_never_unsources_a_figure(
    answer: str, results: list[object], extra: object
) -> None:
    before, after = FigureIndex(), FigureIndex()
    for position, result in enumerate(results):
        before.add_values(result, f"f{position}")
        after.add_values(result, f"f{position}")
    after.add_values(extra, "extra")
    assert set(after.unsourced(answer)) <= set(before.unsourced(answer))
