"""`ludus bench --sim`: what the browser simulator costs on this machine (CPython): one beat of its clock
(the referee's ticks for 20 ms, a frame rendered and compared, the state sent when it changed), the way
from an action sent over the WebSocket to the state that answers it, and a replay.

Figures are wall-clock times on the machine that runs it; the server's target is that a beat stays far
below its 20 ms period (one core can run it with room for the browser), and an action's answer comes
well inside one frame of the board (20 ms)."""

import asyncio
import os
import statistics
import time

from ludus_host.paths import ROOT
from ludus_host.sim.server import Hub, Settings, make_app
from ludus_host.sim.table import replay_script

SEED = "00" * 32


def _played(hub: Hub) -> None:
    # a Chinese Checkers game a few moves in, at rest: the beat of an ordinary moment
    t = hub.table
    t.act({"do": "setup"})
    t.advance(t.now + 500)
    for a, b in (("h7", "h16"), ("h112", "h104"), ("h2", "h7")):
        t.act({"do": "lift", "cell": a})
        t.advance(t.now + 150)
        t.act({"do": "place", "cell": b})
        t.advance(t.now + 500)


def beats(count: int = 2000) -> tuple[float, float, float]:
    """µs per beat of the clock (mean, worst): each beat runs 20 ms of the board."""

    hub = Hub(Settings("checkers/2", seed=SEED))
    _played(hub)
    hub.speed = 0  # the bench moves the clock itself
    times = []
    for _ in range(count):
        hub.sim0 += 20
        t0 = time.perf_counter()
        hub.run()
        times.append((time.perf_counter() - t0) * 1e6)
    return statistics.mean(times), max(times), statistics.median(times)


async def _round_trips(count: int) -> list[float]:
    from aiohttp.test_utils import TestClient, TestServer  # (0.4 s to import: for this figure only)

    client = TestClient(TestServer(make_app(Settings("checkers/2", seed=SEED))))
    await client.start_server()
    try:
        ws = await client.ws_connect("/ws")
        await ws.receive_json()
        await ws.send_json({"do": "setup"})
        await asyncio.sleep(0.6)
        end = time.monotonic() + 0.5
        while time.monotonic() < end:  # what the setup sent (frames keep coming: the turn LED pulses)
            try:
                await ws.receive_json(timeout=0.05)
            except TimeoutError:
                pass
        times = []
        # a piece out of h7 onto h16 and back, over and over: every action changes the table
        cycle = (("lift", "h7"), ("place", "h16"), ("lift", "h16"), ("place", "h7"))
        for k in range(count):
            do, cell = cycle[k % 4]
            action = {"do": do, "cell": cell}
            t0 = time.perf_counter()
            await ws.send_json(action)
            while True:
                msg = await ws.receive_json(timeout=5)
                if msg["type"] == "state":
                    break
                if msg["type"] == "error":
                    raise RuntimeError(msg["message"])
            times.append((time.perf_counter() - t0) * 1000)
            await asyncio.sleep(0.3)  # the referee settles before the next
        await ws.close()
        return times
    finally:
        await client.close()


def round_trips(count: int = 40) -> tuple[float, float]:
    """ms from an action sent over the WebSocket to the state message answering it (median, worst)."""
    times = asyncio.run(_round_trips(count))
    return statistics.median(times), max(times)


def replay() -> tuple[float, int]:
    """ms to replay examples/checkers-jump-chain.play into steps (the page's Replay), and the steps."""

    with open(os.path.join(ROOT, "examples", "checkers-jump-chain.play"), encoding="utf-8") as f:
        text = f.read()
    t0 = time.perf_counter()
    steps = replay_script(text)["steps"]
    return (time.perf_counter() - t0) * 1000, len(steps)


def run() -> dict[str, float]:
    """Print the figures; returns them as a dict."""
    mean, worst, median = beats()
    rt_median, rt_worst = round_trips()
    replay_ms, steps = replay()
    figures = {
        "beat_mean_us": round(mean, 1),
        "beat_median_us": round(median, 1),
        "beat_worst_us": round(worst, 1),
        "action_to_state_median_ms": round(rt_median, 2),
        "action_to_state_worst_ms": round(rt_worst, 2),
        "replay_ms": round(replay_ms, 1),
        "replay_steps": steps,
    }
    print("simulator on CPython, this machine (wall clock):")
    print(
        "  one beat of the clock (20 ms of the board): mean %.0f us, median %.0f us, worst %.0f us"
        % (mean, median, worst)
    )
    print("  action -> state over the WebSocket: median %.2f ms, worst %.2f ms" % (rt_median, rt_worst))
    print("  replay of examples/checkers-jump-chain.play: %.0f ms for %d steps" % (replay_ms, steps))
    return figures
