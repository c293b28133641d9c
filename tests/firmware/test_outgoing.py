"""The board's lines out (ludus.outgoing) to a host that reads, stops reading and reads again: written
only while the port has room, never waiting on the host, dropped and counted when too many wait, and
a long reply written piece by piece as long as the host takes some. On the fake serial port, whose
host side models MicroPython's 256-byte transmit FIFO; runs on both runtimes (the real USB driver:
tests/host/test_pico_restore.py)."""

from ludus.outgoing import OUT_BYTES, PAUSE_MS, WAIT_MS, LineWriter
from usb_host import HostSerial


class Clock:
    """ticks_ms and sleep_ms: a millisecond clock that only sleeping moves; each(now) is called at
    every millisecond slept (a host that starts reading again, say)."""

    def __init__(self, each=None):
        self.now = 0
        self.each = each

    def ticks_ms(self):
        return self.now

    def sleep_ms(self, ms):
        for _ in range(ms):
            self.now += 1
            if self.each is not None:
                self.each(self.now)


def _event(k):
    return '{"event": "roll", "seat": %d, "value": %d, "pad": "%s"}' % (k % 4, k % 6 + 1, "x" * (k % 50))


def test_lines_go_out_whole_and_in_order_to_a_host_that_reads():
    port = HostSerial()
    w = LineWriter(port, Clock())
    sent = [_event(k) for k in range(40)]
    for line in sent:
        w.line(line)
    assert port.lines() == sent and w.dropped == 0 and w.stalls == 0 and not w.lines


def test_a_host_that_stops_reading_never_holds_the_board_and_gets_every_line_it_can_back():
    port = HostSerial()
    clock = Clock()
    w = LineWriter(port, clock)
    w.line(_event(0))
    port.reading = False
    sent = [_event(k) for k in range(1, 200)]
    for line in sent:
        w.line(line)  # (returns at once: nothing here waits for the host)
        w.flush()
    assert not port.room() and port.waits <= 1  # the FIFO is full: the port was asked once too many
    assert w.stalls == port.waits and w.waiting <= OUT_BYTES
    kept = len(w.lines)
    assert w.dropped > 0 and w.dropped + kept < len(sent)  # some went to the FIFO before it filled
    port.reading = True
    assert not w.flush() or w.stalls == 0  # (paused after a stall)
    clock.sleep_ms(PAUSE_MS)
    assert w.flush() and not w.lines
    got = port.lines()
    assert got[0] == _event(0)
    # every line the host reads is whole and one that was sent, in order; the dropped ones are missing
    assert all(line in sent for line in got[1:])
    order = [sent.index(line) for line in got[1:]]
    assert order == sorted(order) and len(got) - 1 + w.dropped == len(sent), (len(got), w.dropped)


def test_a_line_too_long_to_wait_is_dropped_and_counted():
    port = HostSerial()
    port.reading = False
    w = LineWriter(port, Clock(), limit=300)
    w.line("x" * 250)  # 251 bytes: into the FIFO at once
    w.line("y" * 250)  # 5 bytes fit the FIFO, the rest waits
    w.line("z" * 100)  # no room left to wait in: dropped
    assert w.dropped == 1 and len(w.lines) == 1
    port.reading = True
    assert w.drain(PAUSE_MS + 10)
    assert port.lines() == ["x" * 250, "y" * 250]


def test_a_long_reply_waits_for_a_slow_host_and_gives_up_on_one_that_reads_nothing():
    port = HostSerial()
    fed = [0]

    def feed():
        fed[0] += 1

    def slow(now):  # a host that reads for a moment every 50 ms
        port.reading = now % 50 == 0

    clock = Clock(slow)
    w = LineWriter(port, clock)
    port.reading = False
    text = "".join(["%04d," % k for k in range(2000)])  # 10 KB, 40 times the FIFO
    assert w.send(text + "\n", feed)
    port.reading = True
    assert port.lines() == [text] and fed[0] > 0
    port.reading = False
    clock.each = None
    t0 = clock.now
    assert not w.send("w" * 1000 + "\n", feed)  # the host takes nothing: given up, not waited on for ever
    assert WAIT_MS <= clock.now - t0 <= WAIT_MS + 5


def test_a_board_whose_host_stops_reading_plays_on_and_says_what_was_missed_when_it_reads_again():
    import json

    from device_bench import _paths
    from ludus.device import Device
    from ludus.hw.fake import FakePlatform, Finished

    port = HostSerial()
    platform = FakePlatform(
        {"config.json": '{"board": "checkers", "game": "checkers"}'}, _paths("checkers"), serial=port
    )
    seen = {"boot": 0, "hello": [], "replies": []}

    def on_line(text):  # what the host reads, noted as it reads (the heap is the board's)
        e = json.loads(text)
        if e.get("event") == "boot":
            seen["boot"] += 1
        elif e.get("event") == "hello":
            seen["hello"].append(e)
        elif e.get("reply") == "state":
            seen["replies"].append(e["id"])

    port.on_line = on_line

    def each(now):
        if now == 3000:
            port.reading = False  # the host keeps the port open and reads nothing
        if 3000 < now < 9000 and now % 100 == 0:
            port.feed(b'{"cmd": "state", "id": %d}\n' % now)  # it still asks (replies pile up)
        if now == 9000:
            port.reading = True

    platform.each_ms = each
    platform.until = 12000
    device = Device(platform, seed=bytes(32))
    try:
        device.run()
    except Finished:
        pass
    dropped, stalls = device.writer.dropped, device.writer.stalls
    hello = seen["hello"]
    replies = seen["replies"]
    assert seen["boot"] == 1
    assert len(hello) == 1 and hello[0]["dropped"] == dropped > 0, hello
    assert hello[0]["referee"]["phase"] == "setup"
    assert stalls <= 2 and platform.watchdog.starved == 0  # asked at most twice what it could not take
    assert replies == sorted(replies) and len(replies) + dropped >= 59
    assert device.stats["late"] < device.stats["ticks"] // 50
