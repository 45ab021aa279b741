"""Evaluations as Phoenix span annotations, through Phoenix's REST API (edge).

``POST {url}/v1/span_annotations?sync=true`` with ``{"data": [SpanAnnotationData]}``, each
``{span_id, name, annotator_kind, result: {label, score, explanation}, metadata,
identifier}`` (Phoenix's ``annotateSpans`` operation, ``server/api/routers/v1/spans.py``).
Phoenix keeps one annotation per (name, span, identifier): a claim's identifier is its kind
and span in the answer, so exporting again updates the annotations instead of adding more.
Only runs read from spans can be annotated; the standard library's HTTP client sends it.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import TYPE_CHECKING, Any

from tracegrade.errors import InfrastructureError, InputError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from tracegrade.export._evaluations import Evaluation

__all__ = ["PHOENIX_PATH", "phoenix_annotations", "send_phoenix"]

PHOENIX_PATH = "/v1/span_annotations"
_BATCH = 100


def phoenix_annotations(evaluations: Sequence[Evaluation]) -> list[dict[str, Any]]:
    """Each evaluation as one ``SpanAnnotationData`` (annotator ``CODE``: no model judged).

    Raises:
        InputError: An evaluation's run was not read from spans (nothing to annotate).
    """
    annotations = []
    for evaluation in evaluations:
        if evaluation.span is None:
            raise InputError(
                f"run {evaluation.run!r} was not read from spans, and Phoenix annotates spans",
                fix="export runs read from Phoenix or OpenInference spans, or use"
                " `tracegrade export otel` / `langfuse`",
            )
        metadata: dict[str, Any] = {"tracegrade.run.id": evaluation.run}
        if evaluation.claim is not None:
            claim = evaluation.claim
            metadata |= {"kind": claim.kind, "text": claim.raw, "start": claim.start,
                         "end": claim.end, "evidence": list(claim.evidence)}  # fmt: skip
        annotations.append(
            {
                "span_id": evaluation.span.span_id,
                "name": evaluation.name,
                "annotator_kind": "CODE",
                "result": {
                    "label": evaluation.label,
                    "score": evaluation.score,
                    "explanation": evaluation.explanation,
                },
                "metadata": metadata,
                "identifier": evaluation.key,
            }
        )
    return annotations


def send_phoenix(
    annotations: Sequence[dict[str, Any]],
    url: str,
    *,
    api_key: str | None = None,
    timeout: float = 10.0,
) -> int:
    """Post the annotations to the Phoenix server at ``url``; how many it inserted.

    Raises:
        InputError: The URL is not http(s), or Phoenix refused the annotations (an unknown
            span: the run's spans were never sent to that Phoenix).
        InfrastructureError: Phoenix could not be reached or failed.
    """
    if not url.startswith(("http://", "https://")):
        raise InputError(f"{url!r} is not an http(s) URL", fix="pass --url http://HOST:6006")
    endpoint = url.rstrip("/") + PHOENIX_PATH + "?sync=true"
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    inserted = 0
    for start in range(0, len(annotations), _BATCH):
        body = json.dumps({"data": list(annotations[start : start + _BATCH])}).encode()
        request = urllib.request.Request(endpoint, data=body, headers=headers, method="POST")  # noqa: S310 - http(s) checked above
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
                answer = json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as exc:
            detail = exc.read().decode("utf-8", "replace").strip()[:300]
            if 400 <= exc.code < 500:
                raise InputError(
                    f"Phoenix at {url} refused the annotations ({exc.code}: {detail})",
                    fix="send the run's spans to that Phoenix first; check --api-key",
                ) from exc
            raise InfrastructureError(f"Phoenix at {url} failed ({exc.code}: {detail})") from exc
        except (urllib.error.URLError, TimeoutError, OSError) as exc:
            raise InfrastructureError(
                f"Phoenix at {url} could not be reached ({exc})",
                fix="check that the Phoenix server runs there",
            ) from exc
        data = answer.get("data") if isinstance(answer, dict) else None
        inserted += len(data) if isinstance(data, list) else 0
    return inserted
