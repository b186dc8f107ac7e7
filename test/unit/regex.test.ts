// The linear-time regular expressions every user-supplied pattern runs on (shared/regex/): the
// meaning JavaScript gives a pattern, kept on RE2, and a refusal naming what cannot be kept.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { linearRegex, regexProblem, MAX_PATTERN_LENGTH } from '../../shared/regex/index.ts';

/** Whether the pattern finds a match, or the refusal's detail. */
function outcome(pattern: string, text: string, flags = ''): boolean | string {
  const problem = regexProblem(pattern, flags);
  return problem === undefined ? linearRegex(pattern, flags).test(text) : problem.message;
}

describe('linear-time regular expressions', () => {
  it('keep the meaning JavaScript gives the odd patterns it accepts', () => {
    assert.equal(outcome('(?<n>a)', 'xa'), true);
    assert.equal(outcome('(a|)*', ''), true);
    assert.equal(outcome('[]', 'a'), false, "JavaScript's empty class matches nothing");
    assert.equal(outcome('[^]', '\n'), true, "JavaScript's [^] matches anything");
    assert.equal(outcome('\\u0041', 'A'), true);
    assert.equal(outcome('\\u{1F600}', '😀', 'u'), true);
    assert.equal(outcome('^\\uD83D\\uDE00$', '😀'), true, 'an escaped surrogate pair is one character');
    assert.equal(outcome('a{,5}', 'a{,5}'), true, 'without the u flag an incomplete quantifier is literal');
    assert.equal(outcome('\\p{Lu}', 'É', 'u'), true);
    assert.equal(outcome('\\p{Script=Greek}', 'λ', 'u'), true);
    assert.equal(outcome('^\\s$', '\u00a0'), true, "JavaScript's \\s, wider than RE2's");
    assert.equal(outcome('^.$', '\u2028'), false, '. leaves out every JavaScript line terminator');
    assert.equal(outcome('[\\d-z]', '-'), true, 'a class escape before a dash makes it a character');
    assert.equal(outcome('^[\\b]$', '\b'), true);
    assert.equal(outcome('^\\cJ$', '\n'), true);
    assert.equal(outcome('^\\-\\]\\}$', '-]}'), true);
    assert.equal(outcome('^a{01,02}$', 'aa'), true);
  });

  it('refuse what the engine cannot run, naming the pattern and what', () => {
    const refusals: Array<[pattern: string, flags: string, detail: RegExp]> = [
      ['(?=a)', '', /^Unsupported regular expression "\(\?=a\)": lookahead/],
      ['(?<!a)b', '', /lookbehind '\(\?<!\.\.\.\)' is not supported/],
      ['(a)\\1', '', /the backreference or octal escape '\\1' is not supported/],
      ['(?<n>a)\\k<n>', '', /named backreference/],
      ['a{99999}', '', /^Unsupported regular expression "a\{99999\}": a repeat count above 1000/],
      ['\\p{L}', '', /'\\p' is a Unicode property only with the u flag/],
      ['[[:alpha:]]', '', /'\[:alpha:\]' is a POSIX class/],
      ['\\Z', '', /'\\Z' is not an escape in JavaScript/],
      ['\\uD83D', '', /lone surrogate/],
      ['(?i:a)', '', /modifier group/],
      ['\\p{Script_Extensions=Latin}', 'u', /Unicode property/],
      ['a'.repeat(MAX_PATTERN_LENGTH + 1), '', /longer than 4096 characters/],
    ];
    for (const [pattern, flags, detail] of refusals) {
      const problem = regexProblem(pattern, flags);
      assert.ok(problem, `${pattern} is refused`);
      assert.equal(problem.unsupported, true, pattern);
      assert.match(problem.message, detail);
      assert.match(problem.message, /\(patterns run on a linear-time engine\)$/);
    }
  });

  it("leave JavaScript's syntax errors as JavaScript words them", () => {
    for (const [pattern, reason] of [
      ['(', 'Unterminated group'],
      ['*', 'Nothing to repeat'],
      ['(?i)a', 'Invalid group'],
    ]) {
      const problem = regexProblem(pattern);
      assert.equal(problem?.unsupported, false);
      assert.equal(problem.message, `Invalid regular expression ${JSON.stringify(pattern)}: ${reason}`);
    }
  });

  it('match as JavaScript does on generated patterns and texts', () => {
    const tokens = ['a', 'b', 'A', '.', '\\d', '\\D', '\\w', '\\W', '\\s', '\\S', '\\b', '\\B', '^', '$', '|'];
    tokens.push('(', ')', '(?:', '(?<g>', '[', ']', '[^', '-', '*', '+', '?', '*?', '{2}', '{1,3}', '{2,}');
    tokens.push('\\n', ' ', '\u00a0', '\\u0061', '\\x62', '\\.', '\\-', 'é', '\\t', '\n', '{', '}', ',', '[a-c]');
    tokens.push('[\\s\\d]', '[^\\w]', '\\0', '\\cJ', '[\\b]', '\\u2028', '😀');
    // Case folding of the Kelvin sign and long s, and `^`/`$` at \r or U+2028 under m, are where
    // RE2 (and jq) differ from JavaScript on purpose; astral characters are code points here.
    const characters = ['a', 'b', 'A', 'B', '1', ' ', '\n', '\u00a0', '-', '.', 'é', '\t', '_', '\u0000', ','];
    const texts = fc.array(fc.constantFrom(...characters), { maxLength: 8 }).map((chars) => chars.join(''));
    let compared = 0;
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...tokens), { maxLength: 7 }).map((parts) => parts.join('')),
        fc.constantFrom('', 'u', 'i', 'm', 'mu', 'iu'),
        fc.array(texts, { minLength: 1, maxLength: 5 }),
        (pattern, flags, samples) => {
          let js: RegExp;
          try {
            js = new RegExp(pattern, flags);
          } catch {
            return regexProblem(pattern, flags)?.unsupported === false;
          }
          const problem = regexProblem(pattern, flags);
          if (problem !== undefined) return problem.unsupported;
          compared += 1;
          const ours = linearRegex(pattern, flags);
          const surrogates = !flags.includes('u') && pattern.includes('😀');
          return samples.every((text) => surrogates || js.test(text) === ours.test(text));
        },
      ),
      { numRuns: 3000, seed: 23 },
    );
    assert.ok(compared > 1000, `compared ${compared} accepted patterns`);
  });

  it('match patterns that backtrack exponentially in JavaScript in time linear in the text', () => {
    const hostile: Array<[string, string]> = [
      ['^(a+)+$', `${'a'.repeat(5000)}-`],
      ['^(.*.*)*X$', 'a'.repeat(100_000)],
      ['^(a|a)*$', `${'a'.repeat(5000)}!`],
      ['(\\w+\\s?)+$', `${'word '.repeat(2000)}!`],
    ];
    for (const [pattern, text] of hostile) {
      const started = performance.now();
      assert.equal(linearRegex(pattern).test(text), false);
      // Generous for a shared machine: JavaScript's engine takes longer than the age of the universe.
      assert.ok(performance.now() - started < 2000, `${pattern} took ${performance.now() - started} ms`);
    }
  });
});
