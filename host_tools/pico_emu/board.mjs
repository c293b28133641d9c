// The board around the emulated Pico: the 74HC165 chain answering the firmware's latch and SPI
// reads with the sensor lines, the die button, and the WS2812 chain decoded from the data pin.
//
//   const board = new EmulatedBoard(emu, { channels: 128, leds: 127 });
//   board.lines[ch] = 0;            // a magnet over sensor channel ch (DRV5032: pulled low)
//   board.press(true);              // the button held down (active low, as the Pico's pull-up)
//   board.frames                    // every LED frame sent, decoded: { t: emulated ns, grb: hex }
//
// Pins are the defaults of ludus.config (SH/LD 17, SPI0 SCK 18 / RX 16, LEDs 15, button 14).
import { GPIOPinState } from 'rp2040js';

export class EmulatedBoard {
  constructor(emu, { channels, leds, load = 17, spi = 0, ledPin = 15, button = 14 }) {
    this.emu = emu;
    this.chips = Math.ceil(channels / 8);
    this.lines = new Uint8Array(this.chips * 8).fill(1); // 1: no magnet (pulled up)
    this.latched = new Uint8Array(this.lines.length).fill(1);
    this.pos = 0; // the next chip to shift out
    this.latches = 0;
    this.frames = [];
    this.ledCount = leds;
    const mcu = emu.mcu;
    // the 74HC165: SH/LD low latches every input; then each byte clocked out is one chip, nearest
    // the Pico first, input H first (bit 7)
    mcu.gpio[load].addListener((state) => {
      if (state === GPIOPinState.Low) {
        this.latched.set(this.lines);
        this.pos = 0;
        this.latches++;
      }
    });
    const bus = mcu.spi[spi];
    bus.onTransmit = () => {
      let byte = 0;
      if (this.pos < this.chips) {
        for (let k = 7; k >= 0; k--) byte = (byte << 1) | this.latched[this.pos * 8 + k];
      }
      this.pos++;
      bus.completeTransmit(byte);
    };
    this.buttonPin = button;
    this.press(false);
    // WS2812: a 1 bit is a long high pulse (~800 ns), a 0 a short one (~400 ns); a low gap of more
    // than 50 us ends the frame
    this.edges = [];
    let rise = null;
    let bits = [];
    let lastFall = 0;
    const pin = mcu.gpio[ledPin];
    const finish = () => {
      if (bits.length >= 24) {
        const bytes = [];
        for (let i = 0; i + 8 <= bits.length; i += 8) {
          let b = 0;
          for (let k = 0; k < 8; k++) b = (b << 1) | bits[i + k];
          bytes.push(b);
        }
        this.frames.push({ t: lastFall, grb: Buffer.from(bytes).toString('hex') });
      }
      bits = [];
    };
    pin.addListener((state) => {
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

  press(down) {
    this.emu.mcu.gpio[this.buttonPin].setInputValue(!down);
  }
}
