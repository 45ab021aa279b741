//! The figures' evidence over a trace's frames (`tracegrade.figures.FigureSources` with
//! `anchor_pattern`, `FigureIndex` and `amount_values`).
//!
//! TODO(native-figures): the port.

use super::{Fallback, Trace};
use crate::figures::extract::{Extractor, Figure};

/// For each figure, the first frame (`f4`) that sources it, or `None` when none does.
///
/// As the reference's `FigureSources(lines_matching=anchor_pattern(figures),
/// bare_numbers=False, humans=humans).extend(trace.frames).index.evidence_for(figure)`.
pub fn figure_evidence(
    _trace: &Trace<'_>,
    _figures: &[Figure],
    _humans: bool,
    _extractor: &Extractor,
) -> Result<Vec<Option<String>>, Fallback> {
    Err(Fallback("not yet ported"))
}
