"""The USB link's commands but for the few the device answers itself (levels, frame, light): what
the board is and how it runs (hello, help, state, stats, config, stop, reset), its settings
(set_config, new_game, bots, names, season, file) and what it keeps (games, journal, journal_clear)
(docs/usb-protocol.md). Each is a function of the device it acts on (ludus.device.Device), the
command and the link.

They are used now and then, never in the middle of a move, so where the firmware's code sits in the
heap (`ludus flash`'s files mode, ludus.runtime.CODE_IN_RAM) this module is loaded for each command
and dropped again: its code would otherwise take a few KB of a Ludo game's heap for good."""

import gc
import json
import sys

from ludus import MICROPYTHON_VERSION, __version__
from ludus.link import PROTOCOL
from ludus.referee.states import PLAY
from ludus.runtime import const, mem_free, transient

MAX_FILE = const(16384)  # the most text the `file` command takes for one file


def set_config(device, cmd, link):
    new = cmd.get("config")
    if not isinstance(new, dict):
        link.error(cmd, 'set_config takes {"config": {...}}: the whole config.json as an object')
        return
    text = json.dumps(new)
    config_mod = transient("ludus.config")
    config, faults = config_mod.read_config(text)
    if device.board is not None and not faults and config["board"] == device.config["board"]:
        fault = config_mod.budget_fault(config["budget_ma"], device.board)
        if fault:
            faults.append(fault)
    if faults:
        link.reply(cmd, {"ok": False, "error": "config refused, nothing changed", "faults": faults})
        return
    if device.config is not None and config["journal_kb"] != device.config["journal_kb"]:
        # the journal's flash range moves with it: the game would be lost, and on a ROMFS build
        # the range could reach into the code (ludus flash checks that; this command cannot)
        link.error(cmd, "journal_kb changes only with ludus flash: nothing changed")
        return
    app = device.app
    if app is not None and config["game"] == device.config["game"] and _in_play(app.referee):
        # the game in play goes on after the reset with the new config's bots: noted now, as the
        # `bots` command notes them, for the record does not say which seats the board plays
        # (names need no note here: the restore compares them with the record's players)
        was = _bot_seats(app.referee)
        now = _bot_seats(app.referee, config_mod.bot_seats(config))
        if now != was:
            _note(device, {"bots": now, "was": was})
    device.platform.write_file("config.json", text)
    link.reply(cmd, {"ok": True, "restart": True})
    device._reset_after_reply()


def new_game(device, cmd, link):
    game = cmd.get("game", device.config["game"])
    if not isinstance(game, str) or not game.startswith(("ludo/", "checkers")):
        link.error(cmd, "game must be a preset (ludo/RULES or checkers...), not %r" % (game,))
        return
    kind = "checkers" if game.startswith("checkers") else "ludo"
    if not device.board.game.startswith(kind):  # (said before another game's rules take the heap)
        link.error(cmd, "cannot start %r on this board: it is a %s board" % (game, device.board.game))
        return
    try:  # the preset, and on this board, before anything is given up
        first = next(iter(transient("ludus.referee.presets").adapter_for(game).starts()))
        device.board.bind(first[1].place_names)
        first = None
    except Exception as exc:
        link.error(cmd, "cannot start %r on this board: %s" % (game, exc))
        return
    ref = device.app.referee
    if device.journal.unfinished():
        device.app._keep(())  # (every action of it on flash first: the record says where it ended)
        device.journal.end(json.dumps("abandoned"))
        record = ref.record
        if _in_play(ref) and record.actions and device.config["season"]:
            # the season shows it: a game given up half way is not a game nobody played
            transient("ludus.club").report(device, "abandoned", record, ref.game)
        record = None
    ref = None
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


def _in_play(ref):
    # True while a game is being played (not in setup, not over)
    return ref.game is not None and ref.phase == PLAY


def _note(device, note):
    # a note on the game in play (ludus.record.notes): into its record and into the journal after
    # the actions taken so far, so that a power cut keeps it and `ludus verify` shows it
    app = device.app
    app._keep(())  # (the game's start and every action on flash first: the note comes after them)
    device.journal.note(json.dumps(note))
    transient("ludus.record.notes").add(app.referee.record, note)


