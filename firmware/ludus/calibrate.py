"""The calibration and wiring-map wizard (docs/calibration.md): it drives a board over its USB link, lights
one LED after another, and from where a person puts a magnet it learns which sensor channel and which LED
each cell really has; on an analog board it records each cell's levels with no magnet, one and two. It
names the faults it meets (stuck, noisy and dead sensors, dark LEDs, a chain that stops) and writes the
wiring map (ludus.board.wiring) and the calibration (ludus.sensing.calibration) the firmware loads.

    wizard = Wizard(board, port, person, progress=None, save=None)
    result = wizard.run()      # {"wiring": {...}, "calibration": text or None, "faults": [...], ...}

port: ask(cmd, **fields) -> the reply (a dict), wait(ms). person: say(text); act(step, check) -> what
check() returned once it was not None, or the word the person gave ("ready", "skip", "nothing",
"light"); choose(question, choices, default) -> one of choices or a cell id typed. `ludus calibrate`
is the person at a terminal (ludus_host.commands.calibrate); tests put a simulated person at a mis-wired
board. Plain Python that runs on MicroPython too (its tests run on both), but it is a laptop's tool:
`ludus flash`, the freezing manifest and mip leave it off the board (ludus_host.build.packaging).

progress is what save(progress) was last given (a dict that JSON keeps): an interrupted run resumes
from it at the LED it had reached."""

from ludus.errors import LudusError
from ludus.runtime import const

SAMPLES = 8  # readings of the empty board
NOISE = 2000  # an analog channel spreading wider than this with no magnet is noisy
DETECT = 3000  # an analog channel this far from its empty level sees a magnet
RAIL_LOW = 500
RAIL_HIGH = 65000
ASSUME_AFTER = 2  # answers showing one pattern before the wizard assumes the rest follow it
_GROUPS = (("turn", "turn_leds"), ("die-pip", "die_pip_leds"), ("die-waiting", "waiting_leds"))
# what the progress keeps of a cell found, by index: progress["cells"][cell id] is [channel, LED, the level
# with one magnet, with two] (None for what was not found; a list, as JSON keeps it)
_CHANNEL = const(0)
_LED = const(1)
_ONE = const(2)
_TWO = const(3)


class CalibrationError(LudusError):
    """The board cannot be calibrated: it does not answer, refuses, or is not the board expected."""


