//! The texts of a trace's tool results (`result_text`) and their `amount_values`, worked
//! out once per distinct result for every figure lookup of a grade.

use std::borrow::Cow;

use super::super::{Fallback, Value, json};
use super::amount_values;

/// Each tool result's text (`result_text`) and `amount_values` by frame, worked out when
/// first needed and once for results written alike (an agent often reads one page again):
/// a grade looks up the facts' figures and then the answer's in the same results.
#[derive(Default)]
pub struct ResultTexts<'v> {
    /// By frame: which of `distinct` its result is.
    pub(super) by_frame: Vec<Option<usize>>,
    pub(super) distinct: Vec<Distinct<'v>>,
}

/// A result unlike every earlier one, with what has been worked out of it.
pub(super) struct Distinct<'v> {
    value: Option<Value<'v>>,
    pub(super) text: Option<Cow<'v, str>>,
    amounts: Option<Vec<String>>,
}

impl<'v> ResultTexts<'v> {
    /// Which distinct result the result of frame `position` is (nothing is written).
    pub(super) fn index(&mut self, position: usize, result: Option<Value<'v>>) -> usize {
        if let Some(&Some(index)) = self.by_frame.get(position) {
            return index;
        }
        let same = self
            .distinct
            .iter()
            .position(|earlier| json::writes_alike(earlier.value, result));
        let index = same.unwrap_or_else(|| {
            self.distinct.push(Distinct {
                value: result,
                text: None,
                amounts: None,
            });
            self.distinct.len() - 1
        });
        if self.by_frame.len() <= position {
            self.by_frame.resize_with(position + 1, || None);
        }
        if let Some(slot) = self.by_frame.get_mut(position) {
            *slot = Some(index);
        }
        index
    }

    fn distinct(&mut self, index: usize) -> Result<&mut Distinct<'v>, Fallback> {
        self.distinct
            .get_mut(index)
            .ok_or(Fallback("a result never indexed"))
    }

    /// The text of distinct result `index`, written the first time.
    pub(super) fn text(&mut self, index: usize) -> Result<&str, Fallback> {
        let distinct = self.distinct(index)?;
        if distinct.text.is_none() {
            distinct.text = Some(json::result_text(distinct.value)?);
        }
        Ok(distinct.text.as_deref().unwrap_or_default())
    }

    /// The `amount_values` of distinct result `index`, read the first time.
    pub(super) fn amounts(&mut self, index: usize) -> Result<&[String], Fallback> {
        let distinct = self.distinct(index)?;
        if distinct.amounts.is_none() {
            distinct.amounts = Some(amount_values(distinct.value)?);
        }
        Ok(distinct.amounts.as_deref().unwrap_or_default())
    }
}
