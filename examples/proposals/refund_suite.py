"""The example's suite: 20 refund questions answered by a scripted agent that follows the prompt.

The agent (no model: a script) writes each answer from the policy facts and obeys only the
instructions the prompt holds: citing the source, stating the currency, ISO dates. A case
passes when its answer has what the case needs. ``scripted_model.txt`` (beside this file,
optional) names the scripted model: ``v2`` stands for a provider update after which an
instruction to state the currency makes the agent drop its citations.
"""

from __future__ import annotations

from pathlib import Path

from tracegrade.evals import CaseOutcome

HERE = Path(__file__).parent

# (case, what its answer needs): citation, currency or an ISO date.
CASES = (
    *((f"refund-cite-{n:02}", "citation") for n in range(10)),
    *((f"refund-currency-{n:02}", "currency") for n in range(6)),
    *((f"refund-date-{n:02}", "date") for n in range(4)),
)


def _answer(prompt: str, model: str) -> set[str]:
    """What the scripted agent's answers contain under this prompt."""
    has = set()
    currency = "state the currency" in prompt.lower()
    if "cite the source" in prompt.lower() and not (model == "v2" and currency):
        has.add("citation")
    if currency:
        has.add("currency")
    if "yyyy-mm-dd" in prompt.lower():
        has.add("date")
    return has


def suite(repeat: int) -> list[CaseOutcome]:
    """One repeat of every case under the prompt as it is now."""
    prompt = (HERE / "prompts" / "answer.md").read_text(encoding="utf-8")
    chosen = HERE / "scripted_model.txt"
    model = chosen.read_text(encoding="utf-8").strip() if chosen.exists() else "v1"
    has = _answer(prompt, model)
    return [
        CaseOutcome(case=case, outcome="passed")
        if need in has
        else CaseOutcome(case=case, outcome="failed", detail=f"the answer lacks its {need}")
        for case, need in CASES
    ]
