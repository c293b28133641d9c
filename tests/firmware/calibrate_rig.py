"""A board built with its wiring not as the drawing says, a device (ludus.device) running on it on the fake
platform, and a simulated person who puts magnets where the board lights up: what the calibration
wizard (ludus.calibrate) is tested against. MicroPython-compatible (tests/firmware/test_calibrate*.py
run on both runtimes)."""

import json

from ludus.board.definition import BoardDefinition
from ludus.calibrate import CalibrationError
from ludus.hw.fake import FakeFlash, FakePlatform
from support import root

GAMES = {
    "ludo40": "ludo/hebrew-40",
    "ludo52": "ludo/classic",
    "ludo56": "ludo/hebrew-56",
    "checkers": "checkers",
}
ANALOG_EMPTY = 32768
ANALOG_STEP = 9000  # what each stacked magnet adds on an analog channel


def board_path(name, analog=False):
    """The committed definition, or (analog) a copy of it with analog sensors, written under /tmp."""
    path = root() + "/hardware/boards/%s.json" % name
    if not analog:
        return path
    with open(path) as f:
        text = f.read()
    text = text.replace('"sensors": {"kind": "digital"', '"sensors": {"kind": "analog"')
    out = "/tmp/ludus-calibrate-%s-analog.json" % name
    with open(out, "w") as f:
        f.write(text)
    return out


class _Noisy:
    # the mux inputs, one channel jittering by +-spread on every reading (a pseudo-random walk)
    def __init__(self, inputs, channel, spread):
        self.inputs = inputs
        self.channel = channel
        self.spread = spread
        self.x = 12345

    def __getitem__(self, i):
        v = self.inputs[i]
        if i == self.channel:
            self.x = (self.x * 1103515245 + 12345) & 0x7FFFFFFF
            v += self.x % (2 * self.spread + 1) - self.spread
        return v

    def __setitem__(self, i, v):
        self.inputs[i] = v

    def __len__(self):
        return len(self.inputs)


def truth(table, board, swap=(), reverse_leds=False):
    """The board as built, set on TABLE: ids, true_channel and true_led (cell id: number), lights
    (indicator name "turn 0": its true LED), at_led (LED: the cell or light beside it)."""
    n = board.cell_count
    table.ids = [board.cell_id(i) for i in range(n)]
    table.true_channel = {}
    table.true_led = {}
    for i in range(n):
        table.true_channel[table.ids[i]] = board.channel_of_cell[i]
        table.true_led[table.ids[i]] = board.led_of_cell[i]
    for a, b in swap:
        table.true_channel[a], table.true_channel[b] = table.true_channel[b], table.true_channel[a]
    table.lights = {}
    for group, attr in (("turn", "turn_leds"), ("die-pip", "die_pip_leds"), ("die-waiting", "waiting_leds")):
        for k, led in enumerate(getattr(board, attr)):
            table.lights["%s %d" % (group, k)] = led
    if reverse_leds:
        last = board.led_count - 1
        for cell in table.true_led:
            table.true_led[cell] = last - table.true_led[cell]
        for name in table.lights:
            table.lights[name] = last - table.lights[name]
    table.at_led = {}
    for cell, led in table.true_led.items():
        table.at_led[led] = cell
    for light, led in table.lights.items():
        table.at_led[led] = light


