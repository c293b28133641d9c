"""The optional piezo: short cues for "illegal", "your turn" and "refused", played by PWM without
blocking the loop, with a mute setting.

    buzzer = Buzzer(PWM(Pin(22)), muted=config["sound"] == "off")
    buzzer.play(ILLEGAL, time.ticks_ms())       # when the referee emits an illegal, turn or refused event
    buzzer.tick(time.ticks_ms())                # every tick: the next note when it is due

A cue is a few notes (frequency in Hz, length in ms; 0 Hz is a rest). play() starts one, replacing any
cue still sounding; tick() changes the PWM only when a note begins or the cue ends, and allocates
nothing."""

from ludus.runtime import const

# cues: (Hz, ms) pairs, flat; chosen to be told apart without looking: a low buzz, a rising pair, a
# short double blip
ILLEGAL = (220, 120, 0, 60, 220, 220)
YOUR_TURN = (660, 80, 880, 120)
REFUSED = (440, 50, 0, 50, 440, 50)

_DUTY = const(32768)  # a square wave: the loudest a piezo gets from one pin


class Buzzer:
    """pwm: a machine.PWM (freq(), duty_u16()). muted: play() does nothing (a setting)."""

    def __init__(self, pwm, muted=False):
        self.pwm = pwm
        self.muted = muted
        self.cue = None
        self.note = 0  # index into cue of the note sounding
        self.since = 0
        pwm.duty_u16(0)

    def play(self, cue, now_ms):
        """Start a cue (ILLEGAL, YOUR_TURN, REFUSED or any (Hz, ms, ...) tuple), unless muted."""
        if self.muted:
            return
        self.cue = cue
        self.note = 0
        self.since = now_ms
        self._sound(cue[0])

    def tick(self, now_ms):
        """Advance the cue sounding (call every tick)."""
        cue = self.cue
        if cue is None:
            return
        # ticks wrap at 2**30 (time.ticks_ms): differences modulo that
        if (now_ms - self.since) & 0x3FFFFFFF < cue[self.note + 1]:
            return
        self.since = now_ms
        self.note += 2
        if self.note >= len(cue):
            self.cue = None
            self.pwm.duty_u16(0)
            return
        self._sound(cue[self.note])

    def _sound(self, hz):
        if hz:
            self.pwm.freq(hz)
            self.pwm.duty_u16(_DUTY)
        else:
            self.pwm.duty_u16(0)
