// The firmware on the real MicroPython build, in an emulated RP2040 (rp2040js): a staged tree
// (`ludus flash --stage DIR`) copied onto littlefs through the raw REPL, then started as a Pico
// starts it (a soft reset runs main.py). Over the emulated USB it is asked `hello` and `stats`,
// then stopped with Ctrl-C as mpremote stops it, and the REPL is used for 7 s, past the watchdog's
// 5 s. Prints one JSON report on stdout (tests/host/test_pico_emulated.py reads it).
//
//   node firmware-check.mjs --uf2 RPI_PICO-v1.28.0.uf2 --bootrom bootrom.bin --tree DIR
//
// The bootrom is not part of this repository (its licence): ../shared/pico/emulator/bootrom.bin,
// or a path you give (docs/firmware.md).
import { parseArgs } from 'node:util';
import { copyTree, jsonLines as linesOf, waitJson as waitFor } from './device.mjs';
import { EmulatedBoard } from './board.mjs';
import { PicoEmu } from './pico-emu.mjs';

const { values: opt } = parseArgs({
  options: {
    uf2: { type: 'string' },
    bootrom: { type: 'string' },
    tree: { type: 'string' },
  },
});
for (const k of ['uf2', 'bootrom', 'tree']) {
  if (!opt[k]) {
    process.stderr.write(`firmware-check: --${k} is needed\n`);
    process.exit(2);
  }
}

const report = {};
const emu = new PicoEmu({ uf2: opt.uf2, bootrom: opt.bootrom });
// An empty checkers board around it, wired as the default pins: every DRV5032 line pulled up, the
// chain's serial input tied low (the byte past the last chip reads 0), the die button released
new EmulatedBoard(emu, { channels: 128, leds: 127 });

const jsonLines = (from) => linesOf(emu, from);
const waitJson = (pred, ns, from) => waitFor(emu, pred, ns, from);

await emu.boot();
report.copied = await copyTree(emu, opt.tree);

// a soft reset: main.py runs, as at power-up
const start = emu.rx.length;
const t0 = emu.nanos;
emu.send('\x04');
report.boot = await waitJson((e) => e.event === 'boot', 30e9, start);
report.self_test = await waitJson((e) => e.event === 'self_test', 60e9, start);
report.boot_seconds = (emu.nanos - t0) / 1e9;
await emu.runFor(200e6); // a few ticks of the loop
emu.send('{"cmd": "hello", "id": 1}\n');
report.hello = await waitJson((e) => e.reply === 'hello', 20e9, start);
emu.send('{"cmd": "nonsense", "id": 2}\n');
report.nonsense = await waitJson((e) => e.reply === 'nonsense', 20e9, start);
await emu.runFor(3e9); // three seconds of ticks
emu.send('{"cmd": "stats", "id": 3}\n');
report.stats = await waitJson((e) => e.reply === 'stats', 20e9, start);
report.faults = jsonLines(start).filter((e) => e.event === 'fault' || e.event === 'safe_mode');

// Ctrl-C, as mpremote sends it
const stop = emu.rx.length;
emu.send('\r\x03\x03');
report.stopped = await waitJson((e) => e.event === 'stopped', 20e9, stop);
report.prompt = await emu.waitFor('>>> ', 20e9, stop);
await emu.enterRaw();
const r = await emu.exec(
  'import time, machine\ntime.sleep(7)\nf = open("/copied.txt", "w")\nf.write("ok")\nf.close()\n' +
    'print("alive", machine.reset_cause(), open("/copied.txt").read())',
  60e9,
);
report.after_ctrl_c = r;
report.emulated_seconds = emu.nanos / 1e9;
process.stdout.write(JSON.stringify(report) + '\n');
process.exit(0);
