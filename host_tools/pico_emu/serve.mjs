// The emulated board as a service: one emulated Pico (MicroPython's RPI_PICO UF2 in rp2040js) with
// the board around it (board.mjs), driven by JSON lines on stdin and reporting JSON lines on stdout.
// ludus_host.pico.EmulatedPico speaks this; `ludus emulate` puts its USB serial on a pseudo-terminal.
//
//   node serve.mjs --uf2 UF2 --bootrom BOOTROM --channels 128 --leds 127 [--pins JSON]
//                  [--fs-image FILE] [--romfs-image FILE] [--flash FILE] [--realtime]
//                  [--xip] [--worst-erase]
//
// --xip charges the core's flash reads through a model of the RP2040's XIP cache (xip-cache.mjs);
// --worst-erase charges flash erases and programs at the datasheet's longest times (flash-emu.mjs).
//
// Requests (stdin), answered in order:
//   {"op": "run", "ms": N}                       run N ms of emulated time  -> {"ran": MS}
//   {"op": "run", "ms": N, "until": "TEXT"}      ... or until TEXT arrives over USB (after the request)
//   {"op": "usb", "data": "..."}                 bytes to the Pico's USB serial (latin1)
//   {"op": "lines", "set": [[ch, level], ...]}   digital sensor lines (0: a magnet, 1: none)
//   {"op": "analog", "set": [[ch, counts], ...]} analog sensor outputs (12-bit)
//   {"op": "button", "down": true}
//   {"op": "supply", "on": true}                 the external supply plugged in (false: USB alone)
//   {"op": "data_cut", "cut": true}              the sensor chain's data line broken (false: mended)
//   {"op": "cut", "at_op": K, "seed": S}         cut the power during the K-th flash program or erase
//                                                from now (left half done); "at_op": 0 cuts now
//   {"op": "power_on"}                           boot again from the flash as it was left
//   {"op": "copy_tree", "dir": DIR}              boot to the REPL and copy a staged tree onto littlefs
//                                                through the raw REPL, as mpremote cp would -> {"copied"}
//   {"op": "exec", "code": "...", "fresh": true, "timeout_ms": N}
//                                                run code in the raw REPL (fresh: after a soft reset)
//                                                -> {"exec": {"out": ..., "err": ...}}
//   {"op": "write_flash", "offset": N, "file": PATH}
//                                                bytes into the flash as they are (the power off: a
//                                                flash written by another tool) -> {"written": N}
//   {"op": "starve", "boots": N}                 the next N boots' watchdog feeds are lost: it bites
//                                                5 s after the firmware starts it, as after a hang
//   {"op": "host", "dtr": BOOL, "reading": BOOL} the USB host: a terminal attached (DTR), and reading
//                                                what the board sends (held, not read: false)
//   {"op": "save_fs", "file": PATH}              the littlefs image (for --fs-image next time)
//   {"op": "save_flash", "file": PATH}           the whole 2 MiB flash image
//   {"op": "stats"}                              -> {"stats": {...}}
//   {"op": "go"}                                 run on freely (paced to the wall clock with --realtime)
//                                                until the next request arrives; no answer
//   {"op": "quit"}
// Reports, whenever they happen: {"usb": TEXT, "ms": MS}, {"frame": GRB_HEX, "ms": MS},
// {"tone": HZ, "ms": MS}, {"power": "off", "cut": {...}}, {"reset": "watchdog"|"machine", "ms": MS}.
// MS is emulated time since this process started (power cycles included).
import fs from 'node:fs';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import { DEFAULT_PINS, EmulatedBoard } from './board.mjs';
import { copyTree } from './device.mjs';
import { mulberry32 } from './flash-emu.mjs';
import { PicoEmu } from './pico-emu.mjs';

const { values: opt } = parseArgs({
  options: {
    uf2: { type: 'string' },
    bootrom: { type: 'string' },
    channels: { type: 'string' },
    leds: { type: 'string' },
    pins: { type: 'string' },
    'fs-image': { type: 'string' },
    'romfs-image': { type: 'string' }, // at 0x60000, the ROMFS build's partition (as mpremote romfs deploy leaves it)
    flash: { type: 'string' },
    realtime: { type: 'boolean', default: false },
    xip: { type: 'boolean', default: false },
    'worst-erase': { type: 'boolean', default: false },
  },
});
for (const k of ['uf2', 'bootrom', 'channels', 'leds']) {
  if (!opt[k]) {
    process.stderr.write(`serve: --${k} is needed\n`);
    process.exit(2);
  }
}
const FS_OFFSET = 0xa0000; // RPI_PICO: 2 MiB of flash less 1408 KiB of littlefs
const FS_SIZE = 1408 * 1024;
const ROMFS_OFFSET = 0x60000; // RPI_PICO_ROMFS: 256 KiB below littlefs
const pins = opt.pins ? JSON.parse(opt.pins) : DEFAULT_PINS;
const shape = { channels: Number(opt.channels), leds: Number(opt.leds), pins };

