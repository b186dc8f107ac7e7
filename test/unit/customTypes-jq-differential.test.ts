// The jq subset against jq itself, where a jq binary is installed: seeded random rules built from
// the supported forms, run on random data, must give jq's outputs, and fail where jq fails.
// jq 1.6 and later agree on everything generated here (`if` always with `else` and in parentheses,
// no 1.7 builtins). any and all are left to the unit tests: jq 1.6 defines them with label/break,
// which a `?` inside them catches, and pulls one output past the answer; jq 1.7's definitions
// (first output decides) are the ones the subset follows.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { evaluateRule, ruleProblems } from '../../shared/customTypes/index.ts';

const jqAvailable = spawnSync('jq', ['--version'], { encoding: 'utf8' }).status === 0;

const KEYS = ['a', 'b', 'n', 's', 'xs', 'o'];

const data = fc.letrec<{ value: unknown; leaf: unknown }>((tie) => ({
  leaf: fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer({ min: -5, max: 30 }),
    fc.constantFrom('', 'abc', 'Alice', 'x-1', 'b'),
  ),
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('leaf'),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie('value'), { maxKeys: 4 }),
  ),
})).value;

const rule = fc.letrec<{ filter: string; term: string; path: string }>((tie) => ({
  path: fc.oneof(
    fc.constantFrom('.', ...KEYS.map((key) => `.${key}`)),
    fc
      .tuple(
        tie('path'),
        fc.constantFrom(...KEYS.map((key) => `.${key}`), '[0]', '[-1]', '[]', '[1:]', '?', '[]?', '["a"]'),
      )
      .map(([path, step]) => {
        // jq 1.6 reads neither `.?[` nor `??[`: a `?` never follows `.` or another `?` here.
        if (path === '.') return step.startsWith('.') ? step : step === '?' ? '.a?' : `.${step}`;
        return path.endsWith('?') && step === '?' ? `${path}.a` : `${path}${step}`;
      }),
  ),
  term: fc.oneof(
    { depthSize: 'small' },
    tie('path'),
    fc.constantFrom('1', '0', '-2', '"abc"', 'null', 'true', 'false', '[]', '{}'),
    fc.constantFrom(
      'length',
      'keys',
      'type',
      'not',
      'add',
      'min',
      'max',
      'first',
      'last',
      'sort',
      'unique',
      'tostring',
      'to_entries',
      'values',
      'empty',
    ),
    tie('filter').map((inner) => `(${inner})`),
    tie('filter').map((inner) => `[${inner}]`),
    fc
      .tuple(
        fc.constantFrom(
          'select',
          'map',
          'has',
          'contains',
          'inside',
          'startswith',
          'endswith',
          'test',
          'join',
          'ltrimstr',
          'split',
        ),
        tie('filter'),
      )
      .map(([name, arg]) => `${name}(${arg})`),
    fc.tuple(tie('term'), tie('term')).map(([key, value]) => `{"k": ${value}, (${key} | tostring): 1}`),
    fc.tuple(tie('filter'), tie('filter'), tie('filter')).map(([c, t, e]) => `(if ${c} then ${t} else ${e} end)`),
  ),
  filter: fc.oneof(
    { depthSize: 'small' },
    tie('term'),
    fc
      .tuple(
        tie('term'),
        fc.constantFrom('|', ',', '//', 'and', 'or', '==', '!=', '<', '<=', '>', '>=', '+', '-', '*', '/', '%'),
        tie('term'),
      )
      .map(([left, operator, right]) => `${left} ${operator} ${right}`),
  ),
})).filter;

/** jq's outputs for each rule on each input, or 'error' where jq raised one; one jq process for all. */
function jqOutputs(rules: string[], inputs: unknown[]): Array<Array<unknown[] | 'error'>> {
  const program = `[${rules.map((text) => `(try {ok: [${text}]} catch {error: true})`).join(', ')}]`;
  const result = spawnSync('jq', ['-c', program], {
    input: inputs.map((input) => JSON.stringify(input)).join('\n'),
    encoding: 'utf8',
    timeout: 20_000,
  });
  if (result.status !== 0) {
    const unreadable = rules.find((text) =>
      spawnSync('jq', ['-n', text], { encoding: 'utf8' }).stderr.includes('compile error'),
    );
    assert.fail(`jq cannot read a generated rule: ${unreadable ?? result.stderr}`);
  }
  return result.stdout
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as Array<{ ok?: unknown[]; error?: true }>).map((answer) => answer.ok ?? 'error'));
}

function ourOutputs(text: string, input: unknown): unknown[] | 'error' {
  try {
    return JSON.parse(JSON.stringify(evaluateRule(text, input))) as unknown[];
  } catch {
    return 'error';
  }
}

describe('custom type rules against jq', function () {
  before(function () {
    if (!jqAvailable) this.skip();
  });

  it("gives jq's outputs and errors for 40 seeded random rules on each of 25 random values", () => {
    const rules = fc.sample(rule, { seed: 4242, numRuns: 40 });
    const inputs = fc.sample(data, { seed: 2424, numRuns: 25 });
    assert.deepEqual(
      rules.filter((text) => ruleProblems([text]).length > 0),
      [],
      'every generated rule is in the subset',
    );
    const expected = jqOutputs(rules, inputs);
    assert.equal(expected.length, inputs.length);
    inputs.forEach((input, i) => {
      rules.forEach((text, r) =>
        assert.deepEqual(ourOutputs(text, input), expected[i][r], `${text} on ${JSON.stringify(input)}`),
      );
    });
  });
});
