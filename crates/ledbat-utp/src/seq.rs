//! Wrap-safe arithmetic on uTP's 16-bit sequence and acknowledgement numbers.
//!
//! BEP 29 numbers packets modulo 2^16. Two numbers are compared by the sign of their
//! difference read as an `i16` (serial-number arithmetic, RFC 1982): `a` precedes `b` when
//! `(b - a) mod 2^16` lies in `1..=32767`. This is correct as long as fewer than 2^15
//! packets separate the two, which the connection guarantees by bounding the packets in
//! flight and the reorder buffer far below that.

/// Whether `a` comes strictly before `b` in sequence space.
pub fn seq_lt(a: u16, b: u16) -> bool {
    (b.wrapping_sub(a) as i16) > 0
}

/// Whether `a` comes before or equals `b` in sequence space.
pub fn seq_le(a: u16, b: u16) -> bool {
    a == b || seq_lt(a, b)
}

/// Signed distance `to - from`, wrap-safe.
pub fn seq_diff(to: u16, from: u16) -> i32 {
    to.wrapping_sub(from) as i16 as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn ordering_survives_the_wrap() {
        assert!(seq_lt(65535, 0));
        assert!(seq_lt(65530, 4));
        assert!(!seq_lt(4, 65530));
        assert!(seq_le(7, 7));
        assert!(!seq_lt(7, 7));
        assert_eq!(seq_diff(2, 65534), 4);
        assert_eq!(seq_diff(65534, 2), -4);
    }

    #[test]
    fn half_space_is_the_limit() {
        assert!(seq_lt(0, 32767));
        assert!(!seq_lt(0, 32768));
    }

    proptest! {
        #[test]
        fn lt_is_antisymmetric_and_shift_invariant(a: u16, d in 1u16..32768, k: u16) {
            let b = a.wrapping_add(d);
            prop_assert!(seq_lt(a, b));
            prop_assert!(!seq_lt(b, a));
            prop_assert!(seq_lt(a.wrapping_add(k), b.wrapping_add(k)));
            prop_assert_eq!(seq_diff(b, a), d as i32);
        }
    }
}