const say = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');
let base = 0; // emulated ns of earlier power cycles
let emu = null;
let board = null;
let off = null; // the cut that switched the power off, until power_on
let usbSince = ''; // USB text received since the current run request began (for "until")
let host = { dtr: true, reading: true };
let starving = 0; // boots left whose watchdog feeds are lost
const feeds = []; // the watchdog of each boot: { feeds, max_gap_ms, at_ms, bit }

function start(flash, watchdog = null) {
  const first = emu === null;
  const images = !flash && opt['fs-image'] && fs.existsSync(opt['fs-image']) ? [{ file: opt['fs-image'], offset: FS_OFFSET }] : [];
  if (!flash && opt['romfs-image']) images.push({ file: opt['romfs-image'], offset: ROMFS_OFFSET });
  const initial = first && opt.flash ? fs.readFileSync(opt.flash) : flash;
  if (emu) base += emu.nanos;
  const old = board;
  const starve = !first && starving > 0;
  if (starve) starving--;
  emu = new PicoEmu({ uf2: opt.uf2, bootrom: opt.bootrom, images, flash: initial, watchdog, host, starve, xip: opt.xip, worstErase: opt['worst-erase'] });
  board = new EmulatedBoard(emu, { ...shape, from: old });
  const ms = () => Math.round((base + emu.nanos) / 1e5) / 10;
  emu.onText = (s) => {
    usbSince += s;
    say({ usb: s, ms: ms() });
  };
  board.onFrame = (f) => say({ frame: f.grb, ms: ms() });
  board.onTone = (t) => say({ tone: t.hz, ms: ms() });
  emu.onSlice = () => board.pollTone();
  emu.flashStats.onCut = (cut) => {
    emu.halted = 'cut';
    off = cut;
  };
  emu.ms = ms;
}

// Run for ns of emulated time, or until stop() is true; power cycles on a reset.
async function run(ns, stop = () => false) {
  const now = () => base + emu.nanos;
  const end = now() + ns;
  while (now() < end && !stop()) {
    if (off) return;
    emu.runFor(Math.min(1e6, end - now()), stop);
    if (emu.halted === 'cut') {
      say({ power: 'off', cut: off, ms: emu.ms() });
      return;
    }
    if (emu.halted === 'reset') {
      const wd = emu.mcu.peripherals[0x40058];
      say({ reset: wd.reason === 1 ? 'watchdog' : 'machine', ms: emu.ms() });
      noteFeeds(wd.reason === 1);
      // a watchdog reset (machine.reset() is one too) keeps the watchdog's scratch registers and REASON
      start(emu.mcu.flash.slice(), emu.watchdogState());
      continue;
    }
    await new Promise((r) => setImmediate(r));
  }
}

// the watchdog's feeds of the boot that ends now (a reset or a cut), kept for `stats`
function noteFeeds(bit = false) {
  const f = emu.feeds;
  if (f.enabledAt === null && !f.count) return;
  const end = Math.max(f.maxGapNs, f.last !== null ? emu.nanos - f.last : 0);
  feeds.push({ feeds: f.count, max_gap_ms: Math.round(f.maxGapNs / 1e5) / 10, to_end_ms: Math.round(end / 1e5) / 10, bit });
}

const queue = [];
let wake = null;
const rl = readline.createInterface({ input: process.stdin });
rl.on('line', (line) => {
  if (!line.trim()) return;
  try {
    queue.push(JSON.parse(line));
  } catch {
    say({ error: 'not a JSON request: ' + line.slice(0, 80) });
  }
  if (wake) wake();
});
rl.on('close', () => {
  queue.push({ op: 'quit' });
  if (wake) wake();
});
const next = () => (queue.length ? Promise.resolve(queue.shift()) : new Promise((r) => (wake = () => ((wake = null), r(queue.shift())))));

