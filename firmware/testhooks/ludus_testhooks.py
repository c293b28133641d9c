"""Test hooks: two link commands that set what a test needs and a board in play must never take from
a laptop, the dice and the position. Only a tree staged with `ludus flash --test-hooks` carries this
module, beside the package in /lib (it is not part of `ludus`: `ludus flash` without the option, the
mip package and a frozen build never have it); a board that has it says so in its `boot` event
and `hello` (`"test_hooks": true`) and with a fault at every boot (docs/emulator.md, "Test hooks").

    {"cmd": "test_die", "rolls": [6, 3]}      the next rolls, in order; then the board's dice again
    {"cmd": "test_start", "state": {...}}     a game set up as given (a Referee.state() with its
                                              record and seed): into the journal, then a reset, so
                                              the board boots into it as after a power cut

A forced roll is recorded as the roll it was, so the seed revealed at the end does not give it:
`ludus verify` says the record's rolls are not the seed's, and a forced game cannot pass for a fair one.
"""

COMMANDS = ("test_die", "test_start")
MAX_ROLLS = 64

forced = []  # the rolls still to come: every referee built in this boot draws from this one list


def attach(referee):
    referee.forced_rolls = forced


def command(device, cmd, link):
    if cmd["cmd"] == "test_die":
        rolls = cmd.get("rolls")
        if (
            not isinstance(rolls, list)
            or not 0 < len(rolls) + len(forced) <= MAX_ROLLS
            or [r for r in rolls if type(r) is not int or not 1 <= r <= 6]
        ):
            link.error(cmd, 'test_die takes "rolls": numbers 1..6, at most %d waiting in all' % MAX_ROLLS)
            return
        forced.extend(rolls)
        link.reply(cmd, {"ok": True, "waiting": len(forced)})
        return
    state = cmd.get("state")
    if not isinstance(state, dict) or not isinstance(state.get("record"), str):
        link.error(cmd, 'test_start takes "state": a referee state with its "record" (ludus play\'s start)')
        return
    try:  # checked before anything is given up: a start the board would not restore is refused here
        from ludus.dice import seed_from_hex
        from ludus.record.game import GameRecord

        device.app.referee.adapter.position(GameRecord.from_json(state["record"]).start)
        if state.get("seed") is not None:
            seed_from_hex(state["seed"])
    except Exception as exc:
        link.error(cmd, "test_start: %s: nothing changed" % (exc,))
        return
    journal = device.journal
    if journal.unfinished():
        journal.end('"abandoned"')
    if not journal.begin(state):
        link.error(cmd, "the journal did not take the game: nothing changed")
        return
    link.reply(cmd, {"ok": True, "restart": True})
    device._reset_after_reply()
