#!/usr/bin/env python3
"""Kernel TCP with our congestion controls on the bed (docs/tcp/measured.md): `netbed.tcpbed`."""

import sys

from netbed.tcpbed import main

if __name__ == "__main__":
    sys.exit(main())
