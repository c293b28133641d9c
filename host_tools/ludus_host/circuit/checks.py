"""Checks of a netlist against the board definition it claims to implement: every cell's sensor reaches
the chip input (or multiplexer channel) of its channel, the sensor chain runs chip to chip to the Pico
and ends grounded, the LED chain runs in the definition's order, every chip has its supply and a
capacitor of its own. Each returns a list of faults, one line each, empty when the netlist is right.

    faults = check(netlist.parse(text), BoardDefinition.load(path), pins)
"""

from typing import Any

from ludus_host.circuit import designators as ref
from ludus_host.circuit import parts
from ludus_host.circuit.netlist import Netlist

# a ludus.board.definition.BoardDefinition: its tables are made when it loads, out of mypy's sight
Board = Any
# the Pico module carries its own regulator's capacitors (Raspberry Pi Pico datasheet, "Powering Pico")
SELF_DECOUPLED = {ref.PICO: "the Pico module decouples its own supply"}


def _through(nl: Netlist, net: str | None, kind: str = "R") -> set[str]:
    """NET and the nets one two-terminal part of prefix KIND away from it (a series resistor)."""
    if net is None:
        return set()
    out = {net}
    for node in nl.nets.get(net, []):
        if node.ref.rstrip("0123456789") == kind and len(nl.pins(node.ref)) == 2:
            for other in nl.pins(node.ref):
                if other.pin != node.pin:
                    out.add(nl.pin_net(other.ref, other.pin) or "")
    return out


