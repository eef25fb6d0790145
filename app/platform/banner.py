"""Print the address to open on a phone at the table, and its QR code (used by `make run`, which
migrates the database first in the same process: `--upgrade`).

The lines are in the terminal's language (LANGUAGE, LC_ALL, LC_MESSAGES, LANG) when it is one of
the counter's, else in French.
"""

from __future__ import annotations

import os
import socket
import sys
from itertools import zip_longest
from pathlib import Path
from typing import TextIO

import segno
from babel.support import Translations

from app.platform.languages import DEFAULT_LANGUAGE, LANGUAGES

CATALOGS = Path(__file__).resolve().parents[1] / "translations"  # app/translations

# Explicit colours: segno's terminal output paints with the terminal's own foreground and
# background (reverse video, or full blocks in the compact mode), so a light terminal shows the
# code inverted, which many phone cameras will not read. Black on white reads everywhere.
DARK_ON_TOP = {  # (top module dark, bottom module dark) -> foreground;background of « ▀ »
    (True, True): "30;40",
    (True, False): "30;107",
    (False, True): "97;40",
    (False, False): "97;107",
}


def lan_address() -> str:
    """Return this machine's address on the local network (127.0.0.1 if it has none)."""
    # Connecting a UDP socket sends nothing: it only asks the kernel which interface would be used.
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: a documentation address, never reached
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def terminal_language() -> str:
    """Return the first of the terminal's languages that the counter speaks, else French."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        for value in os.environ.get(variable, "").split(":"):
            code = value.split(".")[0].split("_")[0].lower()  # « de_DE.UTF-8 » → « de »
            if code in LANGUAGES:
                return code
    return DEFAULT_LANGUAGE


def print_qr(text: str, out: TextIO = sys.stdout, border: int = 2) -> None:
    """Print a QR code black on white whatever the terminal's colours, two rows per line."""
    rows = [
        [bool(bit) for bit in row] for row in segno.make(text, error="m").matrix_iter(border=border)
    ]
    for top, bottom in zip_longest(rows[::2], rows[1::2], fillvalue=[False] * len(rows[0])):
        cells = "".join(f"\033[{DARK_ON_TOP[pair]}m▀" for pair in zip(top, bottom))
        out.write(f"  {cells}\033[0m\n")


def main() -> None:
    _ = Translations.load(str(CATALOGS), [terminal_language()]).gettext
    host = os.environ.get("HOST", "0.0.0.0")
    port = os.environ.get("PORT", "8000")
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    url = f"http://{shown}:{port}/"
    here = f"http://127.0.0.1:{port}/"
    opening = _("« 6 qui prend ! » — ouvrez %(url)s sur un téléphone du même réseau Wi-Fi :")
    print(f"\n  {opening % {'url': url}}\n")
    print_qr(url)
    on_this_machine = _("(sur cette machine : %(url)s)")
    print(f"\n  {on_this_machine % {'url': here}}\n", flush=True)


if __name__ == "__main__":
    main()