start(null);
for (;;) {
  const req = await next();
  const op = req.op;
  if (op === 'quit') break;
  if (op === 'run') {
    usbSince = '';
    const until = req.until;
    await run(req.ms * 1e6, until ? () => usbSince.includes(until) : undefined);
    say({ ran: emu.ms(), found: until ? usbSince.includes(until) : undefined, off: !!off });
  } else if (op === 'usb') emu.send(req.data);
  else if (op === 'lines') for (const [ch, v] of req.set) board.lines[ch] = v;
  else if (op === 'analog') for (const [ch, v] of req.set) board.analog[ch] = v;
  else if (op === 'button') board.press(!!req.down);
  else if (op === 'supply') board.power(!!req.on);
  else if (op === 'data_cut') board.cutData(!!req.cut);
  else if (op === 'cut') {
    const stats = emu.flashStats;
    stats.rand = mulberry32(req.seed ?? 1);
    if (req.at_op > 0) stats.cutAt = stats.ops + req.at_op;
    else {
      off = { kind: 'none', op: stats.ops, t: emu.nanos };
      say({ power: 'off', cut: off, ms: emu.ms() });
    }
  } else if (op === 'power_on') {
    if (off) {
      off = null;
      noteFeeds();
      start(emu.mcu.flash.slice());
    }
    say({ power: 'on', ms: emu.ms() });
  } else if (op === 'copy_tree') {
    try {
      await emu.boot();
      say({ copied: await copyTree(emu, req.dir) });
    } catch (exc) {
      say({ error: 'copy_tree: ' + exc.message });
    }
  } else if (op === 'exec') {
    try {
      await emu.enterRaw();
      if (req.fresh) {
        const mark = emu.rx.length;
        emu.send('\x04'); // a soft reset in the raw REPL: a fresh heap, back at the raw prompt
        if (!(await emu.waitFor('raw REPL; CTRL-B to exit\r\n>', 30e9, mark))) throw new Error('no raw prompt after a soft reset');
      }
      say({ exec: await emu.exec(req.code, (req.timeout_ms ?? 120000) * 1e6) });
    } catch (exc) {
      say({ error: 'exec: ' + exc.message });
    }
  } else if (op === 'write_flash') {
    const data = fs.readFileSync(req.file);
    emu.mcu.flash.set(data, req.offset);
    say({ written: data.length });
  } else if (op === 'starve') {
    starving = req.boots ?? 1;
    say({ starving });
  } else if (op === 'host') {
    host = { dtr: req.dtr ?? host.dtr, reading: req.reading ?? host.reading };
    emu.setHost(host);
    say({ host });
  } else if (op === 'save_fs') {
    fs.writeFileSync(req.file, emu.mcu.flash.subarray(FS_OFFSET, FS_OFFSET + FS_SIZE));
    say({ saved: req.file });
  } else if (op === 'save_flash') {
    fs.writeFileSync(req.file, emu.mcu.flash.subarray(0, 2 * 1024 * 1024)); // the Pico's W25Q16: 2 MiB
    say({ saved: req.file });
  } else if (op === 'stats') {
    const f = emu.flashStats;
    say({
      stats: {
        ms: emu.ms(),
        flash: { ops: f.ops, programs: f.programs, erases: f.erases, busy_ms: f.busyNs / 1e6 },
        frames: board.frames.length,
        // words a PIO state machine driving the LED pin was given (0: the frames went by bitstream)
        pio_words: board.pioWords,
        latches: board.latches,
        adc_reads: board.adcReads,
        wall_s: Number(emu.wallNs) / 1e9,
        // the XIP cache model's counts since this boot (null without --xip)
        xip: emu.xip ? emu.xip.stats() : null,
        // the watchdog's feeds, each boot so far and this one: the longest gap between two feeds
        // (or from its start to the first), and in this boot the time since the last
        watchdog: {
          boots: feeds,
          now: {
            feeds: emu.feeds.count,
            max_gap_ms: Math.round(emu.feeds.maxGapNs / 1e5) / 10,
            since_ms: emu.feeds.last === null ? null : Math.round((emu.nanos - emu.feeds.last) / 1e5) / 10,
            long: emu.feeds.long.map(([a, b]) => [Math.round((base + a) / 1e5) / 10, Math.round((base + b) / 1e5) / 10]),
          },
        },
      },
    });
  } else if (op === 'go') {
    // free running until a request arrives (usb bytes are taken in as they come)
    const wall0 = process.hrtime.bigint();
    const emu0 = emu.nanos + base;
    while (!queue.length || queue[0].op === 'usb') {
      while (queue.length && queue[0].op === 'usb') emu.send(queue.shift().data);
      if (off) {
        await new Promise((r) => setTimeout(r, 20));
        continue;
      }
      await run(5e6);
      if (opt.realtime) {
        const ahead = emu.nanos + base - emu0 - Number(process.hrtime.bigint() - wall0);
        if (ahead > 2e6) await new Promise((r) => setTimeout(r, Math.min(ahead / 1e6, 50)));
      }
    }
  } else say({ error: 'unknown op ' + JSON.stringify(op) });
}
process.exit(0);
