"""Numbers as a cribbage player says them aloud ("fifteen two", "twenty-four"), for announcements."""

from __future__ import annotations

_UNITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
          "nineteen")
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def number_word(n: int) -> str:
    """English words for 0..999: 7 -> 'seven', 24 -> 'twenty-four', 121 -> 'one hundred twenty-one'."""
    if n < 0:
        return "minus " + number_word(-n)
    if n < 20:
        return _UNITS[n]
    if n < 100:
        tens, units = divmod(n, 10)
        return _TENS[tens] + ("-" + _UNITS[units] if units else "")
    hundreds, rest = divmod(n, 100)
    return _UNITS[hundreds] + " hundred" + (" " + number_word(rest) if rest else "")
