//! Fluid model of N fLEDBAT flows sharing one bottleneck (seed 003, section 4.3, eqs.
//! 4.8-4.9) and its closed-form equilibrium (Proposition 3, eq. 4.10).
//!
//! State: the rates `X_i` (packets/s) and the queue `Q` (packets). With capacity `C`
//! (packets/s), common round-trip time `R` (s), target `tau` (s), additive increase `alpha`
//! and decrease factor `zeta`:
//!
//! ```text
//! dX_i/dt = alpha / R^2 - zeta / (R tau) * (Q/C - tau) * X_i * 1{X_i >= 0} * 1{Q >= C tau}
//! dQ/dt   = sum_i X_i - C * 1{Q > 0}
//! ```
//!
//! Equilibrium: `X_i* = C / N`, `Q* = C tau + N alpha tau / (zeta R)`, i.e. a queueing delay
//! of `tau + N alpha tau / (C zeta R)`.
//!
//! The thesis starts the flows at different times (2 s apart in its Fig. 4.3); a flow that has
//! not started has rate 0 and does not count in `N` until it starts, when it enters with
//! `initial_window / R`. The ODE is integrated with the classical fourth-order Runge-Kutta
//! method at a fixed step (deterministic; the indicator functions make the right-hand side
//! discontinuous, so the step must be small compared with `R`; the default 0.5 ms is 1 % of
//! the thesis's 50 ms). `Q` is kept at or above 0 (an empty queue cannot drain) and `X_i`
//! at or above 0. The model has no buffer limit and no loss, as in the thesis.

use serde::Serialize;

/// Parameters of the fluid system; defaults are the thesis's Fig. 4.3 setting (seed 003,
/// section 4.4: C = 10 Mb/s of 1500-byte packets, RTT 50 ms, tau = 25 ms, zeta = 0.1,
/// alpha = 1, two flows 2 s apart).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FluidParams {
    /// Bottleneck capacity in packets per second. Default 10e6 / (8 * 1500) = 833.3.
    pub capacity_pps: f64,
    /// Common round-trip propagation delay R, seconds. Default 0.05.
    pub rtt: f64,
    /// Queueing delay target tau, seconds. Default 0.025.
    pub tau: f64,
    /// Additive increase factor alpha (packets per RTT). Default 1.
    pub alpha: f64,
    /// Multiplicative decrease factor zeta. Default 0.1.
    pub zeta: f64,
    /// Start time of each flow, seconds; its length is N. Default [0, 2].
    pub starts: Vec<f64>,
    /// Window of a flow when it starts, packets. Default 2 (LEDBAT INIT_CWND).
    pub initial_window: f64,
    /// Integration step, seconds. Default 0.0005.
    pub step: f64,
}

impl Default for FluidParams {
    fn default() -> Self {
        FluidParams {
            capacity_pps: 10e6 / (8.0 * 1500.0),
            rtt: 0.05,
            tau: 0.025,
            alpha: 1.0,
            zeta: 0.1,
            starts: vec![0.0, 2.0],
            initial_window: 2.0,
            step: 0.0005,
        }
    }
}

/// A parameter that makes the model meaningless.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("fluid model: `{field}` {reason}")]
pub struct FluidError {
    /// The offending field.
    pub field: &'static str,
    /// What is wrong.
    pub reason: String,
}

/// The closed-form equilibrium of eq. 4.10.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Equilibrium {
    /// Rate of every flow, packets/s (`C / N`).
    pub rate_pps: f64,
    /// Queue, packets (`C tau + N alpha tau / (zeta R)`).
    pub queue_pkts: f64,
    /// Queueing delay, seconds (`Q* / C`).
    pub queue_delay: f64,
}

/// One sample of the trajectory.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FluidPoint {
    /// Time, seconds.
    pub t: f64,
    /// Rate of each flow, packets/s (0 before it starts).
    pub rates: Vec<f64>,
    /// Queue, packets.
    pub queue: f64,
}

