//! Unit tests of one connection, driven packet by packet with a virtual clock.

use super::*;

fn cfg() -> ConnectionConfig {
    ConnectionConfig::default()
}

fn drain(c: &mut Connection, now: Instant) -> Vec<Vec<u8>> {
    let mut v = Vec::new();
    let mut out = Vec::new();
    while c.poll_transmit(now, &mut out) {
        v.push(out.clone());
    }
    v
}

fn pair() -> (Connection, Connection, Instant) {
    let now = Instant::from_millis(1);
    let mut a = Connection::connect(now, cfg(), 1000).unwrap();
    let syn = drain(&mut a, now);
    assert_eq!(syn.len(), 1);
    let p = packet::decode(&syn[0]).unwrap();
    let mut b = Connection::accept(now, cfg(), &p.header, 500).unwrap();
    for d in drain(&mut b, now) {
        a.handle_datagram(now, &d);
    }
    (a, b, now)
}

#[test]
fn handshake_uses_bep29_ids_and_sequence_numbers() {
    let now = Instant::from_millis(1);
    let mut a = Connection::connect(now, cfg(), 0xffff).unwrap();
    let syn = drain(&mut a, now);
    let p = packet::decode(&syn[0]).unwrap();
    assert_eq!(p.header.ty, PacketType::Syn);
    assert_eq!(
        p.header.conn_id, 0xffff,
        "SYN carries the initiator's recv_id"
    );
    assert_eq!(p.header.seq_nr, 1);
    assert_eq!(a.send_id(), 0, "send_id = recv_id + 1 wraps");
    let mut b = Connection::accept(now, cfg(), &p.header, 777).unwrap();
    assert_eq!(b.send_id(), 0xffff);
    assert_eq!(b.recv_id(), 0);
    let st = drain(&mut b, now);
    assert_eq!(st.len(), 1);
    let s = packet::decode(&st[0]).unwrap();
    assert_eq!(s.header.ty, PacketType::State);
    assert_eq!(s.header.conn_id, 0xffff);
    assert_eq!(s.header.ack_nr, 1, "STATE acks the SYN's seq_nr");
    assert_eq!(s.header.seq_nr, 777);
    a.handle_packet(now, &s);
    assert_eq!(a.state(), State::Connected);
    // Acceptor's first DATA has the seq_nr its STATE carried; the initiator's first
    // DATA is 2.
    b.write(b"hi").unwrap();
    let d = drain(&mut b, now);
    let dp = packet::decode(&d[0]).unwrap();
    assert_eq!((dp.header.ty, dp.header.seq_nr), (PacketType::Data, 777));
    a.write(b"yo").unwrap();
    let d2 = drain(&mut a, now);
    let ap = packet::decode(&d2[0]).unwrap();
    assert_eq!((ap.header.conn_id, ap.header.seq_nr), (0, 2));
    a.handle_packet(now, &dp);
    let mut buf = [0u8; 8];
    assert_eq!(a.read(&mut buf).unwrap(), 2);
    assert_eq!(&buf[..2], b"hi");
}

#[test]
fn bytes_acked_counts_what_the_peer_acknowledged() {
    let (mut a, mut b, now) = pair();
    a.write(&[7u8; 3000]).unwrap();
    assert_eq!(
        a.bytes_acked(),
        0,
        "nothing acknowledged before the peer saw data"
    );
    let mut after_round = Vec::new();
    for _ in 0..3 {
        for d in drain(&mut a, now) {
            b.handle_datagram(now, &d);
        }
        for d in drain(&mut b, now) {
            a.handle_datagram(now, &d);
        }
        after_round.push(a.bytes_acked());
        assert_eq!(a.bytes_acked(), a.stats().bytes_acked);
    }
    // The first window is two packets of 1,380 payload bytes; the rest follows.
    assert_eq!(after_round, [2760, 3000, 3000]);
}

