"""Unit tests of the interop harness's pure parts: commands, parsers, verdicts, the table."""

import hashlib
import json
import types

import pytest

from netbed.interop import capture, cli, harness, peers, qbt
from netbed.qbt_watch import UTP, view, watch_evidence
from netbed.tr_seed import transmission_settings


def fake_harness(our_transport="utp", case_has_ours=True, extra=()):
    net = types.SimpleNamespace(ns=lambda side: {"s": "nsS", "c": "nsC"}[side])
    return types.SimpleNamespace(ledbat="/bin/ledbat", our_transport=our_transport,
                                 case_timeout=60.0, our_extra=list(extra), net=net,
                                 case_has_ours=case_has_ours, workdir="/w")


# ---------------------------------------------------------------- peers' commands

def test_ours_seed_and_get_commands():
    p = peers.OursPeer(fake_harness(extra=["--cc", "ledbat"]), "s", "10.0.0.1", 46881)
    assert p.seed_cmd("t.torrent", "/d/f.bin", "10.0.0.2:46882") == [
        "/bin/ledbat", "torrent", "seed", "t.torrent", "--data", "/d/f.bin",
        "--listen", "10.0.0.1:46881", "--transport", "utp", "--max-seconds", "70.0", "--json",
        "--cc", "ledbat", "--peer", "10.0.0.2:46882"]
    assert p.get_cmd("t.torrent", "/out", "10.0.0.2:1") == [
        "/bin/ledbat", "torrent", "get", "t.torrent", "--peer", "10.0.0.2:1", "--out", "/out",
        "--transport", "utp", "--timeout", "60.0", "--json", "--cc", "ledbat"]


def test_lt_command_runs_the_package_module_and_goes_tcp_only_with_our_tcp():
    p = peers.LtPeer(fake_harness(), "c", "10.0.0.2", 46882)
    cmd = p.cmd("get", "t.torrent", "/out", "10.0.0.1:46881", [])
    assert cmd[1:] == ["-m", "netbed.lt_peer", "get", "t.torrent", "--save", "/out",
                       "--listen", "10.0.0.2:46882", "--timeout", "120.0",
                       "--peer", "10.0.0.1:46881"]
    p = peers.LtPeer(fake_harness(our_transport="tcp"), "c", "10.0.0.2", 46882)
    assert p.cmd("get", "t", "/o", None, [])[-1] == "--tcp"
    # A self-check case (no ours) stays uTP even with --our-transport tcp.
    p = peers.LtPeer(fake_harness(our_transport="tcp", case_has_ours=False), "c", "x", 1)
    assert "--tcp" not in p.cmd("get", "t", "/o", None, [])


def test_last_json_finds_the_last_event_of_a_kind():
    text = ('noise\n{"event": "progress", "state": "downloading"}\n{bad json\n'
            '{"event": "progress", "state": "seeding"}\n{"event": "summary", "n": 1}\n')
    assert peers.last_json(text, "progress") == {"event": "progress", "state": "seeding"}
    assert peers.last_json(text) == {"event": "summary", "n": 1}
    assert peers.last_json(text, "absent") is None


def test_lt_transport_verdicts():
    utp = {"max_utp_peers": 1, "max_tcp_peers": 0, "utp_flag_seen": True,
           "non_utp_peer_seen": False, "errors": []}
    assert peers.lt_transport_ok(utp, want_utp=True)
    assert not peers.lt_transport_ok(dict(utp, max_tcp_peers=1), want_utp=True)
    assert not peers.lt_transport_ok(dict(utp, non_utp_peer_seen=True), want_utp=True)
    assert not peers.lt_transport_ok(dict(utp, utp_flag_seen=False), want_utp=True)
    tcp = dict(utp, max_utp_peers=0, max_tcp_peers=2)
    assert peers.lt_transport_ok(tcp, want_utp=False)
    assert not peers.lt_transport_ok(utp, want_utp=False)
    assert peers.lt_evidence({"max_utp_peers": 3, "other": 1}) == {
        "max_utp_peers": 3, "max_tcp_peers": None, "utp_flag_seen": None,
        "non_utp_peer_seen": None, "errors": None}


