#!/usr/bin/env python3
"""What our kernel congestion controls cost against cubic (docs/tcp/measured.md): `netbed.tcpcost`."""

import sys

from netbed.tcpcost import main

if __name__ == "__main__":
    sys.exit(main())