def _bot_seats(ref, levels=None):
    # {"1": "strong"}: the game in play's seats the board plays, or would play with LEVELS
    # ({seat: level}, a config's), None between games
    if not _in_play(ref):
        return None
    seats = ref.game.seats
    if levels is None:
        levels = ref.bot_levels()
    return {str(s): levels[s] for s in (range(seats) if isinstance(seats, int) else seats) if s in levels}


def bots(device, cmd, link):
    # the seats the board plays: {"bots": {"red": "strong"}} sets them (in the game in play too: its
    # record notes the change) and keeps them in config.json; without "bots", the reply says which
    ref = device.app.referee
    was = _bot_seats(ref)
    if "bots" in cmd and not _seat_setting(
        device, cmd, link, "bots", "bots_fault", "bot_seats", ref.set_bots
    ):
        return
    now = _bot_seats(ref)
    if was is not None and now != was:
        _note(device, {"bots": now, "was": was})
    link.reply(cmd, {"ok": True, "bots": device.config["bots"]})


def names(device, cmd, link):
    # what the players are called: {"names": {"red": "Anna"}} sets them (in the game in play too: its
    # record takes them and notes the change) and keeps them in config.json; without "names", the
    # reply says which they are
    ref = device.app.referee
    was = ref._named() if _in_play(ref) else None
    if "names" in cmd and not _seat_setting(
        device, cmd, link, "names", "names_fault", "seat_names", ref.set_players
    ):
        return
    if was is not None and ref._named() != was:
        _note(device, {"names": ref._named(), "was": was})
    record = ref.record
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
    # one game at a time: its record read from flash and written out piece by piece, so that neither
    # its actions' texts nor its JSON are ever whole in the heap (a long Ludo game's line is 20 KB)
    journal = device.journal
    sent = 0
    for where in journal.finished_games(min(last, device.config["games_kept"])):
        record = journal.record_at(where, device._feed)
        if record is None:
            continue
        if not _send_record(device, cmd, link, sent, record):
            return  # (a host that stopped reading: the rest would wait for it in vain)
        sent += 1
        record = None
        gc.collect()
    link.reply(cmd, {"ok": True, "count": sent, "done": True})


def _send_record(device, cmd, link, k, record):
    # {"reply": "games", "id": ..., "ok": true, "game": k, "record": "<the record's JSON>"}
    writer = device.writer
    if writer is None:  # (a platform whose lines go elsewhere: the whole line at once)
        link.reply(cmd, {"ok": True, "game": k, "record": record.to_json()})
        return True
    head = {"reply": cmd.get("cmd")}
    if "id" in cmd:
        head["id"] = cmd["id"]
    head.update({"ok": True, "game": k})
    out = _Pieces(writer, device._feed)
    out.put(json.dumps(head)[:-1] + ', "record": "')
    record.write_json(out)  # (each piece escaped: the record's JSON is a string in the reply's)
    out.put('"}\n')
    return out.flush()


class _Pieces:
    # the record's JSON, piece by piece as the codec makes it, escaped and gathered into writes of
    # about 256 bytes (one per action would cost more than the writing), the watchdog fed at each
    def __init__(self, writer, feed):
        self.writer = writer
        self.feed = feed
        self.parts = []
        self.size = 0
        self.ok = True

    def write(self, text):
        self.put(json.dumps(text)[1:-1])

    def put(self, text):
        self.parts.append(text)
        self.size += len(text)
        if self.size >= 256:
            self.flush()

    def flush(self):
        if self.ok and self.parts:
            self.feed()
            self.ok = self.writer.send("".join(self.parts), self.feed)
        self.parts = []
        self.size = 0
        return self.ok


def journal(device, cmd, link):
    # the game as restore takes it, but for its dice seed: that stays secret until the game ends
    # (the record carries its commitment), or anyone with a laptop could read the rolls ahead
    state = device.journal.state()
    if state is not None and "seed" in state:
        state["seed"] = None
    link.reply(cmd, {"ok": True, "state": state, "full": device.journal.full})


