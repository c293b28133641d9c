// Play on the emulated Pico: a staged tree started from main.py on a board whose sensors, button
// and LEDs are modelled (board.mjs), driven by a session file, one JSON object per step:
//   {"at": MS, "lines": [[channel, 0 or 1], ...]}   sensor lines at MS after the self-test
//   {"at": MS, "press": HELD_MS}                     the button held
//   {"at": MS, "send": "{...}"}                      a line to the USB link
// Prints one JSON report: the firmware's JSON lines with the emulated ms each arrived by, the LED
// frames decoded from the data pin, the chain's latches.
//
//   node session.mjs --uf2 UF2 --bootrom BOOTROM --tree DIR --session FILE --channels 128 --leds 127
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { EmulatedBoard } from './board.mjs';
import { copyTree, jsonLines, waitJson } from './device.mjs';
import { PicoEmu } from './pico-emu.mjs';

const { values: opt } = parseArgs({
  options: {
    uf2: { type: 'string' },
    bootrom: { type: 'string' },
    tree: { type: 'string' },
    session: { type: 'string' },
    channels: { type: 'string' },
    leds: { type: 'string' },
    end: { type: 'string', default: '0' }, // ms to run after the last step
    'fs-image': { type: 'string' }, // littlefs with the tree already on it: made on the first run, then reused
  },
});
for (const k of ['uf2', 'bootrom', 'tree', 'session', 'channels', 'leds']) {
  if (!opt[k]) {
    process.stderr.write(`session: --${k} is needed\n`);
    process.exit(2);
  }
}
const steps = fs
  .readFileSync(opt.session, 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l));

const FS_OFFSET = 0xa0000; // RPI_PICO: 2 MiB flash less 1408 KiB of littlefs
const FS_SIZE = 1408 * 1024;
const image = opt['fs-image'];
const reuse = image && fs.existsSync(image);
const emu = new PicoEmu({ uf2: opt.uf2, bootrom: opt.bootrom, images: reuse ? [{ file: image, offset: FS_OFFSET }] : [] });
const board = new EmulatedBoard(emu, { channels: Number(opt.channels), leds: Number(opt.leds) });
let copied = 'from ' + image;
if (reuse) {
  // main.py starts at power-up: stop it to begin the session from a soft reset like the first run
  await emu.runUntil(() => emu.connected, 10e9);
  await waitJson(emu, (e) => e.event === 'self_test', 90e9, 0);
  emu.send('\r\x03\x03');
  await emu.waitFor('>>> ', 20e9);
} else {
  await emu.boot();
  copied = await copyTree(emu, opt.tree);
  if (image) fs.writeFileSync(image, emu.mcu.flash.subarray(FS_OFFSET, FS_OFFSET + FS_SIZE));
}
const start = emu.rx.length;
emu.send('\x04'); // soft reset: main.py runs
const selfTest = await waitJson(emu, (e) => e.event === 'self_test', 90e9, start);
const t0 = emu.nanos;
const ms = () => (emu.nanos - t0) / 1e6;
const arrived = []; // [ms, line]
let seen = emu.rx.length;
emu.onText = () => {
  const lines = emu.rx.slice(seen).split(/\r?\n/);
  if (lines.length < 2) return;
  for (const line of lines.slice(0, -1)) if (line.startsWith('{')) arrived.push([ms(), line]);
  seen = emu.rx.length - lines[lines.length - 1].length;
};
const frames0 = board.frames.length;
for (const step of steps) {
  const wait = step.at - ms();
  if (wait > 0) await emu.runUntil(() => ms() >= step.at, wait * 1e6 + 1e6);
  if (step.lines) for (const [ch, v] of step.lines) board.lines[ch] = v;
  if (step.send) emu.send(step.send + '\n');
  if (step.press) {
    board.press(true);
    await emu.runUntil(() => false, step.press * 1e6);
    board.press(false);
  }
}
if (Number(opt.end) > 0) await emu.runUntil(() => false, Number(opt.end) * 1e6);
const events = [];
for (const [t, line] of arrived) {
  try {
    events.push({ ms: Math.round(t), ...JSON.parse(line) });
  } catch {
    // not a whole JSON line
  }
}
const frames = board.frames.slice(frames0);
process.stdout.write(
  JSON.stringify({
    copied,
    self_test: selfTest,
    boot_lines: jsonLines(emu, start).filter((e) => e.event === 'boot' || e.event === 'fault'),
    events,
    frames: frames.length,
    last_frame: frames.length ? frames[frames.length - 1].grb : null,
    latches: board.latches,
    emulated_ms: Math.round(ms()),
  }) + '\n',
);
process.exit(0);
