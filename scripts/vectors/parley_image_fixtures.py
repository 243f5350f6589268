#!/usr/bin/env python3
"""Image fixtures for ParleyImageTests, made with Pillow (an encoder independent of the Swift code and its
libjpeg/libpng shim), plus hostile variants edited at the byte level.

Run: pip install pillow && python3 scripts/vectors/parley_image_fixtures.py
Rewrites Tests/ParleyImageTests/Vectors/*.{jpg,png} and images.json. Tests never run it.
"""
import io
import json
import os
import struct
import zlib

from PIL import Image

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "ParleyImageTests", "Vectors")


def gradient(w, h, mode="RGB"):
    img = Image.new("RGB", (w, h))
    img.putdata([((x * 255) // w, (y * 255) // h, 128) for y in range(h) for x in range(w)])
    return img.convert(mode) if mode != "RGB" else img


def save(img, name, **kw):
    buf = io.BytesIO()
    img.save(buf, **kw)
    data = buf.getvalue()
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
    return data


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


entries = []
photo = save(gradient(640, 400), "photo.jpg", format="JPEG", quality=85)
entries.append({"file": "photo.jpg", "width": 640, "height": 400})
save(gradient(90, 120, "L"), "gray.jpg", format="JPEG", quality=90)
entries.append({"file": "gray.jpg", "width": 90, "height": 120})
save(gradient(1200, 300), "progressive.jpg", format="JPEG", quality=80, progressive=True)
entries.append({"file": "progressive.jpg", "width": 1200, "height": 300})
rgba = gradient(300, 200).convert("RGBA")
rgba.putalpha(128)
png = save(rgba, "alpha.png", format="PNG")
entries.append({"file": "alpha.png", "width": 300, "height": 200})
save(gradient(64, 48).convert("P", palette=Image.ADAPTIVE, colors=16), "palette.png", format="PNG")
entries.append({"file": "palette.png", "width": 64, "height": 48})
save(gradient(100, 80).convert("I;16"), "gray16.png", format="PNG")
entries.append({"file": "gray16.png", "width": 100, "height": 80})

# Hostile inputs: each must be refused with the named error, never crash.
save(gradient(40, 30, "CMYK"), "cmyk.jpg", format="JPEG")
entries.append({"file": "cmyk.jpg", "error": "invalid"})
write("truncated.jpg", photo[: len(photo) // 3])
entries.append({"file": "truncated.jpg", "error": "invalid"})
write("header-only.jpg", photo[:200])
entries.append({"file": "header-only.jpg", "error": "invalid"})
write("garbage.jpg", b"\xff\xd8\xff" + bytes((i * 37 + 11) % 256 for i in range(3000)))
entries.append({"file": "garbage.jpg", "error": "invalid"})
# SOF0 frame header: FF C0, length(2), precision(1), height(2), width(2).
sof = photo.index(b"\xff\xc0")
huge = bytearray(photo)
huge[sof + 5:sof + 9] = struct.pack(">HH", 60000, 60000)
write("huge.jpg", bytes(huge))
entries.append({"file": "huge.jpg", "error": "tooLarge"})
write("truncated.png", png[: len(png) // 2])
entries.append({"file": "truncated.png", "error": "invalid"})
# IHDR data starts at byte 16: width(4), height(4); the chunk CRC (over type + data) must stay valid.
ihdr = bytearray(png[12:33])
ihdr[4:12] = struct.pack(">II", 100000, 100000)
write("huge.png", png[:12] + bytes(ihdr[:17]) + struct.pack(">I", zlib.crc32(bytes(ihdr[:17]))) + png[33:])
entries.append({"file": "huge.png", "error": "tooLarge"})
bad_crc = bytearray(png)
bad_crc[50] ^= 0xFF   # inside the first IDAT's data: its CRC no longer matches
write("bad-crc.png", bytes(bad_crc))
entries.append({"file": "bad-crc.png", "error": "invalid"})
write("not-an-image.bin", b"%PDF-1.7\n" + bytes(100))
entries.append({"file": "not-an-image.bin", "error": "unsupportedFormat"})

with open(os.path.join(OUT, "images.json"), "w") as f:
    json.dump({"source": "scripts/vectors/parley_image_fixtures.py (Pillow " + Image.__version__ + ")", "images": entries}, f, indent=1)
    f.write("\n")
print("wrote", len(entries), "fixtures to", os.path.normpath(OUT))
