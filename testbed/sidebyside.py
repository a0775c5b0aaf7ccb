#!/usr/bin/env python3
"""Side by side on the bed (testbed/README.md): `netbed.sidebyside` of the netbed package."""

import sys

from netbed.sidebyside import main

if __name__ == "__main__":
    sys.exit(main())
