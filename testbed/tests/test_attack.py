"""Pure parts of the attacked swarm: the attackers' messages and the report's arithmetic."""

import json
import os
import struct
import types

from netbed import attackers, attackswarm


def attacker(pieces=10, piece_len=65536):
    a = types.SimpleNamespace(kind="malformed", info_hash="ab" * 20, pieces=pieces,
                              piece_len=piece_len, targets="10.80.1.1:6881", max_seconds=1.0)
    return attackers.Attacker(a)


def test_handshake_is_68_bytes_with_fast_and_extension_bits():
    h = attackers.handshake(b"\x01" * 20, b"-XX0001-abcdefabcdef")
    assert len(h) == 68 and h[:20] == b"\x13BitTorrent protocol"
    assert h[25] == 0x10 and h[27] == 0x04


def test_frames_carry_their_length():
    assert attackers.frame(1) == b"\0\0\0\x01\x01"
    assert attackers.frame(4, b"\0\0\0\x07") == b"\0\0\0\x05\x04\0\0\0\x07"


def test_bitfield_of_every_piece_has_zero_spare_bits():
    assert attacker(pieces=10).bitfield_all() == b"\xff\xc0"
    assert attacker(pieces=16).bitfield_all() == b"\xff\xff"


def test_malformed_messages_are_each_broken_as_named():
    msgs = attacker(pieces=10).malformed_messages()
    oversized, short_have, far_have, bad_bitfield, big_req = msgs[:5]
    assert struct.unpack(">I", oversized[:4])[0] == 0x7FFFFFFF
    assert short_have[4] == 4 and struct.unpack(">I", short_have[:4])[0] == 3
    assert struct.unpack(">I", far_have[5:9])[0] == 110
    assert len(bad_bitfield) - 5 == 2 + 3
    assert struct.unpack(">III", big_req[5:])[2] == 1 << 20
    assert any(b"18446744073709551615:" in m for m in msgs)


def test_waves_and_attacker_targets():
    hs = attackswarm.honest_peers(240.0)
    assert [h.member.k for h in hs] == [1, 2, 3, 4, 5, 6]
    assert [h.member.client for h in hs] == ["ours", "ours", "ours", "lt", "ours", "lt"]
    assert [h.arrive_s for h in hs] == [0, 0, 0, 0, 240, 240]
    argv = attackswarm.attacker_argv("flood", 7, hs, "ab" * 20, 123, 65536, "http://t/a", 60)
    assert argv[argv.index("--targets") + 1].count(":6881") == 6
    assert argv[argv.index("--listen") + 1] == "10.80.7.1:6881"


def test_memory_in_minute_two_against_the_last_minute():
    samples = [(t, 1024 * (10 + t / 100), 20) for t in range(0, 601, 2)]
    m2, last = attackswarm.late_growth(samples)
    assert round(m2, 1) == 11.2 and round(last, 1) == 16.0
    assert attackswarm.late_growth([]) == (None, None)


def test_report_puts_both_swarms_in_one_table(tmp_path):
    peer = {"k": 2, "client": "ours", "seed": False, "arrive_s": 0.0, "completion_s": 30.0,
            "byte_exact": True, "max_rss_kb": 20480, "max_fds": 40, "samples": [],
            "counters": {"hash_failures": 3},
            "limits": {"exceeded": {"half_open": 7, "banned": 12}, "banned": ["10.80.7.1"]}}
    settings = {"seconds": 600, "wave2_s": 240, "rate_mbit": 2, "size_mb": 8, "piece_kib": 64}
    for name, t in (("baseline", 30.0), ("attacked", 45.0)):
        os.makedirs(tmp_path / name)
        rec = {"name": name, "settings": settings, "errors": [], "attackers": ["flood"],
               "peers": [dict(peer, completion_s=t)], "attacker_summaries": {}}
        (tmp_path / name / "run.json").write_text(json.dumps(rec))
    text = attackswarm.report(str(tmp_path))
    assert "| p2 | ours | 1 | 30.0 | 45.0 | yes | 20.0 |" in text
    assert "| p2 | 3 | 1 | 12 | half_open 7 |" in text