#[test]
fn duplicate_syn_is_answered_again() {
    let now = Instant::from_millis(1);
    let mut a = Connection::connect(now, cfg(), 10).unwrap();
    let syn = drain(&mut a, now).remove(0);
    let p = packet::decode(&syn).unwrap();
    let mut b = Connection::accept(now, cfg(), &p.header, 5).unwrap();
    assert_eq!(drain(&mut b, now).len(), 1);
    b.handle_datagram(now, &syn);
    assert_eq!(drain(&mut b, now).len(), 1);
}

#[test]
fn out_of_order_data_is_selectively_acked_and_reassembled() {
    let (mut a, mut b, now) = pair();
    let data: Vec<u8> = (0..5000u32).map(|i| i as u8).collect();
    a.write(&data).unwrap();
    // Window: start at 2 packets; send what is allowed and deliver out of order.
    let pk = drain(&mut a, now);
    assert!(pk.len() >= 2, "{}", pk.len());
    b.handle_datagram(now, &pk[1]);
    let acks = drain(&mut b, now);
    let sa = packet::decode(&acks[0]).unwrap();
    assert_eq!(sa.header.ack_nr, 1, "still waiting for seq 2");
    assert_eq!(
        sa.sack.unwrap().0,
        &[1, 0, 0, 0],
        "bit 0 = ack_nr + 2 = seq 3"
    );
    b.handle_datagram(now, &pk[0]);
    let mut buf = vec![0u8; 10_000];
    let n = b.read(&mut buf).unwrap();
    assert_eq!(n, 2 * cfg().max_payload());
    assert_eq!(&buf[..n], &data[..n]);
}

#[test]
fn three_duplicate_acks_trigger_fast_retransmit() {
    let (mut a, mut b, now) = pair();
    // Open the window wide enough by acknowledging a few rounds.
    let data = vec![7u8; 20 * 1380];
    a.write(&data).unwrap();
    let mut t = now;
    let mut lost_once = false;
    let mut sent_seqs = Vec::new();
    for _ in 0..50 {
        t += Duration::from_millis(10);
        for d in drain(&mut a, t) {
            let p = packet::decode(&d).unwrap();
            sent_seqs.push(p.header.seq_nr);
            if !lost_once && p.header.seq_nr == 4 {
                lost_once = true;
                continue;
            }
            b.handle_datagram(t, &d);
            for ack in drain(&mut b, t) {
                a.handle_datagram(t, &ack);
            }
        }
    }
    assert!(a.stats().fast_losses >= 1);
    assert!(a.stats().retransmissions >= 1);
    assert_eq!(a.stats().timeouts, 0, "recovered without a timeout");
    assert_eq!(sent_seqs.iter().filter(|&&s| s == 4).count(), 2);
    let mut buf = vec![0u8; data.len() + 10];
    assert_eq!(b.read(&mut buf).unwrap(), data.len());
}

/// `b`'s ACK of everything it got, as sent, and with `wnd_size` replaced by each of
/// `windows` (re-encoded).
fn acks_with_windows(b: &mut Connection, t: Instant, windows: &[u32]) -> Vec<Vec<u8>> {
    let acks = drain(b, t);
    let last = acks.last().expect("b acknowledges");
    let p = packet::decode(last).unwrap();
    assert_eq!(p.header.ty, PacketType::State);
    windows
        .iter()
        .map(|&w| {
            let mut h = p.header;
            h.wnd_size = w;
            let mut out = Vec::new();
            packet::encode(&h, &[], p.payload, &mut out);
            out
        })
        .collect()
}

