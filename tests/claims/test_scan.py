"""scan_claims() and extract_answer_claims(): each kind, its normalised text and its forms."""

from __future__ import annotations

import time

import pytest

from tracegrade.claims import AnswerClaim, extract_answer_claims, shown_in
from tracegrade.claims._scan import scan_claims


def claims(answer: str) -> list[tuple[str, str, str]]:
    """(kind, raw, text) of every claim of the answer, figures included, in answer order."""
    return [(c.kind, c.raw, c.text) for c in extract_answer_claims(answer)]


def one(answer: str) -> AnswerClaim:
    (found,) = extract_answer_claims(answer)
    return found


# --- Paths, URLs, e-mails -------------------------------------------------------------------


def test_a_path_is_shown_by_itself_and_by_its_file_name() -> None:
    claim = one("It is set in agent/src/config.ts.")
    assert (claim.kind, claim.raw, claim.text) == (
        "path",
        "agent/src/config.ts",
        "agent/src/config.ts",
    )
    assert claim.forms == ("agent/src/config.ts", "config.ts")
    assert shown_in("config.ts", ["  config.ts"])  # a listing rooted in agent/src


def test_a_bare_file_name_needs_a_known_extension() -> None:
    assert claims("See README.md and package.json.") == [
        ("path", "README.md", "README.md"),
        ("path", "package.json", "package.json"),
    ]
    assert claims("the end.Next part") == []


@pytest.mark.parametrize("prose", ["and/or", "km/h", "24/7", "3/4 of them"])
def test_one_slash_of_prose_is_no_path(prose: str) -> None:
    assert [c for c in claims(prose) if c[0] == "path"] == []


def test_a_folder_keeps_its_text_without_the_slash() -> None:
    claim = one("Look under src/.")
    assert (claim.kind, claim.text) == ("path", "src")


def test_a_url_is_compared_without_scheme_www_and_trailing_slash() -> None:
    claim = one("Source: https://www.Example.org/Wiki/IPv6/.")
    assert (claim.kind, claim.raw) == ("url", "https://www.Example.org/Wiki/IPv6/")
    assert claim.text == "example.org/wiki/ipv6"
    assert claim.forms == ("Example.org/Wiki/IPv6",)
    assert shown_in(claim.forms[0], ["see http://example.org/wiki/ipv6 today"])


def test_a_url_without_scheme_and_a_bare_domain_are_urls() -> None:
    assert claims("Read en.wikipedia.org/wiki/UTF-8 or python.org.") == [
        ("url", "en.wikipedia.org/wiki/UTF-8", "en.wikipedia.org/wiki/utf-8"),
        ("url", "python.org", "python.org"),
    ]


def test_an_email_is_lower_cased() -> None:
    assert claims("Write to Ops.Team@Example.com.") == [
        ("email", "Ops.Team@Example.com", "ops.team@example.com")
    ]


# --- Code -------------------------------------------------------------------------------------


def test_identifiers_snake_camel_dotted_and_backticked() -> None:
    found = claims("Set MODEL_NAME, maxBatch and os.path.join() in `find . -name x`.")
    assert found == [
        ("identifier", "MODEL_NAME", "MODEL_NAME"),
        ("identifier", "maxBatch", "maxBatch"),
        ("identifier", "os.path.join()", "os.path.join"),
        ("identifier", "`find . -name x`", "find . -name x"),
    ]


def test_a_file_extension_is_shown_with_or_without_its_dot() -> None:
    claim = one("It skips .avif files.")
    assert (claim.kind, claim.text, claim.forms) == ("identifier", ".avif", ("avif",))
    assert shown_in("avif", ["/\\.(png|avif|zip)$/i"])


def test_ids_mix_letters_and_digits() -> None:
    assert claims("Ticket NOS-183, car ZFA04Y, commit 4f9f958, jet Su-24.") == [
        ("id", "NOS-183", "NOS-183"),
        ("id", "ZFA04Y", "ZFA04Y"),
        ("id", "4f9f958", "4f9f958"),
        ("id", "Su-24", "Su-24"),
    ]
    assert one("a jet Su-24").forms == ("Su-24", "Su24", "Su 24")


@pytest.mark.parametrize("unit", ["5kg", "10am", "3rd", "1990s", "16e"])
def test_a_number_with_a_unit_is_no_id(unit: str) -> None:
    assert [c for c in claims(f"it was {unit} then") if c[0] == "id"] == []