# ---------------------------------------------------------------- Transmission RPC

def test_split_http_response_reads_the_session_id_of_a_409():
    out = ("HTTP/1.1 409 Conflict\r\nServer: Transmission\r\n"
           "X-Transmission-Session-Id: abc123\r\nContent-Length: 3\r\n\r\n<h1>")
    status, headers, body = peers.split_http_response(out)
    assert status == 409
    assert headers["x-transmission-session-id"] == "abc123"
    assert body == "<h1>"


def test_split_http_response_skips_100_continue():
    out = ("HTTP/1.1 100 Continue\n\nHTTP/1.1 200 OK\nContent-Type: application/json\n\n"
           '{"result": "success", "arguments": {}}')
    status, headers, body = peers.split_http_response(out)
    assert status == 200
    assert headers == {"content-type": "application/json"}
    assert json.loads(body)["result"] == "success"


def test_split_http_response_of_nothing_is_status_0():
    assert peers.split_http_response("") == (0, {}, "")


def test_transmission_settings_close_the_client():
    s = transmission_settings("10.78.1.1", 46881, 47881, "/data", message_level=2)
    assert (s["bind-address-ipv4"], s["peer-port"], s["rpc-port"]) == ("10.78.1.1", 46881, 47881)
    assert not any(s[k] for k in ("dht-enabled", "lpd-enabled", "pex-enabled",
                                  "port-forwarding-enabled", "rpc-authentication-required"))
    assert s["utp-enabled"] and s["encryption"] == 0 and s["download-dir"] == "/data"
    assert s["message-level"] == 2 and s["rpc-bind-address"] == "127.0.0.1"


# ---------------------------------------------------------------- qBittorrent

def test_qbt_conf_sets_protocol_addresses_and_turns_discovery_off():
    conf = qbt.qbt_conf("UTP", 46882, "10.78.2.1", "/save", 48882).splitlines()
    for line in ["Session\\BTProtocol=UTP", "Session\\Port=46882",
                 "Session\\InterfaceAddress=10.78.2.1", "Session\\DHTEnabled=false",
                 "Session\\LSDEnabled=false", "Session\\PeXEnabled=false",
                 "Session\\Encryption=2", "Session\\DefaultSavePath=/save",
                 "WebUI\\Port=48882", "WebUI\\LocalHostAuth=false", "Accepted=true"]:
        assert line in conf


def test_qbt_api_cmd_get_post_and_empty_post():
    assert qbt.api_cmd(8080, "torrents/info", {"hashes": "ab"}, get=True) == [
        "curl", "-s", "--max-time", "5", "-w", "\n%{http_code}", "-G",
        "--data-urlencode", "hashes=ab", "http://127.0.0.1:8080/api/v2/torrents/info"]
    assert qbt.api_cmd(1, "torrents/add", form={"torrents": "@/t"})[-3:] == [
        "-F", "torrents=@/t", "http://127.0.0.1:1/api/v2/torrents/add"]
    assert qbt.api_cmd(1, "app/shutdown")[-3:] == [
        "-d", "", "http://127.0.0.1:1/api/v2/app/shutdown"]


def test_qbt_split_status_takes_the_last_line():
    assert qbt.split_status('{"a": 1}\nline2\n200') == (200, '{"a": 1}\nline2')
    assert qbt.split_status("Ok.\n200") == (200, "Ok.")
    assert qbt.split_status("") == (0, "")


def test_watch_view_keeps_transport_and_whether_payload_moved():
    peers_list = {"10.0.0.1:5": {"connection": UTP, "peer_id_client": "-LB0100-",
                                 "client": "ledbat", "flags": "D", "uploaded": 0,
                                 "downloaded": 16384, "progress": 0.5}}
    assert view(peers_list) == {"10.0.0.1:5": {"connection": UTP, "peer_id": "-LB0100-",
                                               "client": "ledbat", "flags": "D",
                                               "payload": True}}


