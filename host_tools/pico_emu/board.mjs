// The board around the emulated Pico, wired as the firmware's config says (the `pins` section of
// config.json, ludus.config): the sensors (a 74HC165 chain read by SPI or bit-banged, or CD74HC4067
// multiplexers into the ADC), the die button, the WS2812 chain decoded from its data pin (bit-banged,
// machine.bitstream) or from the words a PIO state machine driving that pin is given (PIO and DMA),
// and the piezo's tone read from its PWM slice.
//
//   const board = new EmulatedBoard(emu, { channels: 128, leds: 127, pins });
//   board.lines[ch] = 0;            // a magnet over digital sensor ch (DRV5032: pulled low)
//   board.analog[ch] = 3100;        // an analog sensor's output, 12-bit ADC counts (2048: no field)
//   board.press(true);              // the button held down (active low, as the Pico's pull-up)
//   board.power(true);              // the external supply plugged in (the supply-sense divider: high)
//   board.cutData(true);            // the chain's data line broken: its pull-up reads 1 for every bit
//   board.frames                    // every LED frame sent, decoded: { t: emulated ns, grb: hex }
//   board.tones                     // every change of the piezo: { t, hz } (hz 0: silent)
//
// A power cycle builds a new EmulatedBoard on the new emulator with the same pieces: pass `from`.
import { GPIOPinState } from 'rp2040js';

// the firmware's WS2812 program (ludus.hw.ws2812): 10 cycles of the state machine's clock a bit
export const PIO_CYCLES_PER_BIT = 10;
const FUNCTION_PIO0 = 6;
const FUNCTION_PIO1 = 7;

function bitsToHex(bits) {
  const bytes = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) {
    let b = 0;
    for (let k = 0; k < 8; k++) b = (b << 1) | bits[i + k];
    bytes.push(b);
  }
  return Buffer.from(bytes).toString('hex');
}

export const DEFAULT_PINS = {
  leds: 15,
  button: 14,
  buzzer: 22,
  supply: 21,
  sensors: { kind: 'shift', load: 17, sck: 18, miso: 16 },
};

// RP2040 datasheet 1.4.3: which GPIOs carry each SPI bus's SCK and RX (as ludus.hw.pico._spi_bus)
const SPI_SCK = [[2, 6, 18, 22], [10, 14, 26]];
const SPI_RX = [[0, 4, 16, 20], [8, 12, 28]];

export function spiBus(sck, miso) {
  for (const bus of [0, 1]) if (SPI_SCK[bus].includes(sck) && SPI_RX[bus].includes(miso)) return bus;
  return null;
}

export class EmulatedBoard {
  constructor(emu, { channels, leds, pins = DEFAULT_PINS, from = null }) {
    this.emu = emu;
    this.pins = pins;
    this.chips = Math.ceil(channels / 8);
    this.lines = from ? from.lines : new Uint8Array(Math.max(this.chips * 8, 48)).fill(1); // 1: no magnet
    this.analog = from ? from.analog : new Uint16Array(48).fill(2048);
    this.buttonDown = from ? from.buttonDown : false;
    this.external = from ? from.external : false;
    this.dataCut = from ? from.dataCut : false;
    this.latched = new Uint8Array(this.lines.length).fill(1);
    this.pos = 0; // the next byte (SPI) or bit (bit-banged) to shift out
    this.latches = 0;
    this.adcReads = 0;
    this.frames = [];
    this.pioWords = 0; // words a state machine driving the LED pin was given
    this.tones = [];
    this.ledCount = leds;
    const mcu = emu.mcu;
    const s = pins.sensors;
    if (s.kind === 'shift') this.wireShift(mcu, s);
    else this.wireMux(mcu, s);
    this.buttonPin = pins.button;
    this.press(this.buttonDown);
    this.supplyPin = pins.supply ?? null;
    this.power(this.external);
    this.wireLeds(mcu, pins.leds);
    this.wirePio(mcu, pins.leds);
    this.buzzerPin = pins.buzzer;
    this.hz = 0;
  }