def test_quotes_win_over_what_they_hold_and_each_pair_is_one_quote() -> None:
    assert claims("It exports MODEL_NAME = 'gpt-5-mini'.") == [
        ("identifier", "MODEL_NAME", "MODEL_NAME"),
        ("quote", "'gpt-5-mini'", "gpt-5-mini"),
    ]
    assert claims('"a" and "b"') == [("quote", '"a"', "a"), ("quote", '"b"', "b")]


def test_a_quote_is_shown_tokenised_and_without_its_hyphens() -> None:
    claim = one('titled "Veeram (Valour)"')
    assert "Veeram ( Valour )" in claim.forms
    assert "well proportioned" in one('it is "well-proportioned"').forms


def test_a_long_quote_is_left_to_its_parts() -> None:
    long = " ".join(["word"] * 13)
    assert claims(f'He said "{long} Paris" today.') == [("name", "Paris", "Paris")]


def test_an_apostrophe_opens_no_quote() -> None:
    assert [c for c in claims("Omura's whale and the boys' club 'x'") if c[0] == "quote"] == [
        ("quote", "'x'", "x")
    ]


# --- Dates ------------------------------------------------------------------------------------


def test_a_date_is_its_month_and_day_and_the_year_is_a_figure() -> None:
    assert claims("born August 8, 1966") == [
        ("date", "August 8", "08-08"),
        ("figure", "1966", "1966"),
    ]
    forms = one("on 3rd of March").forms
    assert {"March 3", "3 March", "Mar 3", "Mar. 3", "-03-03"} <= set(forms)


def test_an_iso_date_gives_its_month_and_day() -> None:
    assert claims("on 2024-03-03") == [("figure", "2024", "2024"), ("date", "03-03", "03-03")]
    date = extract_answer_claims("on 2024-03-03")[1]
    assert shown_in(date.forms[0], ["dated 2024-03-03"])
    assert shown_in("March 3", ["March 3, 2024"])


def test_months_alone_weekdays_and_the_modal_may() -> None:
    assert claims("It shipped in March, on a Friday; it may slip to May 30.") == [
        ("date", "March", "march"),
        ("date", "Friday", "friday"),
        ("date", "May 30", "05-30"),
    ]


def test_an_impossible_day_is_no_date() -> None:
    assert [c for c in claims("on March 45") if c[0] == "date"] == []


# --- Quantities -------------------------------------------------------------------------------


def test_a_quantity_is_shown_by_its_number_in_digits_or_words() -> None:
    claim = one("They crossed 25 countries.")
    assert (claim.kind, claim.text) == ("quantity", "25 countries")
    assert claim.forms == ("25", "twenty-five", "twenty five")
    assert one("They scored four goals.").forms == ("4", "four")


def test_small_spelled_counts_and_function_words_are_no_quantities() -> None:
    assert claims("The passage describes two films and one of them won 3 of 5.") == []


def test_scores_and_ages() -> None:
    assert claims("Then Morton won 38-30 with a 17-year-old.") == [
        ("name", "Morton", "Morton"),
        ("quantity", "38-30", "38-30"),
        ("quantity", "17-year-old", "17 year-old"),
    ]


def test_figures_take_precedence_over_quantities() -> None:
    assert claims("It took two weeks and cost $5.") == [
        ("figure", "two weeks", "2 weeks"),
        ("figure", "$5", "5"),
    ]


# --- Names ------------------------------------------------------------------------------------


def test_names_drop_titles_common_words_and_sentence_starts() -> None:
    found = claims(
        "The report names President Bashar al-Assad. Extends to the north. "
        "Environment Minister Albert Jacob spoke."
    )
    assert found == [
        ("name", "Bashar al-Assad", "Bashar al-Assad"),
        ("name", "Albert Jacob", "Albert Jacob"),
    ]


def test_a_sentence_start_word_is_a_name_when_written_capitalised_elsewhere() -> None:
    assert claims("Beckford signed. Later, Beckford left.") == [("name", "Beckford", "Beckford")]
    assert claims("Beckford signed.") == []


def test_possessives_and_lower_case_tails_split_names() -> None:
    assert claims("He met Nottingham's David Ling and Oscar-winner Kevin Kline.") == [
        ("name", "Nottingham", "Nottingham"),
        ("name", "David Ling", "David Ling"),
        ("name", "Oscar", "Oscar"),
        ("name", "Kevin Kline", "Kevin Kline"),
    ]


def test_a_name_is_shown_by_its_last_word_place_words_and_its_plural() -> None:
    forms = one("He met Faryal Khan.").forms
    assert forms[0] == "Faryal Khan"
    assert "Khan" in forms
    assert "Faryal" not in forms
    assert "Belgium" in one("He joins Belgian clubs.").forms
    assert "West Australian" in one("He lives in Western Australia.").forms
    assert "European Championships" in one("He won the European Championship.").forms
    assert "Chris Eubank" in one("He fought Chris Eubank Jr. once.").forms