impl FluidParams {
    /// Checks every field; the error names it.
    pub fn validate(&self) -> Result<(), FluidError> {
        let pos = |field: &'static str, v: f64| {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                Err(FluidError {
                    field,
                    reason: format!("must be positive and finite, got {v}"),
                })
            }
        };
        pos("capacity_pps", self.capacity_pps)?;
        pos("rtt", self.rtt)?;
        pos("tau", self.tau)?;
        pos("alpha", self.alpha)?;
        pos("zeta", self.zeta)?;
        pos("step", self.step)?;
        if self.step > self.rtt / 10.0 {
            return Err(FluidError {
                field: "step",
                reason: format!("must be at most rtt / 10 ({})", self.rtt / 10.0),
            });
        }
        if self.starts.is_empty() {
            return Err(FluidError {
                field: "starts",
                reason: "needs at least one flow".into(),
            });
        }
        if self.starts.iter().any(|s| !s.is_finite() || *s < 0.0) {
            return Err(FluidError {
                field: "starts",
                reason: "start times must be finite and >= 0".into(),
            });
        }
        if !(self.initial_window.is_finite() && self.initial_window >= 0.0) {
            return Err(FluidError {
                field: "initial_window",
                reason: "must be finite and >= 0".into(),
            });
        }
        Ok(())
    }

    /// The equilibrium of eq. 4.10 for all `N = starts.len()` flows.
    pub fn equilibrium(&self) -> Equilibrium {
        let n = self.starts.len() as f64;
        let q = self.capacity_pps * self.tau + n * self.alpha * self.tau / (self.zeta * self.rtt);
        Equilibrium {
            rate_pps: self.capacity_pps / n,
            queue_pkts: q,
            queue_delay: q / self.capacity_pps,
        }
    }

    /// Right-hand side of eqs. 4.8-4.9; `active[i]` says whether flow i has started.
    fn derivative(&self, x: &[f64], q: f64, active: &[bool], dx: &mut [f64]) -> f64 {
        let c = self.capacity_pps;
        let r = self.rtt;
        let congested = q >= c * self.tau;
        let mut sum = 0.0;
        for i in 0..x.len() {
            if !active[i] {
                dx[i] = 0.0;
                continue;
            }
            let mut d = self.alpha / (r * r);
            if congested && x[i] >= 0.0 {
                d -= self.zeta / (r * self.tau) * (q / c - self.tau) * x[i];
            }
            dx[i] = d;
            sum += x[i].max(0.0);
        }
        if q > 0.0 || sum > c {
            sum - c
        } else {
            0.0
        }
    }

    /// Integrates from 0 to `duration` seconds, returning a sample every `every` seconds
    /// (and at 0). Deterministic: the same parameters give the same trajectory.
    pub fn solve(&self, duration: f64, every: f64) -> Result<Vec<FluidPoint>, FluidError> {
        self.validate()?;
        if !(duration.is_finite() && duration > 0.0) {
            return Err(FluidError {
                field: "duration",
                reason: format!("must be positive, got {duration}"),
            });
        }
        if !(every.is_finite() && every >= self.step) {
            return Err(FluidError {
                field: "every",
                reason: format!("must be at least the step ({})", self.step),
            });
        }
        let n = self.starts.len();
        let h = self.step;
        let steps = (duration / h).round() as u64;
        let per_sample = ((every / h).round() as u64).max(1);
        let mut x = vec![0.0; n];
        let mut active = vec![false; n];
        let mut q = 0.0f64;
        let (mut k1, mut k2, mut k3, mut k4) =
            (vec![0.0; n], vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        let mut tmp = vec![0.0; n];
        let mut out = Vec::with_capacity((steps / per_sample + 2) as usize);
        for s in 0..=steps {
            let t = s as f64 * h;
            for i in 0..n {
                if !active[i] && t + 1e-12 >= self.starts[i] {
                    active[i] = true;
                    x[i] = self.initial_window / self.rtt;
                }
            }
            if s % per_sample == 0 {
                out.push(FluidPoint {
                    t,
                    rates: x.clone(),
                    queue: q,
                });
            }
            if s == steps {
                break;
            }
            let q1 = self.derivative(&x, q, &active, &mut k1);
            for i in 0..n {
                tmp[i] = x[i] + 0.5 * h * k1[i];
            }
            let q2 = self.derivative(&tmp, (q + 0.5 * h * q1).max(0.0), &active, &mut k2);
            for i in 0..n {
                tmp[i] = x[i] + 0.5 * h * k2[i];
            }
            let q3 = self.derivative(&tmp, (q + 0.5 * h * q2).max(0.0), &active, &mut k3);
            for i in 0..n {
                tmp[i] = x[i] + h * k3[i];
            }
            let q4 = self.derivative(&tmp, (q + h * q3).max(0.0), &active, &mut k4);
            for i in 0..n {
                x[i] = (x[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i])).max(0.0);
            }
            q = (q + h / 6.0 * (q1 + 2.0 * q2 + 2.0 * q3 + q4)).max(0.0);
        }
        Ok(out)
    }
}

