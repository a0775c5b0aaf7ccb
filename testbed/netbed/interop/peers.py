"""The peers of an interop case: ours (`ledbat torrent`), libtorrent and Transmission.

Each peer seeds or downloads one torrent from one side of the case's network (`s` the
seeder's, `c` the downloader's) and says, after the case, what it saw of the transport
(`evidence`, `transport_ok`). Our own report is not evidence about the transport: the
capture and the real peers are. qBittorrent is in `qbt.py`.

A peer gets the `Harness` of the case (`h`): the network (`h.net.ns(side)`), the process
group (`h.group`), our binary and options, and the per-case timeout.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import socket
import sys

from .. import proc
from ..tr_seed import transmission_settings


def log(*a) -> None:
    print("[interop]", *a, file=sys.stderr, flush=True)


def last_json(text: str, event: str | None = None) -> dict | None:
    """The last line of `text` that is a JSON object (with `"event": event` when given)."""
    for line in reversed(text.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                o = json.loads(line)
            except ValueError:
                continue
            if isinstance(o, dict) and (event is None or o.get("event") == event):
                return o
    return None


def info_hash_of(torrent: str) -> str:
    """The v1 info-hash of a torrent file, lower-case hex (libtorrent parses it)."""
    import libtorrent as lt
    return str(lt.torrent_info(torrent).info_hash()).lower()


class OursPeer:
    kind = "ours"

    def __init__(self, h, side, ip, port):
        self.h, self.side, self.ip, self.port = h, side, ip, port
        self.proc = None

    def seed_cmd(self, torrent, data_path, peer=None):
        """`ledbat torrent seed` of `torrent` with the case's transport and options."""
        cmd = [self.h.ledbat, "torrent", "seed", torrent, "--data", data_path,
               "--listen", f"{self.ip}:{self.port}", "--transport", self.h.our_transport,
               "--max-seconds", str(self.h.case_timeout + 10), "--json"] + self.h.our_extra
        return cmd + (["--peer", peer] if peer else [])

    def get_cmd(self, torrent, out_dir, peer):
        """`ledbat torrent get` of `torrent` from `peer`."""
        return [self.h.ledbat, "torrent", "get", torrent, "--peer", peer, "--out", out_dir,
                "--transport", self.h.our_transport, "--timeout", str(self.h.case_timeout),
                "--json"] + self.h.our_extra

    def seed(self, torrent, data_path, peer=None):
        self.proc = self.h.group.start("ours-seed", self.seed_cmd(torrent, data_path, peer),
                                       ns=self.h.net.ns(self.side))

    def seed_ready(self):
        return "seeding " in self.proc.stderr_text()

    def get(self, torrent, out_dir, peer):
        self.proc = self.h.group.start("ours-get", self.get_cmd(torrent, out_dir, peer),
                                       ns=self.h.net.ns(self.side))

    def get_done(self):
        if self.proc.alive():
            return None
        return self.proc.returncode == 0

    def poll(self):
        pass

    def evidence(self):
        # Recorded for the log only (see the module comment).
        try:
            return {"summary": json.loads(self.proc.stdout_text()) if self.proc else None}
        except ValueError:
            return {"summary": None}

    def stop(self):
        if self.proc:
            self.proc.stop(grace=5.0)


