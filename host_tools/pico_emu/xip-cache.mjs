// The RP2040's XIP cache, for rp2040js: what a real Pico pays to fetch code and data from its QSPI
// flash, charged to the emulated clock (docs/emulator.md, "The XIP cache").
//
// rp2040js reads the flash window as a plain array: every fetch costs what an SRAM fetch costs, as if
// each one hit the cache. A real RP2040 (datasheet 2.6.3, "Flash"; 2.6.3.1 "XIP Cache"):
// - 16 kB, two-way set-associative, 8-byte lines (1024 sets: "16 kB total size / 8 bytes per line / 2
//   ways per set", 2.6.3.2), a hit in one cycle;
// - the window is mirrored: 0x10... cacheable and allocating; 0x11... looks the cache up but does not
//   fill it on a miss; 0x12... never looks it up, fills it; 0x13... bypasses it;
// - a miss is a serial read. The stock boot stage (pico-sdk boot2_w25q080.S) puts the W25Q flash in
//   quad I/O continuous-read mode: no command byte, 24 address bits and 8 mode bits on four lines (8
//   clocks), 4 dummy clocks, then the 8-byte line on four lines (16 clocks): 28 clocks of SCK.
//   SCK is clk_sys / 2 (PICO_FLASH_SPI_CLKDIV 2 in the Pico's board header; MicroPython 1.28's
//   rp2_flash_set_timing keeps that divider at 125 MHz), so a miss stalls the core 56 cycles, 448 ns.
//   Published measurements on an RP2040 find about 400 ns a load uncached, under 20 ns cached
//   (oberon-rtk.org, "Flash Memory", its CodeLoading examples).
// - FLUSH (XIP_CTRL + 4) clears every tag; the SDK's flash_range_erase and flash_range_program end
//   with it. The flash model also flushes after each erase and program (flash-emu.mjs).
//
// Only the core's own reads are charged (instruction fetches, loads, the exception entry's vector
// read); the DMA's are not. The replacement policy is not documented: least recently used is assumed.
import { BasePeripheral } from 'rp2040js';
export const XIP_MISS_CYCLES = 56;
const SETS = 1024;
const XIP_CTRL = 0x14000; // the peripheral table's key for 0x14000000 (rp2040js: (address >>> 14) << 2)

export class XipCache {
  constructor({ missCycles = XIP_MISS_CYCLES } = {}) {
    this.missCycles = missCycles;
    this.tags = new Int32Array(2 * SETS).fill(-1); // way 0 at 2 set, way 1 at 2 set + 1
    this.older = new Uint8Array(SETS); // the way to replace next in each set
    this.enabled = true;
    this.last = -1; // the line last looked up and found (or filled): its next fetch hits at once
    this.stall = 0; // cycles owed to the clock since the last instruction
    this.hits = 0;
    this.accesses = 0;
    this.misses = 0;
    this.flushes = 0;
    this.stallCycles = 0;
  }

  flush() {
    this.tags.fill(-1);
    this.last = -1;
    this.flushes++;
  }

  // One read by the core at a flash-window address (0x10000000..0x13ffffff).
  access(address) {
    this.accesses++;
    const alias = (address >>> 24) & 3;
    const line = (address & 0xffffff) >>> 3;
    if (line === this.last && alias < 2) {
      this.hits++;
      return;
    }
    if (alias < 2 && this.enabled) {
      const set = line & (SETS - 1);
      const tag = line >>> 10;
      const i = set << 1;
      if (this.tags[i] === tag) {
        this.older[set] = 1;
        this.hits++;
        this.last = line;
        return;
      }
      if (this.tags[i + 1] === tag) {
        this.older[set] = 0;
        this.hits++;
        this.last = line;
        return;
      }
    }
    this.misses++;
    this.stall += this.missCycles;
    this.stallCycles += this.missCycles;
    if ((alias & 1) === 0 && this.enabled) {
      // 0x10 and 0x12 fill the line
      const set = line & (SETS - 1);
      const way = this.older[set];
      this.tags[(set << 1) + way] = line >>> 10;
      this.older[set] = way ^ 1;
      this.last = line;
    }
  }

  // The cycles owed since the last call (the harness adds them to the instruction's own)
  take() {
    const s = this.stall;
    this.stall = 0;
    return s;
  }

  stats() {
    return { accesses: this.accesses, hits: this.hits, misses: this.misses, flushes: this.flushes, stall_cycles: this.stallCycles, miss_cycles: this.missCycles };
  }
}

// XIP_CTRL's registers (rp2040js has none: its reads gave 0xffffffff): CTRL (EN), FLUSH, STAT, and the
// hit and access counters, counted by the model as the chip counts them.
class XipCtrl extends BasePeripheral {
  constructor(mcu, cache) {
    super(mcu, 'XIP_CTRL');
    this.cache = cache;
    this.ctrl = 3;
  }
  readUint32(offset) {
    const c = this.cache;
    switch (offset) {
      case 0x00: return this.ctrl;
      case 0x04: return 0; // FLUSH (a read waits for a flush to finish: at once here)
      case 0x08: return 0x3; // STAT: FLUSH_READY, FIFO_EMPTY
      case 0x0c: return c.hits >>> 0; // CTR_HIT
      case 0x10: return c.accesses >>> 0; // CTR_ACC
      default: return 0;
    }
  }
  writeUint32(offset, value) {
    const c = this.cache;
    if (offset === 0x00) {
      this.ctrl = value & 0xf;
      c.enabled = !!(value & 1) && !(value & 8);
      c.last = -1;
    } else if (offset === 0x04 && value & 1) c.flush();
    else if (offset === 0x0c) c.hits = 0;
    else if (offset === 0x10) c.accesses = 0;
  }
}

// Charge the core's reads of the flash window through a cache: wraps the core's read functions (every
// instruction fetch and load goes through them; the DMA calls the chip's own, which stay as they
// were) and adds XIP_CTRL. The harness adds cache.take() to each instruction's cycles.
export function installXipCache(mcu, options = {}) {
  const cache = new XipCache(options);
  const core = mcu.core;
  const r32 = core.readUint32.bind(core);
  const r16 = core.readUint16.bind(core);
  const r8 = core.readUint8.bind(core);
  core.readUint32 = (a) => {
    if (a >>> 26 === 4) cache.access(a);
    return r32(a);
  };
  core.readUint16 = (a) => {
    if (a >>> 26 === 4) cache.access(a);
    return r16(a);
  };
  core.readUint8 = (a) => {
    if (a >>> 26 === 4) cache.access(a);
    return r8(a);
  };
  mcu.peripherals[XIP_CTRL] = new XipCtrl(mcu, cache);
  return cache;
}
