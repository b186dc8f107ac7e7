import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  CONDITION_CONTEXTS,
  CONDITION_FUNCTIONS,
  evaluateCondition,
  parseCondition,
  type ConditionContext,
} from '../../shared/expressions/index.ts';

/**
 * Asserts that `text` yields exactly the listed errors. Each error's range is drawn under the
 * text with carets (`^`), or with a single `|` for an empty range, so the columns are visible.
 */
function assertErrors(text: string, ...expected: Array<[marks: string, message: RegExp]>): void {
  const { expression, errors } = parseCondition(text);
  assert.equal(expression, undefined, `no expression when there are errors in ${text}`);
  const want = expected.map(([marks, message]) => {
    const start = marks.search(/[\^|]/);
    const end = marks.includes('|') ? start : marks.lastIndexOf('^') + 1;
    return { start, end, message };
  });
  assert.deepEqual(
    errors.map(({ start, end }) => ({ start, end })),
    want.map(({ start, end }) => ({ start, end })),
    `ranges of ${text}: ${JSON.stringify(errors)}`,
  );
  errors.forEach((error, index) => assert.match(error.message, want[index].message));
}

function holds(text: string, context: ConditionContext): boolean {
  const { expression, errors } = parseCondition(text);
  assert.deepEqual(errors, [], text);
  assert.ok(expression);
  return evaluateCondition(expression, context);
}

const runner: ConditionContext = {
  flow: { name: 'runner', tags: { team: 'platform', tier: '3', empty: '' } },
  artifact: { name: 'acme:1.2', fingerprint: 'a'.repeat(64) },
};

