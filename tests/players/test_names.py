"""Display names and handles: normalised, and refused with a stable code when they would
show as blank, pile up marks or pass for a computer player or for another's handle."""

from __future__ import annotations

import pytest

from app.common.errors import Invalid
from app.players import names


def refusal(check: object, raw: str) -> str:
    with pytest.raises(Invalid) as info:
        check(raw)  # type: ignore[operator]
    return info.value.code


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("  Zsófi  ", "Zsófi"),
        ("Anna   Maria", "Anna Maria"),
        ("\uff21\uff4e\uff4e\uff41", "Anna"),  # full-width letters: NFKC
        ("ﬁona", "fiona"),  # a ligature: NFKC
        ("Nguyễn", "Nguyễn"),  # two marks on one letter are fine
        ("Kowalski 🂡", "Kowalski 🂡"),
    ],
)
def test_a_display_name_is_normalised_and_kept(raw: str, shown: str) -> None:
    assert names.display_name(raw) == shown


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("", "bad_name"),
        ("   ", "bad_name"),
        ("x" * 25, "bad_name"),
        ("bad\x00name", "bad_name"),
        ("a\u200bb", "bad_name"),  # zero-width space: a format character
        ("\u3164", "name_blank"),  # Hangul filler
        ("Anna\u3164", "name_blank"),
        ("\uffa0", "name_blank"),  # half-width Hangul filler
        ("\u2800", "name_blank"),  # Braille blank
        ("\u2800\u2800x", "name_blank"),
        ("\u0301", "name_blank"),  # a lone combining mark
        ("\u0301\u0302", "name_blank"),
        ("\u0301x", "name_marks"),  # a mark with no letter before it
        ("Zalgo" + "\u0301\u0302\u0303", "name_marks"),
        ("e\u0301\u0301\u0301", "name_marks"),  # é composed, still three marks
        ("Computer (hard)", "name_reserved"),
        ("computer (easy)", "name_reserved"),
        ("COMPUTER", "name_reserved"),
        ("C0mputer (hard)", "name_reserved"),  # a zero for the o
        ("\u0421omputer", "name_reserved"),  # Cyrillic Es
        ("Komputer (trudny)", "name_reserved"),
        ("Ordenador (difícil)", "name_reserved"),
        ("\uff23\uff4f\uff4d\uff50\uff55\uff54\uff45\uff52", "name_reserved"),  # full-width
    ],
)
def test_a_display_name_that_cannot_be_shown_honestly_is_refused(raw: str, code: str) -> None:
    assert refusal(names.display_name, raw) == code


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("ab", "bad_handle"),
        ("a" * 21, "bad_handle"),
        ("anna maria", "bad_handle"),
        ("1anna", "bad_handle"),
        ("Кирилл", "bad_handle"),  # only Latin letters: no cross-script look-alikes
        ("anna@home", "bad_handle"),
        ("\u3164\u3164\u3164", "name_blank"),
        ("Computer", "name_reserved"),
        ("computer_hard", "name_reserved"),
    ],
)
def test_a_handle_is_refused_with_a_code(raw: str, code: str) -> None:
    assert refusal(names.handle, raw) == code


def test_a_handle_keeps_its_case_and_accents_for_showing() -> None:
    assert names.handle(" Zsófi ") == "Zsófi"
    assert names.handle("\uff21\uff4e\uff4e\uff41") == "Anna"


@pytest.mark.parametrize(
    "same",
    [
        ("Anna", "anna", "ANNA", "Änna", "An.na", "anna_", "a-n-n-a"),
        ("Bela1", "BeIal", "bela_l", "bela|"),
        ("modern", "rnodern", "MODERN"),
        ("Ollie0", "0llie0", "OLLIEO"),
    ],
)
def test_handles_that_look_alike_share_one_skeleton(same: tuple[str, ...]) -> None:
    assert len({names.skeleton(h) for h in same}) == 1


def test_different_handles_have_different_skeletons() -> None:
    assert names.skeleton("Anna") != names.skeleton("Anne")
    assert names.skeleton("Bela") != names.skeleton("Bella")
