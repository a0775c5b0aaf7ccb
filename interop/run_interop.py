#!/usr/bin/env python3
"""BitTorrent over uTP between `ledbat torrent` and libtorrent, Transmission and qBittorrent.

Each case moves one file from a seeder to a downloader and asserts that
  1. the file arrives intact (SHA-1 of the result equals the source's), and
  2. the connection really was uTP: a packet capture (tshark with the `bt_utp_udp`
     heuristic) holds uTP SYN and DATA packets, a BitTorrent handshake carrying the
     torrent's info-hash inside uTP, and not one TCP segment on the peers' ports; and the
     real peer agrees (libtorrent: peer_info flag bit 17 and its uTP/TCP peer counters;
     Transmission: the RPC `isUTP` flag of the peer; qBittorrent: the WebUI peer list's
     `connection` field is "μTP" for a peer that carried payload, never anything else).

Peers run with the closed-test settings of docs/real-peers.md (TCP off where
the client allows it, uTP on, no DHT/LSD/PEX/UPnP/NAT-PMP, bound to the test address).
Transmission 3.00 cannot disable TCP or be told to dial a peer, so it only ever accepts
connections and the capture proves no TCP was used. qBittorrent 4.5.2 (qbittorrent-nox,
libtorrent-rasterbar 2.0.8 inside) runs with `Session\\BTProtocol=UTP` (TCP off both
ways), encryption off (we do not speak MSE) and a fresh profile per case, driven through
its WebUI API v2 on 127.0.0.1 of its namespace (curl); with no tracker or DHT it dials
only the peer handed to it by /api/v2/torrents/addPeers, which is how it reaches our
seeder in ours-to-qbt (in qbt-to-ours our downloader dials it).

Networks: `loopback` (127.0.0.1: fast, for correctness) and `netns` (seeder and
downloader in two network namespaces joined through a forwarding router namespace whose
egress toward the downloader is a `tbf` bottleneck: for behaviour).

Cases are named SEEDER-to-DOWNLOADER: ours-to-lt, lt-to-ours, ours-to-tr, tr-to-ours,
ours-to-qbt, qbt-to-ours (the interop tests), and lt-to-lt, lt-to-tr, tr-to-lt
(`--self-check`: validate the harness and the real peers without our code).

`--our-transport tcp` runs our side over TCP (and libtorrent and qBittorrent TCP-only) to check the
BitTorrent layer alone; the transport assertions are then inverted (TCP expected, no uTP).
That mode is a diagnostic, not the interop test.

Needs root (namespaces, capture). Installs what is missing (pip libtorrent==2.1.1; apt
transmission-daemon, transmission-cli, qbittorrent-nox, tshark) unless --no-install. Every
case is bounded in time; namespaces, processes and temporary files are removed on exit
(also on Ctrl-C).
Exit status: 0 all cases passed, 1 a case failed, 2 the harness cannot run.
"""

import argparse
import hashlib
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request  # noqa: F401  (documented: RPC goes through curl inside namespaces)

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
LT_VERSION = "2.1.1"
NS = {"s": "btio-s", "r": "btio-r", "c": "btio-c"}
ADDR = {"s": "10.78.1.1", "r1": "10.78.1.254", "r2": "10.78.2.254", "c": "10.78.2.1"}
SEED_PORT, GET_PORT = 46881, 46882
ALL_CASES = ["ours-to-lt", "lt-to-ours", "ours-to-tr", "tr-to-ours", "ours-to-qbt", "qbt-to-ours"]
SELF_CASES = ["lt-to-lt", "lt-to-tr", "tr-to-lt"]


def log(*a):
    print("[interop]", *a, file=sys.stderr, flush=True)


class HarnessError(Exception):
    """The harness itself cannot run (exit 2)."""


