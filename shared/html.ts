// The one way pages and webviews are written: a tagged template that escapes every value put into it, so text
// from evidence (names, descriptions, URLs) is shown as text, never run as markup. Only markup this
// module's own templates make is passed through raw.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Markup made by `html`: safe to put into another template as it is. */
export class SafeHtml {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

export type HtmlValue = SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]);
}

/** Characters that change the direction of the text after them (e.g. U+202E, right-to-left override). */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/;

function rendered(value: HtmlValue, inAttribute: boolean): string {
  if (value instanceof SafeHtml) return value.text;
  if (value === null || value === undefined || value === false) return '';
  // The one object left is a list (Array.isArray would type a readonly list's entries as any).
  if (typeof value === 'object') return value.map((entry) => rendered(entry, inAttribute)).join('');
  const text = String(value);
  // Text with direction controls is isolated (FSI ... PDI): whatever it overrides ends with it, so
  // it cannot reorder the page's own words after it. Attribute values (URLs) stay as they are.
  return escapeHtml(!inAttribute && BIDI_CONTROLS.test(text) ? `\u2068${text}\u2069` : text);
}

/** `html\`<p>${text}</p>\``: every value escaped unless it is SafeHtml made by this same tag. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let text = strings[0];
  values.forEach((value, index) => {
    text += rendered(value, strings[index].endsWith('="')) + strings[index + 1];
  });
  return new SafeHtml(text);
}

/** A link only for http(s) URLs; any other scheme (javascript:, data:, ...) is shown as text. */
export function link(href: string, label: HtmlValue): SafeHtml {
  let safe: boolean;
  try {
    const protocol = new URL(href, 'http://relative.invalid').protocol;
    safe = protocol === 'http:' || protocol === 'https:';
  } catch {
    safe = false;
  }
  return safe ? html`<a href="${href}">${label}</a>` : html`${label}`;
}