describe('policy conditions: parsing', () => {
  it('accepts the forms of the reference and keeps node offsets', () => {
    const text = '${{ flow.name == "runner" }}';
    const { expression, errors } = parseCondition(text);
    assert.deepEqual(errors, []);
    assert.ok(expression?.kind === 'compare');
    assert.equal(text.slice(expression.start, expression.end), 'flow.name == "runner"');
    assert.equal(text.slice(expression.left.start, expression.left.end), 'flow.name');
    assert.deepEqual(expression.left.kind === 'context' && expression.left.path, { scope: 'flow', property: 'name' });
    for (const ok of [
      "${{ matches(artifact.name, '^acme:.*') }}",
      '${{ flow.tags.team in ["a", \'b\', 1, true, null] }}',
      '${{ not (flow.name == "a" or artifact.fingerprint != "b") and exists(flow.tags.team-name) }}',
      '${{ artifact.name not in [] }}',
      '${{ flow.tags.level >= 2.5 and flow.tags.level < -1e3 }}',
      '  ${{true}}  ',
      '${{ flow.tags.a.b == "dotted keys are one key" }}',
      '${{ matches(artifact.name, "}}") }}',
    ]) {
      assert.deepEqual(parseCondition(ok).errors, [], ok);
    }
  });

  it('reads flow.tags.<key> with the whole key', () => {
    const { expression } = parseCondition('${{ exists(flow.tags.team-name) }}');
    assert.ok(expression?.kind === 'call');
    assert.deepEqual(expression.args[0].kind === 'context' && expression.args[0].path, {
      scope: 'flow',
      property: 'tags',
      key: 'team-name',
    });
  });

  it('rejects text that is not a ${{ }} condition', () => {
    assertErrors('flow.name == "x"', ['^^^^^^^^^^^^^^^^', /written \$\{\{ <expression> \}\}/]);
    assertErrors('  $ {{ x }}', ['  ^^^^^^^^^', /written/]);
    assertErrors('', ['|', /written/]);
  });

  it('reports a missing }} at the opening ${{', () => {
    assertErrors('${{ flow.name == "a"', ['^^^', /not closed; end the condition with '\}\}'/]);
    assertErrors('${{ flow.name == "a" }', ['^^^', /not closed/], ['                     ^', /Unexpected '\}'/]);
  });

  it('reports text after }}', () => {
    assertErrors('${{ true }} and false ', ['            ^^^^^^^^^', /Unexpected text after '\}\}'/]);
  });

  it('reports an empty condition over the whole condition', () => {
    assertErrors('${{   }}', ['^^^^^^^^', /Empty condition/]);
    assertErrors('${{', ['^^^', /not closed/]);
  });

  it('reports unterminated strings from the quote to the closing }} they swallowed', () => {
    assertErrors('${{ flow.name == "runner }}', ['                 ^^^^^^^^', /Unterminated string; close it with "/]);
    assertErrors("${{ flow.name == 'x", ['                 ^^', /close it with '/]);
    assertErrors('${{ "}}', ['    ^^^', /Unterminated/]);
  });

  it('reports unknown contexts and properties at the offending segment', () => {
    assertErrors('${{ flow.foo == 1 }}', ['         ^^^', /Unknown property 'foo' of flow; expected name or tags/]);
    assertErrors('${{ artifact.digest == 1 }}', [
      '             ^^^^^^',
      /Unknown property 'digest' of artifact; expected name or fingerprint/,
    ]);
    assertErrors('${{ trail.name == 1 }}', [
      '    ^^^^^',
      /Unknown context 'trail'; the contexts are flow and artifact/,
    ]);
    assertErrors('${{ runner == flow.name }}', ['    ^^^^^^', /Unknown name 'runner'.*quoted string/]);
    assertErrors('${{ flow == 1 }}', ['    ^^^^', /'flow' needs a property/]);
    assertErrors('${{ flow. == 1 }}', ['    ^^^^^', /'flow' needs a property/]);
    assertErrors('${{ artifact == 1 }}', ['    ^^^^^^^^', /'artifact' needs a property/]);
    assertErrors('${{ flow.tags == 1 }}', ['    ^^^^^^^^^', /flow.tags needs a key/]);
    assertErrors('${{ flow.tags. == 1 }}', ['    ^^^^^^^^^^', /flow.tags needs a key/]);
    assertErrors('${{ flow.name.first == 1 }}', ['             ^^^^^^', /flow.name has no properties/]);
    assertErrors('${{ artifact.name.x == 1 }}', ['                 ^^', /artifact.name has no properties/]);
  });

  it('reports every name error of one condition, not only the first', () => {
    assertErrors(
      '${{ flow.nme == "a" or artifact.nme == "b" }}',
      ['         ^^^', /'nme' of flow/],
      ['                                ^^^', /'nme' of artifact/],
    );
  });

  it('reports unknown functions at the name and wrong arity over the call', () => {
    assertErrors('${{ contains(flow.name, "a") }}', [
      '    ^^^^^^^^',
      /Unknown function 'contains'; the functions are exists or matches/,
    ]);
    assertErrors('${{ exists() }}', ['    ^^^^^^^^', /exists\(\) takes 1 argument, got 0/]);
    assertErrors('${{ exists(flow.name, 1) }}', ['    ^^^^^^^^^^^^^^^^^^^^', /takes 1 argument, got 2/]);
    assertErrors('${{ matches(artifact.name) }}', [
      '    ^^^^^^^^^^^^^^^^^^^^^^',
      /matches\(\) takes 2 arguments, got 1: matches\(text, regex\)/,
    ]);
  });

  it('checks a literal regex of matches() and only a literal one', () => {
    assertErrors('${{ matches(artifact.name, "acme:(") }}', [
      '                           ^^^^^^^^',
      /Invalid regular expression "acme:\(": Unterminated group/,
    ]);
    assertErrors('${{ matches(artifact.name, 12) }}', ['                           ^^', /string pattern/]);
    assert.deepEqual(parseCondition('${{ matches(artifact.name, flow.tags.pattern) }}').errors, []);
  });

  it('points operator slips at the operator', () => {
    assertErrors('${{ flow.name = "x" }}', ['              ^', /Unexpected '='; write '=='/]);
    assertErrors('${{ true && false }}', ['         ^^', /write 'and'/]);
    assertErrors('${{ true || false }}', ['         ^^', /write 'or'/]);
    assertErrors('${{ !true }}', ['    ^', /write 'not'/]);
    assertErrors('${{ flow.name == @ }}', ['                 ^', /Unexpected character '@'/]);
  });

  it('reports missing operands at the operator', () => {
    assertErrors('${{ flow.name == }}', ['              ^^', /Expected a value after '=='/]);
    assertErrors('${{ true and }}', ['         ^^^', /Expected a value after 'and'/]);
    assertErrors('${{ not }}', ['    ^^^', /Expected a value after 'not'/]);
    assertErrors('${{ flow.name not in }}', ['                  ^^', /Expected a value after 'in'/]);
    assertErrors('${{ == "a" }}', ['    ^^', /Unexpected '=='; expected a value before it/]);
    assertErrors('${{ flow.name == and }}', ['                 ^^^', /Unexpected 'and'; expected a value/]);
  });

  it('reports trailing tokens from the first to the last', () => {
    assertErrors('${{ flow.name == "x" "y" 1 }}', [
      '                     ^^^^^',
      /Unexpected "y" after the end of the expression/,
    ]);
    assertErrors('${{ true false }}', ['         ^^^^^', /Unexpected 'false' after the end/]);
  });

  it('reports unclosed and mismatched brackets', () => {
    assertErrors('${{ (flow.name == "a" }}', ['    ^', /Missing '\)' to close this '\('/]);
    assertErrors('${{ (flow.name == "a"] }}', ['                     ^', /Unexpected '\]'; expected '\)'/]);
    assertErrors('${{ flow.name in ["a" }}', ['                 ^', /Missing '\]'/]);
    assertErrors('${{ flow.name in ["a" "b"] }}', ['                      ^^^', /expected ',' or '\]'/]);
    assertErrors('${{ exists(flow.name }}', ['          ^', /Missing '\)'/]);
    assertErrors('${{ exists(flow.name "a") }}', ['                     ^^^', /expected ',' or '\)' in the arguments/]);
    assertErrors('${{ ) }}', ['    ^', /Unexpected '\)'; expected a value/]);
  });

  it('rejects chained comparisons, misplaced lists and non-list right sides of in', () => {
    assertErrors('${{ 1 < 2 < 3 }}', ['          ^', /cannot be chained/]);
    assertErrors('${{ ["a"] == flow.name }}', ['    ^^^^^', /A list can only stand on the right of 'in'/]);
    assertErrors('${{ flow.name in 3 }}', ['                 ^', /'in' needs a list or a string/]);
    assertErrors('${{ flow.name in [["a"]] }}', ['                  ^^^^^', /cannot contain lists/]);
  });

  it('bounds nesting instead of overflowing the stack', () => {
    const text = `\${{ ${'('.repeat(65)}true${')'.repeat(65)} }}`;
    assertErrors(text, [`${' '.repeat(4 + 64)}^`, /nested more than 64 levels/]);
    assert.equal(parseCondition(`\${{ ${'not '.repeat(5000)}true }}`).errors.length, 1);
  });

  it('never throws and keeps every error inside the text (property)', () => {
    const pieces = fc.constantFrom(
      '${{',
      '}}',
      ' ',
      'flow',
      '.',
      'name',
      'tags',
      'artifact',
      'fingerprint',
      '==',
      '!=',
      '<',
      '>=',
      '=',
      'and',
      'or',
      'not',
      'in',
      '(',
      ')',
      '[',
      ']',
      ',',
      '"',
      "'",
      '\\',
      'exists',
      'matches',
      '1',
      '-2.5',
      'true',
      'null',
      '"(a"',
      '&&',
      '}',
    );
    const texts = fc.oneof(
      fc.string(),
      fc.array(pieces, { maxLength: 24 }).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(texts, (text) => {
        const result = parseCondition(text);
        for (const error of result.errors) {
          assert.ok(
            error.start >= 0 && error.start <= error.end && error.end <= text.length,
            JSON.stringify({ text, error }),
          );
          assert.ok(error.message.length > 0);
        }
        assert.equal(result.expression === undefined, result.errors.length > 0);
        if (result.expression) evaluateCondition(result.expression, runner);
      }),
      { seed: 20261122, numRuns: 3000 },
    );
  });

  it('returns an error, not an exception, for a non-string', () => {
    assert.equal(parseCondition(42 as unknown as string).errors.length, 1);
  });
});

describe('policy conditions: evaluation', () => {
  it('evaluates the examples of the reference', () => {
    assert.equal(holds('${{ flow.name == "runner" }}', runner), true);
    assert.equal(holds('${{ flow.name == "runner" }}', { ...runner, flow: { name: 'other' } }), false);
    assert.equal(holds('${{ matches(artifact.name, "^acme:.*") }}', runner), true);
    assert.equal(holds('${{ matches(artifact.name, "^acme:.*") }}', { artifact: { name: 'other/acme:1' } }), false);
  });

  it('reads missing tags, flows and artifacts as null', () => {
    assert.equal(holds('${{ flow.tags.missing == null }}', runner), true);
    assert.equal(holds('${{ exists(flow.tags.missing) }}', runner), false);
    assert.equal(holds('${{ exists(flow.tags.team) }}', runner), true);
    assert.equal(holds('${{ exists(flow.tags.empty) }}', runner), true);
    assert.equal(holds('${{ exists(flow.name) }}', { artifact: { name: 'x' } }), false);
    assert.equal(holds('${{ flow.name == null }}', { flow: null, artifact: null }), true);
    assert.equal(holds('${{ exists(flow.tags.toString) }}', runner), false);
    assert.equal(holds('${{ matches(flow.name, ".*") }}', {}), false);
  });

  it('compares numbers with numeric tag values and strings alphabetically', () => {
    assert.equal(holds('${{ flow.tags.tier >= 3 }}', runner), true);
    assert.equal(holds('${{ flow.tags.tier == 3 }}', runner), true);
    assert.equal(holds('${{ flow.tags.tier > 3 }}', runner), false);
    assert.equal(holds('${{ flow.tags.team < 3 }}', runner), false);
    assert.equal(holds('${{ flow.tags.team != 3 }}', runner), true);
    assert.equal(holds('${{ "apple" < "banana" }}', runner), true);
    assert.equal(holds('${{ "b" <= "a" }}', runner), false);
    assert.equal(holds('${{ null < 1 }}', runner), false);
    assert.equal(holds('${{ true == true }}', runner), true);
    assert.equal(holds('${{ "1" == "1.0" }}', runner), false);
  });

  it('applies and, or, not with not binding looser than comparisons', () => {
    assert.equal(holds('${{ not flow.name == "x" }}', runner), true);
    assert.equal(holds('${{ flow.name == "x" or flow.tags.team == "platform" and true }}', runner), true);
    assert.equal(holds('${{ (flow.name == "x" or true) and false }}', runner), false);
    assert.equal(holds('${{ not not true }}', runner), true);
    assert.equal(holds('${{ flow.tags.empty or 0 }}', runner), false);
  });

  it('tests membership in lists and substrings in text', () => {
    assert.equal(holds('${{ flow.tags.team in ["web", "platform"] }}', runner), true);
    assert.equal(holds('${{ flow.tags.team not in ["web", "platform"] }}', runner), false);
    assert.equal(holds('${{ flow.tags.tier in [1, 2, 3] }}', runner), true);
    assert.equal(holds('${{ "acme" in artifact.name }}', runner), true);
    assert.equal(holds('${{ flow.tags.missing in ["a"] }}', runner), false);
    assert.equal(holds('${{ flow.tags.missing in [null] }}', runner), true);
  });

  it('unescapes strings but keeps unknown escapes for regex patterns', () => {
    assert.equal(holds('${{ matches(artifact.name, "^acme:\\d\\.\\d$") }}', runner), true);
    assert.equal(holds("${{ \"it's\" == 'it\\'s' }}", runner), true);
    assert.equal(
      holds('${{ matches(artifact.name, flow.tags.team) }}', {
        flow: { tags: { team: '(' } },
        artifact: { name: 'x' },
      }),
      false,
    );
  });

  it('describes every context and function for completion and hover', () => {
    assert.deepEqual(
      CONDITION_CONTEXTS.map((context) => context.path),
      ['flow.name', 'flow.tags.<key>', 'artifact.name', 'artifact.fingerprint'],
    );
    assert.deepEqual(
      CONDITION_FUNCTIONS.map((fn) => fn.name),
      ['exists', 'matches'],
    );
    for (const entry of [...CONDITION_CONTEXTS, ...CONDITION_FUNCTIONS]) assert.ok(entry.description.length > 10);
  });
});
