#!/usr/bin/env python3
"""Kernel bbr on the bed against the simulator's `bbr`: `netbed.bbrbed`."""

import sys

from netbed.bbrbed import main

if __name__ == "__main__":
    sys.exit(main())
