"""BitTorrent seeders and leechers as flow kinds: real uTP peers on the bed.

Every kind here moves one torrent (a single file, v1 only) from a seeder in the sender
namespace to a leecher in the receiver namespace, over uTP only. The flow's port is the
leecher's listen port (where the data goes, so where the bed counts it) and also the
seeder's listen port in its own namespace. The leecher is the bed's receiver (started
first, waited for until its UDP port is bound) and dials the seeder until it answers; the
seeder is the bed's sender (started on schedule, stopped by SIGTERM).

| kind          | seeder (sender namespace)                                  | leecher          |
|---------------|------------------------------------------------------------|------------------|
| `bt-lt`       | libtorrent 2.1.1 (`netbed.lt_bed seed`)                     | libtorrent       |
| `bt-tr`       | Transmission 3.00 (`netbed.tr_seed`, transmission-daemon)    | libtorrent       |
| `bt-ours`     | `ledbat torrent seed --cc {cc}`                            | libtorrent       |
| `bt-ours-ours`| `ledbat torrent seed --cc {cc}`                            | `ledbat torrent get` |
| `bt-lt-ours`  | libtorrent 2.1.1                                           | `ledbat torrent get` |
| `bt-lt-ours-rledbat` | libtorrent 2.1.1                                    | `ledbat torrent get --rledbat` |

The same leecher (libtorrent) for the three seeders keeps the receiving side constant; two
of our flows side by side use our own `get`. The last two put our `get` behind the
bottleneck as a downloader fed by libtorrent, with and without receiver-driven LEDBAT
(`target_ms` is its `--rledbat-target-ms`). The torrent sits next to the bed's send file:
`<send_file>.torrent`, made by `make_torrent`.

Payload rate: IPv4 20 + UDP 8 + uTP header 20 = 48 bytes a data packet (data packets carry
no extension; selective ACKs ride on the other direction).
"""

from __future__ import annotations

import os
import sys

from . import paths
from .flows import Context, Flow, FlowKind
from .install import LT_VERSION

UTP_OVERHEAD = 20 + 8 + 20
PIECE_BYTES = 256 * 1024
# How long a leecher keeps going at most; the bed stops it at the end of the scenario.
LEECH_MAX_S = 900


def torrent_path(ctx: Context) -> str:
    """The torrent of the bed's send file."""
    return ctx.send_file + ".torrent"


def _leech_dir(flow: Flow, ctx: Context) -> str:
    # Created by the leecher (libtorrent and `ledbat torrent get` both make it).
    return os.path.join(ctx.workdir, f"leech-{flow.name}")


def _seed_addr(flow: Flow, ctx: Context) -> str:
    return f"{ctx.snd_ip}:{flow.port}"


def _lt_leech(flow: Flow, ctx: Context) -> list[str]:
    return [sys.executable, "-m", "netbed.lt_bed", "leech", torrent_path(ctx),
            "--save", _leech_dir(flow, ctx), "--listen", f"{ctx.rcv_ip}:{flow.port}",
            "--peer", _seed_addr(flow, ctx), "--max-seconds", str(LEECH_MAX_S)]


def _lt_seed(flow: Flow, ctx: Context) -> list[str]:
    return [sys.executable, "-m", "netbed.lt_bed", "seed", torrent_path(ctx),
            "--save", os.path.dirname(ctx.send_file), "--listen", _seed_addr(flow, ctx),
            "--max-seconds", str(LEECH_MAX_S)]


def _tr_seed(flow: Flow, ctx: Context) -> list[str]:
    return [sys.executable, "-m", "netbed.tr_seed", torrent_path(ctx),
            "--data-dir", os.path.dirname(ctx.send_file), "--listen", _seed_addr(flow, ctx),
            "--config", os.path.join(ctx.workdir, f"tr-config-{flow.name}"),
            "--max-seconds", str(LEECH_MAX_S)]