/// Mean rates and queue of a trajectory over `t >= from` (the "average behaviour" the thesis
/// compares with the packet simulation).
pub fn tail_means(points: &[FluidPoint], from: f64) -> Option<(Vec<f64>, f64)> {
    let tail: Vec<&FluidPoint> = points.iter().filter(|p| p.t >= from).collect();
    let first = tail.first()?;
    let n = first.rates.len();
    let mut rates = vec![0.0; n];
    let mut q = 0.0;
    for p in &tail {
        for (acc, r) in rates.iter_mut().zip(&p.rates) {
            *acc += r;
        }
        q += p.queue;
    }
    let k = tail.len() as f64;
    rates.iter_mut().for_each(|r| *r /= k);
    Some((rates, q / k))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equilibrium_matches_eq_4_10_for_thesis_setting() {
        let p = FluidParams::default();
        let e = p.equilibrium();
        // C = 833.33 pkt/s, C tau = 20.83 pkt, N alpha tau / (zeta R) = 2*0.025/0.005 = 10 pkt.
        assert!((e.rate_pps - 416.666_666).abs() < 1e-3);
        assert!((e.queue_pkts - 30.833_333).abs() < 1e-3);
        assert!((e.queue_delay - 0.037).abs() < 1e-9);
    }

    #[test]
    fn trajectory_converges_to_the_closed_form_equilibrium() {
        let p = FluidParams::default();
        let e = p.equilibrium();
        let traj = p.solve(120.0, 0.1).unwrap();
        let last = traj.last().unwrap();
        for r in &last.rates {
            assert!(
                (r - e.rate_pps).abs() / e.rate_pps < 0.01,
                "rate {r} vs {}",
                e.rate_pps
            );
        }
        assert!(
            (last.queue - e.queue_pkts).abs() / e.queue_pkts < 0.02,
            "queue {} vs {}",
            last.queue,
            e.queue_pkts
        );
    }

    #[test]
    fn latecomer_does_not_keep_an_advantage() {
        // The RFC's additive decrease keeps initial differences forever; fLEDBAT removes them.
        let p = FluidParams {
            starts: vec![0.0, 10.0],
            ..FluidParams::default()
        };
        let (rates, _) = tail_means(&p.solve(200.0, 0.1).unwrap(), 150.0).unwrap();
        assert!((rates[0] - rates[1]).abs() / rates[0] < 0.02, "{rates:?}");
    }

    #[test]
    fn equilibrium_holds_across_zeta_and_n() {
        for &zeta in &[0.02, 0.1, 0.5] {
            for n in 1..=4 {
                let p = FluidParams {
                    zeta,
                    starts: vec![0.0; n],
                    ..FluidParams::default()
                };
                let e = p.equilibrium();
                let (rates, q) = tail_means(&p.solve(200.0, 0.1).unwrap(), 180.0).unwrap();
                let total: f64 = rates.iter().sum();
                assert!(
                    (total - p.capacity_pps).abs() / p.capacity_pps < 0.02,
                    "zeta {zeta} n {n}"
                );
                assert!(
                    (q - e.queue_pkts).abs() / e.queue_pkts < 0.03,
                    "zeta {zeta} n {n}: {q} vs {}",
                    e.queue_pkts
                );
            }
        }
    }

    #[test]
    fn solve_is_deterministic() {
        let p = FluidParams::default();
        assert_eq!(p.solve(10.0, 0.05).unwrap(), p.solve(10.0, 0.05).unwrap());
    }

    #[test]
    fn flows_have_zero_rate_before_their_start() {
        let p = FluidParams::default();
        let traj = p.solve(3.0, 0.1).unwrap();
        assert!(traj
            .iter()
            .filter(|pt| pt.t < 1.99)
            .all(|pt| pt.rates[1] == 0.0));
        assert!(traj
            .iter()
            .filter(|pt| pt.t > 2.01)
            .all(|pt| pt.rates[1] > 0.0));
    }

    #[test]
    fn bad_parameters_are_named() {
        let p = FluidParams {
            zeta: 0.0,
            ..FluidParams::default()
        };
        assert_eq!(p.validate().unwrap_err().field, "zeta");
        let p = FluidParams {
            step: 0.02,
            ..FluidParams::default()
        };
        assert_eq!(p.validate().unwrap_err().field, "step");
        let p = FluidParams {
            starts: vec![],
            ..FluidParams::default()
        };
        assert_eq!(p.validate().unwrap_err().field, "starts");
    }
}