class LtPeer:
    """libtorrent through `python -m netbed.lt_peer` (its JSON lines are the evidence)."""

    kind = "lt"

    def __init__(self, h, side, ip, port):
        self.h, self.side, self.ip, self.port = h, side, ip, port
        self.proc = None

    def cmd(self, mode, torrent, save, peer, extra):
        """The `netbed.lt_peer` command of one role (TCP only in `--our-transport tcp` cases
        that involve our peer)."""
        cmd = [sys.executable, "-m", "netbed.lt_peer", mode, torrent, "--save", save,
               "--listen", f"{self.ip}:{self.port}",
               "--timeout", str(self.h.case_timeout + 60)] + extra
        if peer:
            cmd += ["--peer", peer]
        if self.h.our_transport == "tcp" and self.h.case_has_ours:
            cmd.append("--tcp")
        return cmd

    def _start(self, name, cmd):
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.proc = self.h.group.start(name, cmd, ns=self.h.net.ns(self.side), env=env)

    def seed(self, torrent, data_path, peer=None):
        # Runs until stopped; its summary says whether the whole file went up.
        size = os.path.getsize(data_path)
        self._start("lt-seed", self.cmd("seed", torrent, os.path.dirname(data_path), peer,
                                        ["--expect-upload", str(size), "--linger", "3600"]))

    def seed_ready(self):
        o = last_json(self.proc.stdout_text(), "progress")
        return o is not None and "seeding" in o.get("state", "")

    def get(self, torrent, out_dir, peer):
        self._start("lt-get", self.cmd("get", torrent, out_dir, peer, []))

    def get_done(self):
        if self.proc.alive():
            return None
        return self.proc.returncode == 0

    def poll(self):
        pass

    def evidence(self):
        s = (last_json(self.proc.stdout_text(), "summary") if self.proc else None) or {}
        return lt_evidence(s)

    def transport_ok(self, want_utp):
        return lt_transport_ok(self.evidence(), want_utp)

    def stop(self):
        if self.proc:
            self.proc.stop(grace=5.0)


def lt_evidence(summary: dict) -> dict:
    """The transport evidence in a `netbed.lt_peer` summary line."""
    return {k: summary.get(k) for k in ("max_utp_peers", "max_tcp_peers", "utp_flag_seen",
                                        "non_utp_peer_seen", "errors")}


def lt_transport_ok(e: dict, want_utp: bool) -> bool:
    """uTP: some uTP peer, never a TCP peer, the utp_socket flag seen and no peer without
    it. TCP: some TCP peer and no uTP peer."""
    if want_utp:
        return bool(e["max_utp_peers"] and e["max_tcp_peers"] == 0 and e["utp_flag_seen"]
                    and not e["non_utp_peer_seen"])
    return bool(e["max_tcp_peers"] and not e["max_utp_peers"])


def split_http_response(text: str) -> tuple[int, dict[str, str], str]:
    """(status code, headers with lower-case names, body) of `curl -i` output (CRLF or LF
    line ends). Interim `100 Continue` responses are skipped; status 0 when there is no
    status line."""
    text = text.replace("\r\n", "\n")
    while True:
        head, _, body = text.partition("\n\n")
        lines = head.splitlines()
        parts = lines[0].split() if lines else []
        status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
        if 100 <= status < 200 and body.startswith("HTTP/"):
            text = body
            continue
        break
    headers = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    return status, headers, body


# Ports the kernel hands out for outgoing connections start here (ip_local_port_range's
# default, which each new network namespace gets).
EPHEMERAL_FIRST = 32768


def control_port_for(port: int, ns: str | None, below: int) -> int:
    """The TCP port of a client's control API, which listens on 127.0.0.1 of the client's
    namespace. In a namespace of the bed's own nothing else listens, but connections there
    (the API calls of earlier cases) take local ports from the ephemeral range, so a fixed
    port in it can be held: the peer port less `below`, under that range. On the host the
    kernel picks a free one."""
    if ns is not None:
        api = port - below
        if not 1024 <= api < EPHEMERAL_FIRST:
            raise ValueError(f"control port {api} (peer port {port} less {below}) is not "
                             f"in 1024..{EPHEMERAL_FIRST - 1}")
        return api
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RpcClientPeer:
    """A real client driven over an HTTP API whose torrent view `_torrent()` also refreshes
    the connection evidence: polled while a case runs, errors of one poll ignored. The API's
    TCP port is `control_port` (the capture leaves it out)."""

    control_port: int | None = None

    def poll(self):
        try:
            self._torrent()
        except (proc.CommandError, ValueError):
            pass