#[test]
fn window_updates_are_not_duplicate_acks_but_same_window_repeats_are() {
    for (windows, losses) in [
        // The receiver's application drained its buffer three times: no loss.
        (vec![500_000, 600_000, 700_000, 800_000], 0),
        // The same ACK four times (three duplicates): fast retransmit.
        (vec![500_000; 4], 1),
    ] {
        let (mut a, mut b, now) = pair();
        a.write(&vec![7u8; 8 * 1380]).unwrap();
        let t = now + Duration::from_millis(10);
        let sent = drain(&mut a, t);
        assert!(sent.len() >= 2, "{}", sent.len());
        b.handle_datagram(t, &sent[0]);
        for ack in acks_with_windows(&mut b, t, &windows) {
            a.handle_datagram(t, &ack);
        }
        assert_eq!(a.stats().fast_losses, losses, "windows {windows:?}");
    }
}

#[test]
fn timeout_backs_off_exponentially_from_the_floor_and_gives_up() {
    let (mut a, _b, now) = pair();
    a.write(b"lost forever").unwrap();
    assert_eq!(drain(&mut a, now).len(), 1);
    let first = a.poll_timeout().unwrap();
    assert_eq!(
        first - now,
        Duration::from_millis(500),
        "floor applies: srtt is tiny"
    );
    let mut t = first;
    let mut gaps = Vec::new();
    while a.error().is_none() {
        a.handle_timeout(t);
        drain(&mut a, t);
        let Some(next) = a.poll_timeout() else { break };
        gaps.push((next - t).as_millis());
        t = next;
    }
    assert_eq!(a.error(), Some(ConnectionError::TimedOut));
    assert_eq!(&gaps[..4], &[1000, 2000, 4000, 8000]);
    assert_eq!(a.stats().timeouts, cfg().max_timeouts as u64 + 1);
}

#[test]
fn syn_is_retried_then_connect_times_out() {
    let now = Instant::ZERO;
    let mut a = Connection::connect(now, cfg(), 1).unwrap();
    let mut t = now;
    let mut syns = 0;
    loop {
        syns += drain(&mut a, t).len();
        if a.error().is_some() {
            break;
        }
        t = a.poll_timeout().unwrap();
        a.handle_timeout(t);
    }
    assert_eq!(syns as u32, 1 + cfg().max_syn_retries);
    assert_eq!(a.error(), Some(ConnectionError::TimedOut));
}

#[test]
fn fin_ends_the_stream_and_reset_fails_it() {
    let (mut a, mut b, now) = pair();
    a.write(b"bye").unwrap();
    a.close();
    for d in drain(&mut a, now) {
        b.handle_datagram(now, &d);
    }
    let mut buf = [0u8; 8];
    assert_eq!(b.read(&mut buf).unwrap(), 3);
    assert_eq!(b.read(&mut buf).unwrap(), 0, "end of stream");
    for d in drain(&mut b, now) {
        a.handle_datagram(now, &d);
    }
    assert!(a.is_write_closed());
    assert!(a.write(b"x").is_err());
    b.abort(now);
    let r = drain(&mut b, now);
    assert_eq!(packet::decode(&r[0]).unwrap().header.ty, PacketType::Reset);
    a.handle_datagram(now, &r[0]);
    assert_eq!(a.error(), Some(ConnectionError::Reset));
}

#[test]
fn close_before_the_handshake_holds_the_fin_until_the_syn_is_answered() {
    let now = Instant::from_millis(1);
    let mut a = Connection::connect(now, cfg(), 40).unwrap();
    a.write(b"early").unwrap();
    a.close();
    assert_eq!(a.write(b"x"), Err(StreamError::WriteClosed));
    let syn = drain(&mut a, now);
    assert_eq!(syn.len(), 1, "only the SYN while SynSent");
    assert_eq!(a.state(), State::SynSent);
    let p = packet::decode(&syn[0]).unwrap();
    let mut b = Connection::accept(now, cfg(), &p.header, 900).unwrap();
    for d in drain(&mut b, now) {
        a.handle_datagram(now, &d);
    }
    assert_eq!(a.state(), State::Connected);
    let out = drain(&mut a, now);
    let types: Vec<PacketType> = out
        .iter()
        .map(|d| packet::decode(d).unwrap().header.ty)
        .collect();
    assert_eq!(types, [PacketType::Data, PacketType::Fin]);
    assert!(!a.is_write_closed(), "FIN sent, not yet acknowledged");
    for d in &out {
        b.handle_datagram(now, d);
    }
    for d in drain(&mut b, now) {
        a.handle_datagram(now, &d);
    }
    assert!(a.is_write_closed());
    let mut buf = [0u8; 8];
    assert_eq!(b.read(&mut buf).unwrap(), 5);
    assert_eq!(b.read(&mut buf).unwrap(), 0);
}

