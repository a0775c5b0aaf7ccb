"""The delay line stamps each frame when it reads it."""

import unittest

from netbed import delayline


class FakeSock:
    """Frames waiting on a socket: (bytes, addr) pairs, then BlockingIOError."""

    def __init__(self, frames):
        self.frames = list(frames)

    def recvfrom(self, _n):
        if not self.frames:
            raise BlockingIOError
        return self.frames.pop(0)


class FakeClock:
    """Advances 0.4 ms at every reading, like a long batch on a loaded core."""

    def __init__(self):
        self.t = 10.0

    def __call__(self):
        self.t += 0.0004
        return self.t


IN = ("veth", 0x0800, 0, 1, b"")
OUT = ("veth", 0x0800, delayline.PACKET_OUTGOING, 1, b"")


class ReadReadyTest(unittest.TestCase):
    def test_each_frame_is_due_its_delay_after_it_was_read(self):
        sock = FakeSock([(b"a", IN), (b"b", IN), (b"c", IN)])
        heap = []
        seq = delayline.read_ready(sock, "out", heap, 7, 0.020, FakeClock())
        self.assertEqual(seq, 10)
        dues = sorted((round(d, 4), f) for d, _, _, f in heap)
        # Read at 10.0004, 10.0008, 10.0012: due 20 ms later each, not all at the first.
        self.assertEqual(dues, [(10.0204, b"a"), (10.0208, b"b"), (10.0212, b"c")])

    def test_own_transmissions_are_skipped(self):
        sock = FakeSock([(b"x", OUT), (b"y", IN)])
        heap = []
        self.assertEqual(delayline.read_ready(sock, "out", heap, 0, 0.02, FakeClock()), 1)
        self.assertEqual([f for _, _, _, f in heap], [b"y"])

    def test_while_reordering_every_nth_data_frame_is_held_longer(self):
        big, ack = b"d" * 1400, b"a" * 60
        extra = delayline.reorder_extra(2, 0.012)
        sock = FakeSock([(big, IN), (ack, IN), (big, IN), (big, IN), (big, IN)])
        heap = []
        delayline._reorder = True
        try:
            delayline.read_ready(sock, "out", heap, 0, 0.020, FakeClock(), extra=extra)
        finally:
            delayline._reorder = False
        holds = [round(d - 10.0 - 0.0004 * (s + 1), 4) for d, s, _, _ in
                 sorted(heap, key=lambda h: h[1])]
        # the 2nd and 4th data frames (frames 2 and 4 of 0..4; the ACK is not counted)
        self.assertEqual(holds, [0.020, 0.020, 0.032, 0.020, 0.032])
        # switched off: no extra hold
        self.assertEqual(extra(big), 0.0)


if __name__ == "__main__":
    unittest.main()
