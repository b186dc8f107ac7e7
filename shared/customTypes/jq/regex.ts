// Regular expressions for `test`, on the shared linear-time engine (shared/regex/), so a rule's
// pattern cannot stall the server whatever data it meets. jq's engine has Ruby syntax; the common
// forms (classes, quantifiers, groups, anchors, \d \w \s) read the same in JavaScript with the `u`
// flag, and `^`/`$` match at line breaks in both (hence `m`). Flags: `i` ignores case; `g` and `n`
// change nothing for a yes/no test. jq's `x`, `s`, `p` and `l` flags are refused rather than
// approximated.
import { linearRegex, RegexProblem, type LinearRegex } from '../../regex/index.ts';
import { JqRuntimeError } from './syntax.ts';

const FLAGS: Readonly<Record<string, string>> = { g: '', n: '', i: 'i' };

function engineFlags(flags: string): string {
  let result = 'mu';
  for (const flag of flags) {
    const js = FLAGS[flag];
    if (js === undefined) throw new JqRuntimeError(`Regex flag '${flag}' is not supported in rules (use g, i or n)`);
    if (!result.includes(js)) result += js;
  }
  return result;
}

/** The compiled pattern; throws JqRuntimeError for a pattern or flag it cannot use. */
export function compiledRegex(pattern: string, flags = ''): LinearRegex {
  const engine = engineFlags(flags);
  try {
    return linearRegex(pattern, engine);
  } catch (error) {
    if (error instanceof RegexProblem) throw new JqRuntimeError(error.message);
    throw error;
  }
}

/** Why a literal pattern or flags cannot be used, checked when the rule is read. */
export function regexProblem(pattern: string | undefined, flags: string | undefined): string | undefined {
  try {
    if (flags !== undefined) engineFlags(flags);
    if (pattern !== undefined) compiledRegex(pattern, flags ?? '');
    return undefined;
  } catch (error) {
    if (error instanceof JqRuntimeError) return error.message;
    throw error;
  }
}
