#!/usr/bin/env python3
"""pyHanko side of `signet bench sign`: sign PDFs in ONE Python process, key loaded once.

PAdES B-B (ETSI.CAdES.detached), RSA-2048 from the PKCS#12, a visible field at the
Bottom-Right box of DESIGN.md §2 (425,100,545,160). Prints {"count": N, "seconds": S}
where S covers the signing loop only (key loading excluded, as for signet).
"""
import argparse
import json
import os
import time

from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
from pyhanko.sign import fields, signers


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--p12", required=True)
    ap.add_argument("--password", required=True)
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("inputs", nargs="+")
    args = ap.parse_args()
    signer = signers.SimpleSigner.load_pkcs12(args.p12, passphrase=args.password.encode())
    meta = signers.PdfSignatureMetadata(
        field_name="Signature1", subfilter=fields.SigSeedSubFilter.PADES, reason="Benchmark")
    spec = fields.SigFieldSpec("Signature1", box=(425, 100, 545, 160))
    start = time.perf_counter()
    for path in args.inputs:
        out_path = os.path.join(args.out_dir, os.path.basename(path))
        with open(path, "rb") as inf, open(out_path, "wb") as outf:
            writer = IncrementalPdfFileWriter(inf)
            signers.sign_pdf(writer, meta, signer=signer, new_field_spec=spec, output=outf)
    seconds = time.perf_counter() - start
    print(json.dumps({"count": len(args.inputs), "seconds": seconds}))


if __name__ == "__main__":
    main()