class BareBoard:
    """The four link commands the wizard uses (hello, levels, light, file refused), answered straight from
    the board's drivers with no referee: what the MicroPython runs use, since a Ludo device and the
    wizard together do not fit the 64-bit unix port's 160K heap. The whole device (ludus.device) is
    what the CPython runs and the emulated Pico's test (tests/host/test_calibrate_pico.py) talk to."""

    def __init__(self, platform, board):
        from ludus.config import read_config
        from ludus.link import Link

        self.board = board
        self.hw = platform.hardware(read_config(platform.read_file("config.json"))[0], board)
        self.link = Link(platform.usb(), platform.out)
        n = board.channel_count
        self.levels = (
            bytearray(n) if board.sensor_kind == "digital" else __import__("array").array("H", bytes(2 * n))
        )

    def tick(self, now, wdt):
        cmd = self.link.poll()
        if cmd is None:
            return
        name = cmd["cmd"]
        if name == "hello":
            self.link.reply(cmd, {"ok": True, "board": self.board.game, "safe_mode": None})
        elif name == "levels":
            self.hw["sensors"].read(self.levels)
            self.link.reply(cmd, {"ok": True, "levels": list(self.levels)})
        elif name == "light":
            frame = bytearray(3 * self.board.led_count)
            for led in cmd.get("leds") or ():
                frame[3 * led : 3 * led + 3] = b"\xff\xff\xff"
            self.hw["pixels"].write(frame)
            self.link.reply(cmd, {"ok": True})
        else:
            self.link.error(cmd, "not on a bare board")


