"""Unit tests of the installers' command construction and of what counts as missing."""

import pytest

from netbed import install, proc


def test_apt_packages_for_dedups_and_sorts_and_reports_unknown():
    pkgs, unknown = install.apt_packages_for(["tc", "ip", "tshark", "ss", "frobnicate"])
    assert pkgs == ["iproute2", "tshark"]
    assert unknown == ["frobnicate"]


def test_apt_packages_for_transmission_needs_daemon_and_cli():
    pkgs, _ = install.apt_packages_for(["transmission-daemon", "transmission-create"])
    assert pkgs == ["transmission-cli", "transmission-daemon"]


def test_apt_commands_update_then_install_waiting_for_the_lock():
    cmds = install.apt_commands(["tshark", "curl", "tshark"])
    assert cmds == [
        (["apt-get", "update", "-qq"], 300),
        (["apt-get", "-o", "DPkg::Lock::Timeout=300", "install", "-y", "-qq",
          "--no-install-recommends", "curl", "tshark"], 900),
    ]


def test_pip_command_pins_and_breaks_system_packages_only_when_asked():
    assert install.pip_command("/usr/bin/python3", "libtorrent==2.1.1") == [
        "/usr/bin/python3", "-m", "pip", "install", "-q", "libtorrent==2.1.1"]
    assert install.pip_command("py", "x==1", break_system=True)[-1] == "--break-system-packages"


def test_needs_missing_keeps_only_what_is_absent():
    n = install.Needs(["ip", "tshark", "curl"], libtorrent=True)
    m = n.missing(which=lambda c: None if c in ("tshark", "curl") else f"/usr/bin/{c}",
                  has_module=lambda name: False)
    assert m.commands == ["curl", "tshark"] and m.libtorrent
    m = n.missing(which=lambda c: "/bin/x", has_module=lambda name: name == "libtorrent")
    assert m.commands == [] and not m.libtorrent


def test_ensure_without_install_names_what_is_missing(monkeypatch):
    monkeypatch.setattr(install.shutil, "which", lambda c: None)
    monkeypatch.setattr(install, "have_module", lambda name: False)
    with pytest.raises(proc.CommandError) as e:
        install.ensure(install.Needs(["tshark"], libtorrent=True), install=False)
    msg = str(e.value)
    assert "commands tshark (Debian: tshark)" in msg
    assert "pip install libtorrent==2.1.1" in msg
    assert "run without --no-install" in msg


def test_ensure_with_nothing_missing_runs_nothing(monkeypatch):
    monkeypatch.setattr(install.shutil, "which", lambda c: "/bin/" + c)
    monkeypatch.setattr(install, "_run", lambda *a, **k: pytest.fail("ran a command"))
    install.ensure(install.Needs(["ip", "tc"]), install=True)


def test_ensure_installs_the_packages_of_the_missing_commands(monkeypatch):
    installed = set()
    ran = []

    def fake_run(argv, timeout, env=None):
        ran.append(argv)
        if "install" in argv:
            installed.update(argv[argv.index("--no-install-recommends") + 1:])

        class Done:
            returncode, stderr = 0, ""
        return Done()
    which = {"nft": "nftables", "iperf3": "iperf3"}
    monkeypatch.setattr(install, "_run", fake_run)
    monkeypatch.setattr(install.shutil, "which",
                        lambda c: "/usr/bin/apt-get" if c == "apt-get"
                        else (None if c in which and which[c] not in installed else "/bin/x"))
    install.ensure(install.Needs(["ip", "nft", "iperf3"]), install=True, log=lambda m: None)
    assert ran[0] == ["apt-get", "update", "-qq"]
    assert ran[1][-2:] == ["iperf3", "nftables"]
    assert installed == {"iperf3", "nftables"}


def test_check_installed_passes_here_and_names_the_fix_elsewhere(monkeypatch):
    # The test run imports netbed from its installation, so a child does too.
    assert install.check_installed() is None
    monkeypatch.setattr(install.sys, "executable", "/bin/false")
    msg = install.check_installed()
    assert msg.startswith("the netbed package is not installed for /bin/false")
    assert "pip install -e ./testbed" in msg


def test_preflight_names_what_is_missing(monkeypatch, capsys, tmp_path):
    from netbed import install as inst
    monkeypatch.setattr(inst.os, "geteuid", lambda: 1000)
    assert inst.preflight("namespaces") is None
    assert "needs root (namespaces)" in capsys.readouterr().err
    monkeypatch.setattr(inst.os, "geteuid", lambda: 0)
    monkeypatch.setattr(inst, "check_installed", lambda: None)
    missing = str(tmp_path / "ledbat")
    assert inst.preflight("x", missing) is None
    assert f"no ledbat binary at {missing}" in capsys.readouterr().err
    assert inst.preflight("x", missing, need_bin=False) == missing
    exe = tmp_path / "bin"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    assert inst.preflight("x", str(exe)) == str(exe)


def test_prepare_stops_at_a_missing_tool_without_installing(monkeypatch, capsys, tmp_path):
    from netbed import install as inst
    monkeypatch.setattr(inst.os, "geteuid", lambda: 0)
    monkeypatch.setattr(inst, "check_installed", lambda: None)
    exe = tmp_path / "bin"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    assert inst.prepare("x", str(exe), inst.Needs(["sh"]), install=False) == str(exe)
    absent = "no-such-command-for-ledbat-tests"
    assert inst.prepare("x", str(exe), inst.Needs([absent]), install=False) is None
    assert absent in capsys.readouterr().err
    monkeypatch.setattr(inst.os, "geteuid", lambda: 1000)
    assert inst.prepare("namespaces", str(exe), inst.Needs(["sh"])) is None
    assert "needs root (namespaces)" in capsys.readouterr().err
