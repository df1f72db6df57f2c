"""Progress lines of long jobs, as support/progress.h writes them: on a terminal one line
rewritten in place (at most every quarter second), elsewhere a plain line at most every
`interval` seconds, and the last; each says the share done, the time elapsed and the time left."""
import math
import sys
import time


def clock_text(seconds):
    s = round(max(0.0, seconds))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


def progress_text(label, what, fraction, elapsed):
    text = f"[{label}] {what}"
    if fraction < 0:
        return f"{text}  {clock_text(elapsed)} elapsed"
    fraction = min(1.0, fraction)
    text += f"  {math.floor(fraction * 100):.0f}%  {clock_text(elapsed)} elapsed"
    if 0 < fraction < 1 and elapsed >= 1:  # the rate of the first second says little
        text += f", about {clock_text(elapsed * (1 - fraction) / fraction)} left"
    return text


class Progress:
    def __init__(self, label, out=sys.stderr, interval=10.0, clock=time.monotonic):
        self.label, self.out, self.clock = label, out, clock
        self.terminal = out.isatty()
        self.interval = 0.25 if self.terminal else interval
        self.start = self.last = clock()
        self.width = 0

    def update(self, fraction, what):
        now = self.clock()
        if now - self.last < self.interval:
            return
        self.last = now
        self._show(progress_text(self.label, what, fraction, now - self.start))

    def finish(self, what):
        self._show(progress_text(self.label, what, -1, self.clock() - self.start))
        if self.terminal:
            self.out.write("\n")
            self.out.flush()

    def _show(self, text):
        if self.terminal:
            self.out.write("\r" + text + " " * max(0, self.width - len(text)))
            self.width = len(text)
        else:
            self.out.write(text + "\n")
        self.out.flush()
