// A JavaScript regular expression rewritten in RE2's syntax with the meaning JavaScript gives it,
// so that it can run on a linear-time engine. The pattern is first read by JavaScript itself
// (its syntax errors stay JavaScript's), then translated token by token: every literal becomes a
// `\x{...}` code point and every class an explicit list of ranges, so that no character means
// something else to RE2. What RE2 cannot run in linear time (lookaround, backreferences) and what
// reads as another dialect's feature but means something else in JavaScript (`\Z`, `\p{L}`
// without the u flag, `[[:alpha:]]`) is refused with a RegexProblem naming it.
//
// One deliberate difference: characters are code points, as with JavaScript's u flag, so `.`
// matches an emoji whole even without it (JavaScript without u matches half a surrogate pair).

type Range = readonly [number, number];

export interface TranslationFlags {
  /** JavaScript's u flag: `\p{...}`, `\u{...}` and a strict syntax. */
  unicode: boolean;
}

/** A pattern that cannot be used, with why: `unsupported` when it is valid JavaScript the engine cannot run. */
export class RegexProblem extends Error {
  readonly pattern: string;
  /** What is wrong, without the pattern: JavaScript's syntax error, or what the engine cannot run and why. */
  readonly detail: string;
  readonly unsupported: boolean;
  constructor(pattern: string, reason: string, unsupported: boolean) {
    const detail = unsupported ? `${reason} (patterns run on a linear-time engine)` : reason;
    const shown = pattern.length > 200 ? `${pattern.slice(0, 197)}...` : pattern;
    super(`${unsupported ? 'Unsupported' : 'Invalid'} regular expression ${JSON.stringify(shown)}: ${detail}`);
    this.pattern = pattern;
    this.detail = detail;
    this.unsupported = unsupported;
  }
}

const MAX_CODE_POINT = 0x10ffff;
const DIGIT: readonly Range[] = [[0x30, 0x39]];
const WORD: readonly Range[] = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
/** JavaScript's `\s`: WhiteSpace and LineTerminator, wider than RE2's ASCII `\s`. */
const SPACE: readonly Range[] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];
/** What `.` leaves out: JavaScript's line terminators. */
const LINE_TERMINATOR: readonly Range[] = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];
const CONTROL_ESCAPES: Readonly<Record<string, number>> = { t: 0x09, n: 0x0a, v: 0x0b, f: 0x0c, r: 0x0d };
const CLASS_ESCAPES: Readonly<Record<string, readonly Range[]>> = { d: DIGIT, w: WORD, s: SPACE };

function complement(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const gaps: Range[] = [];
  let next = 0;
  for (const [from, to] of sorted) {
    if (from > next) gaps.push([next, from - 1]);
    next = Math.max(next, to + 1);
  }
  if (next <= MAX_CODE_POINT) gaps.push([next, MAX_CODE_POINT]);
  return gaps;
}

const hex = (codePoint: number): string => `\\x{${codePoint.toString(16)}}`;

/** A class of explicit ranges (and RE2 property escapes); an empty one matches nothing, as JavaScript's `[]`. */
function classOf(ranges: readonly Range[], properties: readonly string[] = [], negated = false): string {
  const items = ranges.map(([from, to]) => (from === to ? hex(from) : `${hex(from)}-${hex(to)}`)).join('');
  if (items === '' && properties.length === 0)
    return negated ? `[${hex(0)}-${hex(MAX_CODE_POINT)}]` : `[^${hex(0)}-${hex(MAX_CODE_POINT)}]`;
  return `[${negated ? '^' : ''}${items}${properties.join('')}]`;
}

const isHex = (text: string): boolean => /^[0-9a-fA-F]+$/.test(text);
const isSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdfff;

/** One character or class escape read at a backslash: a code point, or a set of ranges and properties. */
type Escape =
  { codePoint: number; length: number } | { ranges: readonly Range[]; properties: string[]; length: number };

class Translator {
  private at = 0;
  private readonly out: string[] = [];
  private readonly pattern: string;
  private readonly flags: TranslationFlags;

  constructor(pattern: string, flags: TranslationFlags) {
    this.pattern = pattern;
    this.flags = flags;
  }

  private unsupported(reason: string): RegexProblem {
    return new RegexProblem(this.pattern, reason, true);
  }

  translate(): string {
    while (this.at < this.pattern.length) this.token();
    return this.out.join('');
  }

