// Offsets ↔ lines and columns. The language server speaks 0-based lines and characters (UTF-16
// code units, as LSP does by default); `cev validate` prints 1-based ones. The line table is built
// only when a finding has to be shown, so parsing a clean document never pays for it.
import { LineCounter } from 'yaml';

export interface LinePosition {
  /** 0-based line. */
  line: number;
  /** 0-based UTF-16 column. */
  character: number;
}

export interface LineIndex {
  positionAt(offset: number): LinePosition;
  offsetAt(position: LinePosition): number;
  lineCount: number;
}

export function lineIndexOf(text: string): LineIndex {
  const counter = new LineCounter();
  counter.addNewLine(0);
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) counter.addNewLine(i + 1);
  const starts = counter.lineStarts;
  return {
    lineCount: starts.length,
    positionAt(offset) {
      const clamped = Math.max(0, Math.min(offset, text.length));
      const { line, col } = counter.linePos(clamped);
      return { line: line - 1, character: col - 1 };
    },
    offsetAt({ line, character }) {
      if (line < 0) return 0;
      if (line >= starts.length) return text.length;
      const start = starts[line];
      const next = line + 1 < starts.length ? starts[line + 1] - 1 : text.length;
      return Math.max(start, Math.min(start + Math.max(0, character), next));
    },
  };
}

/** The end of the line that holds `offset`, without the line break and trailing blanks. */
export function lineEndAt(text: string, offset: number): number {
  let end = text.indexOf('\n', offset);
  if (end === -1) end = text.length;
  while (end > offset && /[\s]/.test(text[end - 1])) end--;
  return end;
}
