"""Game records: a game's start, dice commitment and actions, saved as JSON, replayed and verified against
the revealed seed. `ludus.record.GameRecord` and the action helpers load their module on first use."""


def __getattr__(attr):
    from ludus.lazy import attribute

    return attribute(
        "ludus.record",
        attr,
        {"ActionLog": "actions", "FORMAT": "actions", "roll_text": "actions", "roll_values": "actions"},
        "game",
    )
