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
import tempfile

from ludus.errors import LudusError

from ludus_host.paths import ROOT

HARNESS = os.path.join(ROOT, "host_tools", "pico_emu")


class PicoError(LudusError):
    """The emulated Pico cannot be run: what is missing, or what failed."""


def pico_dir():
    return os.environ.get("LUDUS_PICO_DIR", os.path.join(os.path.dirname(ROOT), "shared", "pico"))


def assets():
    """(UF2, bootrom) paths, or PicoError saying where they were looked for."""
    folder = pico_dir()
    uf2 = os.path.join(folder, "RPI_PICO-v1.28.0.uf2")
    bootrom = os.path.join(folder, "emulator", "bootrom.bin")
    missing = [p for p in (uf2, bootrom) if not os.path.exists(p)]
    if missing:
        raise PicoError(
            "the emulated Pico needs MicroPython's UF2 and the RP2040 bootrom: %s not found (set"
            " LUDUS_PICO_DIR to a folder laid out as ../shared/pico; docs/firmware.md)" % ", ".join(missing)
        )
    return uf2, bootrom


def node():
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


def _tree_digest(tree):
    h = hashlib.sha256()
    for folder, _dirs, files in sorted(os.walk(tree)):
        for name in sorted(files):
            path = os.path.join(folder, name)
            h.update(os.path.relpath(path, tree).encode())
            with open(path, "rb") as f:
                h.update(f.read())
    return h.hexdigest()[:16]


def run_session(tree, steps, board, end_ms=500, timeout=900):
    """Copy the staged TREE onto the emulated Pico (once per tree: the littlefs image is kept in
    build/pico-fs), start it, play STEPS, and return the harness's report (a dict)."""
    uf2, bootrom = assets()
    cmd = node()
    cache = os.path.join(ROOT, "build", "pico-fs")
    os.makedirs(cache, exist_ok=True)
    image = os.path.join(cache, _tree_digest(tree) + ".img")
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        for step in steps:
            f.write(json.dumps(step) + "\n")
        session = f.name
    try:
        proc = subprocess.run(
            [cmd, "session.mjs", "--uf2", uf2, "--bootrom", bootrom, "--tree", tree, "--session", session]
            + ["--channels", str(board.channel_count), "--leds", str(board.led_count), "--end", str(end_ms)]
            + ["--fs-image", image],
            cwd=HARNESS,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    finally:
        os.unlink(session)
    if proc.returncode != 0 or not proc.stdout.strip():
        raise PicoError("the emulated Pico's session failed:\n%s" % (proc.stdout + proc.stderr)[-3000:])
    return json.loads(proc.stdout.splitlines()[-1])


def session_from_ticks(ticks, board, offset_ms=200):
    """The harness's steps for a tape of ludus play ticks (ludus_host.tape): each change of the sensor
    lines at its time (a magnet pulls a line low), each press held as the button driver needs it
    (a short press let go at its tick, a long one held 800 ms before it). Times are offset_ms after the
    firmware's self-test. PicoError for what the emulated board cannot do yet (forced dice, power
    cuts, positions set up by `start`)."""
    MAX_MS = 10 * 60 * 1000  # the emulator runs at about half the Pico's speed, idle time included
    if ticks and ticks[-1]["t"] > MAX_MS:
        raise PicoError(
            "ludus play --pico: the script spans %d min of the board's time; the emulated Pico runs every"
            " millisecond of it (at most %d min here)" % (ticks[-1]["t"] // 60000, MAX_MS // 60000)
        )
    steps = []
    last = None
    for tick in ticks:
        for verb in ("die", "power", "restore"):
            if verb in tick:
                raise PicoError(
                    "ludus play --pico: a script with %s cannot run on the emulated Pico yet (the emulator"
                    " issue, #12)" % {"die": "`die`", "power": "`power`", "restore": "`start`"}[verb]
                )
        at = tick["t"] + offset_ms
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
            steps.append({"at": max(0, at - 60), "press": 60})
        elif button == 2:
            steps.append({"at": max(0, at - 800), "press": 900})
    return steps
