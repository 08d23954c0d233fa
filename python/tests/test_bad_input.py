"""Bad input raises the right exception with its diagnostic, never crashes."""

from __future__ import annotations

import pytest

import gamerec


def test_not_a_record_is_a_read_error(tmp_path):
    junk = tmp_path / "junk.json"
    junk.write_text("this is not JSON")
    with pytest.raises(gamerec.ReadError) as e:
        list(gamerec.validate(junk))
    assert "junk.json" in str(e.value)


def test_a_missing_file_is_a_read_error(tmp_path):
    with pytest.raises(gamerec.ReadError):
        gamerec.validate(tmp_path / "nothing.gamerec")


def test_bytes_that_are_not_utf8():
    with pytest.raises(gamerec.ReadError) as e:
        list(gamerec.validate(b"[Game \"reversi\"]\n[Event \"\xff\xfe\"]\n1. f5\n"))
    assert "not UTF-8" in str(e.value) and "offset 25" in str(e.value)


def test_an_unknown_game():
    with pytest.raises(gamerec.UnknownGame) as e:
        gamerec.Position("chess")
    assert e.value.code == "record::unknown_game"
    reports = list(gamerec.validate(b"[Game \"chess\"]\n1. e4\n"))
    assert reports[0].errors[0].code == "record::unknown_game"


def test_a_bad_setup():
    with pytest.raises(gamerec.BadSetup) as e:
        gamerec.Position("reversi", Size="7")
    assert e.value.code == "reversi::bad_size"


def test_an_illegal_move_changes_nothing():
    pos = gamerec.Position("othello")
    pos.play("f5")
    before = (pos.legal_moves(), pos.scores, pos.plies)
    with pytest.raises(gamerec.IllegalMove) as e:
        pos.play("a1")
    assert e.value.code == "reversi::no_flip"
    assert e.value.diagnostic.column == 1
    assert (pos.legal_moves(), pos.scores, pos.plies) == before
    for bad in ["", "zz", "f5 d6", "\x00", "a" * 10000]:
        with pytest.raises(gamerec.IllegalMove):
            pos.play(bad)


def test_arrow_input_of_the_wrong_type():
    pa = pytest.importorskip("pyarrow")
    with pytest.raises(TypeError):
        gamerec.validate_arrow(pa.array([1, 2, 3]))
