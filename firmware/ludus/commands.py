"""The USB link's commands that change the board's settings or read what it keeps: set_config,
new_game, bots, names, season, games, journal, file (docs/usb-protocol.md). Each is a function of the
device it acts on (ludus.device.Device), the command and the link.

They are used now and then, never in the middle of a move, so where the firmware's code sits in the
heap (`ludus flash`'s files mode, ludus.runtime.CODE_IN_RAM) this module is loaded for each command
and dropped again: its code would otherwise take a few KB of a Ludo game's heap for good."""

import json

from ludus.runtime import const, transient

MAX_FILE = const(16384)  # the most text the `file` command takes for one file


def set_config(device, cmd, link):
    new = cmd.get("config")
    if not isinstance(new, dict):
        link.error(cmd, 'set_config takes {"config": {...}}: the whole config.json as an object')
        return
    text = json.dumps(new)
    config, faults = transient("ludus.config").read_config(text)
    if faults:
        link.reply(cmd, {"ok": False, "error": "config refused, nothing changed", "faults": faults})
        return
    if device.config is not None and config["journal_kb"] != device.config["journal_kb"]:
        # the journal's flash range moves with it: the game would be lost, and on a ROMFS build
        # the range could reach into the code (ludus flash checks that; this command cannot)
        link.error(cmd, "journal_kb changes only with ludus flash: nothing changed")
        return
    device.platform.write_file("config.json", text)
    link.reply(cmd, {"ok": True, "restart": True})
    device._reset_after_reply()


def new_game(device, cmd, link):
    game = cmd.get("game", device.config["game"])
    if not isinstance(game, str) or not game.startswith(("ludo/", "checkers")):
        link.error(cmd, "game must be a preset (ludo/RULES or checkers...), not %r" % (game,))
        return
    try:  # the preset, and on this board, before anything is given up
        first = next(iter(transient("ludus.referee.presets").adapter_for(game).starts()))
        device.board.bind(first[1].place_names)
        first = None
    except Exception as exc:
        link.error(cmd, "cannot start %r on this board: %s" % (game, exc))
        return
    if device.journal.unfinished():
        device.journal.end(json.dumps("abandoned"))
    keep(device, "game", game)  # (a power cut comes back to this game)
    device._build_app()
    link.reply(cmd, {"ok": device.app is not None, "game": game})


def keep(device, key, value):
    # a setting a command changed, kept in config.json (written whole) so a restart keeps it
    if value != device.config[key]:
        device.config[key] = value
        device.platform.write_file("config.json", json.dumps(device.config))


def _seat_setting(device, cmd, link, key, fault_of, seats_of, apply):
    # bots and names: {key: {colour: value}} checked against the game (fault_of), given to the
    # referee as {seat: value} (seats_of, then apply: in the game in play too) and kept in config.json
    value = cmd[key]
    config_mod = transient("ludus.config")
    game = device.config["game"]
    fault = getattr(config_mod, fault_of)(value, game)
    if fault:
        link.error(cmd, fault + ": nothing changed")
        return False
    apply(getattr(config_mod, seats_of)({"game": game, key: value}))
    keep(device, key, value)
    return True


def bots(device, cmd, link):
    # the seats the board plays: {"bots": {"red": "strong"}} sets them (in the game in play too) and
    # keeps them in config.json; without "bots", the reply says which they are
    if "bots" in cmd and not _seat_setting(
        device, cmd, link, "bots", "bots_fault", "bot_seats", device.app.referee.set_bots
    ):
        return
    link.reply(cmd, {"ok": True, "bots": device.config["bots"]})


def names(device, cmd, link):
    # what the players are called: {"names": {"red": "Anna"}} sets them (in the game in play too: its
    # record takes them) and keeps them in config.json; without "names", the reply says which they are
    if "names" in cmd and not _seat_setting(
        device, cmd, link, "names", "names_fault", "seat_names", device.app.referee.set_players
    ):
        return
    record = device.app.referee.record
    players = record.players if record is not None else None
    link.reply(cmd, {"ok": True, "names": device.config["names"], "players": players})