  private token(): void {
    const char = this.pattern[this.at];
    switch (char) {
      case '\\':
        this.atomEscape();
        return;
      case '[':
        this.characterClass();
        return;
      case '(':
        this.group();
        return;
      case '.':
        this.out.push(classOf(LINE_TERMINATOR, [], true));
        this.at += 1;
        return;
      case '{': {
        const quantifier = /^\{(\d+)(?:(,)(\d*))?\}/.exec(this.pattern.slice(this.at));
        if (quantifier === null) break;
        const count = (digits: string): string => digits.replace(/^0+(?=\d)/, '');
        this.out.push(
          `{${count(quantifier[1])}${quantifier[2] ?? ''}${quantifier[3] === undefined ? '' : count(quantifier[3])}}`,
        );
        this.at += quantifier[0].length;
        return;
      }
      case '^':
      case '$':
      case '|':
      case ')':
      case '*':
      case '+':
      case '?':
        this.out.push(char);
        this.at += 1;
        return;
    }
    const codePoint = this.literalCodePoint();
    this.out.push(hex(codePoint));
  }

  /** The code point at `at` (a surrogate pair whole), which it steps over. */
  private literalCodePoint(): number {
    const codePoint = this.pattern.codePointAt(this.at)!;
    if (isSurrogate(codePoint)) throw this.unsupported('a lone surrogate is not a character');
    this.at += codePoint > 0xffff ? 2 : 1;
    return codePoint;
  }

  private group(): void {
    const rest = this.pattern.slice(this.at);
    if (rest.startsWith('(?:')) {
      this.out.push('(?:');
      this.at += 3;
    } else if (rest.startsWith('(?=') || rest.startsWith('(?!')) {
      throw this.unsupported(`lookahead '${rest.slice(0, 3)}...)' is not supported`);
    } else if (rest.startsWith('(?<=') || rest.startsWith('(?<!')) {
      throw this.unsupported(`lookbehind '${rest.slice(0, 4)}...)' is not supported`);
    } else if (rest.startsWith('(?<')) {
      // Group names do not change what matches; the group is kept as a plain one.
      this.out.push('(?:');
      this.at = this.pattern.indexOf('>', this.at) + 1;
    } else if (rest.startsWith('(?')) {
      throw this.unsupported(`the modifier group '${/^\(\?[a-z-]*:?/.exec(rest)![0]}' is not supported`);
    } else {
      this.out.push('(?:');
      this.at += 1;
    }
  }

  private atomEscape(): void {
    const next = this.pattern[this.at + 1];
    if (next === 'b' || next === 'B') {
      this.out.push(`\\${next}`);
      this.at += 2;
      return;
    }
    const escape = this.escape(false);
    this.at += escape.length;
    this.out.push('codePoint' in escape ? hex(escape.codePoint) : classOf(escape.ranges, escape.properties));
  }

