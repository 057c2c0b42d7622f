"""Draws docs/img/wiring.png: the Pi's 40-pin header with the default buttons, LEDs and buzzer.

The pins come from the configuration's defaults (companion.config.GpioConfig), so the picture
cannot drift from what the app expects. Pass a configuration file to draw your own wiring:

    python deploy/wiring_diagram.py [--config companion.toml] [--out docs/img/wiring.png]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# Physical pin -> what it is (BCM numbers for GPIOs), for the Raspberry Pi 40-pin header.
HEADER: dict[int, str] = {
    1: "3V3", 2: "5V", 3: "GPIO2", 4: "5V", 5: "GPIO3", 6: "GND", 7: "GPIO4", 8: "GPIO14",
    9: "GND", 10: "GPIO15", 11: "GPIO17", 12: "GPIO18", 13: "GPIO27", 14: "GND", 15: "GPIO22",
    16: "GPIO23", 17: "3V3", 18: "GPIO24", 19: "GPIO10", 20: "GND", 21: "GPIO9", 22: "GPIO25",
    23: "GPIO11", 24: "GPIO8", 25: "GND", 26: "GPIO7", 27: "ID_SD", 28: "ID_SC", 29: "GPIO5",
    30: "GND", 31: "GPIO6", 32: "GPIO12", 33: "GPIO13", 34: "GND", 35: "GPIO19", 36: "GPIO16",
    37: "GPIO26", 38: "GPIO20", 39: "GND", 40: "GPIO21",
}
BCM_TO_PIN = {int(name[4:]): pin for pin, name in HEADER.items() if name.startswith("GPIO")}

W, H = 1700, 900
PITCH = 26  # vertical distance between header rows, px
TOP = 190
PIN_X = (820, 880)  # x of odd (left) and even (right) header columns
BOX = (PIN_X[0] - 120, PIN_X[1] + 120)  # the header board, labels inside
COLOURS = {"button": (40, 110, 200), "led": (200, 60, 40), "buzzer": (120, 60, 160)}


def font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    for name in ("DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"):
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default()


def pin_xy(pin: int) -> tuple[int, int]:
    row = (pin - 1) // 2
    return PIN_X[(pin - 1) % 2], TOP + row * PITCH


def parts(gpio: object) -> list[tuple[str, str, int]]:
    """(kind, label, BCM pin) for every wired part of a GpioConfig."""
    out: list[tuple[str, str, int]] = []
    end_turn = list(getattr(gpio, "end_turn", ()))
    for i, bcm in enumerate(end_turn):
        out.append(("button", "End turn (shared)" if len(end_turn) == 1 else f"End turn, seat {i + 1}", bcm))
    for name in ("undo", "scan"):
        bcm = getattr(gpio, name, None)
        if bcm is not None:
            out.append(("button", name.capitalize(), bcm))
    for i, bcm in enumerate(getattr(gpio, "leds", ())):
        out.append(("led", f"LED, seat {i + 1}", bcm))
    buzzer = getattr(gpio, "buzzer", None)
    out.append(("buzzer", "Buzzer (optional)", buzzer if buzzer is not None else 12))
    return out


def draw(gpio: object, out: Path) -> None:
    img = Image.new("RGB", (W, H), "white")
    d = ImageDraw.Draw(img)
    big, mid, small = font(30), font(20), font(15)
    d.text((40, 30), "Wiring: buttons, LEDs and buzzer on the Raspberry Pi's 40-pin header", fill="black", font=big)
    d.text((40, 75), "Pins are BCM numbers, configurable in /etc/companion/companion.toml [gpio]. "
           "Buttons: pin to ground (internal pull-up, no resistor).", fill=(60, 60, 60), font=mid)
    d.text((40, 100), "LEDs: pin -> 330 ohm resistor -> long leg (anode); short leg (cathode) to ground. "
           "Buzzer: + to its pin, - to ground.", fill=(60, 60, 60), font=mid)

    used = {bcm for _, _, bcm in parts(gpio)}
    # Ground rails on both sides, joined to the nearest GND pins (39 on the left, 34 on the right).
    rails = {1: 70, 0: W - 70}  # odd pins go left, even pins go right
    bottom = TOP + 20 * PITCH
    for side, rx in rails.items():
        d.line((rx, TOP - 10, rx, H - 70), fill="black", width=4)
        d.text((rx - 20, H - 65), "GND", fill="black", font=mid)
        gnd = 39 if side == 1 else 34
        _, gy = pin_xy(gnd)
        bx = BOX[0] if side == 1 else BOX[1]
        elbow_y = bottom + (40 if side == 1 else 60)
        d.line((bx, gy, bx + (-20 if side == 1 else 20), gy), fill="black", width=3)
        d.line((bx + (-20 if side == 1 else 20), gy, bx + (-20 if side == 1 else 20), elbow_y, rx, elbow_y),
               fill="black", width=3)

    # One part per used pin, drawn on that pin's side, each wire in its own lane.
    rows: dict[int, int] = {0: 0, 1: 0}
    for kind, label, bcm in parts(gpio):
        pin = BCM_TO_PIN.get(bcm)
        if pin is None:
            continue
        side = pin % 2
        _, py = pin_xy(pin)
        k = rows[side]
        rows[side] += 1
        y = TOP - 10 + k * 62
        cx = 330 if side == 1 else W - 330
        col = COLOURS[kind]
        lane = BOX[0] - 45 - k * 16 if side == 1 else BOX[1] + 45 + k * 16
        bx = BOX[0] if side == 1 else BOX[1]
        near = cx + (30 if side == 1 else -30)
        d.line((bx, py, lane, py, lane, y, near, y), fill=col, width=3)
        rail = rails[side]
        if kind == "button":
            d.ellipse((cx - 22, y - 22, cx + 22, y + 22), fill=(230, 230, 230), outline=col, width=4)
            d.ellipse((cx - 10, y - 10, cx + 10, y + 10), fill=col)
            far = cx - 22 if side == 1 else cx + 22
        elif kind == "led":
            # pin -> resistor -> LED (anode to cathode, pointing at ground)
            r0 = cx + 20 if side == 1 else cx - 60
            d.rectangle((r0, y - 8, r0 + 40, y + 8), fill=(220, 200, 150), outline="black")
            d.text((r0 + 4, y + 10), "330", fill="black", font=small)
            lx = cx - 30 if side == 1 else cx + 30
            tri = ([(lx + 12, y - 14), (lx + 12, y + 14), (lx - 12, y)] if side == 1 else
                   [(lx - 12, y - 14), (lx - 12, y + 14), (lx + 12, y)])
            d.line((r0 if side == 1 else r0 + 40, y, lx, y), fill=col, width=3)
            d.polygon(tri, fill=col)
            bar = lx - 12 if side == 1 else lx + 12
            d.line((bar, y - 14, bar, y + 14), fill=col, width=3)
            far = bar
        else:
            d.rectangle((cx - 22, y - 18, cx + 22, y + 18), fill=(60, 60, 60), outline=col, width=3)
            d.text((cx - 8, y - 13), "+", fill="white", font=mid)
            far = cx - 22 if side == 1 else cx + 22
        d.line((far, y, rail, y), fill="black", width=2)
        text = f"{label}: GPIO{bcm} (pin {pin})"
        tw = d.textlength(text, font=mid)
        d.text((cx - tw / 2, y - 46), text, fill=col, font=mid)

    # The header board, drawn last so no wire covers a pin's name.
    d.rounded_rectangle((BOX[0], TOP - 22, BOX[1], bottom + 2), 8, fill=(20, 90, 50), outline="black")
    d.text((BOX[0] - 40, bottom + 80), "pin 1 (3V3) is the square pad, at the end nearest the SD card",
           fill="black", font=small)
    for pin, name in HEADER.items():
        x, y = pin_xy(pin)
        bcm = int(name[4:]) if name.startswith("GPIO") else None
        colour = (250, 210, 60) if bcm in used else (0, 0, 0) if name == "GND" else (190, 190, 190)
        d.ellipse((x - 8, y - 8, x + 8, y + 8), fill=colour, outline="white")
        label = f"{pin} {name}" if pin % 2 else f"{name} {pin}"
        tw = d.textlength(label, font=small)
        ink = (255, 235, 120) if bcm in used else "white"
        d.text((x - 14 - tw, y - 9) if pin % 2 else (x + 14, y - 9), label, fill=ink, font=small)

    d.text((40, H - 30), "Generated by deploy/wiring_diagram.py from the configuration defaults.",
           fill=(90, 90, 90), font=small)
    out.parent.mkdir(parents=True, exist_ok=True)
    img.save(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", help="a companion.toml to draw (default: the built-in defaults)")
    ap.add_argument("--out", default=str(ROOT / "docs" / "img" / "wiring.png"))
    args = ap.parse_args()
    from companion import config as cfg

    gpio = cfg.load_config(args.config).gpio if args.config else cfg.GpioConfig()
    draw(gpio, Path(args.out))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
