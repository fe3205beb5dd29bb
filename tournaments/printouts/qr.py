"""QR codes for printouts: an SVG data URI (WeasyPrint and browsers draw it sharp at any
size; nothing to fetch)."""

from __future__ import annotations

import segno


def qr_data_uri(url: str) -> str:
    return str(segno.make(url, error="m").svg_data_uri(scale=4, border=2))
