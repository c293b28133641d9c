"""The words for the board's lights, host side: names of meanings, patterns and colours, what each
meaning tells the player, and the Markdown table of docs/lights.md. The firmware's ``ludus.light.palette``
holds only the numbers (colour, pattern, priority, where, when): the board never shows text, so these
strings stay off its heap. tests/host/test_lights.py checks that the two and the docs agree."""

import ludus.light.palette as P

PATTERN_NAMES = (
    "solid",
    "slow blink",
    "fast blink",
    "double flash",
    "pulse",
    "wink",
    "relay from",
    "relay to",
)

PATTERN_DESCRIPTIONS = (
    "steady",
    "1 s cycle: 500 ms on, 500 ms off",
    "400 ms cycle: 200 ms on, 200 ms off",
    "1.2 s cycle: on 0-120 ms and 240-360 ms, otherwise off",
    "2 s cycle: brightness rises from 1/10 to full and back (triangle)",
    "1.2 s cycle: on for 1000 ms, off for 200 ms",
    "1.2 s cycle: on 0-500 ms (the 'from' end of a pair)",
    "1.2 s cycle: on 600-1100 ms (the 'to' end of a pair)",
)

COLOUR_NAMES = P.COLOUR_NAMES

# name, what it tells the player; indexed by meaning (palette.NONE ... palette.WAITING_ROLL)
MEANING_TEXTS = (
    ("none", "nothing to show: dark"),
    ("player", "this colour takes part (its base or point is filled)"),
    ("turn", "this colour is to move (or roll)"),
    ("finished", "this colour has finished"),
    ("winner", "this colour won"),
    ("destination", "the lifted piece may be put here"),
    ("jump path", "a hole the jumping piece passes through (may touch down)"),
    ("capture victim", "this piece is captured: take it off"),
    ("capture base", "put the captured piece here (its base)"),
    ("missing", "a piece should be here but is not sensed"),
    ("unexpected", "a piece is sensed here but should not be: take it away"),
    ("move from", "take the piece from here... (paired with 'move to')"),
    ("move to", "...and put it here"),
    ("illegal", "this placement is not allowed: take it back"),
    ("way back", "where the wrongly placed piece goes back to"),
    ("confirm", "the board's reading of an ambiguous move: press the button to confirm"),
    ("die pip", "the die result"),
    ("waiting roll", "several rolls wait to be used: the die shows each in turn, a dark gap between them"),
)

MEANING_NAMES = tuple(row[0] for row in MEANING_TEXTS)


def meaning_name(meaning: int) -> str:
    """The name of a meaning, as in docs/lights.md."""
    return MEANING_NAMES[meaning]


def colour_name(colour: int) -> str:
    """The name of a colour id."""
    return COLOUR_NAMES[colour]


def meanings() -> list[tuple]:
    """The whole table: (name, colour, pattern, priority, domains, phases, text) per meaning."""
    return [
        (
            MEANING_TEXTS[m][0],
            P.MEANING_COLOUR[m],
            P.MEANING_PATTERN[m],
            P.MEANING_PRIORITY[m],
            P.MEANING_DOMAINS[m],
            P.MEANING_PHASES[m],
            MEANING_TEXTS[m][1],
        )
        for m in range(P.MEANING_COUNT)
    ]


def markdown_table() -> str:
    """The meaning table as Markdown, as it appears in docs/lights.md."""
    lines = [
        "| meaning | colour | pattern | priority | where | when | tells the player |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, colour, pattern, priority, domains, phases, text in meanings()[1:]:
        where = "/".join(w for w, bit in (("cell", P.ON_CELL), ("die", P.ON_DIE)) if domains & bit)
        phase_words = (("setup", P.SETUP), ("play", P.PLAY), ("over", P.OVER))
        when = "/".join(w for w, bit in phase_words if phases & bit)
        lines.append(
            "| %s | %s | %s | %d | %s | %s | %s |"
            % (name, COLOUR_NAMES[colour], PATTERN_NAMES[pattern], priority, where, when, text)
        )
    return "\n".join(lines)
