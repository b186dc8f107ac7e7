// A trail's audit report as a PDF (reference §2.2 audit_pdf): plain text lines on A4 pages in a
// standard font. Written directly: a text-only report needs only the PDF file structure (objects,
// content streams and the cross-reference table), not a layout engine and its fonts.
import { Readable } from 'node:stream';

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

/**
 * The PDF, written object by object as the client reads it: the objects of one page at a time,
 * each object's offset counted as it goes for the cross-reference table at the end.
 */
export function pdfOfLines(lines: readonly string[]): Readable {
  return Readable.from(pdfChunks(lines), { objectMode: false });
}

function* pdfChunks(lines: readonly string[]): Generator<Buffer> {
  const all = lines.flatMap(wrapped);
  const pageCount = Math.max(1, Math.ceil(all.length / LINES_PER_PAGE));
  // Objects: 1 catalog, 2 pages, 3 font, then a page and its content stream for each page.
  const pageIds = Array.from({ length: pageCount }, (_, index) => 4 + index * 2);
  const objectCount = 4 + pageCount * 2;
  const offsets: number[] = [];
  let written = 0;
  const chunk = (text: string): Buffer => {
    const bytes = Buffer.from(text, 'latin1');
    written += bytes.length;
    return bytes;
  };
  const object = (id: number, body: string): Buffer => {
    offsets[id] = written;
    return chunk(`${id} 0 obj\n${body}\nendobj\n`);
  };
  yield chunk('%PDF-1.4\n');
  yield object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  yield object(2, `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageCount} >>`);
  yield object(3, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  for (const [index, pageId] of pageIds.entries()) {
    const pageLines = all.slice(index * LINES_PER_PAGE, (index + 1) * LINES_PER_PAGE);
    const text = pageLines.map((line) => `${pdfString(line)} Tj T*`).join('\n');
    const stream = `BT /F1 ${FONT_SIZE} Tf ${LEADING} TL ${MARGIN} ${PAGE_HEIGHT - MARGIN} Td\n${text}\nET`;
    yield object(
      pageId,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageId + 1} 0 R >>`,
    );
    yield object(pageId + 1, `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`);
  }
  const xref = written;
  let table = `xref\n0 ${objectCount}\n0000000000 65535 f \n`;
  for (let id = 1; id < objectCount; id += 1) table += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  yield chunk(`${table}trailer\n<< /Size ${objectCount} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
}