#[test]
fn abort_before_the_syn_is_answered_sends_no_reset() {
    let now = Instant::from_millis(1);
    let mut a = Connection::connect(now, cfg(), 41).unwrap();
    assert_eq!(drain(&mut a, now).len(), 1);
    a.abort(now);
    assert_eq!(a.state(), State::Failed);
    assert!(!a.wants_transmit());
    assert!(
        drain(&mut a, now).is_empty(),
        "the peer knows no connection to reset"
    );
    let (_, mut b, now) = pair();
    b.abort(now);
    assert!(b.wants_transmit());
    let r = drain(&mut b, now);
    assert_eq!(r.len(), 1);
    assert_eq!(packet::decode(&r[0]).unwrap().header.ty, PacketType::Reset);
    assert!(!b.wants_transmit(), "one RESET only");
}

#[test]
fn port_unreachable_refuses_a_handshake_and_fails_an_established_connection() {
    let now = Instant::from_millis(1);
    let mut a = Connection::connect(now, cfg(), 43).unwrap();
    assert!(a.on_unreachable(now, Unreachable::Port));
    assert_eq!(a.state(), State::Failed);
    assert_eq!(a.error(), Some(ConnectionError::Refused));
    assert!(drain(&mut a, now).is_empty(), "no SYN retry, no RESET");
    assert!(!a.on_unreachable(now, Unreachable::Port), "fails once");
    let (mut c, _, now) = pair();
    assert!(c.on_unreachable(now, Unreachable::Port));
    assert_eq!(c.error(), Some(ConnectionError::Refused));
}

#[test]
fn host_unreachable_fails_only_an_outstanding_handshake() {
    let now = Instant::from_millis(1);
    let mut a = Connection::connect(now, cfg(), 44).unwrap();
    assert!(a.on_unreachable(now, Unreachable::Host));
    assert_eq!(
        a.error(),
        Some(ConnectionError::Unreachable(Unreachable::Host))
    );
    assert_eq!(a.error().unwrap().to_string(), "host unreachable (ICMP)");
    let (mut c, _, now) = pair();
    for kind in [Unreachable::Host, Unreachable::Network] {
        assert!(!c.on_unreachable(now, kind), "soft error: routes come back");
    }
    assert_eq!(c.state(), State::Connected);
    assert_eq!(c.error(), None);
}

#[test]
fn zero_window_blocks_the_sender_until_the_reader_drains() {
    let small = cfg().recv_buffer(1380 * 2);
    let now = Instant::from_millis(1);
    let mut a = Connection::connect(now, cfg(), 50).unwrap();
    let syn = drain(&mut a, now).remove(0);
    let mut b = Connection::accept(now, small, &packet::decode(&syn).unwrap().header, 9).unwrap();
    for d in drain(&mut b, now) {
        a.handle_datagram(now, &d);
    }
    a.write(&vec![1u8; 1380 * 6]).unwrap();
    let mut t = now;
    for _ in 0..20 {
        t += Duration::from_millis(5);
        for d in drain(&mut a, t) {
            b.handle_datagram(t, &d);
        }
        for d in drain(&mut b, t) {
            a.handle_datagram(t, &d);
        }
    }
    assert_eq!(
        b.readable(),
        1380 * 2,
        "the receiver never buffers beyond its window"
    );
    let mut buf = vec![0u8; 1380 * 6];
    b.read(&mut buf).unwrap();
    let upd = drain(&mut b, t);
    assert_eq!(upd.len(), 1, "window update after the reader drained");
    a.handle_datagram(t, &upd[0]);
    assert!(!drain(&mut a, t).is_empty(), "sender resumes");
}

