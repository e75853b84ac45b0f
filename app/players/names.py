"""Names people choose: guests' display names and accounts' handles.

Every name is NFKC-normalised, its runs of white space collapsed to one space and trimmed,
then refused with a stable code when it cannot be shown honestly at a table:

* ``bad_name``: not 1 to 24 characters, or a control, format, private-use or unassigned
  character;
* ``name_blank``: a character that shows as blank space (a Hangul filler such as U+3164, the
  blank Braille pattern U+2800, zero-width and other invisible characters), or nothing but
  combining marks;
* ``name_marks``: a combining mark with no letter before it, or more than ``MAX_MARKS`` marks
  stacked on one letter;
* ``name_reserved``: a name that reads as one of the computer players ("Computer (hard)",
  also spelt with look-alike letters or in another of the client's languages).

A handle must also pass ``handle``: 3 to 20 characters, Latin letters (accents allowed),
digits and ``_ - .``, starting with a letter (``bad_handle``). Two handles are the same when
their ``skeleton`` is: case, accents, separators and look-alike letters do not count, so
"Anna", "anna", "ÄNNA", "An.na" and "Anna_" are one handle, and so are "Bela1", "BeIal"
and "bela_l".
"""

from __future__ import annotations

import unicodedata

from app.common.errors import Invalid

MAX_NAME = 24
MIN_HANDLE, MAX_HANDLE = 3, 20
MAX_MARKS = 2
"""Combining marks one letter may carry (Vietnamese needs two; "Zalgo" text piles up dozens)."""

REFUSED_CATEGORIES = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}
MARK_CATEGORIES = {"Mn", "Mc", "Me"}

# Characters that show as blank space though Unicode does not call them white space (after
# NFKC, which already turns U+3164 and U+FFA0 into U+1160 and most spaces into U+0020).
BLANK_LOOKING = frozenset(
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers
    "\u2800"  # Braille pattern blank
    "\u034f\u17b4\u17b5\u180e"  # grapheme joiner, Khmer inherent vowels, Mongolian separator
    "\u3000\u00a0\u2007\u202f"  # wide and no-break spaces (in case normalisation kept them)
    "\ufe0f\ufe0e"  # variation selectors alone
    "\U0001d159\U0001d173\U0001d174\U0001d175\U0001d176\U0001d177\U0001d178\U0001d179\U0001d17a"
)

# Letters of other scripts (and digits) that look like Latin ones, after case folding; with
# ``rn`` -> ``m`` and friends below. Enough to keep names from passing for another's or a
# computer player's; not the whole of Unicode's confusables table.
LOOK_ALIKES = str.maketrans(
    {
        # Cyrillic
        "\u0430": "a",  # cyrillic small letter a
        "\u0432": "b",  # cyrillic small letter ve
        "\u0441": "c",  # cyrillic small letter es
        "\u0501": "d",  # cyrillic small letter komi de
        "\u0435": "e",  # cyrillic small letter ie
        "\u04bb": "h",  # cyrillic small letter shha
        "\u043d": "h",  # cyrillic small letter en
        "\u0456": "l",  # cyrillic small letter byelorussian-ukrainian i
        "\u0458": "j",  # cyrillic small letter je
        "\u043a": "k",  # cyrillic small letter ka
        "\u043c": "m",  # cyrillic small letter em
        "\u043e": "o",  # cyrillic small letter o
        "\u0440": "p",  # cyrillic small letter er
        "\u051b": "q",  # cyrillic small letter qa
        "\u0433": "r",  # cyrillic small letter ghe
        "\u0455": "s",  # cyrillic small letter dze
        "\u0442": "t",  # cyrillic small letter te
        "\u0446": "u",  # cyrillic small letter tse
        "\u0475": "v",  # cyrillic small letter izhitsa
        "\u051d": "w",  # cyrillic small letter we
        "\u0445": "x",  # cyrillic small letter ha
        "\u0443": "y",  # cyrillic small letter u
        "\u04af": "y",  # cyrillic small letter straight u
        "\u0437": "3",  # cyrillic small letter ze
        # Greek
        "\u03b1": "a",  # greek small letter alpha
        "\u03b2": "b",  # greek small letter beta
        "\u03b5": "e",  # greek small letter epsilon
        "\u03b7": "n",  # greek small letter eta
        "\u03b9": "l",  # greek small letter iota
        "\u03ba": "k",  # greek small letter kappa
        "\u03bc": "u",  # greek small letter mu
        "\u03bd": "v",  # greek small letter nu
        "\u03bf": "o",  # greek small letter omicron
        "\u03c1": "p",  # greek small letter rho
        "\u03c4": "t",  # greek small letter tau
        "\u03c5": "u",  # greek small letter upsilon
        "\u03c7": "x",  # greek small letter chi
        "\u03b3": "y",  # greek small letter gamma
        "\u03b6": "z",  # greek small letter zeta
        # Latin and digits that pass for each other
        "\u0131": "l",  # latin small letter dotless i
        "i": "l",  # latin small letter i
        "|": "l",  # vertical line
        "1": "l",  # digit one
        "0": "o",  # digit zero
        "\u00f8": "o",  # latin small letter o with stroke
        "\u0142": "l",  # latin small letter l with stroke
        "\u00df": "ss",  # latin small letter sharp s
    }
)
LOOK_ALIKE_PAIRS = (("rn", "m"), ("vv", "w"), ("cl", "d"))

