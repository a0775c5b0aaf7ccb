//! How a test of the competitor detection ended, with the figures its verdict was taken
//! from, for traces.

use crate::time::{Duration, Instant};

/// How a test ended ([`super::Competitor::last_test`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The others backed off (a push test), or the queue left with the flow's own (a hold):
    /// a flow of our kind, or no one.
    Negative,
    /// They did not: a competitor, if a second test agrees.
    Positive,
    /// Another flow pushed at the same time (push tests only): no verdict.
    Collision,
}

impl Verdict {
    /// Lower-case name for traces (`positive`, `negative`, `collision`).
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Negative => "negative",
            Verdict::Positive => "positive",
            Verdict::Collision => "collision",
        }
    }
}

/// Which test, with the figures its verdict was taken from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TestKind {
    /// A hold of the flow's own (asked for by the suspicion, or a periodic slowdown).
    Hold {
        /// The smallest queuing delay after the hold's first RTT.
        min: Duration,
        /// Positive above this: max(eta, test_packets at the path's rate).
        threshold: Duration,
    },
    /// A push test.
    Push {
        /// How far the others' queue fell below the queue at its start, as a share of
        /// TARGET (negative: it rose).
        drop: f64,
        /// How far the queue rose above the queue at its start, as a share of what the push
        /// added.
        rise: f64,
    },
}

impl TestKind {
    /// Lower-case name for traces (`hold`, `push`).
    pub fn name(&self) -> &'static str {
        match self {
            TestKind::Hold { .. } => "hold",
            TestKind::Push { .. } => "push",
        }
    }
}

/// The figures of the last test that counted (or collided), for traces: what a detection's
/// verdicts were taken from (`tests.csv` of a simulation, `comp_timeline` of a kernel trace).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TestOutcome {
    /// When it ended.
    pub at: Instant,
    /// Which test.
    pub kind: TestKind,
    /// The flow's share of the path's rate when it began.
    pub share: f64,
    /// The suspicion asked for it (a periodic slowdown's hold did not).
    pub suspected: bool,
    /// The verdict.
    pub verdict: Verdict,
    /// Positive tests in a row after it.
    pub positives: u32,
    /// It made the flow yield.
    pub yielded: bool,
}

impl std::fmt::Display for TestOutcome {
    /// One line: `hold positive (suspected): share 0.42, min 10.0 ms against 3.6 ms; 2 in a
    /// row, yields`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = self.kind.name();
        let asked = match (self.kind, self.suspected) {
            (TestKind::Push { .. }, _) => "",
            (TestKind::Hold { .. }, true) => " (suspected)",
            (TestKind::Hold { .. }, false) => " (periodic)",
        };
        write!(
            f,
            "{name} {}{asked}: share {:.2}, ",
            self.verdict.name(),
            self.share
        )?;
        match self.kind {
            TestKind::Hold { min, threshold } => write!(
                f,
                "min {:.1} ms against {:.1} ms",
                min.as_millis_f64(),
                threshold.as_millis_f64()
            )?,
            TestKind::Push { drop, rise } => write!(
                f,
                "the others' queue fell {drop:.3} TARGET, rose {rise:.2} of the push"
            )?,
        }
        write!(f, "; {} in a row", self.positives)?;
        if self.yielded {
            write!(f, ", yields")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::competitor::test_util::{at, ms};

    #[test]
    fn a_test_outcome_reads_as_one_line_for_traces() {
        let hold = TestOutcome {
            at: at(1400),
            kind: TestKind::Hold {
                min: ms(10),
                threshold: Duration::from_micros(3_600),
            },
            share: 0.5,
            suspected: false,
            verdict: Verdict::Positive,
            positives: 2,
            yielded: true,
        };
        assert_eq!(
            hold.to_string(),
            "hold positive (periodic): share 0.50, min 10.0 ms against 3.6 ms; 2 in a row, yields"
        );
        let push = TestOutcome {
            kind: TestKind::Push {
                drop: 0.0667,
                rise: 0.0,
            },
            suspected: true,
            verdict: Verdict::Negative,
            positives: 0,
            yielded: false,
            ..hold
        };
        assert_eq!(
            push.to_string(),
            "push negative: share 0.50, the others' queue fell 0.067 TARGET, rose 0.00 of the \
             push; 0 in a row"
        );
    }
}
