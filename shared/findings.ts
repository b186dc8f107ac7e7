// The vocabulary every face speaks: a finding is one thing wrong with a document or a request body.
// The API turns a finding into `{errors: {<field path>: <message>}}`; the editor into a diagnostic;
// `cev validate` into `<file>:<line>:<col>: <severity> <code> <field>: <message>`; its code is
// described in shared/findingCodes.ts.

export type Severity = 'error' | 'warning' | 'information' | 'hint';

/** A step into a parsed document: an object key or an array index. */
export type PathSegment = string | number;

/** Zero-based offsets into the document text, end exclusive. */
export interface TextRange {
  start: number;
  end: number;
}

/** A rule's verdict on a parsed value, before it is placed in the text. */
export interface Issue {
  /** Stable identifier, `<kind>/<rule>`, e.g. `template/unknown-attestation-type`. */
  code: string;
  severity: Severity;
  /** Says what is wrong and what would be right. */
  message: string;
  /** Where in the value the problem is. */
  path: PathSegment[];
  /** Whether the problem is about the key at `path` or its value. */
  target: 'key' | 'value';
  /** Facts a quick fix needs (suggested names, the expected value, ...). */
  data?: Record<string, unknown>;
}

/** An issue placed in the document text. */
export interface Finding extends Issue {
  range: TextRange;
}

/**
 * The field path the API uses as a key of its `errors` object: dotted keys, bracketed indexes
 * (`trail.attestations[0].name`), as the hosted service renders them.
 */
export function fieldPath(path: readonly PathSegment[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out;
}