def season(device, cmd, link):
    # the season kept on the board: {"rules": "danish"} (or null) sets which rule set's games are
    # counted (kept in config.json); {"new": true} begins a new season, the old one kept as a file
    club = transient("ludus.club")
    if "rules" in cmd:
        rules = cmd["rules"]
        fault = transient("ludus.config").season_fault(rules)
        if fault:
            link.error(cmd, fault + ": nothing changed")
            return
        keep(device, "season", rules)
    rules = device.config["season"]
    new = cmd.get("new", False)
    if not isinstance(new, bool):
        link.error(cmd, "new must be true or false, not %r" % (new,))
        return
    if rules is None:
        if new:
            link.error(cmd, 'no season is kept: give its rule set, {"rules": "danish", "new": true}')
            return
        link.reply(cmd, {"ok": True, "rules": None, "season": None})
        return
    out = {"ok": True, "rules": rules}
    if new:
        out["kept_as"] = club.new_season(device.platform, rules)
    season, note = club.load(device.platform, rules)
    if note:
        device._fault("season", note)
        device.platform.write_file(club.SEASON_FILE, season.to_json())
    out["season"] = season.result()
    link.reply(cmd, out)


def games(device, cmd, link):
    last = cmd.get("last", device.config["games_kept"])
    if not isinstance(last, int) or isinstance(last, bool) or last < 0:
        link.error(cmd, "last must be a whole number of games, not %r" % (last,))
        return
    records = device.journal.records(min(last, device.config["games_kept"]))
    for k in range(len(records)):
        link.reply(cmd, {"ok": True, "game": k, "record": records[k]})
        device._feed()  # (a host slow to read holds each line up to 0.5 s)
    link.reply(cmd, {"ok": True, "count": len(records), "done": True})


def journal(device, cmd, link):
    # the game as restore takes it, but for its dice seed: that stays secret until the game ends
    # (the record carries its commitment), or anyone with a laptop could read the rolls ahead
    state = device.journal.state()
    if state is not None and "seed" in state:
        state["seed"] = None
    link.reply(cmd, {"ok": True, "state": state, "full": device.journal.full})


def file(device, cmd, link):
    # calibration's other hook: wiring.json or calibration.json sent in parts (a line holds 1 KB),
    # checked whole against this board, written whole (a new file renamed over the old), then a reset
    name = cmd.get("name")
    text = cmd.get("text")
    if device.board is None:
        link.error(cmd, "no board is loaded: %s" % (device.safe,))
        return
    if name not in ("wiring.json", "calibration.json") or not isinstance(text, str):
        link.error(cmd, 'file takes "name" (wiring.json or calibration.json) and "text"')
        return
    parts = device.parts if cmd.get("part") and device.parts and device.parts[0] == name else [name]
    parts.append(text)
    device.parts = None
    if sum([len(t) for t in parts[1:]]) > MAX_FILE:
        link.error(cmd, "%s: more than %d characters: nothing written" % (name, MAX_FILE))
        return
    if cmd.get("more"):
        device.parts = parts
        link.reply(cmd, {"ok": True, "part": len(parts) - 1})
        return
    whole = "".join(parts[1:])
    parts = None
    try:
        if name == "wiring.json":
            transient("ludus.board.wiring").check(device.board, whole)
        else:
            from ludus.sensing.calibration import Calibration

            if Calibration.from_json(whole).channel_count != device.board.channel_count:
                raise ValueError("not %d channels" % device.board.channel_count)
    except Exception as exc:
        link.error(cmd, "%s refused, nothing written: %s" % (name, exc))
        return
    device.platform.write_file(name, whole)
    link.reply(cmd, {"ok": True, "written": len(whole), "restart": True})
    device._reset_after_reply()
