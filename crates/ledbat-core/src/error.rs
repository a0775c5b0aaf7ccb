//! Configuration errors.

use std::borrow::Cow;

/// A configuration value that a controller refuses, naming the controller and the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{controller}: invalid `{field}`: {reason}")]
pub struct ConfigError {
    /// The controller (or component) whose configuration was rejected.
    pub controller: &'static str,
    /// The offending field, dotted for nested fields (`delay.filter.len`).
    pub field: Cow<'static, str>,
    /// What is wrong with it.
    pub reason: String,
}

impl ConfigError {
    /// A new error for `controller`'s `field`.
    pub fn new(
        controller: &'static str,
        field: impl Into<Cow<'static, str>>,
        reason: impl Into<String>,
    ) -> Self {
        ConfigError {
            controller,
            field: field.into(),
            reason: reason.into(),
        }
    }
}

/// Checks that a float field is finite and strictly positive.
pub fn positive(controller: &'static str, field: &'static str, v: f64) -> Result<(), ConfigError> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(ConfigError::new(
            controller,
            field,
            format!("must be a finite number > 0, got {v}"),
        ))
    }
}

/// Checks that a float field is finite and lies in `[lo, hi]`.
pub fn in_range(
    controller: &'static str,
    field: &'static str,
    v: f64,
    lo: f64,
    hi: f64,
) -> Result<(), ConfigError> {
    if v.is_finite() && v >= lo && v <= hi {
        Ok(())
    } else {
        Err(ConfigError::new(
            controller,
            field,
            format!("must be in [{lo}, {hi}], got {v}"),
        ))
    }
}

/// Checks that a duration field is not zero.
pub fn nonzero(
    controller: &'static str,
    field: &'static str,
    d: crate::Duration,
) -> Result<(), ConfigError> {
    if d.is_zero() {
        Err(ConfigError::new(
            controller,
            field,
            "must be positive, got 0",
        ))
    } else {
        Ok(())
    }
}