  /** The escape at `at` (a backslash), without stepping over it. */
  private escape(inClass: boolean): Escape {
    const next = this.pattern[this.at + 1];
    const text = this.pattern.slice(this.at);
    const lower = next.toLowerCase();
    if (Object.hasOwn(CLASS_ESCAPES, lower)) {
      const ranges = CLASS_ESCAPES[lower];
      return { ranges: next === lower ? ranges : complement(ranges), properties: [], length: 2 };
    }
    if (Object.hasOwn(CONTROL_ESCAPES, next)) return { codePoint: CONTROL_ESCAPES[next], length: 2 };
    if (inClass && next === 'b') return { codePoint: 0x08, length: 2 };
    if (next === '0' && !/^\\0\d/.test(text)) return { codePoint: 0, length: 2 };
    if (/\d/.test(next)) throw this.unsupported(`the backreference or octal escape '\\${next}' is not supported`);
    if (next === 'k' && (this.flags.unicode || /\(\?<[^=!]/.test(this.pattern)))
      throw this.unsupported("the named backreference '\\k<...>' is not supported");
    if (next === 'c' && /^\\c[a-zA-Z]/.test(text)) return { codePoint: text.charCodeAt(2) % 32, length: 3 };
    if (next === 'x' && isHex(text.slice(2, 4)) && text.length >= 4)
      return { codePoint: parseInt(text.slice(2, 4), 16), length: 4 };
    if (next === 'c' || next === 'x')
      throw this.unsupported(
        `'\\${next}' must be followed by ${next === 'c' ? 'a letter' : 'two hex digits'} (here it would match the letter '${next}')`,
      );
    if (next === 'u') return this.unicodeEscape(text);
    if (next === 'p' || next === 'P') return this.propertyEscape(text);
    if (/[a-zA-Z]/.test(next))
      throw this.unsupported(
        `'\\${next}' is not an escape in JavaScript (here it would match the letter '${next}'); write the letter without '\\'`,
      );
    const codePoint = this.pattern.codePointAt(this.at + 1)!;
    if (isSurrogate(codePoint)) throw this.unsupported('a lone surrogate is not a character');
    return { codePoint, length: codePoint > 0xffff ? 3 : 2 };
  }

  private unicodeEscape(text: string): Escape {
    const braced = /^\\u\{([0-9a-fA-F]+)\}/.exec(text);
    if (this.flags.unicode && braced !== null) return { codePoint: parseInt(braced[1], 16), length: braced[0].length };
    const four = /^\\u([0-9a-fA-F]{4})(?:\\u([dD][c-fC-F][0-9a-fA-F]{2}))?/.exec(text);
    if (four === null)
      throw this.unsupported("'\\u' without four hex digits is not an escape (here it would match the letter 'u')");
    const unit = parseInt(four[1], 16);
    if (unit >= 0xd800 && unit <= 0xdbff && four[2] !== undefined)
      return { codePoint: 0x10000 + ((unit - 0xd800) << 10) + (parseInt(four[2], 16) - 0xdc00), length: 12 };
    if (isSurrogate(unit)) throw this.unsupported(`the lone surrogate '\\u${four[1]}' is not a character`);
    return { codePoint: unit, length: 6 };
  }

  private propertyEscape(text: string): Escape {
    const property = /^\\([pP])\{([^}]*)\}/.exec(text);
    if (!this.flags.unicode || property === null)
      throw this.unsupported(
        `'\\${text[1]}' is a Unicode property only with the u flag (here it would match the letter '${text[1]}')`,
      );
    const [whole, kind, body] = property as unknown as [string, string, string];
    const name = body.replace(/^(?:General_Category|gc|Script|sc)=/, '');
    if (/^(?:Script_Extensions|scx)=/.test(body) || !/^[A-Za-z_]+$/.test(name))
      throw this.unsupported(`the Unicode property '${whole}' is not supported`);
    return { ranges: [], properties: [`\\${kind}{${name}}`], length: whole.length };
  }

  /** `[...]`: JavaScript closes it at the first unescaped `]`, so `[]` matches nothing and `[^]` anything. */
  private characterClass(): void {
    this.at += 1;
    const negated = this.pattern[this.at] === '^';
    if (negated) this.at += 1;
    const ranges: Range[] = [];
    const properties: string[] = [];
    const add = (atom: Escape): void => {
      if ('codePoint' in atom) ranges.push([atom.codePoint, atom.codePoint]);
      else {
        ranges.push(...atom.ranges);
        properties.push(...atom.properties);
      }
    };
    while (this.pattern[this.at] !== ']') {
      const first = this.classAtom();
      if (this.pattern[this.at] !== '-' || this.pattern[this.at + 1] === ']') {
        add(first);
        continue;
      }
      this.at += 1;
      const last = this.classAtom();
      if ('codePoint' in first && 'codePoint' in last) ranges.push([first.codePoint, last.codePoint]);
      else {
        // Without the u flag a class escape at either end makes the dash a character of its own.
        add(first);
        ranges.push([0x2d, 0x2d]);
        add(last);
      }
    }
    this.at += 1;
    this.out.push(classOf(ranges, properties, negated));
  }

  /** One character or class escape inside a class, stepped over. */
  private classAtom(): Escape {
    if (this.pattern[this.at] !== '\\') {
      const posix = /^\[:([a-z]+):\]/.exec(this.pattern.slice(this.at));
      if (posix !== null)
        throw this.unsupported(
          `'${posix[0]}' is a POSIX class, which JavaScript does not have (here it would match the characters '[:${posix[1]}')`,
        );
      return { codePoint: this.literalCodePoint(), length: 0 };
    }
    const escape = this.escape(true);
    this.at += escape.length;
    return escape;
  }
}

/** The RE2 text of a JavaScript pattern that JavaScript accepts; throws RegexProblem for what RE2 cannot run. */
export function translatedPattern(pattern: string, flags: TranslationFlags): string {
  return new Translator(pattern, flags).translate();
}
