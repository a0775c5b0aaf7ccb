"""Unit tests of where the runs look for our binary, and of the command lines they record."""

import os
import sys

from netbed import paths


def test_candidates_prefer_cargo_target_dir_then_the_repo_target():
    assert paths.ledbat_bin_candidates("/t", repo="/r") == [
        "/t/release/ledbat", "/t/debug/ledbat", "/r/target/release/ledbat",
        "/r/target/debug/ledbat"]
    assert paths.ledbat_bin_candidates(None, repo="/r") == [
        "/r/target/release/ledbat", "/r/target/debug/ledbat"]


def test_repo_is_the_checkout_holding_the_package():
    assert os.path.exists(os.path.join(paths.REPO, "testbed", "netbed", "paths.py"))
    assert os.path.exists(os.path.join(paths.REPO, "Cargo.toml"))


def test_default_out_dir_is_under_tmpdir(monkeypatch, tmp_path):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(paths.tempfile, "tempdir", None)  # re-read $TMPDIR
    out = paths.default_out_dir("fig7", "-libtorrent")
    parent, leaf = os.path.split(out)
    assert parent == os.path.join(str(tmp_path), "ledbat-fig7")
    assert leaf.endswith("-libtorrent") and len(leaf) == len("20261125-164027-libtorrent")


def test_write_atomic_replaces_whole_and_leaves_no_temporary(tmp_path):
    out = tmp_path / "r.json"
    out.write_text("old")
    paths.write_atomic(str(out), "new text")
    assert out.read_text() == "new text"
    paths.write_atomic(str(out), b"\x00\x01")
    assert out.read_bytes() == b"\x00\x01"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]


def _cmd(argv, cwd="/r", **kw):
    return paths.command_line(["testbed/tcpbed.py"], argv, repo="/r", cwd=cwd, **kw)


def test_a_recorded_command_names_repo_paths_from_the_root_and_temp_paths_as_out():
    argv = ["--experiments", "cross", "--ledbat-bin", "/tmp/r43a/ledbat",
            "--json", "/r/results/a.json", "--md", "results/a.md",
            "--out-dir", "/tmp/r43a/far", "--rtts-ms", "10,20"]
    assert _cmd(argv) == (
        "python3 testbed/tcpbed.py --experiments cross --ledbat-bin target/release/ledbat "
        "--json results/a.json --md results/a.md "
        "--out-dir $out/far --rtts-ms 10,20")


def test_the_binary_is_a_build_here_unless_it_is_in_the_repo():
    # a copy in a temporary folder, another checkout's build: what `cargo build --release`
    # makes here; one inside the repository: its own path from the root
    assert _cmd(["--ledbat-bin", "/home/u/other-checkout/target/release/ledbat"]).endswith(
        " --ledbat-bin target/release/ledbat")
    assert _cmd(["--ledbat-bin=/tmp/x/ledbat"]).endswith(" --ledbat-bin=target/release/ledbat")
    assert _cmd(["--ledbat-bin", "/r/target/debug/ledbat"]).endswith(
        " --ledbat-bin target/debug/ledbat")
    # the same value after another option is a path like any other
    assert _cmd(["--json", "/tmp/x/ledbat"]).endswith(" --json $out/ledbat")


def test_relative_paths_are_taken_from_where_the_run_was_started():
    argv = ["--ledbat-bin", "../target/release/ledbat", "--json=../results/x.json", "--md",
            "x.md"]
    assert _cmd(argv, cwd="/r/testbed") == (
        "python3 testbed/tcpbed.py --ledbat-bin target/release/ledbat --json=results/x.json "
        "--md testbed/x.md")
    # a word that is no option's path stays as it is
    assert _cmd(["--experiments", "cross"], cwd="/r/testbed").endswith(" --experiments cross")


def test_tmpdir_and_mkdtemp_folders_are_temporary(monkeypatch):
    monkeypatch.setenv("TMPDIR", "/scratch/t")
    assert paths.portable_path("/scratch/t/tmpab12cd/cost.json") == "$out/cost.json"
    assert paths.portable_path("/scratch/t") == "$out"
    d = paths.tempfile.mkdtemp()
    try:
        assert paths.portable_path(os.path.join(d, "x.md")) == "$out/x.md"
    finally:
        os.rmdir(d)
    # elsewhere outside the repository a path stays as given
    assert paths.portable_path("/srv/results/x.json", repo="/r") == "/srv/results/x.json"


def test_the_interpreter_is_python3_and_words_are_quoted_for_a_shell():
    argv = [sys.executable, "/usr/bin/python3.11", "--two-ccs", "", "--note", "a b",
            "--ccs", "scav-comp:competitor.tests=1", "--json", "/tmp/a b.json"]
    assert _cmd(argv) == (
        "python3 testbed/tcpbed.py python3 python3 --two-ccs '' --note 'a b' "
        "--ccs scav-comp:competitor.tests=1 --json $out'/a b.json'")


def _fake_ledbat(tmp_path, text):
    b = tmp_path / "ledbat"
    b.write_text(f"#!/bin/sh\necho '{text}'\n")
    b.chmod(0o755)
    return str(b)


def test_the_build_commit_is_read_from_the_version_line(tmp_path):
    assert paths.build_commit(_fake_ledbat(tmp_path, "ledbat 0.1.0 (6f3d5970ab-dirty)")) \
        == "6f3d5970ab-dirty"
    # an older build says no commit; a path that does not run says nothing either
    assert paths.build_commit(_fake_ledbat(tmp_path, "ledbat 0.1.0")) is None
    assert paths.build_commit(str(tmp_path / "missing")) is None


def test_provenance_names_the_checkout_and_the_build_that_ran(tmp_path):
    doc = paths.provenance(_fake_ledbat(tmp_path, "ledbat 0.1.0 (86be323abc)"))
    assert doc["ledbat_build"] == "86be323abc"
    assert doc["ledbat_bin"] == "target/release/ledbat"  # a build outside the repository
    assert doc["git_head"] and len(doc["git_head"]) >= 7
    assert set(paths.provenance()) == {"git_head"}