# How the computer players are called in the client's languages (see app/static/js/i18n.js).
RESERVED_WORDS = ("computer", "komputer", "ordenador")


def normalise(raw: str) -> str:
    """NFKC, white space collapsed to single spaces, trimmed."""
    return " ".join(unicodedata.normalize("NFKC", raw).split())


def skeleton(name: str) -> str:
    """What a name looks like, for comparing: case, accents, marks, separators, spaces and
    look-alike letters removed. ``skeleton("Ánna.B") == skeleton("anna b") == "annab"``."""
    folded = unicodedata.normalize("NFD", normalise(name).casefold())
    kept = "".join(c for c in folded if unicodedata.category(c) not in MARK_CATEGORIES)
    kept = unicodedata.normalize("NFKC", kept).translate(LOOK_ALIKES)
    kept = "".join(c for c in kept if c.isalnum())
    for pair, single in LOOK_ALIKE_PAIRS:
        kept = kept.replace(pair, single)
    return kept


def display_name(raw: str) -> str:
    """A guest's or an account's display name, normalised; ``Invalid`` with the refusal's code
    (see the module) otherwise."""
    name = normalise(raw)
    if not 1 <= len(name) <= MAX_NAME:
        raise Invalid("bad_name", f"A name must have 1 to {MAX_NAME} characters once trimmed.")
    _check_characters(name)
    _check_marks(name)
    if reserved(name):
        raise Invalid("name_reserved", "That name reads as one of the computer players.")
    return name


def handle(raw: str) -> str:
    """An account's handle, normalised (its case kept for showing); ``Invalid`` otherwise.
    Compare handles by ``skeleton``."""
    name = normalise(raw)
    if not MIN_HANDLE <= len(name) <= MAX_HANDLE:
        raise Invalid("bad_handle", f"A handle must have {MIN_HANDLE} to {MAX_HANDLE} characters.")
    _check_characters(name)
    _check_marks(name)
    if not all(_handle_character(c) for c in name) or not _latin_letter(name[0]):
        raise Invalid(
            "bad_handle",
            "A handle has Latin letters (accents allowed), digits, '_', '-' and '.', "
            "and starts with a letter.",
        )
    if reserved(name):
        raise Invalid("name_reserved", "That handle reads as one of the computer players.")
    return name


def reserved(name: str) -> bool:
    """True when the name reads as a computer player's ("Computer (hard)", "C0MPUTER", ...)."""
    shape = skeleton(name)
    return any(skeleton(word) in shape for word in RESERVED_WORDS)


def _check_characters(name: str) -> None:
    for char in name:
        if char in BLANK_LOOKING:
            raise Invalid(
                "name_blank",
                f"A name may not hold U+{ord(char):04X}, which shows as blank space.",
            )
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            raise Invalid("bad_name", "A name may contain printable characters only.")
    if all(unicodedata.category(c) in MARK_CATEGORIES or c == " " for c in name):
        raise Invalid("name_blank", "A name needs a visible letter, digit or sign.")


def _check_marks(name: str) -> None:
    problem = marks_problem(name)
    if problem is not None:
        raise Invalid("name_marks", problem)


def marks_problem(text: str) -> str | None:
    """Why ``text``'s combining marks cannot be shown honestly, as a sentence, or None: a mark
    with no letter before it (at the start or after a space), or more than ``MAX_MARKS`` marks
    stacked on one letter (a precomposed letter counts its own). Names and chat lines share
    this rule.

    >>> marks_problem("Vi\u1ec7t"), marks_problem("e" + "\u0301" * 3) is not None
    (None, True)
    """
    text = unicodedata.normalize("NFD", text)
    stacked = 0
    for index, char in enumerate(text):
        if unicodedata.category(char) not in MARK_CATEGORIES:
            stacked = 0
            continue
        if index == 0 or text[index - 1] == " ":
            return "A combining mark must follow a letter."
        stacked += 1
        if stacked > MAX_MARKS:
            return f"At most {MAX_MARKS} combining marks may sit on one letter."
    return None


def _latin_letter(char: str) -> bool:
    return char.isalpha() and unicodedata.name(char, "").startswith("LATIN ")


def _handle_character(char: str) -> bool:
    if unicodedata.category(char) in MARK_CATEGORIES:
        return True  # accents that NFC could not compose; ``_check_marks`` limits them
    return _latin_letter(char) or char in "0123456789_-."