def _cc_args(flow: Flow) -> list[str]:
    argv = ["--cc", flow.cc] if flow.cc else []
    for k, v in sorted(flow.params.items()):
        if k == "target_ms":
            argv += ["--target-ms", str(v)]
        elif k == "packet_size":
            argv += ["--packet-size", str(v)]
        elif k.startswith("cc_param."):
            argv += ["--cc-param", f"{k.removeprefix('cc_param.')}={v}"]
        else:
            raise ValueError(f"flow {flow.name}: unknown parameter `{k}`")
    return argv


def _ours_seed(flow: Flow, ctx: Context) -> list[str]:
    return [ctx.ledbat_bin, "torrent", "seed", torrent_path(ctx), "--data", ctx.send_file,
            "--listen", _seed_addr(flow, ctx), "--max-seconds", str(LEECH_MAX_S), "--json",
            "--quiet", *_cc_args(flow), *_trace_args(flow, ctx, "sender")]


def _trace_args(flow: Flow, ctx: Context, side: str) -> list[str]:
    """Our seeder's or leecher's per-connection trace (cwnd, delays every 100 ms) in the log
    directory, `{flow}-{side}-trace.jsonl`. The leecher's shows its own uTP sender, the one
    that carries its requests and HAVEs."""
    if not ctx.logdir:
        return []
    return ["--trace", os.path.join(ctx.logdir, f"{flow.name}-{side}-trace.jsonl")]


def _ours_get(flow: Flow, ctx: Context) -> list[str]:
    return [ctx.ledbat_bin, "torrent", "get", torrent_path(ctx), "--peer", _seed_addr(flow, ctx),
            "--out", _leech_dir(flow, ctx), "--bind", f"{ctx.rcv_ip}:{flow.port}",
            "--connect-timeout", "60", "--timeout", str(LEECH_MAX_S), "--json", "--quiet",
            *_trace_args(flow, ctx, "receiver")]


def _ours_get_rledbat(flow: Flow, ctx: Context) -> list[str]:
    argv = _ours_get(flow, ctx) + ["--rledbat"]
    for k, v in sorted(flow.params.items()):
        if k == "target_ms":
            argv += ["--rledbat-target-ms", str(v)]
        else:
            raise ValueError(f"flow {flow.name}: unknown parameter `{k}`")
    return argv


KINDS: dict[str, FlowKind] = {
    "bt-lt": FlowKind("bt-lt", _lt_leech, _lt_seed, [], False,
                      f"libtorrent {LT_VERSION} seeder -> libtorrent leecher", UTP_OVERHEAD),
    "bt-tr": FlowKind("bt-tr", _lt_leech, _tr_seed, ["transmission-daemon"], False,
                      "Transmission 3.00 seeder -> libtorrent leecher", UTP_OVERHEAD),
    "bt-ours": FlowKind("bt-ours", _lt_leech, _ours_seed, [], False,
                        "ledbat torrent seed -> libtorrent leecher", UTP_OVERHEAD),
    "bt-ours-ours": FlowKind("bt-ours-ours", _ours_get, _ours_seed, [], False,
                             "ledbat torrent seed -> ledbat torrent get", UTP_OVERHEAD),
    "bt-lt-ours": FlowKind("bt-lt-ours", _ours_get, _lt_seed, [], False,
                           f"libtorrent {LT_VERSION} seeder -> ledbat torrent get",
                           UTP_OVERHEAD),
    "bt-lt-ours-rledbat": FlowKind("bt-lt-ours-rledbat", _ours_get_rledbat, _lt_seed, [], False,
                                   f"libtorrent {LT_VERSION} seeder -> ledbat torrent get "
                                   "--rledbat", UTP_OVERHEAD),
}


def make_torrent(data_path: str, out_path: str) -> str:
    """Writes a v1-only single-file torrent of `data_path` (256 KiB pieces, no tracker) with
    libtorrent; returns its info-hash. v1 only: no BEP 47 pad files (docs/real-peers.md)."""
    import libtorrent as lt
    fs = lt.file_storage()
    lt.add_files(fs, data_path)
    ct = lt.create_torrent(fs, PIECE_BYTES, flags=lt.create_torrent.v1_only)
    lt.set_piece_hashes(ct, os.path.dirname(data_path))
    paths.write_atomic(out_path, lt.bencode(ct.generate()))
    return str(lt.torrent_info(out_path).info_hash())
