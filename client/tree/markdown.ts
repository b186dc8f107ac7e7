// Tooltips are Markdown, and most of what they show was written by someone else's pipeline
// (names, descriptions, commit messages, reasons). So tooltips are written with one tagged
// template: every interpolated value is escaped to plain text, and `code()` shows a value as an
// inline code span that nothing inside it can close. A value can never become a link, an image,
// a heading or markup.

/** Every character Markdown (and link detection) could read as syntax. */
const SYNTAX = /[\\`*_{}[\]()#+\-.!|<>~=&:@"']/g;

/** Markdown text that shows `text` exactly, as text. */
export function markdownText(text: string): string {
  return text.replace(SYNTAX, (character) => `\\${character}`).replace(/\r?\n/g, ' ');
}

/** A value this module made into Markdown: passed through `md` as it is. */
export class Markdown {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** An inline code span around `text`, fenced by more backticks than any run inside it. */
export function code(text: string): Markdown {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
  const fence = '`'.repeat(longest + 1);
  return new Markdown(`${fence} ${text.replace(/\r?\n/g, ' ')} ${fence}`);
}

export type MarkdownValue = Markdown | string | number | null | undefined;

/** `md\`**Trail ${name}**\``: every value escaped to text unless `code()` or `md` made it. */
export function md(strings: TemplateStringsArray, ...values: MarkdownValue[]): Markdown {
  let text = strings[0];
  values.forEach((value, index) => {
    const shown =
      value instanceof Markdown ? value.text : value === null || value === undefined ? '' : markdownText(String(value));
    text += shown + strings[index + 1];
  });
  return new Markdown(text);
}

/** Tooltip lines, each a paragraph. */
export function paragraphs(lines: readonly Markdown[]): string {
  return lines.map((line) => line.text).join('\n\n');
}
