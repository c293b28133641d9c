"""The checking half of ludus.board.definition: finds every fault of a board definition, taking it cell
by cell so a file written one cell per line can be checked without holding the whole document in
memory."""

import json
from array import array

from ludus.board.places import (
    CHECKERS_POINTS,
    COLOURS,
    DIE_FACES,
    DIE_PIPS,
    DIRECTIONS,
    FORMAT,
    GAMES,
    INDICATOR_ROLES,
    LUDO_SHAPES,
    NO_CELL,
    NO_COLOUR,
    ROLE_HOLE,
    ROLE_TRACK,
    ROLES,
    SENSOR_KINDS,
    place_count,
    place_lookup,
    place_spec,
    seat_count,
    start_square,
)
from ludus.board.power import DEFAULT_BUDGET_MA
from ludus.errors import BoardDefinitionError
from ludus.scan import ascii_digits, repeated_key


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v):
    # a finite number of plausible size: no board is 10 m across (v - v is 0 unless v is inf or NaN)
    return (
        (isinstance(v, int) or isinstance(v, float))
        and not isinstance(v, bool)
        and v - v == 0
        and -10000 <= v <= 10000
    )


def _check_section(d, key, faults):
    section = d.get(key)
    if not isinstance(section, dict):
        faults.append("%s must be an object, found %r" % (key, section))
        return {}
    return section


def _positive_int(section, key, where, faults, minimum=1):
    # bounded before any table is made this size: a board has a few hundred channels and LEDs
    v = section.get(key)
    if not _is_int(v) or v < minimum or v > (20000 if where == "power" else 4096):
        faults.append(
            "%s.%s must be a whole number %d..%d, found %r"
            % (where, key, minimum, 20000 if where == "power" else 4096, v)
        )
        return None
    return v


def _number(section, key, where, faults, minimum=0):
    v = section.get(key)
    if not _is_number(v) or v < minimum:
        faults.append("%s.%s must be a number >= %s, found %r" % (where, key, minimum, v))
        return None
    return v


class _Users:
    """Who uses each channel or LED number: a compact table when the range is known and sane."""

    def __init__(self, limit):
        self.labels = []
        # array entries hold 1 + the claimer's position in labels; 0 is free
        self.table = array("H", bytes(2 * limit)) if limit is not None and limit <= 4096 else None
        self.by_number = {}

    def claim(self, v, label):
        # label: anything naming the claimer (an int index here); returns the first claimer's, or None
        table = self.table
        if table is None:
            first = self.by_number.get(v)
            if first is None:
                self.by_number[v] = label
            return first
        k = table[v]
        if k:
            return self.labels[k - 1]
        self.labels.append(label)
        table[v] = len(self.labels)
        return None


class _Text:
    """Strings kept as bytes in one growing buffer. Reading a file line by line, a kept str per cell
    would sit between each line's garbage and, once that is collected, leave the heap in small holes."""

    def __init__(self):
        self.buf = bytearray()
        self.spans = []  # start, end per string; start -1 when there is none

    def add(self, s):
        if isinstance(s, str) and s:
            start = len(self.buf)
            self.buf.extend(s.encode())
            self.spans.append(start)
            self.spans.append(len(self.buf))
        else:
            self.spans.append(-1)
            self.spans.append(-1)

    def free(self):
        self.buf = bytearray()
        self.spans = []

    def get(self, k):
        start = self.spans[2 * k]
        if start < 0:
            return None
        return str(self.buf[start : self.spans[2 * k + 1]], "utf-8")


class _Specs:
    """The places of a game as a sequence of place_spec tuples, made when asked for, and .get(name) ->
    place id or None: a list and a dict of every place would be the largest things on the heap while a
    board loads."""

    def __init__(self, game):
        self.game = game
        self.count = place_count(game) if game is not None else 0

    def __len__(self):
        return self.count

    def __getitem__(self, pid):
        return place_spec(self.game, pid)

    def get(self, name):
        return place_lookup(self.game, name) if isinstance(name, str) else None


