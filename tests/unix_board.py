"""The firmware of a staged tree (ludus flash --stage DIR --march x64) on the MicroPython unix port,
with the fake drivers of ludus.hw.fake in place of the Pico's. MicroPython only.

    micropython -X heapsize=256K tests/unix_board.py DIR              # the link on stdin/stdout
    micropython -X heapsize=256K tests/unix_board.py DIR --tape FILE  # replay a recorded session
    micropython -X heapsize=256K tests/unix_board.py DIR --flash FILE --config JSON  # a board used before

Interactive: the board's USB link is this process's stdin and stdout, the clock is real, the board is
empty (`ludus monitor exec:"micropython ... tests/unix_board.py DIR"` talks to it).

--tape: a session recorded from `ludus play` (ludus_host.virtual.tape): each line one tick of the simulated
board, its time, the sensor lines when they changed, the button's event, a power cut (clean, or in
the middle of the next journal write). The device's clock follows the tape tick by tick: each wait of
the loop takes the tape's next tick, and App.moved() reports a change at every read, so that the
loop's first read between ticks starts the next tick and the device ticks with the tape, as `ludus
play` does (the reads between ticks themselves: tests/firmware/test_device_scan.py). Its events
and LED frames are printed as JSON lines with the tick's time, and after a power cut a new device
boots from the same flash and pieces, as a Pico would."""

import gc
import json
import sys


def _tree_paths(tree):
    sys.path.insert(0, tree + "/lib")


class PowerOff(BaseException):
    """The power goes: everything but the flash and the pieces is lost (not a fault the loop catches)."""


def _files(tree, game=None):
    with open(tree + "/config.json") as f:
        text = f.read()
    config = json.loads(text)
    if game is not None:
        config.update(game)
    return {"config.json": json.dumps(config)}, {
        "boards/%s.json" % config["board"]: tree + "/boards/%s.json" % config["board"]
    }


def interactive(tree, flash_image=None, config=None):
    from ludus.device import Device
    from ludus.hw.fake import FakeFlash, FakePlatform
    from ludus.hw.usb import UsbSerial

    class Stdin(UsbSerial):
        # the end of the input (the host closed the pipe) ends the run, as unplugging would
        def readinto(self, buf):
            n = UsbSerial.readinto(self, buf)
            if not n and self._ready():
                raise SystemExit(0)
            return n

    files, paths = _files(tree, json.loads(config) if config else None)
    flash = FakeFlash(8, 4096)
    if flash_image:  # the journal's flash as a board left it (its games), 8 blocks of 4 KiB
        with open(flash_image, "rb") as f:
            flash.data[:] = f.read()
    platform = FakePlatform(files, paths, flash=flash, serial=Stdin(), realtime=True)
    try:
        Device(platform).run()
    except SystemExit:
        pass


class TapeButton:
    def __init__(self):
        self.event = 0

    def poll(self, now_ms):
        return self.event