#[test]
fn sequence_numbers_wrap_without_breaking_delivery() {
    let now = Instant::from_millis(1);
    let mut a = Connection::connect(now, cfg(), 3).unwrap();
    let syn = drain(&mut a, now).remove(0);
    // Acceptor starts just below the wrap so its data crosses 65535 -> 0.
    let mut b =
        Connection::accept(now, cfg(), &packet::decode(&syn).unwrap().header, 65530).unwrap();
    for d in drain(&mut b, now) {
        a.handle_datagram(now, &d);
    }
    let data: Vec<u8> = (0..30 * 1380u32).map(|i| (i * 7) as u8).collect();
    b.write(&data).unwrap();
    b.close();
    let mut got = Vec::new();
    let mut t = now;
    let mut buf = vec![0u8; 100_000];
    for _ in 0..200 {
        t += Duration::from_millis(1);
        for d in drain(&mut b, t) {
            a.handle_datagram(t, &d);
        }
        for d in drain(&mut a, t) {
            b.handle_datagram(t, &d);
        }
        while let Ok(n) = a.read(&mut buf) {
            if n == 0 {
                break;
            }
            got.extend_from_slice(&buf[..n]);
        }
    }
    assert_eq!(got, data);
    assert!(a.is_read_closed());
    assert!(b.is_write_closed());
}

#[test]
fn idle_connection_sends_keepalive_with_previous_ack_nr() {
    let (mut a, mut b, now) = pair();
    // b answered the SYN at `now`; nothing else happens.
    let mut t = now;
    drain(&mut a, t);
    let due = b.poll_timeout().unwrap();
    assert_eq!(due - now, cfg().keepalive);
    t = due;
    b.handle_timeout(t);
    let ka = drain(&mut b, t);
    assert_eq!(ka.len(), 1);
    let p = packet::decode(&ka[0]).unwrap();
    assert_eq!(p.header.ty, PacketType::State);
    assert_eq!(
        p.header.ack_nr,
        SYN_SEQ_NR.wrapping_sub(1),
        "ack_nr - 1: ignored by the peer"
    );
    a.handle_packet(t, &p);
    assert!(a.error().is_none());
    assert!(drain(&mut a, t).is_empty(), "a keep-alive needs no answer");
}

#[test]
fn selective_ack_bits_map_across_the_sequence_wrap() {
    let now = Instant::from_millis(1);
    let mut a = Connection::connect(now, cfg(), 3).unwrap();
    let syn = drain(&mut a, now).remove(0);
    let mut b =
        Connection::accept(now, cfg(), &packet::decode(&syn).unwrap().header, 65534).unwrap();
    for d in drain(&mut b, now) {
        a.handle_datagram(now, &d);
    }
    b.write(&vec![9u8; 2 * 1380]).unwrap();
    // Let the window open: deliver and ack a first round.
    let first = drain(&mut b, now);
    assert_eq!(first.len(), 2);
    let seqs: Vec<u16> = first
        .iter()
        .map(|d| packet::decode(d).unwrap().header.seq_nr)
        .collect();
    assert_eq!(seqs, vec![65534, 65535]);
    b.write(&vec![7u8; 4 * 1380]).unwrap();
    a.handle_datagram(now, &first[0]);
    // Lose 65535; the next packets (0, 1, ...) are selectively acked across the wrap.
    for d in drain(&mut a, now) {
        b.handle_datagram(now, &d);
    }
    let more = drain(&mut b, now);
    assert!(!more.is_empty());
    for d in &more {
        a.handle_datagram(now, d);
    }
    let acks = drain(&mut a, now);
    let st = packet::decode(acks.last().unwrap()).unwrap();
    assert_eq!(st.header.ack_nr, 65534);
    let bits: Vec<usize> = st.sack.unwrap().iter().collect();
    // bit i = ack_nr + 2 + i: bit 0 is seq 0.
    let expect: Vec<usize> = (0..more.len()).collect();
    assert_eq!(bits, expect);
    b.handle_datagram(now, acks.last().unwrap());
    assert_eq!(b.stats().bytes_acked, (1 + more.len() as u64) * 1380);
}