class _Labels:
    """labels[k]: the id of cell k (k < n) or indicator k - n, made from the _Text buffers when asked
    for; "cells[k]" / "indicators[j]" when it has none."""

    def __init__(self, ids, ind_ids, n):
        self.ids = ids
        self.ind_ids = ind_ids
        self.n = n

    def _span(self, k):
        text = self.ids if k < self.n else self.ind_ids
        j = 2 * (k if k < self.n else k - self.n)
        return text, text.spans[j], text.spans[j + 1]

    def named(self, k):
        return self._span(k)[1] >= 0

    def key(self, k):
        text, start, end = self._span(k)
        return bytes(text.buf[start:end])

    def __getitem__(self, k):
        text, start, end = self._span(k)
        if start < 0:
            return "cells[%d]" % k if k < self.n else "indicators[%d]" % (k - self.n)
        return str(text.buf[start:end], "utf-8")


class _Checker:
    """Takes a definition cell by cell (so a file can be read one line at a time) into lists of small
    ints, float arrays and byte buffers, then checks everything that spans cells in finish().
    Faults collect in self.faults."""

    def __init__(self):
        self.faults = []
        self.header = {}  # the parsed top level, set by whoever feeds the checker
        self.specs = _Specs(None)  # the game's places, once the game is known
        self.place_index = self.specs  # place name -> id
        self.place = []
        self.cell_total = 0
        self.ids = _Text()  # cells, then indicators (in finish)
        self.places = _Text()
        self.labels = _Labels(self.ids, None, 0)  # made whole in _gather
        self.channel = []  # int, or None when not an integer
        self.led = []  # cells' LEDs, then the indicators' (joined in finish)
        self.role = []  # index into ROLES, or None
        self.colour = []  # index into COLOURS, NO_COLOUR for null, or None when bad
        self.x = array("f")
        self.y = array("f")
        self.r = array("f")  # 0 when the position is unusable
        self.ind_ids = _Text()
        self.ind_led = []
        self.ind_role = []  # a string of INDICATOR_ROLES (interned), or None
        self.ind_index = []
        self.ind_x = array("f")
        self.ind_y = array("f")
        self.ind_r = array("f")

    def _item(self, item, kind, i, ids):
        if not isinstance(item, dict):
            self.faults.append("%s[%d] must be an object, found %s" % (kind, i, type(item).__name__))
            ids.add(None)
            return None
        ident = item.get("id")
        if not isinstance(ident, str) or not ident:
            self.faults.append("%s[%d]: id must be a non-empty string, found %r" % (kind, i, ident))
            ident = "%s[%d]" % (kind, i)
            ids.add(None)
        else:
            ids.add(ident)
        return ident

    def _shape(self, item, label, xs, ys, rs):
        ok = True
        if item is not None:
            for key in ("x", "y"):
                if not _is_number(item.get(key)):
                    self.faults.append(
                        "%s: %s must be a number (millimetres), found %r" % (label, key, item.get(key))
                    )
                    ok = False
            r = item.get("r")
            if not _is_number(r) or r <= 0:
                self.faults.append("%s: r must be a positive number (millimetres), found %r" % (label, r))
                ok = False
        xs.append(item["x"] if ok and item is not None else 0)
        ys.append(item["y"] if ok and item is not None else 0)
        rs.append(item["r"] if ok and item is not None else 0)

    def _int(self, item, key, label):
        v = item.get(key) if item is not None else None
        if item is not None and not _is_int(v):
            self.faults.append("%s: %s must be an integer, found %r" % (label, key, v))
            return None
        return v

    def cell(self, c):
        """Take one cell object."""
        i = self.cell_total
        self.cell_total += 1
        label = self._item(c, "cells", i, self.ids)
        if label is None:
            c = None
            role = colour = place = None
        else:
            role = c.get("role")
            colour = c.get("colour")
            place = c.get("place")
        if role in ROLES:
            self.role.append(ROLES.index(role))
        else:
            self.role.append(None)
            if c is not None:
                self.faults.append("%s: role must be one of %s, found %r" % (label, ", ".join(ROLES), role))
        if colour in COLOURS:
            self.colour.append(COLOURS.index(colour))
        elif colour is None and c is not None:
            self.colour.append(NO_COLOUR)
        else:
            self.colour.append(None)
            if c is not None:
                self.faults.append(
                    "%s: colour must be null or one of %s, found %r" % (label, ", ".join(COLOURS), colour)
                )
        if c is not None and not isinstance(place, str):
            self.faults.append("%s: place must be a string, found %r" % (label, place))
        self.places.add(place)
        if c is not None:
            point = c.get("point")
            if point is not None and (not _is_int(point) or not 0 <= point < CHECKERS_POINTS):
                self.faults.append("%s: point must be null or 0..5, found %r" % (label, point))
        self._shape(c, label, self.x, self.y, self.r)
        self.channel.append(self._int(c, "channel", label))
        self.led.append(self._int(c, "led", label))

    def indicator(self, ind):
        """Take one indicator LED object."""
        label = self._item(ind, "indicators", len(self.ind_role), self.ind_ids)
        role = index = None
        if label is None:
            ind = None
        else:
            role = ind.get("role")
            index = ind.get("index")
            if role not in INDICATOR_ROLES:
                self.faults.append(
                    "%s: role must be one of %s, found %r" % (label, ", ".join(INDICATOR_ROLES), role)
                )
                role = None
            elif not _is_int(index) or index < 0:
                self.faults.append("%s: index must be an integer >= 0, found %r" % (label, index))
                role = None
            else:
                role = INDICATOR_ROLES[INDICATOR_ROLES.index(role)]  # the module's interned string
        self.ind_role.append(role)
        self.ind_index.append(index)
        self._shape(ind, label, self.ind_x, self.ind_y, self.ind_r)
        self.ind_led.append(self._int(ind, "led", label))

    def _gather(self):
        # Reading is over: check the ids for duplicates and join the tables. Labels (an id, or
        # "cells[k]" for a cell without one) are made on demand by self.labels[k], for messages: a list
        # of a str per cell would be the largest thing on the heap while a board loads.
        n = self.cell_total
        total = n + len(self.ind_role)
        self.labels = labels = _Labels(self.ids, self.ind_ids, n)
        # duplicates by sorting rather than a set: one list instead of a growing table
        order = sorted([k for k in range(total) if labels.named(k)], key=labels.key)
        for j in range(1, len(order)):
            if labels.key(order[j]) == labels.key(order[j - 1]):
                self.faults.append("id %s used twice" % labels[order[j]])
        self.led.extend(self.ind_led)
        self.x.extend(self.ind_x)
        self.y.extend(self.ind_y)
        self.r.extend(self.ind_r)

    def finish(self, d):
        """Check the header fields and everything across cells; returns the list of faults."""
        self._gather()
        faults = self.faults
        if d.get("format") != FORMAT:
            faults.append("format must be %r, found %r" % (FORMAT, d.get("format")))
        if not isinstance(d.get("name"), str) or not d.get("name"):
            faults.append("name must be a non-empty string, found %r" % (d.get("name"),))
        game = d.get("game")
        if game not in GAMES:
            faults.append("game must be one of %s, found %r" % (", ".join(GAMES), game))
            game = None
        direction = d.get("direction")
        if game == "checkers":
            if direction is not None:
                faults.append("direction must be null for checkers, found %r" % (direction,))
        elif game is not None and direction not in DIRECTIONS:
            faults.append("direction must be one of %s, found %r" % (", ".join(DIRECTIONS), direction))
        if d.get("units", "mm") != "mm":
            faults.append("units must be 'mm', found %r" % (d.get("units"),))

        sensors = _check_section(d, "sensors", faults)
        if sensors and sensors.get("kind") not in SENSOR_KINDS:
            faults.append(
                "sensors.kind must be one of %s, found %r" % (", ".join(SENSOR_KINDS), sensors.get("kind"))
            )
        channels = _positive_int(sensors, "channels", "sensors", faults) if sensors else None
        if sensors and "bank_size" in sensors:
            _positive_int(sensors, "bank_size", "sensors", faults)
        leds = _check_section(d, "leds", faults)
        led_count = _positive_int(leds, "count", "leds", faults) if leds else None
        if leds:
            _number(leds, "ma_per_channel", "leds", faults)
            if "idle_ma" in leds:
                _number(leds, "idle_ma", "leds", faults)
        if "power" in d:
            power = _check_section(d, "power", faults)
            if power:
                supply = _positive_int(power, "supply_ma", "power", faults)
                reserved = _positive_int(power, "reserved_ma", "power", faults, 0)
                if supply is not None and reserved is not None and reserved >= supply:
                    faults.append(
                        "power.reserved_ma (%d) must be below power.supply_ma (%d)" % (reserved, supply)
                    )
        if not self.cell_total:
            faults.append("cells must be a non-empty list")

        self._check_numbers("channel", self.channel, channels, "sensors.channels = %s" % channels)
        self._check_numbers("led", self.led, led_count, "leds.count = %s" % led_count)
        self._check_indicator_sets(game)
        if game is not None:
            self._check_places(game, d)
            if game != "checkers" and "seats" in d:
                _check_seats(game, d["seats"], faults)
        self._check_overlaps()
        return faults

    def _check_numbers(self, key, values, limit, what):
        users = _Users(limit)
        labels = self.labels
        for i in range(len(values)):
            v = values[i]
            if v is None:
                continue
            if limit is not None and not 0 <= v < limit:
                self.faults.append("%s: %s %d out of range 0..%d (%s)" % (labels[i], key, v, limit - 1, what))
                continue
            first = users.claim(v, i)
            if first is not None:
                self.faults.append("%s %d used twice: by %s and %s" % (key, v, labels[first], labels[i]))

    def _check_indicator_sets(self, game):
        faults = self.faults
        seen = {"turn": {}, "die-pip": {}, "die-waiting": {}}
        base = len(self.role)
        for k in range(len(self.ind_role)):
            role = self.ind_role[k]
            if role is None:
                continue
            index = self.ind_index[k]
            label = self.labels[base + k]
            if index in seen[role]:
                faults.append(
                    "%s index %d used twice: by %s and %s" % (role, index, seen[role][index], label)
                )
            else:
                seen[role][index] = label
        turn = seen["turn"]
        if turn and game:
            seats = seat_count(game)
            for s in range(seats):
                if s not in turn:
                    faults.append("turn indicator for seat %d is missing (one per seat, or none)" % s)
            for s in turn:
                if s >= seats:
                    faults.append("%s: seat %d out of range 0..%d" % (turn[s], s, seats - 1))
        pips = seen["die-pip"]
        if game and game != "checkers" and not pips:
            faults.append("the die display needs %d die-pip indicators, found none" % DIE_PIPS)
        for p in pips:
            if p >= DIE_PIPS:
                faults.append("%s: pip %d out of range 0..%d" % (pips[p], p, DIE_PIPS - 1))
        if pips:
            for p in range(DIE_PIPS):
                if p not in pips:
                    faults.append("die pip %d is missing" % p)
        waiting = seen["die-waiting"]
        for k in waiting:
            if k >= len(waiting):
                faults.append(
                    "%s: die-waiting indices must run 0..%d without gaps" % (waiting[k], len(waiting) - 1)
                )

    def members(self, name):
        """Cell indices whose place is `name` (a place of the game)."""
        pid = self.place_index.get(name)
        place = self.place
        return [i for i in range(len(place)) if place[i] == pid and pid is not None]

    def _check_places(self, game, d):
        faults = self.faults
        specs = _Specs(game)
        self.specs = specs
        index = specs
        needed = [0] * len(ROLES)
        for pid in range(len(specs)):
            spec = specs[pid]
            needed[spec[1]] += spec[3]
        self.place_index = index
        n = self.cell_total
        place: list = [None] * n
        slots = bytearray(len(specs))
        for i in range(n):
            name = self.places.get(i)
            if name is None:
                continue
            found = index.get(name)
            if found is None:
                faults.append("%s: unknown place %r for game %s" % (self.labels[i], name, game))
                continue
            place[i] = found
            if slots[found] < 255:
                slots[found] += 1
        self.place = place
        self.places.free()
        have = [0] * len(ROLES)
        for role in self.role:
            if role is not None:
                have[role] += 1
        for role in range(len(ROLES)):
            if needed[role] != have[role]:
                faults.append(
                    "game %s needs %d %s cells, found %d" % (game, needed[role], ROLES[role], have[role])
                )
        for pid in range(len(specs)):
            name, _, _, count = specs[pid]
            if not slots[pid]:
                faults.append("place %s has no cell" % name)
            elif slots[pid] != count:
                labels = ", ".join(self.labels[i] for i in self.members(name))
                if count > 1:
                    faults.append(
                        "zone %s has %d slots (%s), expected %d" % (name, slots[pid], labels, count)
                    )
                else:
                    faults.append("place %s has %d cells (%s), expected 1" % (name, slots[pid], labels))
        track = LUDO_SHAPES[game][0] if game in LUDO_SHAPES else 0
        for i in range(n):
            if place[i] is None:
                continue
            name, want_role, want_colour, _ = specs[place[i]]
            label = self.labels[i]
            role = self.role[i]
            colour = self.colour[i]
            if role is not None and role != want_role:
                faults.append(
                    "%s: role %s does not fit place %s (a %s)" % (label, ROLES[role], name, ROLES[want_role])
                )
            if colour is None:
                continue
            shown = None if colour == NO_COLOUR else COLOURS[colour]
            if want_colour >= 0 and colour != want_colour:
                faults.append(
                    "%s: colour %r does not fit place %s (%s)" % (label, shown, name, COLOURS[want_colour])
                )
            if want_role == ROLE_TRACK and colour != NO_COLOUR:
                start = "t%d" % (colour * track // len(COLOURS))
                if name != start:
                    faults.append("%s: only %s's start square %s may be %s" % (label, shown, start, shown))
            if want_role == ROLE_HOLE and colour != NO_COLOUR:
                faults.append("%s: holes have colour null, found %r" % (label, shown))
        self._check_zones(d, specs, index)

    def _check_zones(self, d, specs, index):
        faults = self.faults
        zones = d.get("zones", [])
        if not isinstance(zones, list):
            faults.append("zones must be a list, found %s" % type(zones).__name__)
            return
        listed = {}
        for i in range(len(zones)):
            z = zones[i]
            if not (
                isinstance(z, dict) and isinstance(z.get("place"), str) and isinstance(z.get("cells"), list)
            ):
                faults.append("zones[%d] must be an object with a place string and a cells list" % i)
                continue
            place = z["place"]
            pid = index.get(place)
            if pid is None or specs[pid][3] < 2:
                faults.append("zones[%d]: %r is not a zone place" % (i, place))
                continue
            if place in listed:
                faults.append("zone %s listed twice" % place)
                continue
            listed[place] = True
            members = [self.labels[k] for k in self.members(place)]
            for ident in z["cells"]:
                if ident not in members:
                    faults.append("zone %s lists %r, which is not a cell of place %s" % (place, ident, place))
            for ident in members:
                if ident not in z["cells"]:
                    faults.append("zone %s omits its cell %s" % (place, ident))
        for pid in range(len(specs)):
            spec = specs[pid]
            if spec[3] > 1 and spec[0] not in listed and self.members(spec[0]):
                faults.append("zone %s is not listed under zones" % spec[0])

    def _check_overlaps(self):
        xs = self.x
        ys = self.y
        rs = self.r
        order = sorted([k for k in range(len(rs)) if rs[k] > 0], key=lambda k: xs[k])
        if not order:
            return
        rmax = max(rs[k] for k in order)
        n = len(order)
        for i in range(n):
            a = order[i]
            xi = xs[a]
            yi = ys[a]
            ri = rs[a]
            for j in range(i + 1, n):
                b = order[j]
                dx = xs[b] - xi
                if dx >= ri + rmax:
                    break
                dy = ys[b] - yi
                reach = ri + rs[b]
                if dx * dx + dy * dy < reach * reach:
                    self.faults.append(
                        "%s and %s overlap: centres %.1f mm apart, radii %.1f + %.1f mm"
                        % (self.labels[a], self.labels[b], (dx * dx + dy * dy) ** 0.5, ri, rs[b])
                    )


def _check_seats(game, seats, faults):
    track = LUDO_SHAPES[game][0]
    if not isinstance(seats, list) or len(seats) != len(COLOURS):
        faults.append("seats must be a list of %d objects, one per colour" % len(COLOURS))
        return
    for s in range(len(COLOURS)):
        seat = seats[s]
        if not isinstance(seat, dict):
            faults.append("seats[%d] must be an object" % s)
            continue
        if seat.get("colour") != COLOURS[s]:
            faults.append("seats[%d].colour must be %r, found %r" % (s, COLOURS[s], seat.get("colour")))
        start = "t%d" % start_square(game, s)
        if seat.get("start") != start:
            faults.append("seats[%d].start must be %s, found %r" % (s, start, seat.get("start")))
        entry = seat.get("entry")
        number = entry[1:] if isinstance(entry, str) and entry[:1] == "t" else ""
        if not ascii_digits(number, 3) or int(number) >= track:
            faults.append("seats[%d].entry must be a track place t0..t%d, found %r" % (s, track - 1, entry))


def check_dict(d):
    """Feed a whole parsed definition to a checker; returns the checker (faults in .faults)."""
    checker = _Checker()
    if not isinstance(d, dict):
        checker.faults.append("a board definition must be a JSON object, found %s" % type(d).__name__)
        return checker
    cells = d.get("cells")
    if isinstance(cells, list):
        for c in cells:
            checker.cell(c)
    elif cells is not None:
        checker.faults.append("cells must be a list, found %s" % type(cells).__name__)
    indicators = d.get("indicators", [])
    if isinstance(indicators, list):
        for ind in indicators:
            checker.indicator(ind)
    else:
        checker.faults.append("indicators must be a list, found %s" % type(indicators).__name__)
    checker.finish(d)
    return checker


def stream(f, source="board definition", feed=None):
    """Read a definition laid out one cell (and indicator) per line, as the generator writes it, without
    holding the whole document: returns a checker, or None when the layout is different. feed(), if
    given, is called every few lines (the firmware's watchdog: a board takes a second or two to read
    on a Pico)."""
    checker = _Checker()
    header = []
    section = None
    lines = 0
    for line in f:
        s = line.strip()
        lines += 1
        if feed is not None and lines & 15 == 0:
            feed()
        if section is not None:
            if s == "]" or s == "],":
                header.append(s)
                section = None
                continue
            try:
                item = json.loads(s[:-1] if s.endswith(",") else s)
            except ValueError:
                return None
            _once_each(s, source)
            if section == "cells":
                checker.cell(item)
            else:
                checker.indicator(item)
        elif s == '"cells": [' or s == '"indicators": [':
            section = s[1 : s.index('"', 1)]
            header.append(s)
        else:
            header.append(s)
    if section is not None:
        return None
    text = "".join(header)
    try:
        d = json.loads(text)
    except ValueError:
        return None
    _once_each(text, source)
    if not isinstance(d, dict) or d.get("cells") or d.get("indicators"):
        return None
    checker.finish(d)
    checker.header = d
    return checker


def _once_each(text, where):
    # a key named twice in one object: refused (ludus.scan.repeated_key)
    k = repeated_key(text)
    if k is not None:
        raise BoardDefinitionError("%s: key %r appears twice in one object" % (where, k))


def fail(source, faults):
    raise BoardDefinitionError(
        "%s has %d fault%s:\n%s" % (source, len(faults), "" if len(faults) == 1 else "s", "\n".join(faults))
    )


# ---- reading a definition (BoardDefinition.load, from_json, from_dict call these) ----


def load(cls, path, feed=None):
    """Read and check a board definition file. A file laid out one cell per line (as the generator
    writes it) is read line by line, so the whole document is never in memory at once. feed(): see
    stream()."""
    try:
        f = open(path)
    except OSError as exc:
        raise BoardDefinitionError("cannot read board definition %s: %s" % (path, exc)) from None
    try:
        checker = stream(f, path, feed)
        if checker is None:
            f.seek(0)
            text = f.read()
            _once_each(text, path)
            try:
                d = json.loads(text)
            except ValueError as exc:
                raise BoardDefinitionError("%s is not valid JSON: %s" % (path, exc)) from None
            except (RuntimeError, MemoryError):  # RecursionError on CPython; a heap too small for it
                raise BoardDefinitionError("%s is not valid JSON: nested too deeply" % path) from None
            checker = check_dict(d)
            checker.header = d
    finally:
        f.close()
    return build(cls, checker, path)


def from_json(cls, text, source="board definition"):
    """Parse and check a board definition from JSON text."""
    _once_each(text, source)
    try:
        d = json.loads(text)
    except ValueError as exc:
        raise BoardDefinitionError("%s is not valid JSON: %s" % (source, exc)) from None
    except (RuntimeError, MemoryError):  # RecursionError on CPython; a heap too small for it
        raise BoardDefinitionError("%s is not valid JSON: nested too deeply" % source) from None
    return from_dict(cls, d, source)


def from_dict(cls, d, source="board definition"):
    """Check a parsed definition; raise BoardDefinitionError listing every fault, one per line."""
    checker = check_dict(d)
    checker.header = d
    return build(cls, checker, source)


def build(cls, checker, source):
    """A cls (BoardDefinition) with the tables of a checked definition; BoardDefinitionError listing
    every fault if the checker found any."""
    if checker.faults:
        fail(source, checker.faults)
    board = cls()
    _build(board, checker)
    return board


def _build(self, checker):
    d = checker.header
    self.name = d["name"]
    self.game = d["game"]
    self.direction = d.get("direction")
    sensors = d["sensors"]
    leds = d["leds"]
    power = d.get("power", {})
    self.sensor_kind = sensors["kind"]
    self.channel_count = sensors["channels"]
    self.bank_size = sensors.get("bank_size", self.channel_count)
    self.led_count = leds["count"]
    self.ma_per_channel = leds["ma_per_channel"]
    self.idle_ma = leds.get("idle_ma", 0)
    self.supply_ma = power.get("supply_ma", 500)
    self.reserved_ma = power.get("reserved_ma", 0)
    # worked out while the reader is loaded, so the referee need not load the vocabulary or the power
    # figures again for them
    usb = DEFAULT_BUDGET_MA
    self._led_budget_ma = min(usb, self.supply_ma - self.reserved_ma)
    self.die_faces = DIE_FACES

    n = checker.cell_total
    self.cell_count = n
    self.place_count = len(checker.specs)
    # Cell ids kept as one UTF-8 bytes and end offsets (a tuple of n strings would cost ~50 bytes each on
    # the heap); cell_ids / cell_id(i) give them back. Place names are made on demand (place_names).
    ids = checker.ids
    self._id_bytes = bytes(ids.buf[: ids.spans[2 * n - 1]])
    ends = array("H", bytes(2 * n))
    for i in range(n):
        ends[i] = ids.spans[2 * i + 1]
    self._id_end = ends
    self.channel_of_cell = array("H", checker.channel)
    self.led_of_cell = array("H", checker.led[:n])
    self.role_of_cell = array("B", checker.role)
    self.colour_of_cell = array("B", checker.colour)
    self.cell_x = array("h", [int(checker.x[i] + 0.5) for i in range(n)])
    self.cell_y = array("h", [int(checker.y[i] + 0.5) for i in range(n)])
    self.cell_r = array("h", [int(checker.r[i] + 0.5) for i in range(n)])
    self.place_of_cell = array("H", checker.place)
    # cells grouped by place: those of place p are _by_place[_place_start[p]:_place_start[p + 1]]
    start = array("H", bytes(2 * (self.place_count + 1)))
    for i in range(n):
        start[checker.place[i] + 1] += 1
    for p in range(self.place_count):
        start[p + 1] += start[p]
    fill = array("H", start)
    by_place = array("H", bytes(2 * n))
    for i in range(n):
        pid = checker.place[i]
        by_place[fill[pid]] = i
        fill[pid] += 1
    self._place_start = start
    self._by_place = by_place
    self.cell_of_channel = array("H", [NO_CELL] * self.channel_count)
    for i in range(n):
        self.cell_of_channel[self.channel_of_cell[i]] = i

    groups = {"turn": {}, "die-pip": {}, "die-waiting": {}}
    for k in range(len(checker.ind_role)):
        groups[checker.ind_role[k]][checker.ind_index[k]] = checker.led[n + k]
    self.turn_leds = _ordered(groups["turn"])
    self.die_pip_leds = _ordered(groups["die-pip"])
    self.waiting_leds = _ordered(groups["die-waiting"])


def _ordered(by_index):
    return array("H", [by_index[k] for k in sorted(by_index)])