def replay(tree, tape_path):
    from ludus.app import App
    from ludus.device import Device

    App.moved = lambda self, now_ms: True  # (the tape's ticks are the device's: see the module's doc)
    from ludus.hw.fake import FakeFlash, FakePlatform, PowerCut

    with open(tape_path) as f:
        head = json.loads(f.readline())
        ticks = [json.loads(line) for line in f]
    files, paths = _files(tree, head["config"])
    seed = bytes.fromhex(head["seed"])

    class TornFlash(FakeFlash):
        def writeblocks(self, n, buf, offset=0):
            try:
                FakeFlash.writeblocks(self, n, buf, offset)
            except PowerCut:
                raise PowerOff() from None

    flash = TornFlash(8, 4096)
    forced = []
    lines = None
    state = {"k": 0, "tape": False, "frames": 0, "min_free": gc.mem_free()}

    def out(line):
        item = json.loads(line)
        item["t"] = platform.now if state["tape"] else None
        print(json.dumps(item))

    while True:
        platform = FakePlatform(files, paths, flash=flash)
        platform.now = -1000000  # boot happens before the tape's time 0
        button = TapeButton()
        hardware = platform.hardware

        def wired(config, board, hardware=hardware, button=button, platform=platform, lines=lines):
            hw = hardware(config, board)
            if lines is not None:
                platform.chain.lines[:] = lines
            hw["button"] = button
            return hw

        platform.hardware = wired
        sleep = platform.sleep_ms

        def tape_sleep(ms, sleep=sleep, platform=platform, button=button):
            if not state["tape"]:
                sleep(ms)
                return
            strip = platform.strip
            if strip.frames != state["frames"]:
                state["frames"] = strip.frames
                print(json.dumps({"t": platform.now, "grb": bytes(strip.last).hex()}))
            k = state["k"]
            if k >= len(ticks):
                raise PowerOff()  # the end of the tape
            tick = ticks[k]
            while "die" in tick or "names" in tick:  # forced rolls, names: not ticks of their own
                if "die" in tick:
                    forced.extend(tick["die"])
                else:  # as the link's `names` does it: the config kept, the referee told
                    from ludus.config import seat_names

                    config = json.loads(files["config.json"])
                    config["names"] = tick["names"]
                    files["config.json"] = json.dumps(config)
                    state["device"].app.referee.set_players(seat_names(config))
                k += 1
                state["k"] = k
                if k >= len(ticks):
                    raise PowerOff()
                tick = ticks[k]
            if tick.get("restore") is not None:
                state["restore"] = tick["restore"]  # a game set up by the script: through the journal
                state["k"] = k + 1
                raise PowerOff()
            if tick.get("power"):
                tick["power"] = False
                if tick.get("tear") is not None:
                    flash.cut_after = tick["tear"]  # the next journal write is cut at that byte
                else:
                    raise PowerOff()
            state["k"] = k + 1
            free = gc.mem_free()
            if free < state["min_free"]:
                state["min_free"] = free
            platform.now = tick["t"]
            if "l" in tick:
                levels = bytes.fromhex(tick["l"])
                for ch in range(len(levels)):
                    platform.chain.lines[ch] = 0 if levels[ch] else 1
            button.event = tick.get("b", 0)

        platform.sleep_ms = tape_sleep

        def alive(on, device=None, platform=platform):
            device = state["device"]
            if on:
                if device.app is not None:
                    device.app.referee.forced_rolls = forced  # (one list, as ludus play shares it)
                state["tape"] = True
                state["frames"] = platform.strip.frames
                tape_sleep(0)  # the first tick's inputs

        platform.alive = alive
        device = state["device"] = Device(platform, out=out, seed=seed)
        try:
            device.run()
        except PowerOff:
            pass
        if state["k"] >= len(ticks):
            break
        flash.cut_after = None
        lines = bytes(platform.chain.lines)
        if state.get("restore") is not None:
            from ludus.record.journal import Journal

            Journal(flash).begin(state.pop("restore"))
        else:
            print(json.dumps({"t": platform.now, "event": "power_cut"}))
        state["tape"] = False
        state["device"] = device = platform = None
        gc.collect()
    app = state["device"].app if state.get("device") is not None else None
    record = app.referee.record if app is not None else None
    actions = list(record.actions) if record is not None else None
    print(json.dumps({"end": True, "min_free": state["min_free"], "actions": actions}))


def main(argv):
    if len(argv) < 2:
        print("usage: micropython tests/unix_board.py DIR [--tape FILE | --flash FILE --config JSON]")
        return 2
    tree = argv[1]
    _tree_paths(tree)
    if len(argv) > 3 and argv[2] == "--tape":
        replay(tree, argv[3])
    else:
        options = dict(zip(argv[2::2], argv[3::2]))
        interactive(tree, options.get("--flash"), options.get("--config"))
    return 0


sys.exit(main(sys.argv))
