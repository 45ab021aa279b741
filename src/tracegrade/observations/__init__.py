"""What each tool result let the model see, decoded per result shape (pure).

:func:`observe` walks a trace's tool results through the registered decoders
(:func:`decoder`) and returns :class:`Observations`: names seen
(:class:`PathObservation`) and lines seen (:class:`LineObservation`).
"""

from tracegrade.observations import _decoders as _decoders  # registers the built-in shapes
from tracegrade.observations._declared import DeclaredDecoder, declared_decoders
from tracegrade.observations._model import (
    Document,
    LineObservation,
    Lines,
    Names,
    Observation,
    ObservationKind,
    Observations,
    PathObservation,
    Ranked,
    SearchField,
    Source,
    observation_id,
)
from tracegrade.observations._observe import observe
from tracegrade.observations._registry import (
    Decoder,
    DecoderFunction,
    decoder,
    decoders,
    only_built_in_decoders,
    unregister_decoder,
)

__all__ = [
    "DeclaredDecoder",
    "Decoder",
    "DecoderFunction",
    "Document",
    "LineObservation",
    "Lines",
    "Names",
    "Observation",
    "ObservationKind",
    "Observations",
    "PathObservation",
    "Ranked",
    "SearchField",
    "Source",
    "declared_decoders",
    "decoder",
    "decoders",
    "observation_id",
    "observe",
    "only_built_in_decoders",
    "unregister_decoder",
]
