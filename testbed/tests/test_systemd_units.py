"""The units of contrib/systemd/ under a real systemd: the copies the container gets (no
root), and the end-to-end check with its null run (root, systemd-nspawn, a ledbat built with
the `tcp` feature; skipped otherwise; CI runs `python3 -m netbed.systemdunits`, which fails
where this skips): python3 -m pytest testbed/tests/test_systemd_units.py."""

import os
import tempfile
import unittest

from netbed import paths, systemdunits as su


class UnitFilesTest(unittest.TestCase):
    def test_the_contrib_units_are_copied_with_only_the_binary_path_replaced(self):
        files = su.unit_files()
        for name, dest in (("ledbat-tcp.service", "ledbat-tcp.service"),
                           ("ledbat-yield.conf", "restic.service.d/ledbat-yield.conf")):
            with open(os.path.join(su.CONTRIB, name)) as fh:
                text = fh.read()
            self.assertEqual(files[dest], text.replace(su.INSTALLED_BIN, su.CONTAINER_BIN))
            self.assertNotIn(su.INSTALLED_BIN, files[dest])
        for unit in ("sink.service", "restic.service", "other.service"):
            self.assertIn(f"ExecStart=/usr/bin/python3 {su.STANDIN_DIR}/", files[unit])

    def test_the_drop_in_alone_and_the_null_run_leave_out_their_files(self):
        self.assertNotIn("ledbat-tcp.service", su.unit_files(with_loader=False))
        self.assertIn("restic.service.d/ledbat-yield.conf", su.unit_files(with_loader=False))
        null = su.unit_files(with_dropin=False)
        self.assertNotIn("restic.service.d/ledbat-yield.conf", null)
        self.assertIn("restic.service", null)

    def test_enabling_links_the_unit_into_each_wanting_target(self):
        text = "[Unit]\nWantedBy=nothing.target\n[Install]\nWantedBy=a.target b.target\n"
        self.assertEqual(su.enable_links("x.service", text), {
            "a.target.wants/x.service": "/etc/systemd/system/x.service",
            "b.target.wants/x.service": "/etc/systemd/system/x.service",
        })
        with open(os.path.join(su.CONTRIB, "ledbat-tcp.service")) as fh:
            self.assertEqual(list(su.enable_links("ledbat-tcp.service", fh.read())),
                             ["multi-user.target.wants/ledbat-tcp.service"])

    def test_the_boot_order_is_read_from_the_monotonic_times(self):
        def at(mine, pre, state="active"):
            return {"ledbat-tcp.service": {"ActiveState": state,
                                           "ActiveEnterTimestampMonotonic": str(mine)},
                    "network-pre.target": {"ActiveState": "active",
                                           "ActiveEnterTimestampMonotonic": str(pre)}}
        self.assertTrue(su._boot_ok(at(100, 250), True))
        self.assertTrue(su._boot_ok(at(250, 250), True))
        self.assertFalse(su._boot_ok(at(300, 250), True))
        self.assertFalse(su._boot_ok(at(0, 250), True))
        self.assertFalse(su._boot_ok(at(100, 250, "failed"), True))
        self.assertTrue(su._boot_ok(at(0, 250, "inactive"), False))
        self.assertFalse(su._boot_ok(at(100, 250), False))

    def test_a_unit_that_no_longer_names_the_installed_path_is_refused(self):
        with tempfile.TemporaryDirectory() as d:
            for name in ("ledbat-tcp.service", "ledbat-yield.conf"):
                with open(os.path.join(d, name), "w") as fh:
                    fh.write("[Service]\nExecStart=/usr/bin/ledbat tcp load scavenger\n")
            with self.assertRaisesRegex(ValueError, "does not name /usr/local/bin/ledbat"):
                su.unit_files(d)

    def test_the_container_gets_the_units_the_binary_and_a_bpffs_directory(self):
        argv = su.nspawn_argv("/u", "/s", "/b/ledbat", "m")
        self.assertEqual(argv[0], "systemd-nspawn")
        for a in ("--volatile=yes", "--boot", "--private-network", "--tmpfs=/sys/fs/bpf",
                  "--bind-ro=/u:/etc/systemd/system", f"--bind-ro=/s:{su.STANDIN_DIR}",
                  f"--bind-ro=/b/ledbat:{su.CONTAINER_BIN}"):
            self.assertIn(a, argv)


_BIN = paths.default_ledbat_bin()


@unittest.skipIf(su.usable(_BIN) is not None, su.usable(_BIN) or "")
class UnitsUnderSystemdTest(unittest.TestCase):
    def test_the_loader_and_the_drop_in_make_restic_yield_and_leave_nothing(self):
        r = su.check_units(_BIN, with_loader=True)
        self.assertTrue(r["ok"], r)
        self.assertFalse(r["registered_after"], r)

    def test_the_same_on_the_unified_hierarchy(self):
        r = su.check_units(_BIN, with_loader=True, unified=True)
        self.assertTrue(r["ok"], r)
        self.assertEqual(r["v2_at"], "/sys/fs/cgroup", r)

    def test_the_drop_in_alone_registers_the_controller_itself(self):
        r = su.check_units(_BIN, with_loader=False)
        self.assertTrue(r["ok"], r)
        self.assertTrue(r["registered_after"], r)
        self.assertFalse(r["left_registered"], r)

    def test_without_the_drop_in_the_check_fails(self):
        r = su.check_units(_BIN, with_dropin=False)
        self.assertFalse(r["ok"], r)
        self.assertNotIn(r["steps"][0]["restic"], (None, su.CC), r)


if __name__ == "__main__":
    unittest.main()
