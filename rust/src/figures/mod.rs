//! Figure extraction (`tracegrade.figures._extract`), compiled.
//!
//! The reference's patterns are parsed (parse.rs, sets.rs), rewritten to run faster with the
//! same matches (optimise.rs) and run with Python's `re` semantics (matcher.rs, with `re`'s
//! classes in crate::chars) where their relaxed forms say a match may start (relaxed.rs: a
//! lazy DFA); extract.rs and groups.rs turn matches into figures as the
//! reference's `reference_figures` does, with decimal.rs for its `Decimal` arithmetic;
//! keys.rs is `FigureIndex`'s `approximate_keys` and index.rs `FigureIndex` itself (a
//! question's facts are extracted once, when it is prepared: native/grade.rs).

pub mod decimal;
pub mod extract;
#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests may unwrap (Cargo.toml)
mod extract_tests;
pub mod groups;
pub mod index;
pub mod keys;
pub mod leading;
pub mod matcher;
pub mod optimise;
pub mod parse;
pub mod relaxed;
pub mod sets;
#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests may unwrap (Cargo.toml)
pub(crate) mod testing;