  // 74HC165: SH/LD low latches every input; then each byte clocked out is one chip, nearest the
  // Pico first, input H first (bit 7). Bit-banged: each rising clock edge shifts the next bit onto QH.
  wireShift(mcu, s) {
    const bus = spiBus(s.sck, s.miso);
    const bitAt = (i) => (this.dataCut ? 1 : i < this.chips * 8 ? this.latched[(i >> 3) * 8 + 7 - (i & 7)] : 0);
    mcu.gpio[s.load].addListener((state) => {
      if (state === GPIOPinState.Low) {
        this.latched.set(this.lines.subarray(0, this.latched.length));
        this.pos = 0;
        this.latches++;
        if (bus === null) mcu.gpio[s.miso].setInputValue(!!bitAt(0));
      }
    });
    if (bus !== null) {
      const spi = mcu.spi[bus];
      spi.onTransmit = () => {
        let byte = this.dataCut ? 0xff : 0; // (past the last chip: its serial input, tied low)
        if (this.pos < this.chips && !this.dataCut) for (let k = 7; k >= 0; k--) byte = (byte << 1) | this.latched[this.pos * 8 + k];
        this.pos++;
        spi.completeTransmit(byte);
      };
    } else {
      mcu.gpio[s.sck].addListener((state) => {
        if (state === GPIOPinState.High) {
          this.pos++;
          mcu.gpio[s.miso].setInputValue(!!bitAt(this.pos));
        }
      });
    }
  }

  // CD74HC4067s: the select lines (S0 first) choose input n of every mux; mux m's common pin goes
  // to the m-th ADC pin, so the ADC reads channel 16 m + n. The level is sampled when the read
  // starts, as the RP2040's sample-and-hold does.
  wireMux(mcu, s) {
    const adc = mcu.adc;
    const start = adc.onADCRead;
    adc.onADCRead = (input) => {
      let n = 0;
      for (let k = 0; k < 4; k++) if (mcu.gpio[s.select[k]].outputValue) n |= 1 << k;
      const m = s.adc.indexOf(26 + input);
      if (m >= 0) adc.channelValues[input] = this.analog[16 * m + n] ?? 2048;
      this.adcReads++;
      start(input);
    };
  }

  // WS2812: a 1 bit is a long high pulse (~800 ns), a 0 a short one (~400 ns); a low gap of more than
  // 50 us ends the frame
  wireLeds(mcu, ledPin) {
    const emu = this.emu;
    let rise = null;
    let bits = [];
    let lastFall = 0;
    const finish = () => {
      if (bits.length >= 24) this.pushFrame({ t: lastFall, grb: bitsToHex(bits) });
      bits = [];
    };
    mcu.gpio[ledPin].addListener((state) => {
      const now = emu.nanos;
      if (state === GPIOPinState.High) {
        if (bits.length && now - lastFall > 50000) finish();
        rise = now;
      } else if (rise !== null) {
        bits.push(now - rise > 600 ? 1 : 0);
        lastFall = now;
        rise = null;
        if (bits.length === this.ledCount * 24) finish();
      }
    });
  }