def test_accented_names_are_shown_composed_decomposed_and_bare() -> None:
    forms = one("from the Angoul\u00eame branch").forms
    assert {"Angoul\u00eame", "Angoule\u0302me", "Angouleme"} <= set(forms)


@pytest.mark.parametrize("word", ["TV", "PM", "I", "I\u2019ll"])
def test_plain_capitals_are_no_names(word: str) -> None:
    assert claims(f"so then {word} said") == []


def test_command_flags_are_no_names() -> None:
    assert [c for c in claims("run grep -RIn model .") if c[0] == "name"] == []


# --- Hedges -----------------------------------------------------------------------------------


def test_claims_of_a_hedged_sentence_are_hedged_and_only_those() -> None:
    found = extract_answer_claims(
        "The file is likely agent/src/run.ts. It sets MODEL_NAME. Try opening config.ts."
    )
    assert [(c.raw, c.hedged) for c in found] == [
        ("agent/src/run.ts", True),
        ("MODEL_NAME", False),
        ("config.ts", True),
    ]


def test_may_the_month_hedges_nothing() -> None:
    assert [c.hedged for c in extract_answer_claims("On May 30 he read src/a.py.")] == [
        False,
        False,
    ]


def test_the_scan_returns_quotes_first_then_answer_order() -> None:
    found = scan_claims("Set MODEL_NAME = 'x' in a/b.py.")
    assert [c.kind for c in found] == ["quote", "identifier", "path"]


def test_bold_labels_shouting_and_time_zones_are_no_names() -> None:
    assert claims("- **Cabin Class:** economy") == []
    assert claims("YOU ARE BEING TRANSFERRED. PLEASE HOLD ON.") == []
    assert [c for c in claims("It leaves at 07:00 PM EST from there.") if c[0] == "name"] == []


def test_two_capitals_inside_a_name_stay() -> None:
    assert claims("He joined Aberdeen FC today.") == [("name", "Aberdeen FC", "Aberdeen FC")]


def test_times_of_day_are_dates_in_both_clocks() -> None:
    assert claims("It left at 2 pm and landed at 09:30, then 7:30 a.m.") == [
        ("date", "2 pm", "14:00"),
        ("date", "09:30", "09:30"),
        ("date", "7:30 a.m.", "07:30"),
    ]
    assert {"14:00", "2pm", "2 p.m."} <= set(one("at 2 pm").forms)
    assert [c for c in claims("at 09:00 local time") if c[0] == "quantity"] == []


@pytest.mark.parametrize("not_a_time", ["13 pm", "the 10:70 train", "12:30:15"])
def test_impossible_or_longer_clock_readings_are_no_times(not_a_time: str) -> None:
    assert [c for c in claims(not_a_time) if c[0] == "date"] == []


def test_a_long_name_is_shown_by_two_of_its_words_never_one() -> None:
    forms = one("He plays for Montego Bay United now.").forms
    assert "Montego Bay" in forms
    assert "Bay United" in forms
    assert "United" not in forms
    assert "Aberdeen" in one("He joined Aberdeen FC today.").forms


def test_ordinals_from_the_fourth_up_are_quantities_in_words_or_digits() -> None:
    assert claims("Ranked fifth, then 21st; the first and second half.") == [
        ("quantity", "fifth", "5th"),
        ("quantity", "21st", "21st"),
    ]
    assert one("It was his fourteenth album.").forms == ("14th", "fourteenth")
    assert one("It came 13th.").forms == ("13th", "thirteenth")


def test_headings_and_table_header_rows_hold_no_names() -> None:
    answer = "## Revenue Comparison\n\n| Company | Quarter |\n|---|---|\n| Apple | Q4 |\n"
    assert claims(answer) == [("name", "Apple", "Apple"), ("id", "Q4", "Q4")]
    assert claims("So Paris # and Lyon") == [("name", "Paris", "Paris"), ("name", "Lyon", "Lyon")]


@pytest.mark.parametrize("unit", ["a+", "a.", "ab+", "1-", "'a", '"', "A-", "a@", "Abc of "])
def test_the_scan_is_linear_on_runs_of_one_shapes_characters(unit: str) -> None:
    # 80,000 characters: about 0.3 s when linear, over 15 s when a shape rescans each run.
    text = unit * (80_000 // len(unit))
    started = time.perf_counter()
    scan_claims(text)
    assert time.perf_counter() - started < 5
