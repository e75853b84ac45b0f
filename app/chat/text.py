"""The content of a chat line: a quick phrase's code, or free text cleaned, measured, its
combining marks checked as a name's are and, at a table that asks for it, passed through the
word filter (``better-profanity``'s words)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from app.common import metrics
from app.common.errors import Invalid
from app.players.names import marks_problem

# Quick phrases travel as these codes; each reader's client shows them in its own language.
PHRASES = ("good_luck", "well_played", "thanks", "rematch", "must_go")


def clean_text(text: str) -> str:
    """``text`` without control or format characters (bidirectional overrides, zero-width
    marks) and with its outer blanks cut; line breaks become spaces."""
    kept = (" " if c in "\r\n\t" else c for c in text)
    return "".join(c for c in kept if unicodedata.category(c) not in ("Cc", "Cf")).strip()


class ListedWords:
    """``better-profanity``'s word list as one regular expression, built once: ``word in
    listed`` is what the library's own list of words answers (each listed letter may also be
    written as one of its stand-ins, ``*`` or ``@`` for ``a`` and the like), in time bounded
    by the list's size, not multiplied by it.

    The expression is the list's letter tree (``(?:f(?:[uv*](?:ck|...)|...)|...)``): a word is
    read once from its start, and each branch of the tree is tried at most once.

    >>> listed = ListedWords(["shit", "ass"], {"a": ("a", "@"), "s": ("s", "$")})
    >>> "$hit" in listed, "@ss" in listed, "as" in listed
    (True, True, False)
    """

    def __init__(self, words: Iterable[str], stand_ins: Mapping[str, Sequence[str]]) -> None:
        tree: dict[str, Any] = {}
        for word in words:
            node = tree
            for letter in word:
                node = node.setdefault(letter, {})
            node[_END] = {}
        self._pattern = re.compile(_branches(tree, stand_ins))

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self._pattern.fullmatch(word) is not None

    def __bool__(self) -> bool:
        return True  # the library reloads its default list when its word set is empty


_END = ""  # the key that ends a word in ``ListedWords``' letter tree (no letter is empty)


def _branches(node: dict[str, Any], stand_ins: Mapping[str, Sequence[str]]) -> str:
    """The expression that reads one of the words below ``node`` of the letter tree."""
    branches = [
        "" if letter == _END else _letter(letter, stand_ins) + _branches(below, stand_ins)
        for letter, below in sorted(node.items(), key=lambda item: item[0] == _END)
    ]
    return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"


def _letter(letter: str, stand_ins: Mapping[str, Sequence[str]]) -> str:
    """The expression for one listed letter: itself or any of its stand-ins."""
    written = list(dict.fromkeys(stand_ins.get(letter, (letter,))))
    if len(written) == 1:
        return re.escape(written[0])
    if all(len(way) == 1 for way in written):
        return "[" + "".join(re.escape(way) for way in written) + "]"
    return "(?:" + "|".join(re.escape(way) for way in written) + ")"


class WordFilter:
    """The optional word filter: ``better-profanity``'s words, stand-ins and way of cutting a
    line into words, with its list looked up through ``ListedWords`` (the library compares a
    word with each of its 900 entries in turn: ~0.2 s for a line of 150 one-letter words).
    Built by ``load`` (half a second: the chat service does it off the event loop as soon
    as a table turns the filter on, not on a line)."""

    def __init__(self) -> None:
        self._censor: Callable[[str], str] | None = None

    @property
    def loaded(self) -> bool:
        """Whether ``load`` has run."""
        return self._censor is not None

    def load(self) -> None:
        """Read the library's list and build its expression (once)."""
        if self._censor is None:
            from better_profanity import Profanity  # type: ignore[import-untyped,import-not-found,unused-ignore]

            profanity = Profanity()
            words = [str(word) for word in profanity.CENSOR_WORDSET]
            profanity.CENSOR_WORDSET = ListedWords(words, profanity.CHARS_MAPPING)
            self._censor = profanity.censor

    def __call__(self, text: str) -> str:
        """``text`` with its listed words starred out."""
        if self._censor is None:
            self.load()
        assert self._censor is not None
        metrics.CHAT_FILTERED.inc()
        return self._censor(text)


def line_content(message: dict[str, Any], max_length: int) -> tuple[str | None, str | None]:
    """A ``chat`` message's phrase code or its cleaned text (not yet through the word filter,
    which runs only once the line is within its limits); ``Invalid`` with the code that says
    what is wrong. Cheap: a few passes over a text no longer than a frame."""
    phrase, text = message.get("phrase"), message.get("text")
    if (phrase is None) == (text is None):
        raise Invalid("bad_chat", "A chat line has either a phrase or a text.")
    if phrase is not None:
        if phrase not in PHRASES:
            raise Invalid("bad_phrase", f"phrase must be one of {', '.join(PHRASES)}.")
        return str(phrase), None
    if not isinstance(text, str):
        raise Invalid("bad_chat", "text must be a string.")
    cleaned = clean_text(text)
    if not cleaned:
        raise Invalid("chat_empty", "The line is empty.")
    if len(cleaned) > max_length:
        raise Invalid(
            "chat_too_long",
            f"A line has at most {max_length} characters; this one has {len(cleaned)}.",
            max_length=max_length,
        )
    problem = marks_problem(cleaned)  # the rule names follow (app/players/names.py)
    if problem is not None:
        raise Invalid("chat_marks", problem)
    return None, cleaned