  // WS2812 by PIO: a state machine whose side-set pins start at the LED pin, enabled, with the pin given
  // to its PIO, shifts each word it is given out as bits, pull-threshold bits a word (the high ones
  // first when it shifts left). rp2040js steps PIO on wall-clock timers, so its pin's timing means
  // nothing here; instead the words written into that state machine's TX FIFO (by the DMA or the CPU)
  // are taken by this model, which plays the wire on the emulated clock: PIO_CYCLES_PER_BIT cycles of
  // the state machine's clock a bit, the FIFO (4 words) and the output shift register full holding
  // the DMA back (its DREQ low) until a word has gone out, as the chip's does. A frame is reported
  // when its last bit has left the pin.
  wirePio(mcu, ledPin) {
    const emu = this.emu;
    let bits = [];
    let wireFreeAt = 0; // emulated ns at which the words given so far have all gone out
    const pending = []; // frames whose last bit is still on the wire: [{ t, grb }]
    const alarm = mcu.clock.createAlarm(() => {
      while (pending.length && pending[0].t <= emu.nanos) this.pushFrame(pending.shift());
      if (pending.length) alarm.schedule(pending[0].t - emu.nanos);
    });
    const finish = (t) => {
      if (bits.length >= 24) {
        pending.push({ t, grb: bitsToHex(bits) });
        if (pending.length === 1) alarm.schedule(Math.max(0, t - emu.nanos));
      }
      bits = [];
    };
    const drives = (sm, pio) =>
      sm.enabled &&
      sm.sidesetCount > 0 &&
      sm.sidesetBase === ledPin &&
      mcu.gpio[ledPin].functionSelect === (pio.index ? FUNCTION_PIO1 : FUNCTION_PIO0);
    for (const pio of mcu.pio) {
      for (const sm of pio.machines) {
        const write = sm.writeFIFO.bind(sm);
        const dreqAlarm = mcu.clock.createAlarm(() => mcu.dma.setDREQ(sm.dreqTx));
        sm.writeFIFO = (value) => {
          if (!drives(sm, pio)) {
            write(value);
            return;
          }
          this.pioWords++;
          const now = emu.nanos;
          const div = sm.clockDivInt + sm.clockDivFrac / 256;
          const threshold = sm.pullThreshold;
          const wordNs = (threshold * PIO_CYCLES_PER_BIT * div * 1e9) / mcu.clkSys;
          if (bits.length && now - wireFreeAt > 50000) finish(wireFreeAt); // (a frame cut short)
          const right = (sm.shiftCtrl >> 19) & 1;
          for (let k = 0; k < threshold; k++) bits.push(right ? (value >>> k) & 1 : (value >>> (31 - k)) & 1);
          wireFreeAt = Math.max(now, wireFreeAt) + wordNs;
          if (bits.length >= this.ledCount * 24) finish(wireFreeAt);
          // the FIFO and the shift register hold 5 words: more wait until the oldest has gone out
          if (wireFreeAt - now > 4 * wordNs) {
            mcu.dma.clearDREQ(sm.dreqTx);
            dreqAlarm.schedule(wireFreeAt - now - 4 * wordNs);
          }
        };
      }
    }
  }

  pushFrame(frame) {
    this.frames.push(frame);
    if (this.onFrame) this.onFrame(frame);
  }

  // The piezo's pitch from its PWM slice (GPIO n is slice (n >> 1) & 7, channel A when even): clk_sys
  // / (divider x (TOP + 1)), silent when the slice is off or the compare level is 0. Call it now and
  // then (the harness does, every millisecond of emulated time); it records changes in `tones`.
  pollTone() {
    const pin = this.buzzerPin;
    if (pin === null || pin === undefined) return;
    const ch = this.emu.mcu.pwm.channels[(pin >> 1) & 7];
    const level = pin & 1 ? ch.cc >>> 16 : ch.cc & 0xffff;
    const div = (((ch.div >> 4) & 0xff) || 256) + (ch.div & 15) / 16; // DIV: 8.4 fixed point, INT 0 is 256
    const on = ch.csr & 1 && level > 0;
    const hz = on ? Math.round(this.emu.mcu.clkSys / (div * (ch.top + 1))) : 0;
    if (hz !== this.hz) {
      this.hz = hz;
      const tone = { t: this.emu.nanos, hz };
      this.tones.push(tone);
      if (this.onTone) this.onTone(tone);
    }
  }

  // The supply-sense line: the external supply's divider pulls it high (hardware/README.md, "Power").
  power(external) {
    this.external = !!external;
    if (this.supplyPin !== null) this.emu.mcu.gpio[this.supplyPin].setInputValue(this.external);
  }

  cutData(cut) {
    this.dataCut = !!cut;
    if (this.pins.sensors.kind === 'shift' && spiBus(this.pins.sensors.sck, this.pins.sensors.miso) === null) {
      this.emu.mcu.gpio[this.pins.sensors.miso].setInputValue(cut ? true : !!this.latched[7]);
    }
  }

  press(down) {
    this.buttonDown = down;
    this.emu.mcu.gpio[this.buttonPin].setInputValue(!down);
  }
}
