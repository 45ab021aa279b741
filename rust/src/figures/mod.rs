//! Figure extraction (`tracegrade.figures._extract`), compiled.
//!
//! The reference's patterns are parsed and run here with Python's `re` semantics
//! (parse.rs, matcher.rs, classes.rs); extract.rs turns matches into figures as the
//! reference's `iter_figures` does, with decimal.rs for its `Decimal` arithmetic.

pub mod classes;
pub mod decimal;
pub mod extract;
pub mod keys;
pub mod matcher;
pub mod parse;