def test_watch_evidence_counts_utp_only_after_a_handshake_or_payload():
    dialing = {"a:1": {"connection": UTP, "peer_id": "", "payload": False}}
    talking = {"a:1": {"connection": UTP, "peer_id": "-LB-", "payload": False}}
    tcp = {"b:2": {"connection": "BT", "peer_id": "", "payload": False}}
    lines = [json.dumps({"t": 1, "peers": dialing})]
    ev = watch_evidence(lines)
    assert not ev.utp_seen and not ev.tcp_seen and ev.connections == dialing
    ev = watch_evidence(lines + ["junk", json.dumps({"t": 2, "peers": talking})])
    assert ev.utp_seen and not ev.tcp_seen
    ev = watch_evidence([json.dumps({"t": 3, "peers": tcp})])
    assert ev.tcp_seen and not ev.utp_seen


# ---------------------------------------------------------------- capture

def test_capture_commands():
    assert capture.capture_cmd("c0", [46881, 46882], "/w/c.pcapng") == [
        "tshark", "-i", "c0", "-s", "200", "-f",
        "(udp or tcp) and (port 46881 or port 46882)", "-w", "/w/c.pcapng", "-q"]


def test_capture_leaves_out_tcp_on_the_control_ports():
    # A WebUI poll from ephemeral port 46882 to 127.0.0.1:48881 is not a peer connection.
    argv = capture.capture_cmd("lo", [46881, 46882], "/w/c.pcapng", 0, [47882, 48881])
    assert argv[6] == ("(udp or tcp) and (port 46881 or port 46882)"
                       " and not (tcp and (port 47882 or port 48881))")
    assert argv[4] == "0"
    assert capture.fields_cmd("/w/c.pcapng", "bt-utp", ["bt-utp.type"]) == [
        "tshark", "-r", "/w/c.pcapng", "--enable-heuristic", "bt_utp_udp", "-Y", "bt-utp",
        "-T", "fields", "-e", "bt-utp.type"]


def test_summarise_counts_types_and_matching_handshakes():
    s = capture.summarise(["4", "2", "0", "0", "0", "2", "1", "9"],
                          ["ABCD", "abcd", "ffff"], 0, "abcd")
    assert s == {"utp_packets": 8,
                 "utp_by_type": {"data": 3, "fin": 1, "state": 2, "syn": 1, "9": 1},
                 "bt_handshakes_over_utp": 2, "tcp_segments": 0}


def test_capture_ok_for_utp_needs_syn_enough_data_a_handshake_and_no_tcp():
    size = 1_000_000  # 1e6 // 65536 = 15: at least 16 DATA packets
    good = {"utp_packets": 40, "utp_by_type": {"syn": 1, "data": 16},
            "bt_handshakes_over_utp": 1, "tcp_segments": 0}
    assert capture.capture_ok(good, size, want_utp=True)
    assert not capture.capture_ok(dict(good, utp_by_type={"syn": 1, "data": 15}), size, True)
    assert not capture.capture_ok(dict(good, utp_by_type={"data": 16}), size, True)
    assert not capture.capture_ok(dict(good, bt_handshakes_over_utp=0), size, True)
    assert not capture.capture_ok(dict(good, tcp_segments=1), size, True)
    assert capture.capture_ok({"utp_packets": 0, "tcp_segments": 9}, size, want_utp=False)
    assert not capture.capture_ok(dict(good, tcp_segments=9), size, want_utp=False)


def test_packets_captured_reads_the_count_tshark_states_at_its_end():
    assert capture.packets_captured("Capturing on 'v0'\n14021 packets captured\n") == 14021
    assert capture.packets_captured("Capturing on 'lo'\n1 packet captured\n") == 1
    # Killed before it said anything: no count, not zero.
    assert capture.packets_captured("Capturing on 'v0'\n") is None


def fake_capture(tmp_path, stderr, reads):
    """A Capture whose capturing tshark said `stderr` and whose reads return, in turn, the
    (returncode, stdout, stderr) of `reads`, three per reading of the file (uTP types,
    handshakes, TCP segments)."""
    pcap = tmp_path / "c.pcapng"
    pcap.write_bytes(b"x" * 500)
    c = object.__new__(capture.Capture)
    c.path, c.exit_code, c.read_errors = str(pcap), 0, []
    c.proc = types.SimpleNamespace(stderr_text=lambda: stderr)
    c.READ_RETRY_S = 0.0
    calls = []

    def run(argv, **kw):
        rc, out, err = reads[len(calls)]
        calls.append(argv)
        return types.SimpleNamespace(returncode=rc, stdout=out, stderr=err)
    return c, calls, run


