import path from "node:path";

/** The package directory (tests are compiled to dist/test). */
export const packageDir = path.resolve(__dirname, "..", "..");

/** A minimal valid one-page PDF (catalog, pages, page, content stream, font; exact xref offsets). */
export function onePagePdf(text = "Signet TypeScript client"): Buffer {
  const content = `BT /F1 24 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${Buffer.byteLength(content, "latin1")} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let out = "%PDF-1.7\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

/** How many times `needle` occurs in `haystack`. */
export function count(haystack: Buffer, needle: string): number {
  const n = Buffer.from(needle, "latin1");
  let found = 0;
  for (let i = haystack.indexOf(n); i >= 0; i = haystack.indexOf(n, i + n.length)) found++;
  return found;
}
