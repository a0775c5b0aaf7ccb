//! Semantic checks of a parsed scenario; every error names the dotted key at fault.

use super::*;

impl Scenario {
    /// A swarm scenario: the `[swarm]` section, a star without hosts (the peers are its
    /// hosts), no `[[flow]]`.
    fn validate_swarm(&self, sw: &swarm::SwarmConfig) -> Result<(), ScenarioError> {
        match &self.topology {
            Topology::Star(s) if s.hosts.is_empty() => {}
            Topology::Star(_) => {
                return Err(invalid(
                    "topology.host",
                    "a swarm's hosts are its peers ([[swarm.class]]): remove [[topology.host]]",
                ))
            }
            Topology::Dumbbell(_) => {
                return Err(invalid(
                    "topology.kind",
                    "a swarm runs on a star: set [topology] kind = \"star\"",
                ))
            }
        }
        if !self.flows.is_empty() {
            return Err(invalid(
                "flow",
                "a swarm scenario has no [[flow]]: its connections come from the peers",
            ));
        }
        if self.mss <= 40 {
            return Err(invalid(
                "mss",
                "a swarm's segments carry 40 bytes of headers: mss must exceed 40",
            ));
        }
        sw.validate()
    }

    /// Checks every semantic constraint; the error names the dotted key.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        if self.duration.is_zero() {
            return Err(invalid("duration", "must be positive"));
        }
        if self.warmup >= self.duration {
            return Err(invalid(
                "warmup",
                format!("must be shorter than duration ({})", self.duration),
            ));
        }
        if self.mss < 64 || self.mss > 65_535 {
            return Err(invalid(
                "mss",
                format!("must be between 64 and 65535 bytes, got {}", self.mss),
            ));
        }
        if self.ack_size == 0 || self.ack_size > self.mss {
            return Err(invalid("ack_size", "must be between 1 and mss"));
        }
        if self.sample_interval.is_zero() {
            return Err(invalid("sample_interval", "must be positive"));
        }
        self.transport.validate("transport")?;
        if let Some(sw) = &self.swarm {
            return self.validate_swarm(sw);
        }
        match &self.topology {
            Topology::Dumbbell(d) => {
                validate_queue("topology.queue", &d.queue)?;
                if let Some(q) = &d.reverse_queue {
                    validate_queue("topology.reverse_queue", q)?;
                }
                validate_queue("topology.access_queue", &d.access_queue)?;
                prob("topology.loss", d.loss)?;
                prob("topology.reverse_loss", d.reverse_loss)?;
                if let Some(b) = d.burst {
                    if b < self.mss {
                        return Err(invalid(
                            "topology.burst",
                            format!("{b} bytes: less than one packet (mss {})", self.mss),
                        ));
                    }
                    if matches!(d.queue, QueueConfig::Codel(_)) || d.rate.is_infinite() {
                        return Err(invalid(
                            "topology.burst",
                            "needs a finite rate and a drop-tail or RED queue",
                        ));
                    }
                }
            }
            Topology::Star(s) => {
                if s.hosts.is_empty() {
                    return Err(invalid(
                        "topology.host",
                        "a star needs at least one [[topology.host]]",
                    ));
                }
                for (i, h) in s.hosts.iter().enumerate() {
                    if h.count == 0 {
                        return Err(invalid(
                            format!("topology.host.{i}.count"),
                            "must be at least 1",
                        ));
                    }
                    validate_queue(&format!("topology.host.{i}.up_queue"), &h.up_queue)?;
                    validate_queue(&format!("topology.host.{i}.down_queue"), &h.down_queue)?;
                    prob(&format!("topology.host.{i}.loss"), h.loss)?;
                    drift(
                        &format!("topology.host.{i}.clock.drift_ppm"),
                        h.clock.drift_ppm,
                    )?;
                }
            }
        }
        if self.flows.is_empty() {
            return Err(invalid("flow", "at least one [[flow]] is required"));
        }
        let hosts = self.star_hosts();
        for (i, f) in self.flows.iter().enumerate() {
            let k = |s: &str| format!("flow.{i}.{s}");
            if f.count == 0 {
                return Err(invalid(k("count"), "must be at least 1"));
            }
            match (&f.traffic, &f.cc) {
                (Traffic::Cbr(c), _) => {
                    if c.size == 0 || c.size > 65_535 {
                        return Err(invalid(k("traffic.size"), "must be between 1 and 65535"));
                    }
                    if c.rate.is_infinite() {
                        return Err(invalid(k("traffic.rate"), "must be finite"));
                    }
                }
                (_, None) => {
                    return Err(invalid(
                        k("cc"),
                        "a congestion controller is required (e.g. cc = { name = \"ledbat\" })",
                    ))
                }
                (_, Some(cc)) => {
                    cc.validate()
                        .map_err(|e| invalid(format!("flow.{i}.cc.{}", e.field), e.reason))?;
                }
            }
            match &f.traffic {
                Traffic::Transfer(t) if t.bytes == 0 => {
                    return Err(invalid(k("traffic.bytes"), "must be positive"))
                }
                Traffic::Chunks(c) => {
                    if c.size == 0 {
                        return Err(invalid(k("traffic.size"), "must be positive"));
                    }
                    prob(&k("traffic.persistence"), c.persistence)?;
                    for (j, p) in c.peers.iter().enumerate() {
                        if hosts == 0 {
                            return Err(invalid(k("traffic.peers"), "peers need a star topology"));
                        }
                        if *p >= hosts || *p == f.from {
                            return Err(invalid(
                                format!("flow.{i}.traffic.peers.{j}"),
                                format!("must be a host index in 0..{hosts} other than `from`"),
                            ));
                        }
                    }
                }
                Traffic::Bursty(b) if b.packets == 0 || b.buffer == 0 || b.period.is_zero() => {
                    return Err(invalid(
                        k("traffic"),
                        "packets, buffer and period must be positive",
                    ));
                }
                Traffic::Sessions(s) => {
                    if s.chunks == 0
                        || s.chunk_packets[0] == 0
                        || s.chunk_packets[0] > s.chunk_packets[1]
                    {
                        return Err(invalid(
                            k("traffic"),
                            "chunks >= 1 and 1 <= chunk_packets[0] <= chunk_packets[1]",
                        ));
                    }
                    range(&k("traffic.gap"), s.gap)?;
                    range(&k("traffic.think"), s.think)?;
                }
                _ => {}
            }
            if let Some(stop) = f.stop {
                if stop <= f.start {
                    return Err(invalid(k("stop"), "must be after start"));
                }
            }
            if let Some(t) = &f.transport {
                t.validate(&k("transport"))?;
            }
            if let Some(x) = &f.interruptions {
                range(&k("interruptions.every"), x.every)?;
                range(&k("interruptions.length"), x.length)?;
                if x.every[0].is_zero() {
                    return Err(invalid(k("interruptions.every"), "must be positive"));
                }
            }
            drift(&k("sender_clock.drift_ppm"), f.sender_clock.drift_ppm)?;
            drift(&k("receiver_clock.drift_ppm"), f.receiver_clock.drift_ppm)?;
            if hosts > 0 {
                if f.from >= hosts {
                    return Err(invalid(
                        k("from"),
                        format!("host {} does not exist (hosts 0..{hosts})", f.from),
                    ));
                }
                if f.to >= hosts {
                    return Err(invalid(
                        k("to"),
                        format!("host {} does not exist (hosts 0..{hosts})", f.to),
                    ));
                }
                if f.to == f.from {
                    return Err(invalid(k("to"), "must differ from `from`"));
                }
            }
        }
        Ok(())
    }
}