def test_a_failed_read_is_tried_again_and_both_attempts_are_recorded(tmp_path, monkeypatch):
    ok = [(0, "4\n0\n0\n", ""), (0, "abcd\n", ""), (0, "", "")]
    bad = [(2, "", "tshark: The file appears to be damaged."), (0, "", ""), (0, "", "")]
    c, calls, run = fake_capture(tmp_path, "Capturing on 'v0'\n3 packets captured\n", bad + ok)
    monkeypatch.setattr(capture.proc, "run", run)
    r = c.analyse("abcd")
    assert len(calls) == 6 and r["read_attempts"] == 2
    assert r["utp_by_type"] == {"data": 2, "syn": 1} and r["bt_handshakes_over_utp"] == 1
    assert r["read_errors"] == ["exit 2 reading 'bt-utp': tshark: The file appears to be damaged."]
    assert (r["file_bytes"], r["capture_exit"], r["packets_captured"]) == (500, 0, 3)
    assert "capture_stderr_tail" in r


def test_an_empty_read_of_a_capture_that_holds_packets_is_tried_again(tmp_path, monkeypatch):
    empty = [(0, "", "")] * 3
    c, calls, run = fake_capture(tmp_path, "3 packets captured\n", empty + empty)
    monkeypatch.setattr(capture.proc, "run", run)
    r = c.analyse("abcd")
    # Still nothing: the counts stay zero (the case fails), and the record says why not.
    assert len(calls) == 6 and r["read_attempts"] == 2 and r["utp_packets"] == 0
    assert r["packets_captured"] == 3 and r["read_errors"] == []


def test_a_capture_that_saw_nothing_is_read_once(tmp_path, monkeypatch):
    empty = [(0, "", "")] * 3
    c, calls, run = fake_capture(tmp_path, "0 packets captured\n", empty)
    monkeypatch.setattr(capture.proc, "run", run)
    r = c.analyse("abcd")
    assert len(calls) == 3 and r["read_attempts"] == 1 and r["packets_captured"] == 0
    assert "capture_stderr_tail" not in r


# ---------------------------------------------------------------- harness and CLI

def test_bottleneck_delta_subtracts_counters_missing_as_zero():
    assert harness.bottleneck_delta({"sent_bytes": 1000, "drops": 2},
                                    {"sent_bytes": 7500, "drops": 5}) == {
        "bytes_through_tbf": 6500, "drops": 3}
    assert harness.bottleneck_delta({}, {"sent_bytes": 10, "drops": None}) == {
        "bytes_through_tbf": 10, "drops": 0}


def test_make_payload_is_deterministic_and_exactly_sized(tmp_path):
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    size = (1 << 20) + 12345  # crosses a 1 MiB chunk boundary
    harness.make_payload(a, size, "case-1")
    harness.make_payload(b, size, "case-1")
    harness.make_payload(c, size, "case-2")
    assert a.stat().st_size == size
    assert harness.sha1_of(a) == harness.sha1_of(b) != harness.sha1_of(c)
    assert harness.sha1_of(a) == hashlib.sha1(a.read_bytes()).hexdigest()


def test_netns_uses_the_bed_topology_with_interop_addresses():
    n = harness.Netns(10.0, 100)
    assert n.topo.bottleneck.rate_bps == 10_000_000
    assert n.topo.bottleneck.limit_bytes == 151_400
    assert (n.seed_ip, n.get_ip) == ("10.78.1.1", "10.78.2.1")
    assert n.ns("s") == "ledbat-tb-interop-snd" and n.ns("c") == "ledbat-tb-interop-rcv"
    assert n.capture_iface == ("v0", "ledbat-tb-interop-rcv")
    assert not n.topo.disable_ipv6


