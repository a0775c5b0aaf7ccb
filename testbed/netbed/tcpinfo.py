"""A kernel TCP connection's state as `ss -tinH` prints it (iproute2's `tcp_info` dump), for
the bed's traces of senders it does not control: the congestion control's name, `cwnd` and
`ssthresh` (packets), the smoothed RTT, the pacing and delivery rates, the peer's window as
the sender sees it (`snd_wnd`, bytes) and, for bbr, its bandwidth estimate and pacing gain.

`ss` prints one connection as an address line (`Recv-Q Send-Q Local:Port Peer:Port`, no
state column with `state established`) and an indented line of `key:value` and `key value`
fields; rates come as `<n>bps`, or scaled (`Kbps`, `Mbps`, `Gbps`) by older iproute2.
"""

from __future__ import annotations

import re

# The fields a trace keeps, in the order of `row`.
FIELDS = ("cc", "cwnd", "ssthresh", "srtt_ms", "pacing_bps", "delivery_bps", "snd_wnd",
          "bbr_bw_bps", "pacing_gain")

_SCALE = {"": 1, "K": 1e3, "M": 1e6, "G": 1e9}
_RATE = r"(\d+(?:\.\d+)?)([KMG]?)bps"


def _rate(m: re.Match | None) -> int | None:
    return None if m is None else round(float(m.group(1)) * _SCALE[m.group(2)])


def _int(text: str, key: str) -> int | None:
    m = re.search(rf"(?<![\w_]){key}:(\d+)", text)
    return None if m is None else int(m.group(1))


def parse_info(line: str) -> dict:
    """The fields of FIELDS in one connection's indented info line (None where absent)."""
    # The flags (`ts`, `sack`, `ecn`, ...) and then the congestion control's name come
    # before the first `key:value` field.
    cc = None
    for w in line.split():
        if ":" in w:
            break
        cc = w
    rtt = re.search(r"(?<![\w_])rtt:(\d+(?:\.\d+)?)/", line)
    bbr = re.search(r"bbr:\(([^)]*)\)", line)
    bw = gain = None
    if bbr:
        bw = _rate(re.search(rf"bw:{_RATE}", bbr.group(1)))
        g = re.search(r"pacing_gain:(\d+(?:\.\d+)?)", bbr.group(1))
        gain = float(g.group(1)) if g else None
    return {
        "cc": cc,
        "cwnd": _int(line, "cwnd"),
        "ssthresh": _int(line, "ssthresh"),
        "srtt_ms": float(rtt.group(1)) if rtt else None,
        "pacing_bps": _rate(re.search(rf"pacing_rate {_RATE}", line)),
        "delivery_bps": _rate(re.search(rf"delivery_rate {_RATE}", line)),
        "snd_wnd": _int(line, "snd_wnd"),
        "bbr_bw_bps": bw,
        "pacing_gain": gain,
    }


def connections(ss_text: str):
    """Each connection of `ss -tinH` output: (its address line's words, its indented info
    lines joined; "" when it has none)."""
    head, info = None, []
    for line in ss_text.splitlines():
        if line and not line[0].isspace():
            if head is not None:
                yield head, " ".join(info)
            head, info = line.split(), []
        elif head is not None and line.strip():
            info.append(line.strip())
    if head is not None:
        yield head, " ".join(info)


def by_peer_port(ss_text: str) -> dict[int, dict]:
    """Peer port -> the fields of its connection, from `ss -tinH state established` in the
    sending namespace (the receivers listen on known ports). A connection whose address
    line cannot be read, or that has no info line, is left out."""
    out: dict[int, dict] = {}
    for words, info in connections(ss_text):
        try:
            port = int(words[3].rsplit(":", 1)[1])
        except (IndexError, ValueError):
            continue
        if info:
            out[port] = parse_info(info)
    return out


def row(t: float, port: int, info: dict) -> list:
    """One trace row: [t, port, then FIELDS in order]."""
    return [t, port] + [info.get(k) for k in FIELDS]