impl TransportConfig {
    fn validate(&self, at: &str) -> Result<(), ScenarioError> {
        if self.dupthresh == 0 {
            return Err(invalid(format!("{at}.dupthresh"), "must be at least 1"));
        }
        if self.receive_window == Some(0) {
            return Err(invalid(
                format!("{at}.receive_window"),
                "must be at least 1 packet",
            ));
        }
        if self.min_rto.is_zero() {
            return Err(invalid(format!("{at}.min_rto"), "must be positive"));
        }
        if self.max_rto < self.min_rto {
            return Err(invalid(format!("{at}.max_rto"), "must be at least min_rto"));
        }
        if self.delayed_ack && self.delack_timeout.is_zero() {
            return Err(invalid(
                format!("{at}.delack_timeout"),
                "must be positive with delayed_ack",
            ));
        }
        Ok(())
    }
}

fn validate_queue(at: &str, q: &QueueConfig) -> Result<(), ScenarioError> {
    match q {
        QueueConfig::DropTail(d) => {
            if d.packets.is_none() && d.bytes.is_none() {
                return Err(invalid(at, "droptail needs `packets` or `bytes`"));
            }
            if d.packets == Some(0) || d.bytes == Some(0) {
                return Err(invalid(at, "limits must be positive"));
            }
        }
        QueueConfig::Red(r) => {
            if r.packets == Some(0) {
                return Err(invalid(format!("{at}.packets"), "must be positive"));
            }
            if let (Some(lo), Some(hi)) = (r.min_th, r.max_th) {
                if !(lo >= 0.0 && lo < hi) {
                    return Err(invalid(
                        format!("{at}.min_th"),
                        "must satisfy 0 <= min_th < max_th",
                    ));
                }
            }
            for (k, v) in [("min_th", r.min_th), ("max_th", r.max_th)] {
                if v.is_some_and(|v| !(v.is_finite() && v >= 0.0)) {
                    return Err(invalid(format!("{at}.{k}"), "must be finite and >= 0"));
                }
            }
            if r.max_p.is_some_and(|p| !(p > 0.0 && p <= 1.0)) {
                return Err(invalid(format!("{at}.max_p"), "must be in (0, 1]"));
            }
            if r.w_q.is_some_and(|w| !(w > 0.0 && w <= 1.0)) {
                return Err(invalid(format!("{at}.w_q"), "must be in (0, 1]"));
            }
            if r.mean_pktsize == Some(0) {
                return Err(invalid(format!("{at}.mean_pktsize"), "must be positive"));
            }
            if r.target_delay.is_some_and(|d| d.is_zero()) {
                return Err(invalid(format!("{at}.target_delay"), "must be positive"));
            }
            if r.preset != crate::scenario::RedPreset::Ns2Auto {
                let (lo, hi) = crate::queue::red_thresholds_without_link(r);
                if lo >= hi {
                    return Err(invalid(
                        format!("{at}.min_th"),
                        format!("with the preset's defaults min_th {lo} is not below max_th {hi}"),
                    ));
                }
                for (k, set) in [
                    ("wait", r.wait.is_some()),
                    ("bytes", r.bytes.is_some()),
                    ("mean_pktsize", r.mean_pktsize.is_some()),
                    ("target_delay", r.target_delay.is_some()),
                ] {
                    if set {
                        return Err(invalid(
                            format!("{at}.{k}"),
                            "only with preset = \"ns2-auto\" (ns-2's rules)",
                        ));
                    }
                }
            }
        }
        QueueConfig::Codel(c) => {
            if c.packets == 0 {
                return Err(invalid(format!("{at}.packets"), "must be positive"));
            }
            if c.target.is_zero() || c.interval.is_zero() {
                return Err(invalid(at, "target and interval must be positive"));
            }
        }
    }
    Ok(())
}

fn prob(at: &str, p: f64) -> Result<(), ScenarioError> {
    if (0.0..=1.0).contains(&p) {
        Ok(())
    } else {
        Err(invalid(
            at,
            format!("must be a probability in [0, 1], got {p}"),
        ))
    }
}

fn drift(at: &str, d: f64) -> Result<(), ScenarioError> {
    if d.is_finite() && d.abs() < 1e5 {
        Ok(())
    } else {
        Err(invalid(
            at,
            format!("must be finite and below 1e5 ppm in magnitude, got {d}"),
        ))
    }
}

fn range<T: PartialOrd>(at: &str, r: [T; 2]) -> Result<(), ScenarioError> {
    if r[0] <= r[1] {
        Ok(())
    } else {
        Err(invalid(at, "range must be [lo, hi] with lo <= hi"))
    }
}
