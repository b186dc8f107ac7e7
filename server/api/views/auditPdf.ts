// A trail's audit report as a PDF (reference §2.2 audit_pdf): plain text lines on A4 pages in a
// standard font. Written directly: a text-only report needs only the PDF file structure (objects,
// content streams and the cross-reference table), not a layout engine and its fonts.

const PAGE_WIDTH = 595;
const PAGE_HEIGHT = 842;
const MARGIN = 50;
const FONT_SIZE = 10;
const LEADING = 14;
const LINES_PER_PAGE = Math.floor((PAGE_HEIGHT - 2 * MARGIN) / LEADING);
/** Characters a line holds at this size before it wraps. */
const LINE_CHARACTERS = 95;

/** Text as a PDF string literal in the font's WinAnsi encoding: outside Latin-1 becomes '?'. */
function pdfString(text: string): string {
  const latin1 = [...text]
    .map((character) => (character.codePointAt(0)! <= 0xff && character.codePointAt(0)! >= 0x20 ? character : '?'))
    .join('');
  return `(${latin1.replace(/[\\()]/g, (character) => `\\${character}`)})`;
}

function wrapped(line: string): string[] {
  if (line.length <= LINE_CHARACTERS) return [line];
  const parts: string[] = [];
  for (let start = 0; start < line.length; start += LINE_CHARACTERS)
    parts.push((start === 0 ? '' : '  ') + line.slice(start, start + LINE_CHARACTERS));
  return parts;
}

export function pdfOfLines(lines: readonly string[]): Buffer {
  const all = lines.flatMap(wrapped);
  const pages: string[][] = [];
  for (let start = 0; start < Math.max(all.length, 1); start += LINES_PER_PAGE)
    pages.push(all.slice(start, start + LINES_PER_PAGE));
  // Objects: 1 catalog, 2 pages, 3 font, then a page and its content stream for each page.
  const objects: string[] = [];
  const pageIds = pages.map((_, index) => 4 + index * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  pages.forEach((pageLines, index) => {
    const pageId = pageIds[index];
    const text = pageLines.map((line) => `${pdfString(line)} Tj T*`).join('\n');
    const stream = `BT /F1 ${FONT_SIZE} Tf ${LEADING} TL ${MARGIN} ${PAGE_HEIGHT - MARGIN} Td\n${text}\nET`;
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageId + 1} 0 R >>`;
    objects[pageId + 1] = `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`;
  });
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id += 1) {
    offsets[id] = Buffer.byteLength(body, 'latin1');
    body += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id += 1) body += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
