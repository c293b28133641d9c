"""Benchmark cases for the firmware's loop (ludus.device) on the fake platform: the heap left after a
board boots, and one idle tick of the loop excluding I/O (the sensor read, the LED frame and the
button are no-ops here: on a Pico they are C, SPI at 1 MHz reads 16 bytes in about 0.13 ms and
machine.bitstream sends 127 LEDs in 3.8 ms when a frame changes). See bench/README.md."""

import gc

from ludus.device import Device
from ludus.hw.fake import FakeFlash, FakePlatform


def _here():
    try:
        path = __file__
    except NameError:
        return "."
    return path.rsplit("/", 1)[0] if "/" in path else "."


class _Quiet:
    # drivers whose I/O is left out of the figure
    def read(self, levels):
        pass

    def write(self, frame):
        pass

    def poll(self, now_ms):
        return 0


def _device():
    files = {"config.json": '{"board": "checkers", "game": "checkers", "brightness": 64}'}
    paths = {"boards/checkers.json": _here() + "/../hardware/boards/checkers.json"}
    platform = FakePlatform(files, paths, flash=FakeFlash(4, 1024))
    hardware = platform.hardware

    def quiet(config, board):
        hw = hardware(config, board)
        q = _Quiet()
        hw["sensors"] = hw["pixels"] = hw["button"] = q
        return hw

    platform.hardware = quiet
    device = Device(platform, out=lambda line: None, seed=bytes(32))
    device.wdt = platform.start_watchdog(5000)
    device.boot()
    if device.app is None:  # safe mode: on this heap the game could not start
        raise MemoryError(device.safe)
    return device, platform


def boot():
    def work():
        # what a booted board holds: the modules' dictionaries and functions (their code is in ROM
        # when run with --rom), the board, the drivers, the journal, the link and the referee
        gc.collect()
        before = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
        device, _platform = _device()
        gc.collect()
        held = (gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0) - before
        return "holds %d B after boot" % held

    return work


def idle_tick():
    device, platform = _device()
    clock = [platform.now]
    wdt = device.wdt

    def work():
        clock[0] += 20
        device.tick(clock[0], wdt)
        return device.stats["ticks"]

    for _ in range(300):  # settled: the first reading judged, the first collections done
        work()
    gc.collect()
    return work


CASES = (
    ("device.boot", boot, 1),
    ("device.idle_tick", idle_tick, 200),
)