#[test]
fn delay_estimation_survives_the_32_bit_microsecond_wrap() {
    // Start 2 s before the wire clock wraps (2^32 us = 4294.967296 s) and run 4 s.
    let start = Instant::from_micros((1u64 << 32) - 2_000_000);
    let mut a = Connection::connect(start, cfg(), 3).unwrap();
    let syn = drain(&mut a, start).remove(0);
    let mut b =
        Connection::accept(start, cfg(), &packet::decode(&syn).unwrap().header, 100).unwrap();
    let mut t = start;
    for d in drain(&mut b, t) {
        a.handle_datagram(t, &d);
    }
    a.write(&vec![0u8; 400_000]).unwrap();
    while t < start + Duration::from_secs(4) {
        let sent = drain(&mut a, t);
        t += Duration::from_millis(15);
        for d in sent {
            b.handle_datagram(t, &d);
        }
        let mut buf = vec![0u8; 1 << 20];
        let _ = b.read(&mut buf);
        let acks = drain(&mut b, t);
        t += Duration::from_millis(15);
        for d in acks {
            a.handle_datagram(t, &d);
        }
        a.handle_timeout(t);
        if a.writable() > 100_000 {
            a.write(&vec![0u8; 100_000]).unwrap();
        }
    }
    let s = a.stats();
    assert_eq!(
        s.metrics.base_delay,
        Some(Duration::from_millis(15)),
        "{s:?}"
    );
    assert_eq!(s.metrics.queuing_delay, Some(Duration::ZERO), "{s:?}");
    assert_eq!(s.timeouts, 0);
}

#[test]
fn delay_samples_reach_the_controller() {
    let (mut a, mut b, mut t) = pair();
    a.write(&vec![0u8; 50_000]).unwrap();
    for _ in 0..30 {
        let sent = drain(&mut a, t);
        t += Duration::from_millis(20); // one-way delay
        for d in sent {
            b.handle_datagram(t, &d);
        }
        let acks = drain(&mut b, t);
        t += Duration::from_millis(20);
        for d in acks {
            a.handle_datagram(t, &d);
        }
    }
    let s = a.stats();
    assert!(s.metrics.queuing_delay.is_some(), "{s:?}");
    // Same clock on both sides: the base delay is the true one-way delay.
    assert_eq!(
        s.metrics.base_delay,
        Some(Duration::from_millis(20)),
        "{s:?}"
    );
    // The handshake's zero RTT sample still weighs on the average after 8 samples.
    assert!(s.srtt.unwrap() >= Duration::from_millis(20), "{s:?}");
}

#[test]
fn stats_count_the_competitor_tests_only_where_the_detection_runs() {
    let now = Instant::from_millis(1);
    let with = |name: &str| {
        let cfg = ConnectionConfig {
            controller: ledbat_core::ControllerConfig::from_name(name).unwrap(),
            ..cfg()
        };
        Connection::connect(now, cfg, 1000).unwrap().stats()
    };
    // The default (BEP 29's ledbat) has no detection; scavenger runs it, no test yet.
    let s = with("ledbat");
    assert_eq!((s.competitor_tests, s.competitor_last_test), (None, None));
    let s = with("scavenger");
    assert_eq!(
        (s.competitor_tests, s.competitor_last_test),
        (Some(0), None)
    );
}
