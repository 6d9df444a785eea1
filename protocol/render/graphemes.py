"""Extended grapheme clusters (Unicode UAX #29) and their width on a terminal, for the wrap rule.

A user-perceived character may be several code points: a letter and its combining marks
(``e`` + U+0301), an emoji with a skin tone or a ZWJ sequence (👩‍👩‍👧), a flag (two regional
indicators), a Hangul syllable of conjoining jamo. protocol/render/wrap.py never cuts inside one
(a long word is cut between clusters, a name abbreviated to whole clusters) and counts a
cluster's columns as a terminal shows them.

The standard library has no grapheme segmentation (``unicodedata`` has no Grapheme_Cluster_Break
property), and a dependency (the ``regex`` module's ``\\X``, a C extension) for this one rule is
more than it needs: this module implements the rules of UAX #29 that decide a break inside
text a person types, from ``unicodedata``'s categories and a few code point ranges:

- GB3-GB5: break around controls (a line the server writes has none left but ESC sequences,
  which wrap.py steps over before asking);
- GB6-GB8: Hangul syllable sequences (L, V, T, LV, LVT) stay together;
- GB9, GB9a: no break before an extending mark (Mn, Me, ZWJ, ZWNJ, emoji modifiers, tags,
  variation selectors) or a spacing mark (Mc);
- GB9b: no break after a Prepend character (the Arabic number signs and the like);
- GB9c (approximated): no break after a virama (combining class 9) before a letter of an Indic
  script, so a conjunct (क्ष) stays whole;
- GB11: no break inside an emoji ZWJ sequence (Extended_Pictographic Extend* ZWJ, then
  Extended_Pictographic);
- GB12, GB13: regional indicators pair up (flags);
- GB999: a break everywhere else.

Extended_Pictographic is taken from the ranges of Unicode's emoji-data.txt (where nearly all
of it lies), not code point by code point.

The width of a cluster (``cluster_width``): its characters' widths (East Asian wide and
fullwidth 2, combining and format characters 0, the rest 1), except that what follows a ZWJ
inside the cluster, an emoji modifier and a Hangul medial or final jamo take no column of their
own, and a variation selector 16 (emoji presentation) widens a one-column base to two.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Iterator

__all__ = ["clusters", "cluster_width", "char_width", "is_pictographic"]

ZWJ = "\u200d"
ZWNJ = "\u200c"
VS16 = "\ufe0f"

#: Extended_Pictographic (emoji-data.txt), as (first, last) code point ranges
_PICTOGRAPHIC = (
    (0x00A9, 0x00A9), (0x00AE, 0x00AE), (0x203C, 0x203C), (0x2049, 0x2049), (0x2122, 0x2122),
    (0x2139, 0x2139), (0x2194, 0x2199), (0x21A9, 0x21AA), (0x231A, 0x231B), (0x2328, 0x2328),
    (0x2388, 0x2388), (0x23CF, 0x23CF), (0x23E9, 0x23F3), (0x23F8, 0x23FA), (0x24C2, 0x24C2),
    (0x25AA, 0x25AB), (0x25B6, 0x25B6), (0x25C0, 0x25C0), (0x25FB, 0x25FE), (0x2600, 0x2605),
    (0x2607, 0x2612), (0x2614, 0x2685), (0x2690, 0x2705), (0x2708, 0x2712), (0x2714, 0x2714),
    (0x2716, 0x2716), (0x271D, 0x271D), (0x2721, 0x2721), (0x2728, 0x2728), (0x2733, 0x2734),
    (0x2744, 0x2744), (0x2747, 0x2747), (0x274C, 0x274C), (0x274E, 0x274E), (0x2753, 0x2755),
    (0x2757, 0x2757), (0x2763, 0x2767), (0x2795, 0x2797), (0x27A1, 0x27A1), (0x27B0, 0x27B0),
    (0x27BF, 0x27BF), (0x2934, 0x2935), (0x2B05, 0x2B07), (0x2B1B, 0x2B1C), (0x2B50, 0x2B50),
    (0x2B55, 0x2B55), (0x3030, 0x3030), (0x303D, 0x303D), (0x3297, 0x3297), (0x3299, 0x3299),
    (0x1F000, 0x1F0FF), (0x1F10D, 0x1F10F), (0x1F12F, 0x1F12F), (0x1F16C, 0x1F171),
    (0x1F17E, 0x1F17F), (0x1F18E, 0x1F18E), (0x1F191, 0x1F19A), (0x1F1AD, 0x1F1E5),
    (0x1F201, 0x1F20F), (0x1F21A, 0x1F21A), (0x1F22F, 0x1F22F), (0x1F232, 0x1F23A),
    (0x1F23C, 0x1F23F), (0x1F249, 0x1F3FA), (0x1F400, 0x1F53D), (0x1F546, 0x1F64F),
    (0x1F680, 0x1F6FF), (0x1F774, 0x1F77F), (0x1F7D5, 0x1F7FF), (0x1F80C, 0x1F80F),
    (0x1F848, 0x1F84F), (0x1F85A, 0x1F85F), (0x1F888, 0x1F88F), (0x1F8AE, 0x1F8FF),
    (0x1F90C, 0x1F93A), (0x1F93C, 0x1F945), (0x1F947, 0x1FAFF), (0x1FC00, 0x1FFFD),
)
#: Prepend (GB9b): the characters that join the one after them
_PREPEND = frozenset((*range(0x0600, 0x0606), 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2, 0x0D4E,
                      0x110BD, 0x110CD, 0x111C2, 0x111C3, 0x1193F, 0x11941, 0x11A3A,
                      *range(0x11A84, 0x11A8A), 0x11D46))
#: the scripts whose virama joins a conjunct (GB9c: Devanagari to Malayalam)
_INDIC = (0x0900, 0x0D7F)

# the Grapheme_Cluster_Break classes this module tells apart
_OTHER, _CONTROL, _EXTEND, _SPACING, _PREPEND_C, _RI, _L, _V, _T, _LV, _LVT, _ZWJ = range(12)


def is_pictographic(cp: int) -> bool:
    """Extended_Pictographic (an emoji or a symbol that may start an emoji sequence)."""
    if cp < 0xA9:
        return False
    lo, hi = 0, len(_PICTOGRAPHIC)
    while lo < hi:                        # the range that could hold cp (binary search)
        mid = (lo + hi) // 2
        if _PICTOGRAPHIC[mid][1] < cp:
            lo = mid + 1
        else:
            hi = mid
    return lo < len(_PICTOGRAPHIC) and _PICTOGRAPHIC[lo][0] <= cp


def _class(char: str) -> int:
    cp = ord(char)
    if char == ZWJ:
        return _ZWJ
    if 0x1100 <= cp <= 0x115F or 0xA960 <= cp <= 0xA97C:
        return _L
    if 0x1160 <= cp <= 0x11A7 or 0xD7B0 <= cp <= 0xD7C6:
        return _V
    if 0x11A8 <= cp <= 0x11FF or 0xD7CB <= cp <= 0xD7FB:
        return _T
    if 0xAC00 <= cp <= 0xD7A3:
        return _LV if (cp - 0xAC00) % 28 == 0 else _LVT
    if 0x1F1E6 <= cp <= 0x1F1FF:
        return _RI
    if cp in _PREPEND:
        return _PREPEND_C
    category = unicodedata.category(char)
    if category in ("Mn", "Me") or char == ZWNJ or 0x1F3FB <= cp <= 0x1F3FF \
            or 0xE0020 <= cp <= 0xE007F or 0xFF9E <= cp <= 0xFF9F:
        return _EXTEND            # marks, ZWNJ, emoji modifiers, tags, halfwidth sound marks
    if category == "Mc":
        return _SPACING
    if category in ("Cc", "Zl", "Zp") or (category == "Cf" and cp not in (0x200C, 0x200D)):
        return _CONTROL
    return _OTHER


def _joins(before: int, after: int, prev: str, char: str, pictographic: bool,
           ri_run: int) -> bool:
    """Whether there is no break between ``prev`` (class ``before``) and ``char`` (``after``)."""
    if before == _CONTROL or after == _CONTROL:
        return False                                                       # GB4, GB5
    if before == _L and after in (_L, _V, _LV, _LVT):
        return True                                                        # GB6
    if before in (_LV, _V) and after in (_V, _T):
        return True                                                        # GB7
    if before in (_LVT, _T) and after == _T:
        return True                                                        # GB8
    if after in (_EXTEND, _ZWJ, _SPACING):
        return True                                                        # GB9, GB9a
    if before == _PREPEND_C:
        return True                                                        # GB9b
    if before == _EXTEND and unicodedata.combining(prev) == 9 \
            and _INDIC[0] <= ord(prev) <= _INDIC[1] and unicodedata.category(char) == "Lo" \
            and _INDIC[0] <= ord(char) <= _INDIC[1]:
        return True                                                        # GB9c (linker)
    if before == _ZWJ and pictographic and is_pictographic(ord(char)):
        return True                                                        # GB11
    return before == _RI and after == _RI and ri_run % 2 == 1              # GB12, GB13


def clusters(text: str) -> Iterator[str]:
    """The extended grapheme clusters of ``text``, in order (their concatenation is ``text``)."""
    if not text:
        return
    start = 0
    prev = text[0]
    before = _class(prev)
    # GB11's state: the cluster so far is ExtPict Extend* (ZWJ); GB12/13: regional indicators
    pictographic = is_pictographic(ord(prev))
    ri_run = 1 if before == _RI else 0
    for i in range(1, len(text)):
        char = text[i]
        after = _class(char)
        if _joins(before, after, prev, char, pictographic and before == _ZWJ, ri_run):
            if after == _RI:
                ri_run += 1
            elif after not in (_EXTEND, _ZWJ):
                pictographic = is_pictographic(ord(char))
        else:
            yield text[start:i]
            start = i
            pictographic = is_pictographic(ord(char))
            ri_run = 1 if after == _RI else 0
        prev, before = char, after
    yield text[start:]


def char_width(char: str) -> int:
    """The columns one character takes on its own: 2 for East Asian wide and fullwidth, 0 for
    combining marks, format characters and Hangul medial/final jamo, else 1."""
    cp = ord(char)
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf") \
            or 0x1160 <= cp <= 0x11FF or 0xD7B0 <= cp <= 0xD7FF:
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def cluster_width(cluster: str) -> int:
    """The columns one grapheme cluster takes: what follows a ZWJ and an emoji modifier add
    nothing (the sequence shows as one emoji), VS16 shows a one-column pictograph as two."""
    if len(cluster) == 1:
        return char_width(cluster)
    width = 0
    for k, char in enumerate(cluster):
        cp = ord(char)
        if char == ZWJ:
            break                              # the rest of a ZWJ sequence joins the first
        if 0x1F3FB <= cp <= 0x1F3FF and k > 0:
            continue                           # a skin tone on the emoji before it
        if char == VS16 and width == 1 and is_pictographic(ord(cluster[0])):
            width = 2                          # emoji presentation of a text-style symbol
            continue
        width += char_width(char)
    return width
