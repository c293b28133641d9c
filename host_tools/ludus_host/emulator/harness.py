"""The emulated Pico from Python: the real MicroPython 1.28 RPI_PICO build in rp2040js, with the
board around it modelled by the Node harness in host_tools/pico_emu (docs/firmware.md, "On the
emulated Pico").

    session = [{"at": 200, "lines": [[ch, 0], ...]}, {"at": 900, "press": 60}]
    report = run_session(tree, session, board)        # the firmware's lines, LED frames, latches

The MicroPython UF2 and the RP2040 bootrom are read from LUDUS_PICO_DIR, or ../shared/pico beside the
checkout: the bootrom's licence keeps it out of this repository."""

import hashlib
import json
import os
import shutil
import subprocess
from collections.abc import Callable
from typing import Any, Self

from ludus.board.definition import BoardDefinition
from ludus.config import defaults, read_config
from ludus.errors import LudusError

from ludus_host.paths import ROOT

HARNESS = os.path.join(ROOT, "host_tools", "pico_emu")


class PicoError(LudusError):
    """The emulated Pico cannot be run: what is missing, or what failed."""


ROMFS_UF2 = "RPI_PICO-v1.28.0-romfs.uf2"


def pico_dir() -> str:
    return os.environ.get("LUDUS_PICO_DIR", os.path.join(os.path.dirname(ROOT), "shared", "pico"))


def assets(romfs: bool = False) -> tuple[str, str]:
    """(UF2, bootrom) paths, or PicoError saying where they were looked for. romfs: the build with
    a 256 KiB ROMFS partition (for `ludus flash --mode romfs`)."""
    folder = pico_dir()
    uf2 = os.path.join(folder, ROMFS_UF2 if romfs else "RPI_PICO-v1.28.0.uf2")
    bootrom = os.path.join(folder, "emulator", "bootrom.bin")
    missing = [p for p in (uf2, bootrom) if not os.path.exists(p)]
    if missing:
        raise PicoError(
            "the emulated Pico needs MicroPython's UF2 and the RP2040 bootrom: %s not found (set"
            " LUDUS_PICO_DIR to a folder laid out as ../shared/pico; docs/firmware.md)" % ", ".join(missing)
        )
    return uf2, bootrom


def node() -> str:
    """The node command, with the harness's packages installed (npm ci, from the lock file)."""
    found, npm = shutil.which("node"), shutil.which("npm")
    if not found or not npm:
        raise PicoError("the emulated Pico needs Node.js and npm (Debian: apt install nodejs npm)")
    if not os.path.exists(os.path.join(HARNESS, "node_modules", "rp2040js")):
        proc = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"], cwd=HARNESS, capture_output=True, text=True, timeout=600
        )
        if proc.returncode != 0:
            raise PicoError("npm ci in %s failed:\n%s" % (HARNESS, (proc.stdout + proc.stderr)[-2000:]))
    return found


def _tree_digest(tree: str) -> str:
    h = hashlib.sha256()
    for folder, _dirs, files in sorted(os.walk(tree)):
        for name in sorted(files):
            path = os.path.join(folder, name)
            h.update(os.path.relpath(path, tree).encode())
            with open(path, "rb") as f:
                h.update(f.read())
    return h.hexdigest()[:16]