class Table:
    """The board as built: true_channel and true_led per cell (the definition's, then the faults
    below), and a device that believes the definition (or a wiring.json in files).

    swap: pairs of cell ids whose sensor lines are crossed. reverse_leds: the LED chain wired from the
    other end. dead, stuck: cell ids whose sensor never reacts / always reads a magnet. dark: LED
    indices that give no light. noisy: a cell id whose analog level jitters. weak: a cell whose analog
    sensor sees half the field of the others."""

    def __init__(
        self,
        name="ludo40",
        analog=False,
        swap=(),
        reverse_leds=False,
        dead=(),
        stuck=(),
        dark=(),
        noisy=None,
        weak=None,
        files=None,
        device=True,
    ):
        path = board_path(name, analog)
        self.analog = analog
        self.files = files if files is not None else {}
        self.files["config.json"] = json.dumps({"board": name, "game": GAMES[name]})
        self.platform = FakePlatform(self.files, {"boards/%s.json" % name: path}, flash=FakeFlash(2, 1024))
        self.lines = []
        self.magnets = {}  # cell id: magnets on it
        self.noisy = noisy
        self._wire()
        if device:
            from ludus.device import Device

            self.device = Device(self.platform, out=self.lines.append, seed=bytes(32))
            self.boot()
            # (the device's board, as the drawing has it: a second copy would not fit MicroPython's heap)
            self.board = board = self.device.board
            if "wiring.json" in self.files:
                board = BoardDefinition.load(path)
        else:
            self.platform.out = self.lines.append
            self.board = board = BoardDefinition.load(path)
            self.device = BareBoard(self.platform, board)
        truth(self, board, swap, reverse_leds)
        self.dead = dead
        self.stuck = stuck
        self.dark = dark
        self.weak = weak  # a cell whose sensor sits lower: half the step per magnet
        if noisy is not None:
            self.platform.bank.inputs = _Noisy(self.platform.bank.inputs, self.true_channel[noisy], 4000)
        self.sense()

    def _wire(self):
        orig = self.platform.hardware
        table = self

        def hardware(config, board):
            hw = orig(config, board)
            if table.noisy is not None and hasattr(table, "true_channel"):
                bank = table.platform.bank
                bank.inputs = _Noisy(bank.inputs, table.true_channel[table.noisy], 4000)
            table.sense()
            return hw

        self.platform.hardware = hardware

    wdt = None

    def boot(self):
        p = self.platform
        self.wdt = p.start_watchdog(5000)
        self.device.wdt = self.wdt
        self.device.boot()

    def sense(self):
        """Put the magnets on the sensor lines as the board is really wired."""
        p = self.platform
        if not hasattr(self, "true_channel"):  # (the device's first boot, before the truth is known)
            return
        for cell in self.ids:
            ch = self.true_channel[cell]
            count = self.magnets.get(cell, 0)
            if cell in self.dead:
                count = 0
            if cell in self.stuck:
                count = 1
            if self.analog:
                step = ANALOG_STEP // 2 if cell == self.weak else ANALOG_STEP
                p.bank.inputs[ch] = ANALOG_EMPTY + step * count
            else:
                p.chain.lines[ch] = 0 if count else 1

    def tick(self, ms=20):
        from ludus.hw.fake import FakeReset

        p = self.platform
        p.now += ms
        try:
            self.device.tick(p.now, self.wdt)
        except FakeReset:  # (machine.reset(): the board starts again from its files)
            from ludus.device import Device

            self.device = Device(p, out=self.lines.append, seed=bytes(32))
            self.boot()

    def lit(self):
        """The LED indices the chain shows lit now (the frame last sent)."""
        last = self.platform.strip.last
        return [k for k in range(len(last) // 3) if last[3 * k] or last[3 * k + 1] or last[3 * k + 2]]


class Port:
    """The wizard's side of the USB link, in this process: each request is fed to the device's serial
    port and the device ticked until it answers."""

    def __init__(self, table):
        self.table = table
        self.ident = 0
        self.asked = 0

    def ask(self, cmd, **fields):
        t = self.table
        self.ident += 1
        self.asked += 1
        req = {"cmd": cmd, "id": self.ident}
        for k in fields:
            req[k] = fields[k]
        t.platform.serial.feed((json.dumps(req) + "\n").encode())
        for _ in range(100):
            t.tick()
            while t.lines:
                line = t.lines.pop(0)
                item = json.loads(line)
                if item.get("id") == self.ident and "reply" in item:
                    if item.get("ok") is False:
                        raise CalibrationError("%s refused: %s" % (cmd, item.get("error")))
                    return item
        raise CalibrationError("no answer to %s" % cmd)

    def wait(self, ms):
        for _ in range(max(1, ms // 20)):
            self.table.tick()
        del self.table.lines[:]


class Person:
    """Someone at the board who does what the wizard says, truthfully: a magnet on the cell beside the
    lit LED (found by looking at the frame the chain shows), "skip" when it stays dark, "light" when the
    lit LED is a die pip or a turn light, and "nothing" after a while when the board does not react."""

    def __init__(self, table, patience=12, stop_after=None):
        self.table = table
        self.patience = patience
        self.stop_after = stop_after  # a LED count after which the person walks away (an interruption)
        self.said = []
        self.asked = []
        self.at = None  # the cell the person's magnet is on
        self.steps = 0

    def say(self, text):
        self.said.append(text)

    def _wait(self, check):
        for _ in range(self.patience):
            got = check()
            if got is not None:
                return got
        return None

    def act(self, step, check):
        t = self.table
        do = step["do"]
        if do == "clear":
            t.magnets = {}
            t.sense()
            return "ready"
        if do == "magnet":
            self.steps += 1
            if self.stop_after is not None and self.steps > self.stop_after:
                raise KeyboardInterrupt()
            lit = t.lit()
            assert lit == [step["led"]], (lit, step)
            k = lit[0]
            if k in t.dark:
                return "skip"
            what = t.at_led[k]
            if what not in t.true_channel:
                return "light"
            return self._put(what, check)
        if do == "cell":
            return self._put(step["cell"], check)
        if do == "stack":
            t.magnets[self.at] = 2
            t.sense()
            return self._wait(check) or "skip"
        if do == "lift":
            t.magnets = {}
            t.sense()
            self.at = None
            return self._wait(check)
        raise AssertionError("unknown step %r" % (step,))

    def _put(self, cell, check):
        t = self.table
        self.at = cell
        t.magnets = {cell: 1}
        t.sense()
        got = self._wait(check)
        if got is None:  # nothing happens: the person takes the magnet off and says so
            t.magnets = {}
            t.sense()
            self.at = None
            return "nothing"
        return got

    def choose(self, question, choices, default):
        self.asked.append(question)
        if self.at is not None:
            return self.at
        k = int(question.split()[1].rstrip(":"))  # "LED 17 ...": what is beside LED 17
        return self.table.at_led.get(k, default)