class TrPeer(RpcClientPeer):
    """transmission-daemon driven over its RPC (curl, inside the peer's namespace)."""

    kind = "tr"
    SEEDING, DOWNLOADING = 6, 4  # tr_torrent_activity of Transmission 3.00
    DONE_STATES = (5, 6, 0)  # queued to seed, seeding, stopped

    def __init__(self, h, side, ip, port):
        self.h, self.side, self.ip, self.port = h, side, ip, port
        self.rpc_port = self.control_port = control_port_for(port, h.net.ns(side), 21000)
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
        settings = transmission_settings(self.ip, self.port, self.rpc_port, download_dir,
                                         message_level=2)
        with open(os.path.join(self.cfg, "settings.json"), "w") as f:
            json.dump(settings, f, indent=1)
        self.proc = self.h.group.start(f"tr-{self.side}", [
            "transmission-daemon", "-f", "-g", self.cfg], ns=self.h.net.ns(self.side))

        def up():
            try:
                self.rpc("session-get", {})
                return True
            except proc.CommandError:
                return False
        if not proc.wait_until(up, 15, 0.3):
            raise proc.CommandError(f"transmission-daemon RPC did not come up: "
                                    f"{self.proc.stderr_text()[-500:]}")

    def rpc(self, method, args):
        body = json.dumps({"method": method, "arguments": args})
        for _ in range(3):
            r = proc.run(["curl", "-s", "-i", "--max-time", "5", "-H",
                          f"X-Transmission-Session-Id: {self.session_id}", "-d", body,
                          f"http://127.0.0.1:{self.rpc_port}/transmission/rpc"],
                         ns=self.h.net.ns(self.side), check=False, timeout=15)
            if r.returncode != 0:
                raise proc.CommandError(f"transmission RPC unreachable: {r.stderr.strip()}")
            status, headers, payload = split_http_response(r.stdout)
            if status == 409:  # the session-id handshake: retry with the id it gave
                self.session_id = headers.get("x-transmission-session-id", "")
                continue
            try:
                o = json.loads(payload)
            except ValueError:
                raise proc.CommandError(f"transmission RPC answered {status}: {payload[:200]!r}")
            if o.get("result") != "success":
                raise proc.CommandError(f"transmission {method}: {o.get('result')}")
            return o["arguments"]
        raise proc.CommandError("transmission RPC session id dance failed")

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
        self.info_hash = info_hash_of(torrent)
        with open(torrent, "rb") as f:
            meta = base64.b64encode(f.read()).decode()
        self.rpc("torrent-add", {"metainfo": meta, "download-dir": download_dir, "paused": False})

    def seed(self, torrent, data_path, peer=None):
        if peer:
            raise proc.CommandError("Transmission cannot be told to dial a peer")
        d = os.path.dirname(data_path)
        self._start(d)
        self._add(torrent, d)
        self.rpc("torrent-verify", {})

    def seed_ready(self):
        t = self._torrent()
        return t is not None and t["percentDone"] >= 1.0 and t["status"] == self.SEEDING

    def get(self, torrent, out_dir, peer):
        if peer:
            raise proc.CommandError("Transmission cannot be told to dial a peer")
        self._start(out_dir)
        self._add(torrent, out_dir)

    def get_ready(self):
        """Whether Transmission has the torrent running (downloading), so that it accepts a
        seeder's handshake for it: a seeder that dials earlier is refused."""
        t = self._torrent()
        return t is not None and t["status"] == self.DOWNLOADING

    def get_done(self):
        t = self._torrent()
        if t and t.get("error"):
            log("transmission error:", t.get("errorString"))
        return True if t and t["percentDone"] >= 1.0 and t["status"] in self.DONE_STATES else None

    def evidence(self):
        return {"utp_peer_seen": self.utp_seen, "tcp_peer_seen": self.tcp_seen}

    def transport_ok(self, want_utp):
        return self.utp_seen and not self.tcp_seen if want_utp else self.tcp_seen

    def stop(self):
        if self.proc:
            try:
                self._torrent()
            except (proc.CommandError, ValueError):
                pass
            self.proc.stop(grace=5.0)