def test_needs_of_cases_lists_the_real_clients_taking_part():
    assert "qbittorrent-nox" not in cli.needs_of(["ours-to-lt"]).commands
    n = cli.needs_of(["ours-to-tr", "qbt-to-ours"])
    assert {"transmission-daemon", "transmission-create", "qbittorrent-nox", "tshark",
            "curl"} <= set(n.commands)
    assert n.libtorrent


def test_results_table_rows():
    r = {"case": "ours-to-lt", "net": "loopback", "bytes": 20_000_000, "ok": True,
         "seconds": 2.5, "mbit_per_s": 64.0,
         "capture": {"utp_by_type": {"syn": 1, "data": 14000, "state": 7000, "fin": 2},
                     "bt_handshakes_over_utp": 2, "tcp_segments": 0}}
    failed = {"case": "tr-to-ours", "net": "netns", "bytes": 6, "ok": False,
              "capture": {"utp_by_type": {}, "bt_handshakes_over_utp": 0, "tcp_segments": 3}}
    lines = cli.results_table([r, failed]).splitlines()
    assert len(lines) == 4
    assert lines[1] == "|---|---|---|---|---|---|---|---|---|"
    assert lines[2] == "| ours-to-lt | loopback | 20000000 | PASS | 2.5 | 64.0 | 1/14000/7000/2 | 2 | 0 |"
    assert lines[3] == "| tr-to-ours | netns | 6 | FAIL | - | - | 0/0/0/0 | 0 | 3 |"


def test_cli_refuses_an_unknown_case_before_anything_else(capsys):
    assert cli.main(["--cases", "ours-to-lt,ours-to-nobody"]) == 2
    assert "unknown case ours-to-nobody" in capsys.readouterr().err


def test_control_ports_are_fixed_below_the_ephemeral_range_in_a_namespace_and_free_on_the_host():
    import socket
    # qBittorrent's WebUI at the peer port + 2000 (48882) once met a connection of an
    # earlier case holding that port in the bed's namespace
    assert peers.control_port_for(46882, "ledbat-s", 20000) == 26882
    assert peers.control_port_for(46881, "ledbat-s", 21000) == 25881
    assert peers.control_port_for(46882, "ledbat-s", 20000) < peers.EPHEMERAL_FIRST
    with pytest.raises(ValueError, match="control port 50000"):
        peers.control_port_for(70000, "ledbat-s", 20000)
    with pytest.raises(ValueError, match="control port 882"):
        peers.control_port_for(21882, "ledbat-s", 21000)
    port = peers.control_port_for(46882, None, 20000)
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", port))   # the port handed out is one nothing holds


def test_file_tail_keeps_the_last_lines_and_is_empty_without_a_file(tmp_path):
    f = tmp_path / "x.log"
    assert qbt.file_tail(str(f), 2) == ""
    f.write_bytes(b"one\ntwo\nthr\xffee\n")
    assert qbt.file_tail(str(f), 2) == "two\nthr\ufffdee"
    assert qbt.file_tail(str(f), 10) == "one\ntwo\nthr\ufffdee"


def test_qbt_log_tail_reads_the_cases_profile(tmp_path):
    h = fake_harness()
    h.workdir = str(tmp_path)
    p = qbt.QbtPeer(h, "c", "10.0.0.2", 46882)
    assert p.log_tail() == ""
    logs = tmp_path / "qbt-c-profile" / "qBittorrent" / "data" / "logs"
    logs.mkdir(parents=True)
    (logs / "qbittorrent.log").write_text("".join(f"line {i}\n" for i in range(40)))
    assert p.log_tail(3) == "line 37\nline 38\nline 39"
    assert p.log_tail().splitlines()[0] == "line 10"


def test_a_failed_case_keeps_the_log_tails_of_the_peers_that_have_one():
    class Logged:
        kind = "qbt"

        def log_tail(self):
            return "(W) couldn't listen"

    class Quiet:
        kind = "qbt"

        def log_tail(self):
            return ""

    res = {}
    harness.add_log_tails(res, Logged(), types.SimpleNamespace(kind="ours"))
    assert res == {"qbt_seeder_log_tail": "(W) couldn't listen"}
    res = {}
    harness.add_log_tails(res, Quiet(), Logged())
    assert res == {"qbt_getter_log_tail": "(W) couldn't listen"}
