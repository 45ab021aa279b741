"""The proposal page and its API: the change, and what its newest shadow run measured.

A person approves; the page says plainly when the shadow run shows the change is not
better than noise, breaks a ``block`` case, or was never tried
(:func:`tracegrade.proposals.improvement_problem`).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import HTMLResponse, Response

from tracegrade.evals import ShadowComparison, describe_verdict
from tracegrade.proposals import improvement_problem, latest_trial
from tracegrade.store import ProposalRecord  # noqa: TC001 - pydantic reads annotations
from tracegrade.web._lookup import request_context, stored_id
from tracegrade.web._models import _Model
from tracegrade.web._pages import render

__all__ = ["ProposalView", "found_proposal", "proposal_router"]

proposal_router = APIRouter()


class ProposalView(_Model):
    """A proposal and its newest shadow run.

    Attributes:
        proposal: The proposal.
        shadow: What its newest shadow run measured (``tracegrade proposals try``), if any.
        verdict: That comparison in one plain line (better, worse, not better than noise).
        problem: Why it does not show a gain (what ``--require-improvement`` and
            ``apply --auto`` refuse); ``None`` when it does.
    """

    proposal: ProposalRecord
    shadow: ShadowComparison | None
    verdict: str | None
    problem: str | None


def found_proposal(request: Request, proposal_id: int) -> ProposalView:
    """The proposal with its newest shadow comparison; 404 for an unknown proposal."""
    store = request_context(request).store
    proposal = store.get_proposal(stored_id(proposal_id, "proposal"))
    if proposal is None:
        raise HTTPException(404, f"no proposal {proposal_id}")
    trial = latest_trial(store, proposal_id)
    return ProposalView(
        proposal=proposal,
        shadow=trial,
        verdict=describe_verdict(trial) if trial is not None else None,
        problem=improvement_problem(proposal_id, trial),
    )


@proposal_router.get("/api/proposals/{proposal_id}", response_model=ProposalView)
def get_proposal(view: Annotated[ProposalView, Depends(found_proposal)]) -> ProposalView:
    """A proposal, its diff, and what its newest shadow run measured."""
    return view


@proposal_router.get(
    "/proposals/{proposal_id}", response_class=HTMLResponse, include_in_schema=False
)
def proposal_page(
    request: Request, view: Annotated[ProposalView, Depends(found_proposal)]
) -> Response:
    """A proposal: its diff, its shadow run (before/after, interval, p-value, flips, cost)."""
    return render(request, "proposal.html", view=view)
