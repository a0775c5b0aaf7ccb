"""The qBittorrent peer of an interop case: qbittorrent-nox 4.5.2 over its WebUI API v2.

The WebUI listens on 127.0.0.1 of the peer's namespace and skips authentication for
localhost clients; every call is one `curl` inside that namespace (`QbtPeer.api`). The
transport evidence comes from `netbed.qbt_watch`, which watches the peer list every 50 ms.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time

from .. import proc
from ..qbt_watch import watch_evidence
from .peers import RpcClientPeer, control_port_for, info_hash_of, log


def qbt_conf(protocol: str, port: int, ip: str, save_dir: str, web_port: int) -> str:
    """qBittorrent.conf of a closed-test qbittorrent-nox 4.5.2 (key names of its
    src/base/bittorrent/session.cpp and preferences.cpp): `protocol` UTP or TCP only, peers
    on `ip:port`, no DHT/LSD/PEX/port forwarding, encryption off (Session\\Encryption=2:
    we do not speak MSE), no queueing or ratio limits, data in `save_dir`, WebUI on
    127.0.0.1:`web_port` without authentication for localhost."""
    return f"""[LegalNotice]
Accepted=true

[BitTorrent]
Session\\BTProtocol={protocol}
Session\\Port={port}
Session\\Interface=
Session\\InterfaceAddress={ip}
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
WebUI\\Port={web_port}
WebUI\\LocalHostAuth=false
WebUI\\UseUPnP=false
WebUI\\HostHeaderValidation=false
WebUI\\CSRFProtection=false
Connection\\ResolvePeerCountries=false
"""


def api_cmd(web_port: int, path: str, data: dict | None = None, form: dict | None = None,
            get: bool = False) -> list[str]:
    """The curl command of one WebUI call; its output ends with a line holding the HTTP
    status. `data` is url-encoded fields (a query string with `get`, else a POST body),
    `form` multipart POST fields (a value starting with @ is a file)."""
    cmd = ["curl", "-s", "--max-time", "5", "-w", "\n%{http_code}"] + (["-G"] if get else [])
    for k, v in (data or {}).items():
        cmd += ["--data-urlencode", f"{k}={v}"]
    for k, v in (form or {}).items():
        cmd += ["-F", f"{k}={v}"]
    if not (get or data or form):
        cmd += ["-d", ""]  # an empty POST (actions are POST-only)
    return cmd + [f"http://127.0.0.1:{web_port}/api/v2/{path}"]


def split_status(out: str) -> tuple[int, str]:
    """(HTTP status, body) of `api_cmd` output."""
    body, _, status = out.rpartition("\n")
    return int(status) if status.strip().isdigit() else 0, body


def file_tail(path: str, lines: int) -> str:
    """The last `lines` lines of the text file at `path` ("" when there is none), read
    as UTF-8 with undecodable bytes replaced."""
    try:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", errors="replace")
    except FileNotFoundError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


class QbtPeer(RpcClientPeer):
    """qbittorrent-nox driven over its WebUI API v2 (curl, inside the peer's namespace).

    Each case gets a fresh profile (`--profile`): no resume data from an earlier case, and
    the settings below written before start. The WebUI listens on 127.0.0.1 of the peer's
    namespace and skips authentication for localhost clients, so no login is needed.
    qBittorrent reports each peer's transport in the `connection` field of
    /api/v2/sync/torrentPeers ("μTP" for a uTP socket, "BT" for TCP), watched by
    `netbed.qbt_watch`; a uTP peer counts as evidence once its BitTorrent handshake completed (peer
    id known) or payload went through it: a dial in progress is listed too.
    """
    kind = "qbt"
    SEED_STATES = ("uploading", "stalledUP", "forcedUP", "queuedUP")
    # qBittorrent 4.5.2 reports a freshly checked torrent as seeding up to ~1 s before its
    # libtorrent accepts connections for it (it answers the uTP SYN with a FIN). Measured on
    # loopback, our downloader dialling 0 s / 0.5 s / 1 s after the first seeding report was
    # refused 5 of 6 / 3 of 4 / 0 of 4 times; so a seeder is ready after 2 s of seeding.
    SEED_SETTLE = 2.0
    DOWN_STATES = ("downloading", "stalledDL", "forcedDL")

    def __init__(self, h, side, ip, port):
        self.h, self.side, self.ip, self.port = h, side, ip, port
        self.web_port = self.control_port = control_port_for(port, h.net.ns(side), 20000)
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
        conf = qbt_conf(protocol, self.port, self.ip, save_dir, self.web_port)
        with open(os.path.join(cfg_dir, "qBittorrent.conf"), "w") as f:
            f.write(conf)
        self.proc = self.h.group.start(f"qbt-{self.side}", [
            "qbittorrent-nox", f"--profile={self.profile}"], ns=self.h.net.ns(self.side))

        def up():
            if not self.proc.alive():
                return True
            try:
                return self.api("app/version")[0] == 200
            except proc.CommandError:
                return False
        if not proc.wait_until(up, 20, 0.3) or not self.proc.alive():
            raise proc.CommandError(
                f"qbittorrent-nox WebUI did not come up: {self.proc.stderr_text()[-300:]!r}"
                f" {self.proc.stdout_text()[-300:]!r}")

    def api(self, path, data=None, form=None, get=False):
        """One WebUI call (see `api_cmd`): (HTTP status, body as text)."""
        # Decoded as UTF-8 by proc.run: the peer list holds "μTP" whatever the locale is.
        r = proc.run(api_cmd(self.web_port, path, data, form, get),
                     ns=self.h.net.ns(self.side), check=False, timeout=15)
        if r.returncode != 0:
            raise proc.CommandError(
                f"qBittorrent WebUI unreachable ({path}): curl exit {r.returncode}")
        return split_status(r.stdout)

    def _json(self, path, data=None):
        status, body = self.api(path, data, get=True)
        if status != 200:
            raise proc.CommandError(f"qBittorrent {path}: HTTP {status} {body[:200]!r}")
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
        ev = watch_evidence(self.watch.stdout_text().splitlines())
        self.connections.update(ev.connections)
        self.utp_seen = self.utp_seen or ev.utp_seen
        self.tcp_seen = self.tcp_seen or ev.tcp_seen

    def _add(self, torrent, save_dir):
        self.info_hash = info_hash_of(torrent)
        status, body = self.api("torrents/add", form={
            "torrents": f"@{torrent}", "savepath": save_dir, "paused": "false",
            "skip_checking": "false", "autoTMM": "false"})
        if status != 200 or body.strip() != "Ok.":
            raise proc.CommandError(f"qBittorrent torrents/add: HTTP {status} {body[:200]!r}")
        url = (f"http://127.0.0.1:{self.web_port}/api/v2/sync/torrentPeers"
               f"?hash={self.info_hash}&rid=0")
        self.watch = self.h.group.start(f"qbt-{self.side}-watch", [
            sys.executable, "-m", "netbed.qbt_watch", url], ns=self.h.net.ns(self.side),
            env=dict(os.environ, PYTHONUNBUFFERED="1"))

    def _wait_state(self, states, what):
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            t = self._poll_torrent()
            if t is not None and t.get("state") in states:
                return t
            if t is not None and t.get("state") in ("error", "missingFiles"):
                raise proc.CommandError(f"qBittorrent torrent state {t.get('state')}")
            time.sleep(0.2)
        raise proc.CommandError(f"qBittorrent did not reach {what} in 30 s (state {self.last_state})")

    def _add_peer(self):
        status, body = self.api("torrents/addPeers", {"hashes": self.info_hash,
                                                      "peers": self.peer})
        if status != 200:
            raise proc.CommandError(f"qBittorrent torrents/addPeers: HTTP {status} {body[:200]!r}")
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
        except (proc.CommandError, ValueError) as e:
            if not self.proc.alive():
                raise proc.CommandError(f"qbittorrent-nox exited ({self.proc.returncode}): {e}")
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


    def log_path(self):
        """qBittorrent's own log file in this case's profile (its file logger is on by
        default; 4.5.2 writes it under the profile's data directory)."""
        return os.path.join(self.profile, "qBittorrent", "data", "logs", "qbittorrent.log")

    def log_tail(self, lines=30):
        """The last `lines` lines of qBittorrent's log ("" when it wrote none): kept in a
        failed case's result, since the next case's fresh profile deletes the file."""
        return file_tail(self.log_path(), lines)

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
            except (proc.CommandError, ValueError):
                pass
            if self.watch:
                self.watch.stop(grace=5.0)
            if self.proc.wait(8) is None:
                log("qbittorrent-nox did not exit on app/shutdown; stopping it")
            self.proc.stop(grace=5.0)
