"""The content of a chat line: a quick phrase's code, or free text cleaned, measured and, at
a table that asks for it, passed through the word filter (``better-profanity``)."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

from app.services.errors import Invalid

# Quick phrases travel as these codes; each reader's client shows them in its own language.
PHRASES = ("good_luck", "well_played", "thanks", "rematch", "must_go")


def clean_text(text: str) -> str:
    """``text`` without control or format characters (bidirectional overrides, zero-width
    marks) and with its outer blanks cut; line breaks become spaces."""
    kept = (" " if c in "\r\n\t" else c for c in text)
    return "".join(c for c in kept if unicodedata.category(c) not in ("Cc", "Cf")).strip()


class WordFilter:
    """The optional word filter (``better-profanity``), loaded on first use."""

    def __init__(self) -> None:
        self._censor: Callable[[str], str] | None = None

    def __call__(self, text: str) -> str:
        """``text`` with its listed words starred out."""
        if self._censor is None:
            from better_profanity import Profanity  # type: ignore[import-untyped,import-not-found,unused-ignore]

            profanity = Profanity()
            profanity.load_censor_words()
            self._censor = profanity.censor
        return self._censor(text)


def line_content(
    message: dict[str, Any], max_length: int, censor: Callable[[str], str] | None = None
) -> tuple[str | None, str | None]:
    """A ``chat`` message's phrase code or its cleaned text (starred out by ``censor`` when
    given); ``Invalid`` with the code that says what is wrong."""
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
    return None, censor(cleaned) if censor is not None else cleaned
