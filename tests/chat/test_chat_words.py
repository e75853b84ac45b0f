"""The chat's word filter and the checks of a line's text (app/chat/text.py): the
filter stars out what ``better-profanity`` stars out, line for line, and a line's combining
marks follow the rule names follow."""

from __future__ import annotations

from functools import cache

import pytest
from better_profanity import Profanity  # type: ignore[import-untyped,import-not-found,unused-ignore]
from hypothesis import given, settings
from hypothesis import strategies as st

from app.chat.text import ListedWords, WordFilter, line_content
from app.common.errors import Invalid
from app.players.names import MAX_MARKS, display_name


@cache
def library() -> Profanity:
    """The library itself, comparing a word with each entry of its list in turn."""
    return Profanity()


@cache
def word_filter() -> WordFilter:
    return WordFilter()


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ("oh shit", "oh ****"),
        ("SHIT happens", "**** happens"),
        ("$h1t and sh*t", "**** and ****"),  # stand-ins of listed letters
        ("what a blow job.", "what a ****."),  # a listed pair of words
        ("f.u.c.k off", "**** off"),  # a listed word spelt with separators
        ("bull shit!", "****!"),
        ("Nice trump exchange", "Nice trump exchange"),
        ("Scunthorpe, class, assessment", "Scunthorpe, class, assessment"),  # whole words only
        ("a." * 150, "a." * 150),
        ("Grüße, 66!", "Grüße, 66!"),
    ],
)
def test_the_filter_stars_out_listed_words_as_the_library_does(line: str, shown: str) -> None:
    assert word_filter()(line) == shown
    if len(line) < 100:  # the library takes a second or so on 150 words
        assert library().censor(line) == shown


def test_the_listed_words_read_stand_ins_for_each_letter() -> None:
    listed = ListedWords(["shit", "blow job"], {"i": ("i", "*", "1"), "o": ("o", "0")})
    assert "shit" in listed and "sh*t" in listed and "sh1t" in listed and "bl0w j0b" in listed
    assert "shi" not in listed and "shits" not in listed and "s*it" not in listed
    assert 42 not in listed


@cache
def listed_words() -> list[str]:
    return sorted(str(word) for word in library().CENSOR_WORDSET)


def spelt(word: str, choices: list[int]) -> str:
    """``word`` with some letters written as one of their stand-ins (by ``choices``)."""
    stand_ins = library().CHARS_MAPPING
    letters = []
    for letter, choice in zip(word, choices + [0] * len(word), strict=False):
        ways = stand_ins.get(letter, (letter,))
        letters.append(ways[choice % len(ways)])
    return "".join(letters)


Words = st.one_of(
    st.builds(
        spelt,
        st.integers(0, 915).map(lambda n: listed_words()[n % len(listed_words())]),
        st.lists(st.integers(0, 5), max_size=12),
    ),
    st.text(alphabet="aeiouvlst*@4013$57xSHIT'\"é", min_size=1, max_size=6),
    st.sampled_from(["shit", "ass", "blow", "job", "2", "girls", "1", "cup", "f", "u"]),
)
Separators = st.sampled_from([" ", "  ", ".", "-", "_", ",", "!", "\u0301", "\u00a0", " - "])
Lines = st.lists(st.tuples(Words, Separators), min_size=1, max_size=8).map(
    lambda pairs: "".join(word + gap for word, gap in pairs)
)


@settings(max_examples=100, deadline=None)
@given(Lines, st.booleans(), st.booleans())
def test_the_filter_stars_out_exactly_what_the_library_does(
    line: str, upper: bool, trimmed: bool
) -> None:
    line = line.upper() if upper else line
    line = line.rstrip(" .-_,!") if trimmed else line
    assert word_filter()(line) == library().censor(line)


def test_a_letter_with_a_pile_of_marks_is_refused_as_in_a_name() -> None:
    with pytest.raises(Invalid) as chat:
        line_content({"text": "a" + "\u0301" * 299}, 300)
    with pytest.raises(Invalid) as name:
        display_name("a" + "\u0301" * 23)
    assert chat.value.code == "chat_marks" and name.value.code == "name_marks"
    assert chat.value.message == name.value.message
    with pytest.raises(Invalid) as leading:
        line_content({"text": "\u0301hello"}, 300)
    assert leading.value.code == "chat_marks"


def test_marks_a_language_needs_pass() -> None:
    for text in ("Việt Nam", "e" + "\u0301" * MAX_MARKS, "Zürich ❤️", "1️⃣ naïve"):
        assert line_content({"text": text}, 300) == (None, text)