def journal_clear(device, cmd, link):
    # every block of the journal erased (the unfinished game and the finished ones with it), then a
    # reset; works in safe mode too, the way back from a game that cannot be restored
    journal = device.journal
    if journal is not None:
        flash = journal.flash
    else:
        kb = (device.config or transient("ludus.config").defaults())["journal_kb"]
        if kb < 8:
            link.error(cmd, "no journal on flash to clear")
            return
        flash = device.platform.journal_flash(kb)
    count = flash.ioctl(4, 0)
    for n in range(count):
        flash.ioctl(6, n)
        device._feed()  # (45 ms an erase, up to 400)
    device.journal = None
    link.reply(cmd, {"ok": True, "erased": count, "restart": True})
    device._reset_after_reply()


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


# ---- the board's own state (docs/usb-protocol.md) --------------------------------------------------


def hello(device, cmd, link):
    config = device.config or {}  # (none yet when boot failed before reading config.json)
    out = {
        "ok": True,
        "protocol": PROTOCOL,
        "firmware": __version__,
        "micropython": MICROPYTHON_VERSION,
        "board": config.get("board"),
        "game": config.get("game"),
        "safe_mode": device.safe,
        "recovery": device.recovery,
        "platform": device.platform.name,
        "test_hooks": device.hooks is not None,
        "reset_cause": device.cause,
    }
    _where(device, out)  # (a host that comes back learns where the game is)
    link.reply(cmd, out)


def _where(device, out):
    # the referee's phase and situation, and the actions so far, of the game in play
    if device.app is not None:
        ref = device.app.referee
        out["referee"] = ref.describe()
        out["actions"] = len(ref.record.actions) if ref.record is not None else 0


def resync(device):
    """A host that read nothing for a while (lines were dropped) reads again: a `hello` event tells it
    how many lines it missed and where the game is."""
    writer = device.writer
    ev = {"event": "hello", "dropped": writer.dropped - device.told_dropped}
    device.told_dropped = writer.dropped
    _where(device, ev)
    device._say(ev)


def help(device, cmd, link):
    link.reply(cmd, {"ok": True, "commands": list(device_commands())})


def device_commands():
    return sys.modules["ludus.device"]._COMMANDS


def state(device, cmd, link):
    ref = device.app.referee
    out = {"ok": True, "referee": ref.describe()}
    if ref.game is not None:
        out["position"] = ref.game.notation()
        out["actions"] = len(ref.record.actions)
        out["commitment"] = ref.record.seed_sha256
    link.reply(cmd, out)


def stats(device, cmd, link):
    s = dict(device.stats)
    if s["ticks"] < 1024 and s["ticks"]:
        s["mean_us"] = s["window_us"] // s["ticks"]
    del s["window_us"]
    parts = device.worst_parts
    s["worst_book_us"], s["worst_referee_us"], s["worst_frame_us"], s["worst_rest_us"] = parts
    s["worst_step_us"] = s["worst_us"] - parts[3]
    j = device.journal
    journal = None
    if j is not None:
        journal = {
            "erases": j.erases,
            "programmed": j.programmed,
            "full": j.full,
            "blocks": j.count,
            "ready": len(j.ready),
        }
    writer = device.writer
    link.reply(
        cmd,
        {
            "ok": True,
            "tick": s,
            "free": mem_free(),
            "journal": journal,
            "link": {
                "received": link.received,
                "refused": link.refused,
                "dropped": writer.dropped if writer is not None else 0,
                "stalls": writer.stalls if writer is not None else 0,
            },
        },
    )


def config(device, cmd, link):
    link.reply(cmd, {"ok": True, "config": device.config})


def stop(device, cmd, link):
    link.reply(cmd, {"ok": True})
    raise sys.modules["ludus.device"].Stop("stopped by the stop command")


def reset(device, cmd, link):
    link.reply(cmd, {"ok": True})
    device._reset_after_reply()
