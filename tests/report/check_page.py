#!/usr/bin/env python3
"""Renders a `candor report` page in headless Chromium and fails on a rendering error.

    check_page.py PAGE.html SCREENSHOT.png [--width W --height H]

Checks, in Chromium's DOM after loading (`--dump-dom`): every section of the page is there with
its heading and content (the schedule and loop nest as non-empty text, the plot as an inline
SVG with drawn paths, the tables with rows); no console message (the page has no script, so any
is an error: a script, a resource it could not load); then that the screenshot is a PNG of the
window's size that is not blank. Exit status 0: rendered; 1: an error (each is printed);
77: Chromium is not installed (skipped).
"""
import argparse
import html.parser
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

SECTIONS = ["summary", "plot", "schedule", "loop-nest", "model", "bound", "measurements", "decisions"]


class Dom(html.parser.HTMLParser):
    """Per section id: its text, tags met inside it, and table rows."""

    def __init__(self):
        super().__init__()
        self.sections = {}
        self.stack = []  # open section ids, outermost first

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "section":
            sid = attrs.get("id", "")
            self.sections[sid] = {"text": "", "tags": {}, "pre": []}
            self.stack.append(sid)
        for sid in self.stack:
            tags = self.sections[sid]["tags"]
            tags[tag] = tags.get(tag, 0) + 1
        if tag == "pre" and self.stack:
            self.sections[self.stack[-1]]["pre"].append("")

    def handle_endtag(self, tag):
        if tag == "section" and self.stack:
            self.stack.pop()

    def handle_data(self, data):
        for sid in self.stack:
            self.sections[sid]["text"] += data
        if self.stack and self.sections[self.stack[-1]]["pre"]:
            self.sections[self.stack[-1]]["pre"][-1] += data


def check_dom(dom_text, errors):
    dom = Dom()
    dom.feed(dom_text)
    for sid in SECTIONS:
        s = dom.sections.get(sid)
        if s is None:
            errors.append(f"section #{sid} is missing")
            continue
        if not s["tags"].get("h2"):
            errors.append(f"section #{sid} has no heading")
        if len(s["text"].strip()) < 20:
            errors.append(f"section #{sid} is empty")
    for sid in ("schedule", "loop-nest"):
        s = dom.sections.get(sid)
        if s and not any(p.strip() for p in s["pre"]):
            errors.append(f"section #{sid} has no text in <pre>")
    loop_nest = dom.sections.get("loop-nest")
    if loop_nest and "for " not in loop_nest["text"] and "produce " not in loop_nest["text"]:
        errors.append("the loop nest names no loop ('for ...') and no production ('produce ...')")
    plot = dom.sections.get("plot")
    if plot and (not plot["tags"].get("svg") or plot["tags"].get("path", 0) < 5):
        errors.append(f"the plot is not an inline SVG with drawn paths ({plot['tags'].get('path', 0)} paths)")
    for sid in ("model", "bound"):
        s = dom.sections.get(sid)
        if s and s["tags"].get("tr", 0) < 2:
            errors.append(f"section #{sid} has no table rows")
    if "</html>" not in dom_text:
        errors.append("the DOM dump is cut short")


def png_pixels(path):
    """(width, height, rows of bytes, bytes per pixel) of an 8-bit RGB/RGBA non-interlaced PNG."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"unexpected PNG format (depth {depth}, colour type {colour}, interlace {interlace})")
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, rows, bpp


def check_screenshot(path, width, height, errors):
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        errors.append(f"no screenshot at {path}")
        return
    try:
        w, h, rows, bpp = png_pixels(path)
    except (ValueError, zlib.error, struct.error, TypeError) as e:
        errors.append(f"the screenshot is not a readable PNG: {e}")
        return
    if (w, h) != (width, height):
        errors.append(f"the screenshot is {w}x{h}, not {width}x{height}")
    # Sample every 4th pixel of every 4th row: ink (not near-white) and distinct colours.
    colours, ink, seen = set(), 0, 0
    for row in rows[::4]:
        for x in range(0, w * bpp, 4 * bpp):
            px = row[x:x + 3]
            colours.add(px)
            seen += 1
            ink += min(px) < 200
    if seen == 0 or ink / seen < 0.01 or len(colours) < 16:
        errors.append(f"the screenshot looks blank ({ink} of {seen} sampled pixels inked, {len(colours)} colours)")


def chromium(args, user_data):
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
           f"--user-data-dir={user_data}"] + args
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("page")
    ap.add_argument("screenshot")
    ap.add_argument("--width", type=int, default=1200)
    ap.add_argument("--height", type=int, default=2400)
    a = ap.parse_args()
    if not (shutil.which("chromium") or shutil.which("chromium-browser")):
        print("check_page: SKIPPED: chromium is not installed (Debian: apt-get install chromium)")
        return 77
    url = "file://" + os.path.abspath(a.page)
    errors = []
    with tempfile.TemporaryDirectory(prefix="candor_chromium_") as user_data:
        r = chromium(["--enable-logging=stderr", "--v=0", "--dump-dom", url], user_data)
        if r.returncode != 0:
            errors.append(f"chromium --dump-dom exited with status {r.returncode}")
        for line in r.stderr.splitlines():
            if ":CONSOLE" in line:
                errors.append("console: " + line.split("] ", 1)[-1])
        check_dom(r.stdout, errors)
        if not errors:
            if os.path.exists(a.screenshot):
                os.remove(a.screenshot)
            r = chromium([f"--screenshot={os.path.abspath(a.screenshot)}", f"--window-size={a.width},{a.height}", url],
                         user_data)
            if r.returncode != 0:
                errors.append(f"chromium --screenshot exited with status {r.returncode}")
            check_screenshot(a.screenshot, a.width, a.height, errors)
    for e in errors:
        print(f"check_page: {a.page}: {e}")
    if not errors:
        print(f"check_page: {a.page}: rendered ({a.screenshot})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
