"""One interop case: a seeder and a downloader, a capture, and the verdict.

A case SEEDER-to-DOWNLOADER runs on one network: `Loopback` (127.0.0.1, fast, for
correctness) or `Netns` (the bed's topology, `netbed.topo`: seeder and downloader
namespaces joined by a forwarding router whose egress toward the downloader is a `tbf`
bottleneck, for behaviour). The verdict (`run_case`): the file arrived intact, the capture
shows uTP and no TCP (`capture.capture_ok`), each real peer agrees (`transport_ok`), no
partial file is left, and on `netns` the payload crossed the bottleneck.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import time

from .. import proc
from ..bittorrent import PIECE_BYTES
from ..topo import Bottleneck, Topology
from .capture import Capture, capture_ok
from .peers import LtPeer, OursPeer, TrPeer, info_hash_of
from .qbt import QbtPeer

SEED_PORT, GET_PORT = 46881, 46882
PEERS = {"ours": OursPeer, "lt": LtPeer, "tr": TrPeer, "qbt": QbtPeer}


class Loopback:
    """Both peers on 127.0.0.1 of the harness's own namespace."""

    name = "loopback"
    seed_ip = get_ip = "127.0.0.1"
    capture_iface = ("lo", None)

    def ns(self, side):
        return None

    def setup(self):
        pass

    def queue_stats(self):
        return None

    def cleanup(self):
        pass


class Netns:
    """The seeder in the bed's sender namespace, the downloader in its receiver namespace,
    a `tbf` FIFO of `limit_frames` full frames at `rate_mbit` between them."""

    name = "netns"
    TAG = "interop"

    def __init__(self, rate_mbit, limit_frames, logdir="/tmp"):
        # IPv6 stays on: transmission-daemon binds ::1 as well.
        self.topo = Topology(self.TAG, Bottleneck(rate_bps=int(rate_mbit * 1e6),
                                                  fifo_frames=limit_frames),
                             snd_ip="10.78.1.1", rtr_snd_ip="10.78.1.254",
                             rtr_rcv_ip="10.78.2.254", rcv_ip="10.78.2.1",
                             logdir=logdir, disable_ipv6=False)
        self.seed_ip, self.get_ip = self.topo.snd_ip, self.topo.rcv_ip
        self.capture_iface = (Topology.RCV_IF, self.topo.rcv)

    def ns(self, side):
        return {"s": self.topo.snd, "c": self.topo.rcv}[side]

    def setup(self):
        self.cleanup()
        self.topo.setup()

    def queue_stats(self):
        """Cumulative bytes sent and drops of the router's tbf toward the downloader."""
        return self.topo.queue_stats()

    def cleanup(self):
        for problem in self.topo.teardown():
            print(f"[interop] {problem}", flush=True)


def bottleneck_delta(before: dict, after: dict) -> dict:
    """Bytes through the tbf and drops between two `queue_stats` (missing counters as 0)."""
    def d(key):
        return (after.get(key) or 0) - (before.get(key) or 0)
    return {"bytes_through_tbf": d("sent_bytes"), "drops": d("drops")}


def add_log_tails(res: dict, seeder, getter) -> None:
    """Into a failed case's result, the tail of each peer's own log that keeps one
    (`log_tail`), as `<kind>_seeder_log_tail` / `<kind>_getter_log_tail`: it says what the
    peer did, and the next case's setup deletes it."""
    for p, role in ((seeder, "seeder"), (getter, "getter")):
        tail = p.log_tail() if hasattr(p, "log_tail") else ""
        if tail:
            res[f"{p.kind}_{role}_log_tail"] = tail


def sha1_of(path):
    h = hashlib.sha1()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def make_payload(path, size, seed):
    """`size` deterministic, incompressible-looking bytes (SHAKE-256 blocks keyed by `seed`)."""
    with open(path, "wb") as f:
        block = hashlib.sha256(str(seed).encode()).digest()
        n = 0
        while n < size:
            chunk = hashlib.shake_256(block + n.to_bytes(8, "big")).digest(min(1 << 20, size - n))
            f.write(chunk)
            n += len(chunk)


