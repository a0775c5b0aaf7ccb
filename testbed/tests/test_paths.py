"""Unit tests of where the runs look for our binary."""

import os

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