def check_sensors(nl: Netlist, board: Board) -> list[str]:
    """Each cell's sensor is the one named for its channel, carries the cell's id, and its output is on
    the input of the chip (multiplexer) the channel names; a digital line has its pull-up."""
    faults = []
    analog = board.sensor_kind == "analog"
    for i, cid in enumerate(board.cell_ids):
        ch = board.channel_of_cell[i]
        h = ref.sensor(ch)
        comp = nl.components.get(h)
        if comp is None:
            faults.append("%s (channel %d): no sensor %s in the circuit" % (cid, ch, h))
            continue
        if comp.fields.get("Place") != cid:
            faults.append("%s: sensor %s is placed at %s, not %s" % (h, h, comp.fields.get("Place"), cid))
        out = nl.pin_net(h, "2")
        if analog:
            chip, pin = ref.chip(ch // 16), parts.CD74HC4067.pin("I%d" % (ch % 16))
            where = "%s I%d" % (chip, ch % 16)
        else:
            chip, pin = ref.chip(ch // 8), parts.HC165.pin(parts.HC165_INPUTS[ch % 8])
            where = ref.chip_input(ch)
        if out is None or nl.pin_net(chip, pin) != out:
            faults.append("%s (channel %d): sensor %s does not reach %s" % (cid, ch, h, where))
        elif not analog and "+3V3" not in _through(nl, out):
            faults.append("%s: the line of %s has no pull-up to +3V3" % (cid, h))
    sensors = {c for c in nl.components if c.startswith("H") and c[1:].isdigit()}
    wanted = {ref.sensor(board.channel_of_cell[i]) for i in range(board.cell_count)}
    for extra in sorted(sensors - wanted, key=ref.natural_key):
        faults.append("%s: a sensor on a channel no cell uses" % extra)
    return faults


def check_chain(nl: Netlist, board: Board, pins: dict) -> list[str]:
    """The 74HC165s: chip 0's QH reaches the Pico's data pin (with its pull-up), chip k+1's QH chip k's
    SER, the last SER is grounded, SH/LD and CLK reach every chip from the Pico, through their series
    resistors; unused inputs do not float."""
    if board.sensor_kind == "analog":
        return []
    faults = []
    s = pins["sensors"]
    chips = (board.channel_count + 7) // 8
    pico = lambda gp: parts.PICO.pin("GP%d" % gp)  # noqa: E731
    data = nl.pin_net(ref.PICO, pico(s["miso"]))
    if data is None or "+3V3" not in _through(nl, data):
        faults.append("the sensor data pin GP%d has no pull-up to +3V3" % s["miso"])
    load = _through(nl, nl.pin_net(ref.PICO, pico(s["load"])))
    clk = _through(nl, nl.pin_net(ref.PICO, pico(s["sck"])))
    for k in range(chips):
        u = ref.chip(k)
        if u not in nl.components:
            faults.append("chip %s (channels %d..%d) is missing" % (u, 8 * k, 8 * k + 7))
            continue
        qh = _through(nl, nl.pin_net(u, "9"))
        target = data if k == 0 else nl.pin_net(ref.chip(k - 1), "10")
        if target not in qh:
            faults.append(
                "%s's QH does not reach %s"
                % (u, "GP%d" % s["miso"] if k == 0 else ref.chip(k - 1) + "'s SER")
            )
        if k == chips - 1 and nl.pin_net(u, "10") != "GND":
            faults.append("%s is the last chip: its SER must be grounded" % u)
        if nl.pin_net(u, "1") not in load:
            faults.append("%s's SH/LD is not on GP%d" % (u, s["load"]))
        if nl.pin_net(u, "2") not in clk:
            faults.append("%s's CLK is not on GP%d" % (u, s["sck"]))
        for letter in parts.HC165_INPUTS:
            if nl.pin_net(u, parts.HC165.pin(letter)) is None:
                faults.append("%s input %s floats" % (u, letter))
    return faults


def check_leds(nl: Netlist, board: Board, places: dict[int, str]) -> list[str]:
    """LED k sits at the cell (or indicator) the definition gives index k, and its DIN is LED k-1's
    DOUT; LED 0's DIN comes from the level shifter through its series resistor."""
    faults = []
    for k in range(board.led_count):
        led = ref.led(k)
        comp = nl.components.get(led)
        if comp is None:
            faults.append("LED %d (%s): no %s in the circuit" % (k, places.get(k), led))
            continue
        if comp.fields.get("Place") != places.get(k):
            faults.append(
                "%s is placed at %s, the definition puts LED %d at %s"
                % (led, comp.fields.get("Place"), k, places.get(k))
            )
        din = nl.pin_net(led, "4")
        if k == 0:
            if nl.pin_net(ref.LEVEL_SHIFTER, "3") not in _through(nl, din):
                faults.append("LED0's DIN is not driven by %s's 1Y" % ref.LEVEL_SHIFTER)
        elif din is None or din != nl.pin_net(ref.led(k - 1), "2"):
            faults.append("%s's DIN is not %s's DOUT" % (led, ref.led(k - 1)))
    extra = [c for c in nl.components if c.startswith("LED") and int(c[3:]) >= board.led_count]
    for c in sorted(extra, key=ref.natural_key):
        faults.append("%s: more LEDs than the definition's %d" % (c, board.led_count))
    return faults


def check_supplies(nl: Netlist) -> list[str]:
    """Every chip, sensor and LED: each power pin on a named supply or ground, and a capacitor that is
    its own (field Decouples) across its supply and ground."""
    faults = []
    decoupling: dict[str, list[tuple[str | None, str | None]]] = {}
    for c in nl.components.values():
        if "Decouples" in c.fields:
            decoupling.setdefault(c.fields["Decouples"], []).append(
                (nl.pin_net(c.ref, "1"), nl.pin_net(c.ref, "2"))
            )
    for r, comp in sorted(nl.components.items(), key=lambda kv: ref.natural_key(kv[0])):
        if not (r.startswith(("U", "H")) or r.startswith("LED")):
            continue
        power = [n for n in nl.pins(r) if n.kind == "power_in"]
        if not power:
            faults.append("%s (%s) has no power pins connected" % (r, comp.part))
            continue
        rails = {nl.pin_net(r, n.pin) for n in power}
        if "GND" not in rails:
            faults.append("%s has no ground" % r)
        supplies = rails - {"GND"}
        if not supplies:
            faults.append("%s has no supply" % r)
        if r in SELF_DECOUPLED:
            continue
        caps = decoupling.get(r, [])
        for rail in supplies:
            if not any({a, b} == {rail, "GND"} for a, b in caps):
                faults.append("%s has no decoupling capacitor of its own on %s" % (r, rail))
    return faults


def places_of_leds(board: Board, definition: dict) -> dict[int, str]:
    """LED index: the id of the cell or indicator the definition puts it at."""
    out = {board.led_of_cell[i]: cid for i, cid in enumerate(board.cell_ids)}
    for ind in definition.get("indicators", []):
        out[ind["led"]] = ind["id"]
    return out


def check(nl: Netlist, board: Board, definition: dict, pins: dict) -> list[str]:
    """Every fault of netlist NL as the circuit of BOARD (its parsed file DEFINITION) with PINS."""
    return (
        check_sensors(nl, board)
        + check_chain(nl, board, pins)
        + check_leds(nl, board, places_of_leds(board, definition))
        + check_supplies(nl)
    )