class Harness:
    """What the peers of a case share (see `peers.py`) and the case itself (`run_case`)."""

    def __init__(self, a):
        self.a = a
        self.ledbat = a.ledbat_bin
        self.our_transport = a.our_transport
        self.our_extra = shlex.split(a.our_extra)
        self.case_timeout = a.case_timeout
        self.workdir = None
        self.group = None
        self.net = None
        self.case = None
        self.case_has_ours = False

    def make_torrent(self, data_path, torrent_path, use_ours):
        import libtorrent as lt
        if use_ours:
            proc.run([self.ledbat, "torrent", "create", data_path, "-o", torrent_path,
                      "--piece-kib", "256"], timeout=60)
        else:
            fs = lt.file_storage()
            lt.add_files(fs, data_path)
            ct = lt.create_torrent(fs, PIECE_BYTES, flags=lt.create_torrent.v1_only)
            lt.set_piece_hashes(ct, os.path.dirname(data_path))
            with open(torrent_path, "wb") as f:
                f.write(lt.bencode(ct.generate()))
        return info_hash_of(torrent_path)

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
        q0 = net.queue_stats()
        control = {p.control_port for p in (seeder, getter) if getattr(p, "control_port", None)}
        cap = Capture(self, [SEED_PORT, GET_PORT], control)
        try:
            # Transmission never dials: when it downloads, the seeder connects to it.
            getter_dials = getter_kind != "tr"
            if not getter_dials:
                getter.get(torrent, out_dir, None)
                if not proc.wait_until(getter.get_ready, 30):
                    raise proc.CommandError(f"{getter_kind} getter not downloading in 30 s")
            seeder.seed(torrent, data, None if getter_dials else get_addr)
            if not proc.wait_until(seeder.seed_ready, 30):
                raise proc.CommandError(f"{seeder_kind} seeder not ready in 30 s")
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
        except proc.CommandError as e:
            res["error"] = str(e)
        finally:
            getter.stop()
            seeder.stop()
            cap.stop()
        crossed = True
        if q0 is not None:
            res["bottleneck"] = bottleneck_delta(q0, net.queue_stats())
            # The payload really crossed the bottleneck (headers make it a little more).
            crossed = res["bottleneck"]["bytes_through_tbf"] >= size
        out_file = os.path.join(out_dir, os.path.basename(data))
        res["intact"] = os.path.exists(out_file) and sha1_of(out_file) == sha1_of(data)
        res["no_part_file_left"] = not os.path.exists(out_file + ".part")
        res["capture"] = cap.analyse(info_hash)
        res["capture_ok"] = capture_ok(res["capture"], size, want_utp)
        peers_ok = True
        for p in (seeder, getter):
            res[f"{p.kind}_{'seeder' if p is seeder else 'getter'}_evidence"] = p.evidence()
            if hasattr(p, "transport_ok"):
                peers_ok = peers_ok and p.transport_ok(want_utp)
        res["peer_transport_ok"] = peers_ok
        if getter_kind == "ours" and getter.proc is not None:
            res["ours_get_exit"] = getter.proc.returncode
            if getter.proc.returncode != 0:
                res["ours_get_stderr"] = getter.proc.stderr_text()[-800:]
        if seeder_kind == "ours" and seeder.proc is not None:
            res["ours_seed_stderr_tail"] = seeder.proc.stderr_text()[-400:]
        res["crossed_bottleneck"] = crossed
        res["ok"] = bool(res.get("completed") and res["intact"] and res["capture_ok"] and peers_ok
                         and res["no_part_file_left"] and crossed)
        if not res["ok"]:
            add_log_tails(res, seeder, getter)
        if res["ok"] and res.get("seconds"):
            res["mbit_per_s"] = round(size * 8 / res["seconds"] / 1e6, 2)
        res["wall_seconds"] = round(time.monotonic() - t0, 1)
        return res
