#!/usr/bin/env python3
"""Kernel traces forcing each path of the BPF glue, checked against the core
(docs/tcp/README.md): `netbed.tcpglue`."""

import sys

from netbed.tcpglue import main

if __name__ == "__main__":
    sys.exit(main())
