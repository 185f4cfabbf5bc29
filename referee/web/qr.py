"""A link as a QR code, drawn as a small SVG (the join panel's picture of the join link)."""

from __future__ import annotations

from itertools import groupby

import qrcode


def qr_code_svg(link: str) -> str:
    """The QR code of `link` as an SVG drawing: one path, one stroke per run of dark squares in a row.

    qrcode's own SVG path draws each dark square alone (8.6 KB, 3.2 KB gzipped, for a join link); a run is a
    quarter of that once gzipped, and the host's first page load has a budget (docs/performance.md). The squares
    are the same ones (tests/web/test_join.py compares them); crispEdges keeps rows from blurring together.
    """
    code = qrcode.QRCode(border=2)  # the quiet zone scanners need around the code, as before
    code.add_data(link)
    code.make(fit=True)
    matrix = code.get_matrix()  # the border included
    strokes = []
    for y, row in enumerate(matrix):
        x = 0
        for dark, run in groupby(row):
            length = len(list(run))
            if dark:
                strokes.append(f"M{x} {y}h{length}v1h-{length}z")
            x += length
    size = len(matrix)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}mm" height="{size}mm" viewBox="0 0 {size} {size}"'
        f' shape-rendering="crispEdges"><path d="{"".join(strokes)}" fill="#000"/></svg>'
    )
