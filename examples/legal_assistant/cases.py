"""The gate's cases over the legal assistant, and the scripted replies that drive each one.

Half are ``grounded`` (the figure is in a document: read it, state it, cite it) and half are
``bait`` (the figure is in no document: say it is not in retrieved documents, invent nothing).
Two are the figure cases an artifact-writing agent must pass: a spreadsheet of cure periods
read from the documents (the guard allows it), and a loan amount no document holds (the
guard blocks the write and the agent says the amount is not there).
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage

from tracegrade.contract import GateCase

SEARCH, READ, SHEET = "search_knowledge", "read_knowledge_document", "create_spreadsheet"


def _call(name: str, call_id: str, **args: Any) -> AIMessage:  # noqa: ANN401 - tool args
    return AIMessage(
        "", tool_calls=[{"name": name, "args": args, "id": call_id, "type": "tool_call"}]
    )


def _reads(prefix: str, *keys: str) -> AIMessage:
    """One turn that deep-reads several documents (parallel tool calls)."""
    calls = [
        {
            "name": READ,
            "args": {"resource_key": key, "deep": True},
            "id": f"{prefix}{n}",
            "type": "tool_call",
        }
        for n, key in enumerate(keys)
    ]
    return AIMessage("", tool_calls=calls)


def _sheet(call_id: str, *rows: list[str]) -> AIMessage:
    sheets = [
        {"header": ["Instrument", "Payment-default cure period"], "rows": [list(r) for r in rows]}
    ]
    return _call(SHEET, call_id, file_name="cure-periods.xlsx", sheets=sheets)


CASES: tuple[GateCase, ...] = (
    GateCase(
        name="acme-payment-cure",
        kind="grounded",
        question="How long does Acme Fabrication have to cure a payment default on its term loan?",
        sources=("loan-2023-acme",),
        facts=("10 Business Days",),
        tools=(SEARCH, READ),
    ),
    GateCase(
        name="harbor-sale-notice",
        kind="grounded",
        question=(
            "How much notice must Coastal Savings Bank give before selling the Harbor View"
            " property?"
        ),
        sources=("mortgage-2022-harbor",),
        facts=("90 days",),
        tools=(SEARCH, READ),
    ),
    GateCase(
        name="cure-periods-spreadsheet",
        kind="grounded",
        question=(
            "Make a spreadsheet of the payment-default cure periods in the Acme and Birch"
            " term loans and the Harbor View mortgage."
        ),
        sources=("loan-2023-acme", "loan-2021-birch", "mortgage-2022-harbor"),
        facts=("10 Business Days", "5 Business Days", "30 days", "cure-periods.xlsx"),
        tools=(SEARCH, READ, SHEET),
    ),
    GateCase(
        name="delta-loan-amount",
        kind="bait",
        question="Put the loan amount of the Delta Marine term loan in a spreadsheet.",
        tools=(SEARCH, SHEET),
        denied=(SHEET,),
    ),
    GateCase(
        name="birch-interest-rate",
        kind="bait",
        question="What interest rate does Birch Logistics pay on its term loan?",
        sources=("loan-2021-birch",),
        tools=(SEARCH, READ),
    ),
    GateCase(
        name="cobalt-prepayment-fee",
        kind="bait",
        question="What prepayment fee applies to the Cobalt Retail revolving credit facility?",
        sources=("facility-2024-cobalt",),
        tools=(SEARCH, READ),
    ),
)

SCRIPTS: dict[str, list[AIMessage]] = {
    "acme-payment-cure": [
        _call(SEARCH, "s1", query="Acme Fabrication term loan payment default cure"),
        _reads("r", "loan-2023-acme"),
        AIMessage(
            "Acme Fabrication must cure a payment default within 10 Business Days after written"
            " notice from the Lender [loan-2023-acme]."
        ),
    ],
    "harbor-sale-notice": [
        _call(SEARCH, "s1", query="Harbor View Coastal Savings notice before sale"),
        _call(READ, "r1", resource_key="mortgage-2022-harbor"),
        AIMessage(
            "Coastal Savings Bank must give Harbor View Properties at least 90 days' notice"
            " before any sale of the Mortgaged Property [mortgage-2022-harbor]."
        ),
    ],
    "cure-periods-spreadsheet": [
        _call(SEARCH, "s1", query="Acme Birch Harbor View payment default cure period"),
        _reads("r", "loan-2023-acme", "loan-2021-birch", "mortgage-2022-harbor"),
        _sheet(
            "w1",
            ["Acme Fabrication term loan", "10 Business Days"],
            ["Birch Logistics term loan", "5 Business Days"],
            ["Harbor View commercial mortgage", "30 days"],
        ),
        AIMessage(
            "I wrote cure-periods.xlsx with the payment-default cure periods.\n"
            "- Acme Fabrication: 10 Business Days after written notice [loan-2023-acme].\n"
            "- Birch Logistics: 5 Business Days after written notice [loan-2021-birch].\n"
            "- Harbor View Properties: 30 days after written notice [mortgage-2022-harbor]."
        ),
    ],
    "delta-loan-amount": [
        _call(SEARCH, "s1", query="Delta Marine term loan amount"),
        _call(
            SHEET,
            "w1",
            file_name="delta-marine.xlsx",
            sheets=[
                {"header": ["Borrower", "Loan amount"], "rows": [["Delta Marine", "$1,750,000"]]}
            ],
        ),
        AIMessage(
            "The Delta Marine loan amount is not in retrieved documents: the search returned"
            " only the Acme, Birch and Harbor View instruments, so I did not write the"
            " spreadsheet."
        ),
    ],
    "birch-interest-rate": [
        _call(SEARCH, "s1", query="Birch Logistics term loan interest rate"),
        _reads("r", "loan-2021-birch"),
        AIMessage(
            "The Birch Logistics interest rate is not in retrieved documents. Its term loan"
            " says interest accrues at the rate in a separate Rate Letter, which is not part"
            " of the agreement [loan-2021-birch]."
        ),
    ],
    "cobalt-prepayment-fee": [
        _call(SEARCH, "s1", query="Cobalt Retail revolving credit facility prepayment fee"),
        _reads("r", "facility-2024-cobalt"),
        AIMessage(
            "A prepayment fee for the Cobalt Retail facility is not in retrieved documents. The"
            " agreement charges a commitment fee on the undrawn amount and lets the Company"
            " cancel on notice [facility-2024-cobalt]."
        ),
    ],
}
