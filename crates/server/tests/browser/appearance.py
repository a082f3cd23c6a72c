"""Describes the visible signature appearances of a signed PDF for the browser tests.

usage: python3 appearance.py SIGNED.pdf RENDER_DIR

Prints one JSON object: {"pages": N, "widgets": [...]}, one entry per signature widget with a
value: its page (0-based), the page size, its /Rect, whether it has a normal appearance stream,
the fonts and images that stream uses (nested form XObjects included; for images the number
of opaque dark pixels), and how many non-white pixels poppler's renderer paints inside the
rectangle (the page is rendered with pdftoppm into RENDER_DIR, kept as a test artifact).
"""

import io
import json
import os
import subprocess
import sys

from PIL import Image
from pypdf import PdfReader


def image_ink(xobj):
    """Opaque dark pixels of an image XObject (its soft mask applied)."""
    width, height = int(xobj["/Width"]), int(xobj["/Height"])
    data = xobj.get_data()
    filters = xobj.get("/Filter")
    filters = list(filters) if isinstance(filters, list) else [filters]
    if "/DCTDecode" in filters:
        picture = Image.open(io.BytesIO(data)).convert("L")
    else:
        mode = {"/DeviceRGB": "RGB", "/DeviceGray": "L"}.get(str(xobj.get("/ColorSpace")), "RGB")
        picture = Image.frombytes(mode, (width, height), data).convert("L")
    alpha = None
    if "/SMask" in xobj:
        mask = xobj["/SMask"].get_object()
        alpha = Image.frombytes("L", (width, height), mask.get_data())
    gray = picture.tobytes()
    opacity = alpha.tobytes() if alpha is not None else bytes([255]) * (width * height)
    return sum(1 for g, a in zip(gray, opacity) if a > 127 and g < 128)


def describe(stream, seen, out):
    resources = stream.get("/Resources") or {}
    for font in (resources.get("/Font") or {}).values():
        out["fonts"].append(str(font.get_object().get("/BaseFont", "")))
    for xobj in (resources.get("/XObject") or {}).values():
        ref = xobj.indirect_reference if hasattr(xobj, "indirect_reference") else None
        xobj = xobj.get_object()
        key = (ref.idnum, ref.generation) if ref is not None else id(xobj)
        if key in seen:
            continue
        seen.add(key)
        if xobj.get("/Subtype") == "/Image":
            out["images"].append(
                {"width": int(xobj["/Width"]), "height": int(xobj["/Height"]), "ink": image_ink(xobj)}
            )
        elif xobj.get("/Subtype") == "/Form":
            describe(xobj, seen, out)


def rendered_ink(pdf, page_index, page_box, rect, render_dir):
    """Non-white pixels poppler paints inside `rect` (PDF points) on that page, at 72 dpi."""
    prefix = os.path.join(render_dir, f"rendered-page-{page_index + 1}")
    subprocess.run(
        ["pdftoppm", "-r", "72", "-gray", "-png", "-singlefile",
         "-f", str(page_index + 1), "-l", str(page_index + 1), pdf, prefix],
        check=True,
    )
    picture = Image.open(prefix + ".png").convert("L")
    x0, y0 = float(page_box[0]), float(page_box[1])
    top = float(page_box[3])
    left, right = sorted((float(rect[0]) - x0, float(rect[2]) - x0))
    low, high = sorted((float(rect[1]), float(rect[3])))
    crop = picture.crop((int(left), int(top - high), int(right) + 1, int(top - low) + 1))
    return sum(1 for g in crop.tobytes() if g < 200)


def main():
    pdf, render_dir = sys.argv[1], sys.argv[2]
    reader = PdfReader(pdf)
    page_of = {page.indirect_reference.idnum: i for i, page in enumerate(reader.pages)}
    widgets = []
    for i, page in enumerate(reader.pages):
        for annot in page.get("/Annots") or []:
            annot = annot.get_object()
            parent = annot.get("/Parent")
            field = parent.get_object() if parent is not None and "/FT" not in annot else annot
            if field.get("/FT") != "/Sig" or "/V" not in field:
                continue
            entry = {"page": i, "pageBox": [float(v) for v in page.mediabox],
                     "rect": [float(v) for v in annot["/Rect"]], "appearance": False,
                     "fonts": [], "images": [], "renderedInk": 0}
            p = annot.get("/P")
            if p is not None:
                entry["declaredPage"] = page_of.get(p.idnum)
            ap = (annot.get("/AP") or {}).get("/N")
            if ap is not None:
                entry["appearance"] = True
                describe(ap.get_object(), set(), entry)
            entry["renderedInk"] = rendered_ink(pdf, i, page.mediabox, annot["/Rect"], render_dir)
            widgets.append(entry)
    print(json.dumps({"pages": len(reader.pages), "widgets": widgets}))


if __name__ == "__main__":
    main()