def run(cmd, check=True, timeout=60, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    if check and r.returncode != 0:
        raise HarnessError(f"{' '.join(cmd)} failed ({r.returncode}): {r.stderr.strip()[:500]}")
    return r


# ---------------------------------------------------------------- dependencies

def ensure_deps(need_lt, need_tr, need_qbt, install):
    missing_apt = []
    if need_qbt and not shutil.which("qbittorrent-nox"):
        missing_apt.append("qbittorrent-nox")
    if need_tr:
        for tool, pkg in (("transmission-daemon", "transmission-daemon"),
                          ("transmission-create", "transmission-cli")):
            if not shutil.which(tool):
                missing_apt.append(pkg)
    if not shutil.which("tshark"):
        missing_apt.append("tshark")
    for tool, pkg in (("ip", "iproute2"), ("tc", "iproute2"), ("ethtool", "ethtool"),
                      ("curl", "curl")):
        if not shutil.which(tool):
            missing_apt.append(pkg)
    missing_apt = sorted(set(missing_apt))
    if missing_apt:
        if not install:
            raise HarnessError(f"missing packages: {' '.join(missing_apt)} (run without --no-install)")
        log("apt-get install", *missing_apt)
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        run(["apt-get", "update"], timeout=300, env=env)
        run(["apt-get", "-o", "DPkg::Lock::Timeout=300", "install", "-y", *missing_apt],
            timeout=900, env=env)
    if need_lt:
        try:
            import libtorrent  # noqa: F401
        except ImportError:
            if not install:
                raise HarnessError("python libtorrent missing (pip install libtorrent==2.1.1)")
            log(f"pip install libtorrent=={LT_VERSION}")
            env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
            if run([sys.executable, "-m", "pip", "--version"], check=False).returncode != 0:
                run(["apt-get", "update"], timeout=300, env=env)
                run(["apt-get", "-o", "DPkg::Lock::Timeout=300", "install", "-y", "python3-pip"],
                    timeout=900, env=env)
            pip = [sys.executable, "-m", "pip", "install", "-q", f"libtorrent=={LT_VERSION}"]
            r = run(pip, check=False, timeout=600)
            if r.returncode != 0 and "externally-managed" in r.stderr:
                # Debian's system Python (PEP 668): the wheel is self-contained, install anyway.
                r = run(pip + ["--break-system-packages"], check=False, timeout=600)
            if r.returncode != 0:
                raise HarnessError(f"pip install libtorrent failed: {r.stderr.strip()[-500:]}")


# ---------------------------------------------------------------- networks

class Loopback:
    name = "loopback"

    def __init__(self):
        self.seed_ip = self.get_ip = "127.0.0.1"
        self.capture_iface = ("lo", None)

    def prefix(self, side):
        return []

    def setup(self):
        pass

    def cleanup(self):
        pass


class Netns:
    """sender ns --veth-- router ns (tbf toward receiver) --veth-- receiver ns."""
    name = "netns"

    def __init__(self, rate_mbit, limit_frames):
        self.rate_mbit = rate_mbit
        self.limit_bytes = limit_frames * 1514
        self.seed_ip, self.get_ip = ADDR["s"], ADDR["c"]
        self.capture_iface = ("c0", NS["c"])

    def prefix(self, side):
        return ["ip", "netns", "exec", NS[side]]

    def setup(self):
        self.cleanup()
        for ns in NS.values():
            run(["ip", "netns", "add", ns])
            run(["ip", "-n", ns, "link", "set", "lo", "up"])
        run(["ip", "link", "add", "s0", "netns", NS["s"], "type", "veth", "peer", "name", "r0",
             "netns", NS["r"]])
        run(["ip", "link", "add", "c0", "netns", NS["c"], "type", "veth", "peer", "name", "r1",
             "netns", NS["r"]])
        for ns, dev, addr in ((NS["s"], "s0", ADDR["s"]), (NS["r"], "r0", ADDR["r1"]),
                              (NS["r"], "r1", ADDR["r2"]), (NS["c"], "c0", ADDR["c"])):
            run(["ip", "-n", ns, "addr", "add", f"{addr}/24", "dev", dev])
            run(["ip", "-n", ns, "link", "set", dev, "up"])
            run(["ip", "netns", "exec", ns, "ethtool", "-K", dev, "tso", "off", "gso", "off",
                 "gro", "off"], check=False)
        run(["ip", "-n", NS["s"], "route", "add", "default", "via", ADDR["r1"]])
        run(["ip", "-n", NS["c"], "route", "add", "default", "via", ADDR["r2"]])
        run(["ip", "netns", "exec", NS["r"], "sysctl", "-qw", "net.ipv4.ip_forward=1"])
        run(["ip", "netns", "exec", NS["r"], "tc", "qdisc", "add", "dev", "r1", "root", "tbf",
             "rate", f"{self.rate_mbit}mbit", "burst", "15k", "limit", str(self.limit_bytes)])
        run(["ip", "netns", "exec", NS["s"], "ping", "-c", "1", "-W", "2", ADDR["c"]],
            check=False)

    def queue_stats(self):
        """Cumulative bytes sent and drops of the router's tbf toward the downloader."""
        r = run(["ip", "netns", "exec", NS["r"], "tc", "-s", "-j", "qdisc", "show", "dev", "r1"],
                check=False)
        try:
            q = json.loads(r.stdout)[0]
            return {"drops": q.get("drops"), "sent_bytes": q.get("bytes")}
        except (ValueError, IndexError):
            return {}

    def cleanup(self):
        for ns in NS.values():
            subprocess.run(["ip", "netns", "del", ns], capture_output=True)


# ---------------------------------------------------------------- processes

class Proc:
    """A child process in its own process group, logged to files, stopped by pid."""

    started = []  # every Proc, so an interrupted run can stop whatever is left

    def __init__(self, name, cmd, workdir):
        Proc.started.append(self)
        self.name = name
        self.out_path = os.path.join(workdir, f"{name}.out")
        self.err_path = os.path.join(workdir, f"{name}.err")
        self.out = open(self.out_path, "w")
        self.err = open(self.err_path, "w")
        self.cmd = cmd
        self.p = subprocess.Popen(cmd, stdout=self.out, stderr=self.err, start_new_session=True)

    def alive(self):
        return self.p.poll() is None

    def wait(self, timeout):
        try:
            return self.p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def stop(self, sig=signal.SIGTERM, grace=5.0):
        if self.out.closed:
            return self.p.returncode
        if self.alive():
            try:
                os.killpg(self.p.pid, sig)
            except ProcessLookupError:
                pass
            if self.wait(grace) is None:
                try:
                    os.killpg(self.p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.p.wait()
        self.out.close()
        self.err.close()
        return self.p.returncode

    def stdout(self):
        with open(self.out_path) as f:
            return f.read()

    def stderr(self):
        with open(self.err_path) as f:
            return f.read()


def last_json(text, event=None):
    for line in reversed(text.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                o = json.loads(line)
            except ValueError:
                continue
            if event is None or o.get("event") == event:
                return o
    return None


# ---------------------------------------------------------------- peers

class OursPeer:
    kind = "ours"

    def __init__(self, h, side, ip, port):
        self.h, self.side, self.ip, self.port = h, side, ip, port
        self.proc = None

    def seed(self, torrent, data_path, peer=None):
        cmd = self.h.net.prefix(self.side) + [
            self.h.ledbat, "torrent", "seed", torrent, "--data", data_path,
            "--listen", f"{self.ip}:{self.port}", "--transport", self.h.our_transport,
            "--max-seconds", str(self.h.case_timeout + 10), "--json"] + self.h.our_extra
        if peer:
            cmd += ["--peer", peer]
        self.proc = Proc(f"ours-seed", cmd, self.h.workdir)

    def seed_ready(self):
        return "seeding " in self.proc.stderr()

    def get(self, torrent, out_dir, peer):
        cmd = self.h.net.prefix(self.side) + [
            self.h.ledbat, "torrent", "get", torrent, "--peer", peer, "--out", out_dir,
            "--transport", self.h.our_transport, "--timeout", str(self.h.case_timeout), "--json"
        ] + self.h.our_extra
        self.proc = Proc("ours-get", cmd, self.h.workdir)

    def get_done(self):
        if self.proc.alive():
            return None
        return self.proc.p.returncode == 0

    def poll(self):
        pass

    def evidence(self):
        # Our own report is not evidence about the transport; the capture and the real
        # peer are. Record the summary for the log.
        try:
            return {"summary": json.loads(self.proc.stdout()) if self.proc else None}
        except ValueError:
            return {"summary": None}

    def stop(self):
        if self.proc:
            self.proc.stop()


class LtPeer:
    kind = "lt"

    def __init__(self, h, side, ip, port):
        self.h, self.side, self.ip, self.port = h, side, ip, port
        self.proc = None

    def _cmd(self, mode, torrent, save, peer, extra):
        cmd = self.h.net.prefix(self.side) + [
            sys.executable, os.path.join(HERE, "lt_peer.py"), mode, torrent, "--save", save,
            "--listen", f"{self.ip}:{self.port}", "--timeout", str(self.h.case_timeout + 60)] + extra
        if peer:
            cmd += ["--peer", peer]
        if self.h.our_transport == "tcp" and self.h.case_has_ours:
            cmd.append("--tcp")
        return cmd

    def seed(self, torrent, data_path, peer=None):
        # Runs until stopped; its summary says whether the whole file went up.
        size = os.path.getsize(data_path)
        self.proc = Proc("lt-seed", self._cmd("seed", torrent, os.path.dirname(data_path), peer,
                                               ["--expect-upload", str(size), "--linger", "3600"]),
                         self.h.workdir)

    def seed_ready(self):
        o = last_json(self.proc.stdout(), "progress")
        return o is not None and "seeding" in o.get("state", "")

    def get(self, torrent, out_dir, peer):
        self.proc = Proc("lt-get", self._cmd("get", torrent, out_dir, peer, []), self.h.workdir)

    def get_done(self):
        if self.proc.alive():
            return None
        return self.proc.p.returncode == 0

    def poll(self):
        pass

    def evidence(self):
        s = (last_json(self.proc.stdout(), "summary") if self.proc else None) or {}
        return {"max_utp_peers": s.get("max_utp_peers"), "max_tcp_peers": s.get("max_tcp_peers"),
                "utp_flag_seen": s.get("utp_flag_seen"),
                "non_utp_peer_seen": s.get("non_utp_peer_seen"), "errors": s.get("errors")}

    def transport_ok(self, want_utp):
        e = self.evidence()
        if want_utp:
            return bool(e["max_utp_peers"] and e["max_tcp_peers"] == 0 and e["utp_flag_seen"]
                        and not e["non_utp_peer_seen"])
        return bool(e["max_tcp_peers"] and not e["max_utp_peers"])

    def stop(self):
        if self.proc:
            self.proc.stop(sig=signal.SIGTERM)


class _RpcClientPeer:
    """A real client driven over an HTTP API whose torrent view `_torrent()` also refreshes
    the connection evidence: polled while a case runs, errors of one poll ignored."""

    def poll(self):
        try:
            self._torrent()
        except (HarnessError, ValueError, subprocess.TimeoutExpired):
            pass


class TrPeer(_RpcClientPeer):
    """transmission-daemon driven over its RPC (curl, inside the peer's namespace)."""
    kind = "tr"

    def __init__(self, h, side, ip, port):
        self.h, self.side, self.ip, self.port = h, side, ip, port
        self.rpc_port = port + 1000
        self.proc = None
        self.session_id = ""
        self.utp_seen = False
        self.tcp_seen = False
        self.cfg = os.path.join(h.workdir, f"tr-{side}-config")
        self.info_hash = None

    def _start(self, download_dir):
        # A fresh config per case: old resume files would bring back earlier torrents.
        shutil.rmtree(self.cfg, ignore_errors=True)
        os.makedirs(self.cfg)
        settings = {
            "bind-address-ipv4": self.ip, "bind-address-ipv6": "::1",
            "peer-port": self.port, "peer-port-random-on-start": False,
            "dht-enabled": False, "lpd-enabled": False, "pex-enabled": False,
            "port-forwarding-enabled": False, "utp-enabled": True,
            "encryption": 0,  # prefer plaintext: our peer does not speak MSE
            "rpc-enabled": True, "rpc-bind-address": "127.0.0.1", "rpc-port": self.rpc_port,
            "rpc-authentication-required": False, "rpc-whitelist-enabled": False,
            "rpc-host-whitelist-enabled": False,
            "download-dir": download_dir, "incomplete-dir-enabled": False,
            "rename-partial-files": True, "start-added-torrents": True,
            "ratio-limit-enabled": False, "idle-seeding-limit-enabled": False,
            "speed-limit-up-enabled": False, "speed-limit-down-enabled": False,
            "alt-speed-enabled": False, "message-level": 2,
            "blocklist-enabled": False, "cache-size-mb": 4,
        }
        with open(os.path.join(self.cfg, "settings.json"), "w") as f:
            json.dump(settings, f, indent=1)
        self.proc = Proc(f"tr-{self.side}", self.h.net.prefix(self.side) + [
            "transmission-daemon", "-f", "-g", self.cfg], self.h.workdir)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            try:
                self.rpc("session-get", {})
                return
            except HarnessError:
                time.sleep(0.3)
        raise HarnessError(f"transmission-daemon RPC did not come up: {self.proc.stderr()[-500:]}")

    def rpc(self, method, args):
        body = json.dumps({"method": method, "arguments": args})
        for _ in range(3):
            r = run(self.h.net.prefix(self.side) + [
                "curl", "-s", "-i", "--max-time", "5", "-H",
                f"X-Transmission-Session-Id: {self.session_id}", "-d", body,
                f"http://127.0.0.1:{self.rpc_port}/transmission/rpc"], check=False, timeout=15)
            if r.returncode != 0:
                raise HarnessError(f"transmission RPC unreachable: {r.stderr.strip()}")
            # text mode turned CRLF into LF
            head, _, payload = r.stdout.partition("\n\n")
            status = head.splitlines()[0] if head else ""
            if " 409 " in status:
                for line in head.splitlines():
                    if line.lower().startswith("x-transmission-session-id:"):
                        self.session_id = line.split(":", 1)[1].strip()
                continue
            try:
                o = json.loads(payload)
            except ValueError:
                raise HarnessError(f"transmission RPC answered {status!r}: {payload[:200]!r}")
            if o.get("result") != "success":
                raise HarnessError(f"transmission {method}: {o.get('result')}")
            return o["arguments"]
        raise HarnessError("transmission RPC session id dance failed")

    def _torrent(self):
        ts = self.rpc("torrent-get", {"fields": [
            "id", "hashString", "percentDone", "haveValid", "uploadedEver", "status", "error",
            "errorString", "peers", "recheckProgress"]})["torrents"]
        t = next((t for t in ts if t.get("hashString", "").lower() == self.info_hash), None)
        if t is None:
            return None
        for p in t.get("peers", []):
            if p.get("isUTP"):
                self.utp_seen = True
            else:
                self.tcp_seen = True
        return t

    def _add(self, torrent, download_dir):
        import libtorrent as lt
        self.info_hash = str(lt.torrent_info(torrent).info_hash()).lower()
        with open(torrent, "rb") as f:
            import base64
            meta = base64.b64encode(f.read()).decode()
        self.rpc("torrent-add", {"metainfo": meta, "download-dir": download_dir, "paused": False})

    def seed(self, torrent, data_path, peer=None):
        if peer:
            raise HarnessError("Transmission cannot be told to dial a peer")
        d = os.path.dirname(data_path)
        self._start(d)
        self._add(torrent, d)
        self.rpc("torrent-verify", {})

    def seed_ready(self):
        t = self._torrent()
        return t is not None and t["percentDone"] >= 1.0 and t["status"] == 6  # 6 = seeding

    def get(self, torrent, out_dir, peer):
        if peer:
            raise HarnessError("Transmission cannot be told to dial a peer")
        self._start(out_dir)
        self._add(torrent, out_dir)

    def get_ready(self):
        """Whether Transmission has the torrent running (status 4 = downloading), so that
        it accepts a seeder's handshake for it: a seeder that dials earlier is refused."""
        t = self._torrent()
        return t is not None and t["status"] == 4

    def get_done(self):
        t = self._torrent()
        if t and t.get("error"):
            log("transmission error:", t.get("errorString"))
        return True if t and t["percentDone"] >= 1.0 and t["status"] in (5, 6, 0) else None


    def evidence(self):
        return {"utp_peer_seen": self.utp_seen, "tcp_peer_seen": self.tcp_seen}

    def transport_ok(self, want_utp):
        return self.utp_seen and not self.tcp_seen if want_utp else self.tcp_seen

    def stop(self):
        if self.proc:
            try:
                self._torrent()
            except (HarnessError, ValueError, subprocess.TimeoutExpired):
                pass
            self.proc.stop()


# Runs inside the qBittorrent peer's namespace for the whole case: polls its WebUI peer list
# every 50 ms and prints each distinct view as a JSON line. A loopback transfer can start and
# end within 0.3 s, between two polls of the harness loop; this sees the connection.
QBT_WATCH = r"""
import json, sys, time, urllib.request
url, seen = sys.argv[1], None
while True:
    try:
        with urllib.request.urlopen(url, timeout=2) as r:
            peers = json.loads(r.read().decode("utf-8")).get("peers") or {}
    except Exception:
        peers = None
    if peers:
        view = {a: {"connection": p.get("connection", ""), "peer_id": p.get("peer_id_client", ""),
                    "client": p.get("client", ""), "flags": p.get("flags", ""),
                    "payload": bool((p.get("uploaded") or 0) + (p.get("downloaded") or 0))}
                for a, p in peers.items()}
        if view != seen:
            print(json.dumps({"t": round(time.time(), 3), "peers": view}), flush=True)
            seen = view
    time.sleep(0.05)
"""


class QbtPeer(_RpcClientPeer):
    """qbittorrent-nox driven over its WebUI API v2 (curl, inside the peer's namespace).

    Each case gets a fresh profile (`--profile`): no resume data from an earlier case, and
    the settings below written before start. The WebUI listens on 127.0.0.1 of the peer's
    namespace and skips authentication for localhost clients, so no login is needed.
    qBittorrent reports each peer's transport in the `connection` field of
    /api/v2/sync/torrentPeers ("μTP" for a uTP socket, "BT" for TCP), watched by
    QBT_WATCH; a uTP peer counts as evidence once its BitTorrent handshake completed (peer
    id known) or payload went through it: a dial in progress is listed too.
    """
    kind = "qbt"
    UTP = "\u03bcTP"  # qBittorrent's PeerInfo::connectionType() for utp_socket peers
    SEED_STATES = ("uploading", "stalledUP", "forcedUP", "queuedUP")
    # qBittorrent 4.5.2 reports a freshly checked torrent as seeding up to ~1 s before its
    # libtorrent accepts connections for it (it answers the uTP SYN with a FIN). Measured on
    # loopback, our downloader dialling 0 s / 0.5 s / 1 s after the first seeding report was
    # refused 5 of 6 / 3 of 4 / 0 of 4 times; so a seeder is ready after 2 s of seeding.
    SEED_SETTLE = 2.0
    DOWN_STATES = ("downloading", "stalledDL", "forcedDL")

    def __init__(self, h, side, ip, port):
        self.h, self.side, self.ip, self.port = h, side, ip, port
        self.web_port = port + 2000
        self.proc = None
        self.profile = os.path.join(h.workdir, f"qbt-{side}-profile")
        self.info_hash = None
        self.peer = None
        self.last_add_peer = 0.0
        self.last_peers_poll = 0.0
        self.current_peers = []
        self.utp_seen = False       # a uTP peer that carried payload
        self.tcp_seen = False       # any peer not on uTP, in any state
        self.connections = {}       # peer address -> last reported entry (for the log)
        self.last_state = None
        self.watch = None
        self.seeding_since = None

    def _start(self, save_dir):
        shutil.rmtree(self.profile, ignore_errors=True)
        cfg_dir = os.path.join(self.profile, "qBittorrent", "config")
        os.makedirs(cfg_dir)
        protocol = "TCP" if (self.h.our_transport == "tcp" and self.h.case_has_ours) else "UTP"
        # Key names of qBittorrent 4.5.2 (src/base/bittorrent/session.cpp, preferences.cpp).
        conf = f"""[LegalNotice]
Accepted=true

[BitTorrent]
Session\\BTProtocol={protocol}
Session\\Port={self.port}
Session\\Interface=
Session\\InterfaceAddress={self.ip}
Session\\DHTEnabled=false
Session\\LSDEnabled=false
Session\\PeXEnabled=false
Session\\Encryption=2
Session\\AnonymousModeEnabled=false
Session\\QueueingSystemEnabled=false
Session\\AddTorrentPaused=false
Session\\DefaultSavePath={save_dir}
Session\\TempPathEnabled=false
Session\\AddExtensionToIncompleteFiles=false
Session\\GlobalMaxRatio=-1
Session\\GlobalMaxSeedingMinutes=-1
Session\\MultiConnectionsPerIp=true

[Network]
PortForwardingEnabled=false

[Preferences]
WebUI\\Address=127.0.0.1
WebUI\\Port={self.web_port}
WebUI\\LocalHostAuth=false
WebUI\\UseUPnP=false
WebUI\\HostHeaderValidation=false
WebUI\\CSRFProtection=false
Connection\\ResolvePeerCountries=false
"""
        with open(os.path.join(cfg_dir, "qBittorrent.conf"), "w") as f:
            f.write(conf)
        self.proc = Proc(f"qbt-{self.side}", self.h.net.prefix(self.side) + [
            "qbittorrent-nox", f"--profile={self.profile}"], self.h.workdir)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if not self.proc.alive():
                break
            try:
                if self.api("app/version")[0] == 200:
                    return
            except HarnessError:
                pass
            time.sleep(0.3)
        raise HarnessError(f"qbittorrent-nox WebUI did not come up: {self.proc.stderr()[-300:]!r}"
                           f" {self.proc.stdout()[-300:]!r}")

    def api(self, path, data=None, form=None, get=False):
        """One WebUI call: (HTTP status, body as text). `data` is url-encoded fields (a
        query string with `get`, else a POST body), `form` multipart POST fields (a value
        starting with @ is a file)."""
        cmd = self.h.net.prefix(self.side) + ["curl", "-s", "--max-time", "5", "-w",
                                              "\n%{http_code}"] + (["-G"] if get else [])
        for k, v in (data or {}).items():
            cmd += ["--data-urlencode", f"{k}={v}"]
        for k, v in (form or {}).items():
            cmd += ["-F", f"{k}={v}"]
        if not (get or data or form):
            cmd += ["-d", ""]  # an empty POST (actions are POST-only)
        cmd.append(f"http://127.0.0.1:{self.web_port}/api/v2/{path}")
        # bytes, decoded here: the peer list holds "μTP" whatever the locale is.
        r = subprocess.run(cmd, capture_output=True, timeout=15)
        if r.returncode != 0:
            raise HarnessError(f"qBittorrent WebUI unreachable ({path}): curl exit {r.returncode}")
        body, _, status = r.stdout.decode("utf-8", "replace").rpartition("\n")
        return int(status or 0), body

    def _json(self, path, data=None):
        status, body = self.api(path, data, get=True)
        if status != 200:
            raise HarnessError(f"qBittorrent {path}: HTTP {status} {body[:200]!r}")
        return json.loads(body)

    def _torrent(self, force_peers=False):
        ts = self._json("torrents/info", {"hashes": self.info_hash})
        t = ts[0] if ts else None
        if t is not None:
            self.last_state = t.get("state")
            if force_peers or time.monotonic() - self.last_peers_poll > 0.5:
                self._peers()
        return t

    def _peers(self):
        self.last_peers_poll = time.monotonic()
        o = self._json("sync/torrentPeers", {"hash": self.info_hash, "rid": 0})
        self.current_peers = list((o.get("peers") or {}).keys())
        return o.get("peers") or {}

    def _read_watch(self):
        """The transport evidence from everything the watcher saw."""
        if self.watch is None:
            return
        for line in self.watch.stdout().splitlines():
            try:
                view = json.loads(line)["peers"]
            except (ValueError, KeyError):
                continue
            for addr, p in view.items():
                self.connections[addr] = p
                if p["connection"] == self.UTP:
                    if p["peer_id"] or p["payload"]:
                        self.utp_seen = True
                elif p["connection"]:
                    self.tcp_seen = True

    def _add(self, torrent, save_dir):
        import libtorrent as lt
        self.info_hash = str(lt.torrent_info(torrent).info_hash()).lower()
        status, body = self.api("torrents/add", form={
            "torrents": f"@{torrent}", "savepath": save_dir, "paused": "false",
            "skip_checking": "false", "autoTMM": "false"})
        if status != 200 or body.strip() != "Ok.":
            raise HarnessError(f"qBittorrent torrents/add: HTTP {status} {body[:200]!r}")
        url = (f"http://127.0.0.1:{self.web_port}/api/v2/sync/torrentPeers"
               f"?hash={self.info_hash}&rid=0")
        self.watch = Proc(f"qbt-{self.side}-watch", self.h.net.prefix(self.side) + [
            sys.executable, "-c", QBT_WATCH, url], self.h.workdir)

    def _wait_state(self, states, what):
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            t = self._poll_torrent()
            if t is not None and t.get("state") in states:
                return t
            if t is not None and t.get("state") in ("error", "missingFiles"):
                raise HarnessError(f"qBittorrent torrent state {t.get('state')}")
            time.sleep(0.2)
        raise HarnessError(f"qBittorrent did not reach {what} in 30 s (state {self.last_state})")

    def _add_peer(self):
        status, body = self.api("torrents/addPeers", {"hashes": self.info_hash,
                                                      "peers": self.peer})
        if status != 200:
            raise HarnessError(f"qBittorrent torrents/addPeers: HTTP {status} {body[:200]!r}")
        self.last_add_peer = time.monotonic()

    def seed(self, torrent, data_path, peer=None):
        d = os.path.dirname(data_path)
        self._start(d)
        self._add(torrent, d)  # checked against the data on disk, then seeding
        self.peer = peer
        if peer:
            self._add_peer()

    def _poll_torrent(self):
        """The torrent, or None on a transient WebUI failure; raises once qBittorrent died."""
        try:
            return self._torrent()
        except (HarnessError, ValueError, subprocess.TimeoutExpired) as e:
            if not self.proc.alive():
                raise HarnessError(f"qbittorrent-nox exited ({self.proc.p.returncode}): {e}")
            return None

    def seed_ready(self):
        t = self._poll_torrent()
        if t is None or t.get("progress", 0) < 1.0 or t.get("state") not in self.SEED_STATES:
            self.seeding_since = None
            return False
        if self.seeding_since is None:
            self.seeding_since = time.monotonic()
        return time.monotonic() - self.seeding_since >= self.SEED_SETTLE

    def get(self, torrent, out_dir, peer):
        self._start(out_dir)
        self._add(torrent, out_dir)
        if peer:
            # qBittorrent has no tracker or DHT here: it dials only the peer it is given,
            # once the torrent is running (a peer added while it is still checking is lost).
            self.peer = peer
            self._wait_state(self.DOWN_STATES, "downloading")
            self._add_peer()

    def get_ready(self):
        t = self._poll_torrent()
        return t is not None and t.get("state") in self.DOWN_STATES

    def get_done(self):
        t = self._poll_torrent()
        if t is None:
            return None
        if t.get("state") in ("error", "missingFiles"):
            log("qBittorrent torrent state", t.get("state"))
            return False
        if t.get("progress", 0) >= 1.0 and t.get("state") in self.SEED_STATES:
            return True
        # No connection yet (the dial failed or was refused): give it the peer again.
        if self.peer and not self.current_peers and time.monotonic() - self.last_add_peer > 5:
            self._add_peer()
        return None


    def evidence(self):
        self._read_watch()
        return {"utp_peer_seen": self.utp_seen, "tcp_peer_seen": self.tcp_seen,
                "state": self.last_state, "peers": self.connections}

    def transport_ok(self, want_utp):
        self._read_watch()
        return self.utp_seen and not self.tcp_seen if want_utp else self.tcp_seen

    def stop(self):
        if self.proc:
            try:
                if self.info_hash:
                    self._torrent(force_peers=True)
                self.api("app/shutdown", {})
            except (HarnessError, ValueError, subprocess.TimeoutExpired):
                pass
            if self.watch:
                self.watch.stop()
            if self.proc.wait(8) is None:
                log("qbittorrent-nox did not exit on app/shutdown; stopping it")
            self.proc.stop()


PEERS = {"ours": OursPeer, "lt": LtPeer, "tr": TrPeer, "qbt": QbtPeer}


# ---------------------------------------------------------------- capture

class Capture:
    def __init__(self, h, ports):
        iface, ns = h.net.capture_iface
        self.path = os.path.join(h.workdir, f"capture-{h.case}-{h.net.name}.pcapng")
        flt = " or ".join(f"port {p}" for p in ports)
        prefix = ["ip", "netns", "exec", ns] if ns else []
        # Headers are enough: snap 200 bytes keeps the uTP header and a BitTorrent handshake.
        self.proc = Proc("tshark", prefix + ["tshark", "-i", iface, "-s", "200", "-f",
                                             f"(udp or tcp) and ({flt})", "-w", self.path, "-q"],
                         h.workdir)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and "Capturing on" not in self.proc.stderr():
            time.sleep(0.1)
        time.sleep(0.3)

    def stop(self):
        time.sleep(0.5)
        self.proc.stop(sig=signal.SIGINT)

    def analyse(self, info_hash):
        def fields(flt, *fs):
            r = run(["tshark", "-r", self.path, "--enable-heuristic", "bt_utp_udp", "-Y", flt,
                     "-T", "fields", *sum((["-e", f] for f in fs), [])], check=False, timeout=300)
            return [line.split("\t") for line in r.stdout.splitlines() if line]
        types = {}
        for (t,) in fields("bt-utp", "bt-utp.type"):
            types[t] = types.get(t, 0) + 1
        hs = [h for (h,) in fields("bt-utp and bittorrent.info_hash", "bittorrent.info_hash")]
        tcp = len(fields("tcp", "frame.number"))
        return {
            "utp_packets": sum(types.values()),
            "utp_by_type": {{"0": "data", "1": "fin", "2": "state", "3": "reset", "4": "syn"}
                            .get(k, k): v for k, v in sorted(types.items())},
            "bt_handshakes_over_utp": sum(1 for x in hs if x.lower() == info_hash),
            "tcp_segments": tcp,
        }


# ---------------------------------------------------------------- cases

def sha1_of(path):
    h = hashlib.sha1()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def make_payload(path, size, seed):
    # Deterministic, incompressible-looking bytes.
    with open(path, "wb") as f:
        block = hashlib.sha256(str(seed).encode()).digest()
        n = 0
        while n < size:
            chunk = hashlib.shake_256(block + n.to_bytes(8, "big")).digest(min(1 << 20, size - n))
            f.write(chunk)
            n += len(chunk)


class Harness:
    def __init__(self, a):
        self.a = a
        self.ledbat = a.ledbat_bin
        self.our_transport = a.our_transport
        self.our_extra = shlex.split(a.our_extra)
        self.case_timeout = a.case_timeout
        self.workdir = None
        self.net = None
        self.case = None
        self.case_has_ours = False

    def make_torrent(self, data_path, torrent_path, use_ours):
        import libtorrent as lt
        if use_ours:
            run([self.ledbat, "torrent", "create", data_path, "-o", torrent_path,
                 "--piece-kib", "256"])
        else:
            fs = lt.file_storage()
            lt.add_files(fs, data_path)
            ct = lt.create_torrent(fs, 262144, flags=lt.create_torrent.v1_only)
            lt.set_piece_hashes(ct, os.path.dirname(data_path))
            with open(torrent_path, "wb") as f:
                f.write(lt.bencode(ct.generate()))
        return str(lt.torrent_info(torrent_path).info_hash())

    def run_case(self, case, net, size):
        seeder_kind, getter_kind = case.split("-to-")
        self.case, self.net = case, net
        self.case_has_ours = "ours" in (seeder_kind, getter_kind)
        want_utp = not (self.case_has_ours and self.our_transport == "tcp")
        t0 = time.monotonic()
        res = {"case": case, "net": net.name, "bytes": size, "ok": False,
               "transport_expected": "utp" if want_utp else "tcp"}
        src_dir = os.path.join(self.workdir, "src")
        out_dir = os.path.join(self.workdir, "out")
        for d in (src_dir, out_dir):
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
        data = os.path.join(src_dir, f"{case}.bin")
        make_payload(data, size, case)
        torrent = os.path.join(self.workdir, f"{case}.torrent")
        info_hash = self.make_torrent(data, torrent, self.case_has_ours)
        res["info_hash"] = info_hash
        seeder = PEERS[seeder_kind](self, "s", net.seed_ip, SEED_PORT)
        getter = PEERS[getter_kind](self, "c", net.get_ip, GET_PORT)
        seed_addr, get_addr = f"{net.seed_ip}:{SEED_PORT}", f"{net.get_ip}:{GET_PORT}"
        q0 = net.queue_stats() if isinstance(net, Netns) else None
        cap = Capture(self, [SEED_PORT, GET_PORT])
        try:
            # Transmission never dials: when it downloads, the seeder connects to it.
            getter_dials = getter_kind != "tr"
            if not getter_dials:
                getter.get(torrent, out_dir, None)
                deadline = time.monotonic() + 30
                while not getter.get_ready():
                    if time.monotonic() > deadline:
                        raise HarnessError(f"{getter_kind} getter not downloading in 30 s")
                    time.sleep(0.2)
            seeder.seed(torrent, data, None if getter_dials else get_addr)
            deadline = time.monotonic() + 30
            while not seeder.seed_ready():
                if time.monotonic() > deadline:
                    raise HarnessError(f"{seeder_kind} seeder not ready in 30 s")
                time.sleep(0.2)
            if getter_dials:
                getter.get(torrent, out_dir, seed_addr)
            start = time.monotonic()
            deadline = start + self.case_timeout
            done = None
            while done is None and time.monotonic() < deadline:
                done = getter.get_done()
                seeder.poll()
                time.sleep(0.2)
            res["seconds"] = round(time.monotonic() - start, 2)
            res["completed"] = bool(done)
            if done is None:
                res["error"] = f"timed out after {self.case_timeout} s"
        except HarnessError as e:
            res["error"] = str(e)
        finally:
            getter.stop()
            seeder.stop()
            cap.stop()
        crossed = True
        if q0 is not None:
            q1 = net.queue_stats()
            sent = (q1.get("sent_bytes") or 0) - (q0.get("sent_bytes") or 0)
            drops = (q1.get("drops") or 0) - (q0.get("drops") or 0)
            res["bottleneck"] = {"bytes_through_tbf": sent, "drops": drops}
            # The payload really crossed the bottleneck (headers make it a little more).
            crossed = sent >= size
        out_file = os.path.join(out_dir, os.path.basename(data))
        res["intact"] = os.path.exists(out_file) and sha1_of(out_file) == sha1_of(data)
        res["no_part_file_left"] = not os.path.exists(out_file + ".part")
        res["capture"] = cap.analyse(info_hash)
        c = res["capture"]
        if want_utp:
            res["capture_ok"] = (c["utp_by_type"].get("syn", 0) >= 1
                                 and c["utp_by_type"].get("data", 0) > size // 65536
                                 and c["bt_handshakes_over_utp"] >= 1 and c["tcp_segments"] == 0)
        else:
            res["capture_ok"] = c["tcp_segments"] > 0 and c["utp_packets"] == 0
        peers_ok = True
        for p in (seeder, getter):
            res[f"{p.kind}_{'seeder' if p is seeder else 'getter'}_evidence"] = p.evidence()
            if hasattr(p, "transport_ok"):
                peers_ok = peers_ok and p.transport_ok(want_utp)
        res["peer_transport_ok"] = peers_ok
        if getter_kind == "ours" and getter.proc is not None:
            res["ours_get_exit"] = getter.proc.p.returncode
            if getter.proc.p.returncode != 0:
                res["ours_get_stderr"] = getter.proc.stderr()[-800:]
        if seeder_kind == "ours" and seeder.proc is not None:
            res["ours_seed_stderr_tail"] = seeder.proc.stderr()[-400:]
        res["crossed_bottleneck"] = crossed
        res["ok"] = bool(res.get("completed") and res["intact"] and res["capture_ok"] and peers_ok
                         and res["no_part_file_left"] and crossed)
        if res["ok"] and res.get("seconds"):
            res["mbit_per_s"] = round(size * 8 / res["seconds"] / 1e6, 2)
        res["wall_seconds"] = round(time.monotonic() - t0, 1)
        return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n".join(__doc__.splitlines()[1:]))
    ap.add_argument("--cases", default=",".join(ALL_CASES),
                    help=f"comma list from {ALL_CASES + SELF_CASES}")
    ap.add_argument("--self-check", action="store_true",
                    help="run the harness self-check cases (no ledbat) instead")
    ap.add_argument("--net", choices=["loopback", "netns", "both"], default="both")
    ap.add_argument("--loopback-mb", type=float, default=20.0)
    ap.add_argument("--netns-mb", type=float, default=6.0)
    ap.add_argument("--rate-mbit", type=float, default=10.0)
    ap.add_argument("--limit-frames", type=int, default=100, help="tbf FIFO in full frames (100 = 121 ms at 10 Mbit/s)")
    ap.add_argument("--case-timeout", type=float, default=60.0)
    ap.add_argument("--our-transport", choices=["utp", "tcp"], default="utp")
    ap.add_argument("--ledbat-bin", default=None)
    ap.add_argument("--our-extra", default="",
                    help='extra arguments for our seed and get, e.g. "--cc ledbat --target-ms 25"')
    ap.add_argument("--no-install", action="store_true")
    ap.add_argument("--keep", action="store_true", help="keep the work directory (captures, logs)")
    ap.add_argument("--json-out", default=None, help="write all results here")
    ap.add_argument("--max-seconds", type=int, default=900,
                    help="overall time limit; on expiry everything is stopped and removed (exit 1)")
    a = ap.parse_args()

    cases = SELF_CASES if a.self_check else [c for c in a.cases.split(",") if c]
    for c in cases:
        if c not in ALL_CASES + SELF_CASES:
            print(f"unknown case {c}", file=sys.stderr)
            return 2
    if os.geteuid() != 0:
        print("needs root (namespaces, packet capture)", file=sys.stderr)
        return 2
    uses_ours = any("ours" in c for c in cases)
    if uses_ours and a.ledbat_bin is None:
        tdir = os.environ.get("CARGO_TARGET_DIR", os.path.join(REPO, "target"))
        a.ledbat_bin = os.path.join(tdir, "debug", "ledbat")
    if uses_ours and not os.access(a.ledbat_bin or "", os.X_OK):
        print(f"ledbat binary not found at {a.ledbat_bin} (cargo build -p ledbat-cli, or --ledbat-bin)",
              file=sys.stderr)
        return 2
    try:
        ensure_deps(need_lt=True, need_tr=any("tr" in c.split("-to-") for c in cases),
                    need_qbt=any("qbt" in c.split("-to-") for c in cases),
                    install=not a.no_install)
    except HarnessError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2

    h = Harness(a)
    h.workdir = tempfile.mkdtemp(prefix="ledbat-interop-")
    nets = []
    if a.net in ("loopback", "both"):
        nets.append((Loopback(), int(a.loopback_mb * 1e6)))
    if a.net in ("netns", "both"):
        nets.append((Netns(a.rate_mbit, a.limit_frames), int(a.netns_mb * 1e6)))
    results = []

    def cleanup(*_):
        for p in Proc.started:
            p.stop(grace=2.0)
        for n, _ in nets:
            n.cleanup()
        if not a.keep:
            shutil.rmtree(h.workdir, ignore_errors=True)

    def interrupt(*_):
        raise KeyboardInterrupt()
    signal.signal(signal.SIGTERM, interrupt)
    signal.signal(signal.SIGALRM, interrupt)
    signal.alarm(a.max_seconds)
    try:
        for net, size in nets:
            try:
                net.setup()
            except HarnessError as e:
                print(f"error: cannot build the {net.name} network: {e}", file=sys.stderr)
                return 2
            for case in cases:
                log(f"{case} over {net.name} ({size} B) ...")
                r = h.run_case(case, net, size)
                results.append(r)
                log(("PASS" if r["ok"] else "FAIL"), json.dumps(r))
            net.cleanup()
    except KeyboardInterrupt:
        log("interrupted")
        cleanup()
        return 1
    finally:
        if a.keep:
            log("work directory kept:", h.workdir)
        cleanup()

    print("| case | net | bytes | result | seconds | Mbit/s | uTP pkts (syn/data/state/fin) | BT handshakes in uTP | TCP segs |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        c = r["capture"]
        t = c["utp_by_type"]
        print(f"| {r['case']} | {r['net']} | {r['bytes']} | {'PASS' if r['ok'] else 'FAIL'} | "
              f"{r.get('seconds', '-')} | {r.get('mbit_per_s', '-')} | "
              f"{t.get('syn', 0)}/{t.get('data', 0)}/{t.get('state', 0)}/{t.get('fin', 0)} | "
              f"{c['bt_handshakes_over_utp']} | {c['tcp_segments']} |")
    if a.json_out:
        with open(a.json_out, "w") as f:
            json.dump(results, f, indent=1)
    return 0 if results and all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
