//! The `Decimal` arithmetic the figures need, as Python's `decimal` does it.
//!
//! Values are parsed exactly (`Decimal(text)` never rounds), multiplied by a power of ten
//! under the default context (28 significant digits, rounding half to even: a money amount
//! of 30 digits is rounded, as in the reference), and written by `canonical` (plain digits,
//! no trailing zeros).

use super::sets::Unit;
use crate::chars::decimal_value;

/// Python's default context precision.
const PRECISION: usize = 28;
/// Beyond these exponents Python's default context overflows or goes subnormal: such a
/// number (a million digits) is left to the Python engine.
const EXPONENT_LIMIT: i64 = 999_000;

/// A decimal: `coefficient` (digits 0-9, no leading zeros; `[0]` for zero) times
/// ten to the `exponent`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decimal {
    coefficient: Vec<u8>,
    exponent: i64,
}

/// The number lies outside what the default context holds (Python raises or rounds to
/// subnormal there).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutOfRange;

fn trimmed(mut digits: Vec<u8>) -> Vec<u8> {
    let zeros = digits.iter().take_while(|&&d| d == 0).count();
    digits.drain(..zeros.min(digits.len().saturating_sub(1)));
    if digits.is_empty() {
        digits.push(0);
    }
    digits
}

impl Decimal {
    /// `Decimal(text.replace(",", ""))` for digits (any script) with commas and at most one
    /// point; `None` for anything else.
    pub fn parse<U: Unit>(text: &[U]) -> Option<Self> {
        let mut digits = Vec::with_capacity(text.len());
        let mut fraction: Option<i64> = None;
        for unit in text {
            match unit.char() {
                ',' => {}
                '.' if fraction.is_none() => fraction = Some(0),
                c => {
                    digits.push(decimal_value(c)?);
                    if let Some(count) = fraction.as_mut() {
                        *count += 1;
                    }
                }
            }
        }
        if digits.is_empty() {
            return None;
        }
        let exponent = -fraction.unwrap_or(0);
        if exponent < -EXPONENT_LIMIT {
            return None;
        }
        Some(Self {
            coefficient: trimmed(digits),
            exponent,
        })
    }

    /// `Decimal(value)` for a whole number.
    pub fn from_int(value: u64) -> Self {
        let digits = value
            .to_string()
            .bytes()
            .map(|b| b.saturating_sub(b'0'))
            .collect();
        Self {
            coefficient: trimmed(digits),
            exponent: 0,
        }
    }

    /// `Decimal(int(text))` for a run of digits (any script).
    pub fn from_digits(text: &[char]) -> Option<Self> {
        let digits: Option<Vec<u8>> = text.iter().map(|&c| decimal_value(c)).collect();
        let digits = digits?;
        if digits.is_empty() {
            return None;
        }
        Some(Self {
            coefficient: trimmed(digits),
            exponent: 0,
        })
    }

    fn is_zero(&self) -> bool {
        self.coefficient.iter().all(|&d| d == 0)
    }

    /// `self * 10**power` under Python's default context: rounded to 28 significant digits,
    /// half to even.
    pub fn scaled(&self, power: u32) -> Result<Self, OutOfRange> {
        if self.is_zero() {
            return Ok(self.clone());
        }
        let mut coefficient = self.coefficient.clone();
        coefficient.extend(std::iter::repeat_n(0, power as usize));
        let mut exponent = self.exponent;
        if coefficient.len() > PRECISION {
            let dropped = coefficient.split_off(PRECISION);
            exponent += i64::try_from(dropped.len()).map_err(|_| OutOfRange)?;
            let first = dropped.first().copied().unwrap_or(0);
            let rest_zero = dropped.iter().skip(1).all(|&d| d == 0);
            let odd = coefficient.last().is_some_and(|&d| d % 2 == 1);
            if (first > 5 || (first == 5 && (!rest_zero || odd))) && increment(&mut coefficient) {
                exponent += 1;
            }
        }
        let adjusted = exponent + i64::try_from(coefficient.len()).map_err(|_| OutOfRange)? - 1;
        if adjusted > EXPONENT_LIMIT || exponent < -EXPONENT_LIMIT {
            return Err(OutOfRange);
        }
        Ok(Self {
            coefficient,
            exponent,
        })
    }

    /// `canonical(value)`: `format(value, "f")` without trailing zeros (`"1500000"`, `"0.05"`).
    pub fn canonical(&self) -> String {
        if self.is_zero() {
            return "0".to_string();
        }
        let digits: String = self
            .coefficient
            .iter()
            .map(|&d| char::from(b'0' + d))
            .collect();
        if self.exponent >= 0 {
            let zeros = usize::try_from(self.exponent).unwrap_or(0);
            return digits + &"0".repeat(zeros);
        }
        let fraction = usize::try_from(-self.exponent).unwrap_or(0);
        let padded = if digits.len() <= fraction {
            "0".repeat(fraction + 1 - digits.len()) + &digits
        } else {
            digits
        };
        let (whole, decimals) = padded.split_at(padded.len() - fraction);
        let decimals = decimals.trim_end_matches('0');
        if decimals.is_empty() {
            whole.to_string()
        } else {
            format!("{whole}.{decimals}")
        }
    }
}

/// Add one to the digits; `true` when they were all nines (99..9 becomes 10..0, one digit
/// short: the caller raises the exponent).
fn increment(digits: &mut [u8]) -> bool {
    for digit in digits.iter_mut().rev() {
        if *digit == 9 {
            *digit = 0;
        } else {
            *digit += 1;
            return false;
        }
    }
    if let Some(first) = digits.first_mut() {
        *first = 1;
    }
    true
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // tests may unwrap (Cargo.toml)
mod tests {
    use super::Decimal;

    fn parse(text: &str) -> Decimal {
        Decimal::parse(&text.chars().collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn canonical_as_python() {
        assert_eq!(parse("1,500,000.00").canonical(), "1500000");
        assert_eq!(parse("0.0050").canonical(), "0.005");
        assert_eq!(parse("007").canonical(), "7");
        assert_eq!(parse("0.000").canonical(), "0");
        assert_eq!(parse("١٢٣.٥").canonical(), "123.5");
        assert_eq!(parse("1.5").scaled(6).unwrap().canonical(), "1500000");
    }

    #[test]
    fn scaling_rounds_to_28_digits_half_even() {
        let long = parse("1234567890123456789012345678901");
        assert_eq!(
            long.scaled(0).unwrap().canonical(),
            "1234567890123456789012345679000"
        );
        let tie = parse("10000000000000000000000000025");
        assert_eq!(
            tie.scaled(0).unwrap().canonical(),
            "10000000000000000000000000020"
        );
        let nines = parse("99999999999999999999999999999");
        assert_eq!(
            nines.scaled(0).unwrap().canonical(),
            "100000000000000000000000000000"
        );
    }
}