def run_session(tree: str, steps: list[dict], board: BoardDefinition, end_ms: int = 500) -> dict:
    """Start the staged TREE on the emulated Pico (its littlefs image kept in build/pico-fs), play
    STEPS once the self-test is done, and return a report: the firmware's JSON lines after the
    self-test (`ms` from it), the first boot's line, the LED frames decoded from the chain (ms, GRB
    hex), the restarts (ms down, ms of the self-test after), the latches, the emulated time. A step
    that restarts the board (a `test_start`, a power cut) waits for the new self-test, and the steps
    after it keep their distance from it (the board's boot takes seconds here; in `ludus play`
    none)."""

    with open(os.path.join(tree, "config.json"), encoding="utf-8") as f:
        config = read_config(f.read())[0]
    with booted_pico(tree, board, config) as emu:
        self_test = emu.wait(lambda e: e.get("event") == "self_test", 90000)
        if self_test is None:
            raise PicoError("the emulated Pico gave no self-test:\n" + emu.usb[-3000:])
        t0 = self_test["ms"]
        seen = len(emu.events)
        frames0 = len(emu.frames)
        offset = 0
        restarts = []  # (ms the board went down, ms of its self-test after), from the first self-test
        steps = _button_edges(steps)
        for k, step in enumerate(steps):
            wait = step["at"] + offset - (emu.ms - t0)
            if wait > 0:
                emu.run(wait)
            if "lines" in step:
                emu.lines({ch: v for ch, v in step["lines"]})
            if "send" in step:
                emu.send(step["send"] + "\n")
            if "command" in step:
                reply = emu.command(step["command"]["cmd"], **step["command"]["fields"])
                if reply is None or not reply.get("ok"):
                    raise PicoError("the emulated Pico refused %s: %s" % (step["command"]["cmd"], reply))
            if "button" in step:
                emu.press(step["button"])
            if step.get("restarts"):
                down = emu.ms - t0
                if step.get("power"):
                    emu.cut(0)
                # (the pieces the board boots with: the next step's, if it sets them up at once)
                after = steps[k + 1] if k + 1 < len(steps) else None
                if after is not None and after["at"] == step["at"] and "lines" in after:
                    emu.lines({ch: v for ch, v in after["lines"]})
                if step.get("power"):
                    emu.power_on()
                again = emu.wait(lambda e: e.get("event") == "self_test", 90000)
                if again is None:
                    raise PicoError("the emulated Pico did not come back:\n" + emu.usb[-3000:])
                offset = again["ms"] - t0 + 200 - step["at"]
                restarts.append((round(down), round(again["ms"] - t0)))
        if end_ms > 0:
            emu.run(end_ms)
        stats = emu.stats()
        events = [dict(e, ms=round(e["ms"] - t0)) for e in emu.events[seen:]]
        return {
            "self_test": self_test,
            "events": events,
            "frames": [(round(ms - t0), grb) for ms, grb in emu.frames[frames0:]],
            "restarts": restarts,
            "boot": next(
                (dict(e, ms=round(e["ms"] - t0)) for e in emu.events[:seen] if e.get("event") == "boot"), None
            ),
            "latches": stats["latches"],
            "pio_words": stats["pio_words"],
            "emulated_ms": round(emu.ms - t0),
        }


def _button_edges(steps: list[dict]) -> list[dict]:
    # a press as the button going down and, `press` ms later, up: the steps between go on meanwhile
    # (a piece moved while the button is held)
    out: list[dict] = []
    for step in steps:
        if "press" in step:
            out.append({"at": step["at"], "button": True})
            out.append({"at": step["at"] + step["press"], "button": False})
        else:
            out.append(step)
    return sorted(out, key=lambda s: s["at"])  # (stable: steps at one time keep their order)


MAX_SESSION_MS = 10 * 60 * 1000  # the emulator runs every millisecond of it, at a quarter of the speed


