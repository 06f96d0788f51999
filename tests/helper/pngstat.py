#!/usr/bin/env python3
# pngstat.py FILE.png [#rrggbb...]: what a screenshot holds, for t3100.
#
# Prints one line "WIDTH HEIGHT COLOURS INK_PERMILLE" (the distinct
# RGB colours, and the share of pixels, per thousand, that are not the
# most common colour, the background), then for each colour asked for,
# "#rrggbb N": the pixels within 3 of it in each channel.  A blank page
# has 1 colour and no ink; a drawn chart has many and a good share.
#
# Only Python's standard library (zlib): PNG's 8-bit truecolour, with
# or without alpha, which is what Chromium writes; anything else is
# refused with exit 2 rather than misread.
import struct
import sys
import zlib


def decode(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("%s: not a PNG" % path)
    pos, idat, hdr = 8, [], None
    while pos + 8 <= len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + n
    if hdr is None:
        sys.exit("%s: no IHDR" % path)
    width, height, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace != 0:
        print("%s: depth %d colour type %d interlace %d: not read here"
              % (path, depth, ctype, interlace), file=sys.stderr)
        sys.exit(2)
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(height):
        off = y * (stride + 1)
        ftype = raw[off]
        line = bytearray(raw[off + 1:off + 1 + stride])
        if ftype == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 0xff
        elif ftype == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 0xff
        elif ftype == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 0xff
        elif ftype == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pr) & 0xff
        elif ftype != 0:
            sys.exit("%s: row %d: filter %d" % (path, y, ftype))
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: pngstat.py FILE.png [#rrggbb...]")
    width, height, bpp, rows = decode(sys.argv[1])
    counts = {}
    for line in rows:
        for i in range(0, len(line), bpp):
            key = line[i:i + 3]
            counts[key] = counts.get(key, 0) + 1
    total = width * height
    background = max(counts.values())
    print("%d %d %d %d" % (width, height, len(counts),
                           (total - background) * 1000 // total))
    for want in sys.argv[2:]:
        rgb = bytes.fromhex(want.lstrip("#"))
        n = sum(v for k, v in counts.items()
                if all(abs(k[j] - rgb[j]) <= 3 for j in range(3)))
        print("%s %d" % (want, n))


main()
