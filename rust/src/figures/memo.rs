//! The figures of texts every call asks about again (a question's facts, graded with each
//! trace), kept per extractor: its patterns and tables never change, so neither do they.

use std::collections::HashMap;
use std::sync::Mutex;

use super::extract::Figure;

/// At most this many texts are kept (a question has a handful of facts).
const KEPT: usize = 256;

/// Texts' figures, filled on first use; a clone starts empty.
#[derive(Default)]
pub struct Memo(Mutex<HashMap<String, Vec<Figure>>>);

impl Memo {
    /// The figures kept for `text`, if any.
    pub fn get(&self, text: &str) -> Option<Vec<Figure>> {
        self.0.lock().ok()?.get(text).cloned()
    }

    /// Keep `figures` for `text` (while fewer than [`KEPT`] texts are kept).
    pub fn put(&self, text: &str, figures: &[Figure]) {
        if let Ok(mut kept) = self.0.lock() {
            if kept.len() < KEPT {
                kept.insert(text.to_owned(), figures.to_vec());
            }
        }
    }
}

impl Clone for Memo {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Memo")
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests may unwrap (Cargo.toml)
mod tests {
    use crate::figures::testing::extractor;

    #[test]
    fn recurring_figures_are_the_figures_each_time() {
        let ex = extractor();
        for text in ["$5 million", "gpt-5-mini", "agent/src/config.ts", "30 days"] {
            let fresh = ex.figures(text).unwrap();
            assert_eq!(ex.recurring_figures(text).unwrap(), fresh, "{text:?}");
            assert_eq!(ex.recurring_figures(text).unwrap(), fresh, "{text:?} kept");
        }
        assert_eq!(ex.recurring_figures("$5 million").unwrap().len(), 1);
        // A text the core leaves to the reference is never kept as figureless.
        assert!(ex.recurring_figures("\u{130} 5%").is_err());
        assert!(ex.recurring_figures("\u{130} 5%").is_err());
    }
}