def session_from_ticks(ticks: list[dict], board: BoardDefinition, offset_ms: int = 200) -> list[dict]:
    """The harness's steps for a tape of ludus play ticks (ludus_host.virtual.tape): each change of the sensor
    lines at its time (a magnet pulls a line low), each press held as the button driver needs it
    (a short press let go at its tick, a long one held 800 ms before it), forced dice and positions
    set up by `start` as the test hooks' commands (a tree staged with test_hooks), a `power` line as
    a cut and the power back. Times are offset_ms after the firmware's self-test. PicoError for a
    script longer than the emulator can run, and for a cut in the middle of a journal write (those
    are made at flash operations: EmulatedPico.cut)."""
    if ticks and ticks[-1]["t"] > MAX_SESSION_MS:
        raise PicoError(
            "ludus play --pico: the script spans %d min of the board's time; the emulated Pico runs every"
            " millisecond of it (at most %d min here)" % (ticks[-1]["t"] // 60000, MAX_SESSION_MS // 60000)
        )
    steps: list[dict] = []
    last: bytes | None = None
    restarted = 0  # the last restart's time: forced dice go after it (a reset forgets them)
    for tick in ticks:
        at = tick["t"] + offset_ms
        if "die" in tick:
            # sent a little ahead, so that it is in before the press that rolls (held 60 ms or more)
            steps.append(
                {
                    "at": max(restarted, at - 150),
                    "command": {"cmd": "test_die", "fields": {"rolls": tick["die"]}},
                }
            )
            continue
        if "restore" in tick:
            state = {"cmd": "test_start", "fields": {"state": tick["restore"]}}
            steps.append({"at": at, "command": state, "restarts": True})
            restarted = at
            last = None
            continue
        if "power" in tick:
            if tick.get("tear") is not None:
                raise PicoError(
                    "ludus play --pico: a cut in the middle of a journal write is made at flash operations"
                    " on the emulated Pico (docs/emulator.md), not from a script"
                )
            steps.append({"at": at, "power": True, "restarts": True})
            restarted = at
            continue
        if "names" in tick:  # a script's `name` line: the link's `names` command, as a laptop sends it
            steps.append({"at": at, "send": json.dumps({"cmd": "names", "names": tick["names"]})})
            continue
        if "l" in tick:
            levels = bytes.fromhex(tick["l"])
            changed = [
                [ch, 0 if levels[ch] else 1]
                for ch in range(len(levels))
                if last is None or bool(levels[ch]) != bool(last[ch])
            ]
            last = levels
            if changed:
                steps.append({"at": at, "lines": changed})
        button = tick.get("b", 0)
        if button == 1:
            steps.append({"at": max(restarted, at - 60), "press": 60})
        elif button == 2:
            steps.append({"at": max(restarted, at - 800), "press": 900})
    return sorted(steps, key=lambda s: s["at"])  # (stable: steps at one time keep their order)


class EmulatedPico:
    """One emulated Pico with the board around it (host_tools/pico_emu/serve.mjs), driven from Python:
    run the clock, move magnets, press the button, talk over USB, cut the power.

        pico = EmulatedPico(board, config)            # the board definition, the config dict
        pico.copy_tree(tree); pico.send("\x04")       # a staged tree on littlefs, then main.py
        pico.wait(lambda e: e.get("event") == "self_test", 60000)
        pico.lines({ch: 0}); pico.run(500)            # a magnet over channel ch
        pico.events                                   # the firmware's JSON lines, each with "ms"

    Everything received is kept: usb (the text), events (its JSON lines), frames ((ms, grb hex)),
    tones ((ms, Hz)), resets and power cuts (notes: dicts)."""

    def __init__(
        self,
        board: BoardDefinition,
        config: dict | None = None,
        fs_image: str | None = None,
        flash: str | None = None,
        realtime: bool = False,
        romfs: bool = False,
        romfs_image: str | None = None,
        xip: bool = False,
        worst_erase: bool = False,
    ) -> None:
        """xip: charge the chip's flash reads through a model of its XIP cache (a miss stalls the core
        448 ns: docs/emulator.md, "The XIP cache"); worst_erase: flash erases and programs take the
        datasheet's longest times (400 ms a sector) instead of the typical ones."""

        uf2, bootrom = assets(romfs)
        pins = (config or defaults())["pins"]
        cmd = [node(), "serve.mjs", "--uf2", uf2, "--bootrom", bootrom]
        cmd += ["--channels", str(board.channel_count), "--leds", str(board.led_count)]
        cmd += ["--pins", json.dumps(pins)]
        if fs_image:
            cmd += ["--fs-image", fs_image]
        if flash:
            cmd += ["--flash", flash]
        if romfs_image:
            cmd += ["--romfs-image", romfs_image]
        if realtime:
            cmd.append("--realtime")
        if xip:
            cmd.append("--xip")
        if worst_erase:
            cmd.append("--worst-erase")
        self.proc = subprocess.Popen(
            cmd,
            cwd=HARNESS,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # Ctrl-C is the Python side's to handle (ludus emulate saves the flash)
        )
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        self._to, self._from, self._err = self.proc.stdin, self.proc.stdout, self.proc.stderr
        self.usb = ""
        self.events: list[dict] = []
        self.frames: list[tuple[float, str]] = []
        self.tones: list[tuple[float, float]] = []
        self.notes: list[dict] = []
        self.ms = 0.0
        self.off: dict | None = None  # the power cut that switched the Pico off, until power_on()
        self._partial = ""
        # called with each piece of USB text as it arrives (ludus emulate)
        self.on_usb: Callable[[str], object] | None = None
        # called with each reset and power note as it arrives (ludus emulate)
        self.on_note: Callable[[dict], object] | None = None

    # -- the wire to the harness

    def request(self, **req: Any) -> None:
        try:
            self._to.write(json.dumps(req) + "\n")
            self._to.flush()
        except (BrokenPipeError, OSError):
            raise PicoError("the emulated Pico's harness has stopped:\n" + self._stderr()) from None

    def _stderr(self) -> str:
        try:
            return self._err.read()[-3000:] if self.proc.poll() is not None else ""
        except (OSError, ValueError):
            return ""

    def read_until(self, key: str) -> dict:
        """The harness's messages read, and taken in (USB text, frames, tones, resets and power notes, the
        emulated time), until one that has `key` ("ran", "stats", ...): that one is returned. While the
        Pico runs free (`request(op="go")`) this is how its output keeps arriving. PicoError when the
        harness stops or reports an error."""
        while True:
            line = self._from.readline()
            if not line:
                raise PicoError("the emulated Pico's harness stopped:\n" + self._stderr())
            msg = json.loads(line)
            if "ms" in msg:
                self.ms = msg["ms"]
            elif "ran" in msg:  # a run's reply: the emulated time it ended at
                self.ms = msg["ran"]
            if "usb" in msg:
                self._take_usb(msg["usb"], msg["ms"])
            elif "frame" in msg:
                self.frames.append((msg["ms"], msg["frame"]))
            elif "tone" in msg:
                self.tones.append((msg["ms"], msg["tone"]))
            elif "reset" in msg or "power" in msg:
                self.notes.append(msg)
                if msg.get("power") == "off":
                    self.off = msg["cut"]
                if self.on_note is not None:
                    self.on_note(msg)
            if "error" in msg:
                raise PicoError("the emulated Pico's harness: " + msg["error"])
            if key in msg:
                return msg

    def _take_usb(self, text: str, ms: float) -> None:
        self.usb += text
        if self.on_usb is not None:
            self.on_usb(text)
        lines = (self._partial + text).split("\n")
        self._partial = lines.pop()
        for line in lines:
            line = line.strip("\r")
            if line.startswith("{"):
                try:
                    event = json.loads(line)
                except ValueError:
                    continue
                if isinstance(event, dict):
                    event["ms"] = ms
                    self.events.append(event)

    # -- what a test or a tool does

    def run(self, ms: float, until: str | None = None) -> dict:
        """Run ms of emulated time (or until the text `until` arrives over USB); the reply."""
        self.request(op="run", ms=ms, **({"until": until} if until else {}))
        return self.read_until("ran")

    def wait(self, pred: Callable[[dict], object], max_ms: float, step_ms: float = 100) -> Any:
        """Run until an event (a JSON line from the firmware) satisfies pred; that event, or None.
        (Any: a caller that knows the event comes reads it without a check.)"""
        seen = len(self.events)
        spent: float = 0
        while spent < max_ms:
            for event in self.events[seen:]:
                if pred(event):
                    return event
            seen = len(self.events)
            reply = self.run(step_ms)
            if reply.get("off"):
                return None
            spent += step_ms
        return next((e for e in self.events[seen:] if pred(e)), None)

    def send(self, text: str) -> None:
        self.request(op="usb", data=text)

    def command(self, cmd: str, max_ms: float = 5000, **fields: Any) -> Any:
        """Send one link command and return its reply (ludus.link: {"cmd": ..., "id": ...}), or None
        if none came in max_ms (Any, as for wait)."""
        self._ids = getattr(self, "_ids", 0) + 1
        self.send(json.dumps({"cmd": cmd, "id": self._ids, **fields}) + "\n")
        ident = self._ids
        return self.wait(lambda e: e.get("id") == ident, max_ms, step_ms=20)

    def lines(self, levels: dict[int, int]) -> None:
        """Digital sensor lines: {channel: 0 (a magnet) or 1 (none)}."""
        self.request(op="lines", set=[[ch, v] for ch, v in levels.items()])

    def analog(self, counts: dict[int, int]) -> None:
        self.request(op="analog", set=[[ch, v] for ch, v in counts.items()])

    def press(self, down: bool) -> None:
        self.request(op="button", down=bool(down))

    def supply(self, on: bool) -> None:
        """The external supply plugged in (True) or not, as the supply-sense pin reads it."""
        self.request(op="supply", on=bool(on))

    def cut_data(self, cut: bool) -> None:
        """The sensor chain's data line broken (True: every bit reads 1 through its pull-up) or mended."""
        self.request(op="data_cut", cut=bool(cut))

    def cut(self, at_op: int = 0, seed: int = 1) -> dict | None:
        """Cut the power during the at_op-th flash program or erase from now (0: now)."""
        self.request(op="cut", at_op=at_op, seed=seed)
        if at_op == 0:
            return self.read_until("power")
        return None

    def power_on(self) -> dict:
        self.request(op="power_on")
        self.off = None
        return self.read_until("power")

    def copy_tree(self, tree: str) -> Any:
        self.request(op="copy_tree", dir=os.path.abspath(tree))
        return self.read_until("copied")["copied"]

    def exec(self, code: str, fresh: bool = False, timeout_ms: int = 120000) -> tuple[str, str]:
        """Run code in the raw REPL (after a soft reset if fresh): (stdout, stderr) as text."""
        self.request(op="exec", code=code, fresh=fresh, timeout_ms=timeout_ms)
        result = self.read_until("exec")["exec"]
        return result["out"], result["err"]

    def write_flash(self, offset: int, path: str) -> Any:
        """The bytes of the file at PATH into the flash at OFFSET, as they are (with the power off: a
        flash another tool wrote, such as a journal made on the laptop)."""
        self.request(op="write_flash", offset=offset, file=os.path.abspath(path))
        return self.read_until("written")["written"]

    def starve(self, boots: int = 1) -> Any:
        """The next BOOTS boots' watchdog feeds are lost (the chip as if the firmware hung after it
        started its watchdog): each ends in a watchdog reset 5 s on."""
        self.request(op="starve", boots=boots)
        return self.read_until("starving")["starving"]

    def host(self, dtr: bool | None = None, reading: bool | None = None) -> Any:
        """The USB host: dtr, a terminal attached to the port (DTR raised); reading, the host takes
        what the board sends (False: it opened the port and stopped reading). None leaves either."""
        fields = {k: v for k, v in (("dtr", dtr), ("reading", reading)) if v is not None}
        self.request(op="host", **fields)
        return self.read_until("host")["host"]

    def save_fs(self, path: str) -> None:
        self.request(op="save_fs", file=os.path.abspath(path))
        self.read_until("saved")

    def save_flash(self, path: str) -> None:
        self.request(op="save_flash", file=os.path.abspath(path))
        self.read_until("saved")

    def stats(self) -> dict:
        self.request(op="stats")
        return self.read_until("stats")["stats"]

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.request(op="quit")
                self.proc.wait(timeout=10)
            except (PicoError, subprocess.TimeoutExpired):
                self.proc.kill()
        for f in (self._to, self._from, self._err):
            try:
                f.close()
            except OSError:
                pass

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def fs_image(tree: str) -> str:
    """Where booted_pico keeps the littlefs image of a staged tree (build/pico-fs, by the tree's
    digest): once it exists, a start skips copying the tree into the emulated flash."""
    return os.path.join(ROOT, "build", "pico-fs", _tree_digest(tree) + ".img")


def booted_pico(tree: str, board: BoardDefinition, config: dict | None, **options: Any) -> EmulatedPico:
    """An EmulatedPico with the staged tree on littlefs (the image cached in build/pico-fs by the
    tree's digest), power just switched on: main.py is starting. A romfs-mode tree (with its
    firmware.romfs) runs on the ROMFS build, the image in its partition as `ludus flash` leaves it."""
    image = fs_image(tree)
    os.makedirs(os.path.dirname(image), exist_ok=True)
    romfs = os.path.join(tree, "firmware.romfs")
    if os.path.exists(romfs):
        options.update(romfs=True, romfs_image=romfs)
    if os.path.exists(image):
        return EmulatedPico(board, config, fs_image=image, **options)
    pico = EmulatedPico(board, config, **options)
    pico.copy_tree(tree)
    part = "%s.%d.part" % (image, os.getpid())  # (two runs may make the same image at once)
    pico.save_fs(part)
    os.replace(part, image)
    pico.send("\x04")  # a soft reset: main.py runs
    return pico