class Wizard:
    def __init__(self, board, port, person, progress=None, save=None):
        self.board = board
        self.port = port
        self.person = person
        self.save = save
        self.analog = board.sensor_kind == "analog"
        n = board.channel_count
        # the definition's owner of each LED: ("cell", i) or (group, k)
        self.owner = {}
        for i in range(board.cell_count):
            self.owner[board.led_of_cell[i]] = ("cell", i)
        for group, attr in _GROUPS:
            for k, led in enumerate(getattr(board, attr)):
                self.owner[led] = (group, k)
        self.ids = {}
        for i in range(board.cell_count):
            self.ids[board.cell_id(i)] = i
        saved = progress or {}
        if saved and (saved.get("board") != board.game or saved.get("channels") != n):
            raise CalibrationError(
                "the saved progress is for board %r with %r channels, not this %s: start again"
                % (saved.get("board"), saved.get("channels"), board.game)
            )
        self.progress = {
            "format": "ludus-calibration-progress",
            "board": board.game,
            "channels": n,
            "empty": saved.get("empty"),  # per channel: the median with no magnet
            "spread": saved.get("spread"),
            "stuck": saved.get("stuck", []),
            "noisy": saved.get("noisy", []),
            "next": saved.get("next", 0),  # the LED the walk goes on from
            "cells": saved.get("cells", {}),  # cell id: [channel, LED, level one, level two]
            "dark": saved.get("dark", []),
            "lights": saved.get("lights", {}),  # indicator "group k": LED
            "dead": saved.get("dead", []),  # cell ids whose sensor does not react
            "answers": saved.get("answers", []),  # [cell, LED, channel] the person named
            "pending": saved.get("pending", []),  # LEDs lighting no cell, to be named
            "assumed": saved.get("assumed", []),
            "asked": saved.get("asked", 0),
            "missing_done": saved.get("missing_done", False),
        }

    # ---- talking to the board --------------------------------------------------------------------

    def levels(self):
        reply = self.port.ask("levels")
        lv = reply.get("levels")
        if not isinstance(lv, list) or len(lv) != self.board.channel_count:
            raise CalibrationError(
                "the board reads %s sensor channels, the definition has %d: is it the board it says?"
                % (len(lv) if isinstance(lv, list) else "no", self.board.channel_count)
            )
        return lv

    def _keep(self):
        if self.save is not None:
            self.save(self.progress)

    # ---- the steps -------------------------------------------------------------------------------

    def run(self):
        board = self.board
        say = self.person.say
        hello = self.port.ask("hello")
        if hello.get("safe_mode"):
            say("the board is in safe mode (%s): calibrating what it can" % hello["safe_mode"])
        self.port.ask("light", leds=[])
        try:
            if self.progress["next"]:
                say("resuming: %d of %d LEDs done" % (self.progress["next"], board.led_count))
            self.empty_board()
            self.walk()
            self.missing()
        finally:
            try:
                self.port.ask("light", leds=[])  # the game's lights again
            except Exception:  # (the board went away: what was learnt is kept all the same)
                pass
        return self.result()

    def empty_board(self):
        """Every piece off: each channel read SAMPLES times, stuck and noisy channels found, and an
        analog board's empty levels kept."""
        self.person.act({"do": "clear"}, None)
        n = self.board.channel_count
        reads = []
        for _ in range(SAMPLES):
            reads.append(self.levels())
            self.port.wait(30)
        if self.progress["empty"] is not None and self.progress["next"]:
            empty = self.progress["empty"]  # (resumed: the walk's baseline stays the one it began with)
        else:
            empty = [sorted([r[c] for r in reads])[SAMPLES // 2] for c in range(n)]
        spread = [max([r[c] for r in reads]) - min([r[c] for r in reads]) for c in range(n)]
        stuck = []
        noisy = []
        for c in range(n):
            if self.analog:
                if spread[c] > NOISE:
                    noisy.append(c)
                elif empty[c] <= RAIL_LOW or empty[c] >= RAIL_HIGH:
                    stuck.append(c)
            else:
                on = sum([r[c] for r in reads])
                if on == SAMPLES:
                    stuck.append(c)
                elif on:
                    noisy.append(c)
        self.progress["empty"] = empty
        self.progress["spread"] = spread
        self.progress["stuck"] = stuck
        self.progress["noisy"] = noisy
        for c in stuck:
            self.person.say("%s reads a magnet with none there" % self.channel_name(c))
        for c in noisy:
            self.person.say("%s changes with no magnet near it" % self.channel_name(c))
        self._keep()

    def channel_name(self, c):
        cell = self.board.cell_of_channel[c]
        if cell == 0xFFFF:
            return "channel %d (no cell on the drawing)" % c
        return "channel %d (%s on the drawing)" % (c, self.board.cell_id(cell))

    def _seen(self, lv, used):
        # the channels that see a magnet now (stuck, noisy and already learnt ones aside)
        empty = self.progress["empty"]
        bad = self.progress["stuck"] + self.progress["noisy"]
        out = []
        for c in range(len(lv)):
            if c in bad or c in used:
                continue
            if (abs(lv[c] - empty[c]) >= DETECT) if self.analog else lv[c] != empty[c]:
                out.append(c)
        return out

    def _magnet_check(self, used):
        # check(): the one channel that sees a magnet on two readings running, with its level
        last = [None]

        def check():
            lv = self.levels()
            seen = self._seen(lv, used)
            if len(seen) == 1 and last[0] == seen[0]:
                return {"channel": seen[0], "level": lv[seen[0]]}
            last[0] = seen[0] if len(seen) == 1 else None
            self.port.wait(40)
            return None

        return check

    def _used_channels(self):
        return [v[_CHANNEL] for v in self.progress["cells"].values() if v[_CHANNEL] is not None]

    def walk(self):
        """Each LED lit in turn; a magnet on the lit cell says which channel is there."""
        board = self.board
        progress = self.progress
        while progress["next"] < board.led_count:
            k = progress["next"]
            self.port.ask("light", leds=[k], rgb=[255, 255, 255])
            got = self.person.act({"do": "magnet", "led": k}, self._magnet_check(self._used_channels()))
            if got == "skip":
                progress["dark"].append(k)
            elif got == "light":
                progress["pending"].append(k)  # named once the walk is done (a pattern may name it then)
            elif got == "nothing":
                cell = self._which_cell(k, None)
                if cell is not None:
                    progress["dead"].append(cell)
                    progress["cells"][cell] = [None, k, None, None]
            elif isinstance(got, dict):
                self._learnt(k, got)
            progress["next"] = k + 1
            self._keep()
        self.port.ask("light", leds=[])
        while progress["pending"]:
            self._indicator(progress["pending"][0])
            progress["pending"].pop(0)
            self._keep()

    def _learnt(self, k, got):
        c = got["channel"]
        one = got["level"] if self.analog else None
        two = None
        if self.analog:
            two = self.person.act({"do": "stack", "led": k}, self._stack_check(c, one))
            two = two["level"] if isinstance(two, dict) else None
        self.person.act({"do": "lift", "led": k}, self._lift_check())
        cell = self._which_cell(k, c)
        if cell is not None:
            self.progress["cells"][cell] = [c, k, one, two]

    def _stack_check(self, c, one):
        # a second magnet: the level moves on past one, the same way
        empty = self.progress["empty"][c]
        up = one > empty
        last = [None]

        def check():
            v = self.levels()[c]
            further = v - one >= DETECT // 2 if up else one - v >= DETECT // 2
            if further and last[0] is not None and abs(v - last[0]) < DETECT // 2:
                return {"channel": c, "level": v}
            last[0] = v if further else None
            self.port.wait(40)
            return None

        return check

    def _lift_check(self):
        def check():
            if not self._seen(self.levels(), ()):
                return {"clear": True}
            self.port.wait(40)
            return None

        return check

    def _indicator(self, k):
        # which die pip or turn light LED k is: the drawing's, or the one the LED pattern the answers
        # showed puts there, or the person's answer
        choices = self._free_indicators()
        if not choices:
            return
        for led in [k] + self._unmoved("led", k):
            owner = self.owner.get(led)
            name = "%s %d" % owner if owner and owner[0] != "cell" else None
            if name in choices:
                self.progress["lights"][name] = k
                return
        self.port.ask("light", leds=[k], rgb=[255, 255, 255])
        name = self.person.choose("LED %d lights no cell: which light is it?" % k, choices, choices[0])
        self.port.ask("light", leds=[])
        if name in choices:
            self.progress["lights"][name] = k

    def _unmoved(self, side, number):
        # where the drawing has NUMBER, by the pattern the answers showed (a list: empty if none)
        top = (self.board.led_count if side == "led" else self.board.channel_count) - 1
        moved = self._moved(side)
        if len(moved) < ASSUME_AFTER:
            return []
        if all(got == top - was for was, got in moved):
            return [top - number]
        shift = moved[0][1] - moved[0][0]
        if all(got - was == shift for was, got in moved):
            return [number - shift]
        return []

    def _free_indicators(self):
        out = []
        for group, attr in _GROUPS:
            for j in range(len(getattr(self.board, attr))):
                name = "%s %d" % (group, j)
                if name not in self.progress["lights"]:
                    out.append(name)
        return out

    def _which_cell(self, k, c):
        """The cell at LED k and channel c (None: a dead sensor). Where the drawing agrees, that one;
        where only one side names a cell (the other a light, nothing, no cell), that one; where the
        person's answers have shown one side of the wiring moved in a pattern (the chain reversed, or
        shifted along) and the pattern puts this LED or channel on one of the two cells, that one;
        otherwise the person is asked."""
        board = self.board
        progress = self.progress
        owner = self.owner.get(k)
        by_led = board.cell_id(owner[1]) if owner and owner[0] == "cell" else None
        by_channel = None
        if c is not None and board.cell_of_channel[c] != 0xFFFF:
            by_channel = board.cell_id(board.cell_of_channel[c])
        taken = progress["cells"]
        if by_led is not None and by_led == by_channel and by_led not in taken:
            return by_led
        if c is None:  # no sensor reacts: the LED alone says where, as drawn or as the pattern moved it
            drawn = self._unmoved("led", k)
            if drawn:
                owner = self.owner.get(drawn[0])
                by_led = board.cell_id(owner[1]) if owner and owner[0] == "cell" else None
            elif self._moved("led"):
                by_led = None  # (LEDs moved, in no pattern: the person says)
            if by_led is not None and by_led not in taken:
                return by_led
        elif by_led is None or by_channel is None:
            cell = by_led if by_channel is None else by_channel
            if cell is not None and cell not in taken:
                return cell
        else:
            for cell, side, number in ((by_channel, "led", k), (by_led, "channel", c)):
                if cell not in taken and self._pattern(side, cell, number):
                    progress["assumed"].append(cell)
                    return cell
        candidates = [x for x in (by_led, by_channel) if x is not None and x not in taken]
        question = "LED %d%s: which cell is it?" % (k, "" if c is None else " and channel %d" % c)
        choices = candidates or [x for x in sorted(self.ids) if x not in taken]
        if not choices:
            return None
        answer = self.person.choose(question, choices, choices[0])
        progress["asked"] += 1
        if answer not in self.ids or answer in taken:
            return None
        progress["answers"].append([answer, k, c])
        return answer

    def _drawn(self, side, cell):
        i = self.ids[cell]
        return self.board.led_of_cell[i] if side == "led" else self.board.channel_of_cell[i]

    def _moved(self, side):
        # (as drawn, as found) for each answered cell whose SIDE ("led" or "channel") moved
        moved = []
        for answer, k, c in self.progress["answers"]:
            got = k if side == "led" else c
            if got is not None and got != self._drawn(side, answer):
                moved.append((self._drawn(side, answer), got))
        return moved

    def _pattern(self, side, cell, number):
        """Whether the person's answers show SIDE moved in one pattern (the chain wired from its other
        end, or shifted along by a part more or less at its start) that puts NUMBER on CELL."""
        return self._unmoved(side, number) == [self._drawn(side, cell)]

    def missing(self):
        """Cells the walk did not find (a dark LED beside them): a magnet on each, named."""
        progress = self.progress
        if progress["missing_done"]:
            return
        for i in range(self.board.cell_count):
            cell = self.board.cell_id(i)
            if cell in progress["cells"]:
                continue
            got = self.person.act({"do": "cell", "cell": cell}, self._magnet_check(self._used_channels()))
            if isinstance(got, dict):
                one = got["level"] if self.analog else None
                two = None
                if self.analog:
                    two = self.person.act(
                        {"do": "stack", "cell": cell}, self._stack_check(got["channel"], one)
                    )
                    two = two["level"] if isinstance(two, dict) else None
                self.person.act({"do": "lift", "cell": cell}, self._lift_check())
                progress["cells"][cell] = [got["channel"], None, one, two]
            elif got == "nothing":
                progress["dead"].append(cell)
                progress["cells"][cell] = [None, None, None, None]
            self._keep()
        progress["missing_done"] = True
        self._keep()

    # ---- what was learnt -------------------------------------------------------------------------

    def result(self):
        """What was learnt: the wiring map (cells and indicators, the drawing's numbers where nothing was
        found), the analog calibration, the faults and the notes on how the wiring differs."""
        board = self.board
        faults = []
        chans = self._channels()
        calibration = None
        levels = []
        if self.analog:  # (first, while the heap is least broken up: MicroPython runs this too)
            calibration, levels = self._calibration(chans, faults)
        leds, lights, groups = self._leds()
        self._faults(chans, leds, lights, faults)
        cells = {}
        for i in range(board.cell_count):  # (in the definition's order)
            cell = board.cell_id(i)
            cells[cell] = [chans[cell], leds[cell]]
        wiring = {
            "format": "ludus-wiring",
            "version": 1,
            "board": board.game,
            "cells": cells,
            "indicators": groups,
            "faults": faults,
        }
        return {
            "wiring": wiring,
            "calibration": calibration,
            "levels": levels,
            "faults": faults,
            "notes": self._notes(chans, leds),
            "asked": self.progress["asked"],
        }

    def _channels(self):
        # {cell id: channel}: as found, else the drawing's channel where it is still free, else a free
        # one (a stuck or noisy channel first: the cell's sensor is most likely the faulty one)
        board = self.board
        progress = self.progress
        chans = {}
        for cell, found in progress["cells"].items():
            if found[_CHANNEL] is not None:
                chans[cell] = found[_CHANNEL]
        free_ch = [c for c in range(board.channel_count) if c not in chans.values()]
        bad_ch = [c for c in free_ch if c in progress["stuck"] or c in progress["noisy"]]
        for i in range(board.cell_count):
            cell = board.cell_id(i)
            if cell not in chans:
                ch = board.channel_of_cell[i]
                if ch not in free_ch:
                    ch = (bad_ch or free_ch)[0]
                free_ch.remove(ch)
                if ch in bad_ch:
                    bad_ch.remove(ch)
                chans[cell] = ch
        return chans

    def _leds(self):
        # ({cell id: LED}, {indicator "group k": LED}, {group: [LED, ...]}): as found, else the
        # drawing's LED where it is still free, else a free one (a dark one first)
        board = self.board
        progress = self.progress
        leds = {}
        for cell, found in progress["cells"].items():
            if found[_LED] is not None:
                leds[cell] = found[_LED]
        lights = dict(progress["lights"])
        dark = progress["dark"]
        used = list(leds.values()) + list(lights.values())
        free_led = [k for k in range(board.led_count) if k not in used]
        for i in range(board.cell_count):
            cell = board.cell_id(i)
            if cell not in leds:
                led = board.led_of_cell[i]
                if led not in free_led:
                    led = ([x for x in free_led if x in dark] or free_led)[0]
                free_led.remove(led)
                leds[cell] = led
        groups = {}
        for group, attr in _GROUPS:
            table = []
            for j, led in enumerate(getattr(board, attr)):
                name = "%s %d" % (group, j)
                if name not in lights:
                    if led not in free_led:
                        led = ([x for x in free_led if x in dark] or free_led)[0]
                    free_led.remove(led)
                    lights[name] = led
                table.append(lights[name])
            if table:
                groups[group] = table
        return leds, lights, groups

    def _faults(self, chans, leds, lights, faults):
        # the faults, each once, in words, added to FAULTS
        # (lookups by a search, not dicts: only a few faults are named, and MicroPython's heap is tight)
        board = self.board
        progress = self.progress
        dark = progress["dark"]

        def owner_of_channel(c):
            for cell in chans:
                if chans[cell] == c:
                    return cell
            return "no cell"

        def led_owner(k):
            for table in (leds, lights):
                for name in table:
                    if table[name] == k:
                        return name
            return "?"

        for c in progress["stuck"]:
            where = owner_of_channel(c)
            what = "sits at the end of its range" if self.analog else "reads a magnet with none there"
            faults.append("stuck sensor: channel %d (%s) %s" % (c, where, what))
        for c in progress["noisy"]:
            faults.append(
                "noisy sensor: channel %d (%s) changes with no magnet near it" % (c, owner_of_channel(c))
            )
        for cell in progress["dead"]:
            if chans[cell] not in progress["stuck"] and chans[cell] not in progress["noisy"]:
                faults.append(
                    "dead sensor: %s does not react to a magnet (channel %d?)" % (cell, chans[cell])
                )
        tail = board.led_count
        while tail - 1 in dark:
            tail -= 1
        for k in dark:
            if k < tail or tail == board.led_count - 1:
                faults.append("dark LED: LED %d (%s) gives no light" % (k, led_owner(k)))
        if board.led_count - tail > 1:
            faults.append(
                "the LED chain goes dark from LED %d (%s) on: look at that LED's data in, and the data out "
                "of the one before it" % (tail, led_owner(tail))
            )

    def _notes(self, chans, leds):
        # how the wiring differs from the drawing, said as a maker would look for it
        board = self.board
        assumed = self.progress["assumed"]
        notes = []
        moved_ch = [
            board.cell_id(i)
            for i in range(board.cell_count)
            if chans[board.cell_id(i)] != board.channel_of_cell[i]
        ]
        moved_led = [
            board.cell_id(i)
            for i in range(board.cell_count)
            if leds[board.cell_id(i)] != board.led_of_cell[i]
        ]
        cells_n = board.cell_count
        if moved_led and all(
            leds[board.cell_id(i)] == board.led_count - 1 - board.led_of_cell[i] for i in range(cells_n)
        ):
            notes.append("the LED chain runs the other way round from the drawing")
        elif moved_led:
            notes.append("%d cells have another LED than the drawing says" % len(moved_led))
        swaps = []
        for cell in moved_ch:
            i = self.ids[cell]
            other = board.cell_of_channel[chans[cell]]
            if other != 0xFFFF:
                o = board.cell_id(other)
                if chans.get(o) == board.channel_of_cell[i] and (o, cell) not in swaps:
                    swaps.append((cell, o))
        for a, b in swaps:
            notes.append(
                "the sensors of %s and %s are swapped (channels %d and %d)" % (a, b, chans[b], chans[a])
            )
        if moved_ch and len(swaps) * 2 != len(moved_ch):
            notes.append("%d cells have another sensor channel than the drawing says" % len(moved_ch))
        if assumed:
            notes.append(
                "%d cells were placed as the answers before them showed (check them: %s)"
                % (len(assumed), ", ".join(assumed[:6]) + (" ..." if len(assumed) > 6 else ""))
            )
        return notes

    def _calibration(self, chans, faults):
        # the levels of each cell's channel; outliers (far from the other cells') and unusable levels
        # named, and nominal levels in their place so that the file loads
        from ludus.sensing.calibration import DEFAULT_MIN_GAP, Calibration

        board = self.board
        progress = self.progress
        empty = progress["empty"]
        cal = Calibration(board.channel_count)
        rows = []
        deltas1 = []
        deltas2 = []
        for cell in sorted(chans):
            c = chans[cell]
            found = progress["cells"].get(cell, (None, None, None, None))
            one, two = found[_ONE], found[_TWO]
            rows.append([cell, c, empty[c], one, two, ""])
            if one is not None:
                deltas1.append(abs(one - empty[c]))
                if two is not None:
                    deltas2.append(abs(two - one))
        med1 = _median(deltas1) or 9000
        med2 = _median(deltas2) or med1
        dev1 = max(_median([abs(d - med1) for d in deltas1]) or 0, med1 // 20)
        for row in rows:
            cell, c, e, one, two, _ = row
            sign = 1
            if one is not None and one < e:
                sign = -1
            flags = []
            if one is None:
                flags.append("no reading")
            elif abs(abs(one - e) - med1) > 4 * dev1:
                flags.append("outlier")
                faults.append(
                    "outlier: %s reads %d with one magnet, %d off empty; the others are %d off: a sensor "
                    "mounted at another height, or a weaker magnet" % (cell, one, abs(one - e), med1)
                )
            if c in progress["noisy"]:
                flags.append("noisy")
            row[5] = " ".join(flags)
            use_one = one if one is not None else _clip(e + sign * med1)
            use_two = two if two is not None else _clip(use_one + sign * med2)
            if abs(use_one - e) < DEFAULT_MIN_GAP or abs(use_two - use_one) < DEFAULT_MIN_GAP:
                faults.append(
                    "%s: its levels %d, %d, %d are too close to tell apart" % (cell, e, use_one, use_two)
                )
                use_one = _clip(e + sign * med1)
                use_two = _clip(use_one + sign * med2)
            cal.set(c, e, use_one, use_two)
        for c in range(board.channel_count):
            if cal.get(c) is None:  # a channel no cell uses: nominal levels beside its empty reading
                e = min(max(empty[c], 4096), 65535 - 2 * 9000 - 4096)
                cal.set(c, e, e + 9000, e + 18000)
        cal.validate()
        import gc

        gc.collect()  # (the JSON text wants whole blocks of a heap the readings broke up)
        return cal.to_json(), rows


def _median(values):
    if not values:
        return None
    return sorted(values)[len(values) // 2]


def _clip(v):
    return 0 if v < 0 else 65535 if v > 65535 else v
