#!/usr/bin/env python3
"""A Transmission (Debian transmission-daemon 3.00) seeder for the test bed.

    python3 -m netbed.tr_seed TORRENT --data-dir DIR --listen IP:PORT --config DIR [--rpc-port N]

Writes settings.json into --config with the closed-test settings of
docs/real-peers.md (DHT, LPD, PEX and port forwarding off, uTP on, bound to
the namespace address, plaintext preferred, no speed or ratio limits, RPC on 127.0.0.1
only), starts `transmission-daemon -f -g CONFIG` as its child (same process group: the
bed's stop reaches both), adds the torrent over RPC with DIR as its download directory and
asks for a verify, then prints the torrent's state once a second as JSON until SIGTERM.
Transmission 3.00 cannot turn TCP off; the leecher (libtorrent, uTP only) dials it over
uTP. It unchokes only on its 10 s rechoke tick, so data starts up to 10 s after connect.
Exit 0 when stopped by a signal, 1 when the daemon dies or its RPC never answers.
"""

import argparse
import base64
import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request


class Rpc:
    def __init__(self, port: int):
        self.url = f"http://127.0.0.1:{port}/transmission/rpc"
        self.sid = ""

    def call(self, method: str, args: dict) -> dict:
        body = json.dumps({"method": method, "arguments": args}).encode()
        for _ in range(3):
            req = urllib.request.Request(self.url, data=body,
                                         headers={"X-Transmission-Session-Id": self.sid})
            try:
                with urllib.request.urlopen(req, timeout=5) as r:
                    o = json.loads(r.read())
            except urllib.error.HTTPError as e:
                if e.code == 409:
                    self.sid = e.headers.get("X-Transmission-Session-Id", "")
                    continue
                raise
            if o.get("result") != "success":
                raise RuntimeError(f"transmission {method}: {o.get('result')}")
            return o["arguments"]
        raise RuntimeError("transmission RPC: no session id")


def transmission_settings(ip: str, port: int, rpc_port: int, download_dir: str,
                          message_level: int = 1) -> dict:
    """settings.json of a closed-test transmission-daemon 3.00 (docs/real-peers.md): peers on
    `ip:port` (uTP on; 3.00 cannot turn TCP off), no DHT/LPD/PEX/port forwarding, plaintext
    preferred (our peer does not speak MSE), RPC without authentication on 127.0.0.1:
    `rpc_port`, no speed, ratio or idle limits, data in `download_dir`."""
    return {
        "bind-address-ipv4": ip, "bind-address-ipv6": "::1",
        "peer-port": port, "peer-port-random-on-start": False,
        "dht-enabled": False, "lpd-enabled": False, "pex-enabled": False,
        "port-forwarding-enabled": False, "utp-enabled": True,
        "encryption": 0,  # prefer plaintext
        "rpc-enabled": True, "rpc-bind-address": "127.0.0.1", "rpc-port": rpc_port,
        "rpc-authentication-required": False, "rpc-whitelist-enabled": False,
        "rpc-host-whitelist-enabled": False,
        "download-dir": download_dir, "incomplete-dir-enabled": False,
        "rename-partial-files": True, "start-added-torrents": True,
        "ratio-limit-enabled": False, "idle-seeding-limit-enabled": False,
        "speed-limit-up-enabled": False, "speed-limit-down-enabled": False,
        "alt-speed-enabled": False, "blocklist-enabled": False,
        "message-level": message_level, "cache-size-mb": 4,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("torrent")
    ap.add_argument("--data-dir", required=True)
    ap.add_argument("--listen", required=True, help="IP:PORT for peers (uTP and TCP)")
    ap.add_argument("--config", required=True, help="a fresh configuration directory")
    ap.add_argument("--rpc-port", type=int, default=0, help="default: peer port + 1000")
    ap.add_argument("--max-seconds", type=float, default=3600.0)
    a = ap.parse_args()
    ip, port = a.listen.rsplit(":", 1)
    rpc_port = a.rpc_port or int(port) + 1000
    os.makedirs(a.config, exist_ok=True)
    settings = transmission_settings(ip, int(port), rpc_port, a.data_dir, message_level=1)
    with open(os.path.join(a.config, "settings.json"), "w") as f:
        json.dump(settings, f, indent=1)

    stop = {"flag": False}
    signal.signal(signal.SIGTERM, lambda *_: stop.__setitem__("flag", True))
    signal.signal(signal.SIGINT, lambda *_: stop.__setitem__("flag", True))
    daemon = subprocess.Popen(["transmission-daemon", "-f", "-g", a.config],
                              stdin=subprocess.DEVNULL)
    rpc = Rpc(rpc_port)
    t0 = time.monotonic()
    try:
        while True:
            try:
                rpc.call("session-get", {})
                break
            except (OSError, RuntimeError):
                if daemon.poll() is not None or time.monotonic() - t0 > 20:
                    print("transmission-daemon RPC did not come up", file=sys.stderr)
                    return 1
                time.sleep(0.2)
        with open(a.torrent, "rb") as f:
            meta = base64.b64encode(f.read()).decode()
        rpc.call("torrent-add", {"metainfo": meta, "download-dir": a.data_dir, "paused": False})
        rpc.call("torrent-verify", {})
        last = 0.0
        while not stop["flag"] and time.monotonic() - t0 < a.max_seconds:
            if daemon.poll() is not None:
                print(f"transmission-daemon exited with {daemon.returncode}", file=sys.stderr)
                return 1
            if time.monotonic() - last >= 1.0:
                last = time.monotonic()
                try:
                    t = rpc.call("torrent-get", {"fields": [
                        "percentDone", "status", "uploadedEver", "peersConnected",
                        "errorString"]})["torrents"]
                    print(json.dumps({"t": round(last - t0, 2), **(t[0] if t else {})}),
                          flush=True)
                except (OSError, RuntimeError, ValueError) as e:
                    print(f"rpc: {e}", file=sys.stderr, flush=True)
            time.sleep(0.2)
        return 0
    finally:
        if daemon.poll() is None:
            daemon.terminate()
            try:
                daemon.wait(5)
            except subprocess.TimeoutExpired:
                daemon.kill()
                daemon.wait(5)


if __name__ == "__main__":
    sys.exit(main())
