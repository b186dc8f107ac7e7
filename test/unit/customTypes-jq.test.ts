import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  describeRuleProblem,
  evaluateRule,
  JQ_BUILTINS,
  parseJq,
  ruleProblems,
  ruleVerdicts,
  rulesHold,
} from '../../shared/customTypes/index.ts';
import { schemas } from '../../shared/schemas/index.ts';

const person = {
  name: 'Alice',
  age: 30,
  tags: ['x', 'y'],
  address: { city: 'Oslo', zip: null },
  items: [
    { ok: true, n: 1 },
    { ok: false, n: 2 },
  ],
  'odd-key': 7,
};

/** The outputs of `rule` for `data`, or the runtime error's message prefixed with `error: `. */
function outputs(rule: string, data: unknown): unknown {
  try {
    return evaluateRule(rule, data);
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

/**
 * Asserts `rule` is refused: `marks` puts a `^` under the first column reported, and the message
 * matches `message`.
 */
function assertRefused(rule: string, marks: string, message: RegExp): void {
  const problems = ruleProblems([rule]);
  assert.equal(problems.length, 1, `${rule} should be refused`);
  assert.equal(problems[0].start, marks.indexOf('^'), `column of the problem in ${rule}: ${problems[0].message}`);
  assert.match(problems[0].message, message);
  assert.equal(describeRuleProblem(problems[0]), `${problems[0].message} at column ${marks.indexOf('^') + 1}`);
}

describe('custom type rules: jq subset', () => {
  describe('paths', () => {
    const cases: Array<[string, unknown, unknown]> = [
      ['.', 5, [5]],
      ['.name', person, ['Alice']],
      ['.address.city', person, ['Oslo']],
      ['.address.zip', person, [null]],
      ['.missing.deeper', person, [null]],
      ['."odd-key"', person, [7]],
      ['.["odd-key"]', person, [7]],
      ['.tags[0]', person, ['x']],
      ['.tags[-1]', person, ['y']],
      ['.tags[5]', person, [null]],
      ['.tags[1.7]', person, ['y']],
      ['.tags.[0]', person, ['x']],
      ['.tags[]', person, ['x', 'y']],
      ['.address[]', person, ['Oslo', null]],
      ['.items[].n', person, [1, 2]],
      ['.tags[1:]', person, [['y']]],
      ['.tags[:1]', person, [['x']]],
      ['.name[1:3]', person, ['li']],
      ['.[-2:]', [1, 2, 3], [[2, 3]]],
      ['.a?', 1, []],
      ['.a.b?', { a: 1 }, []],
      ['.[]?', 1, []],
      ['.tags[0]?', person, ['x']],
      ['(.a.b)?', { a: 'text' }, []],
      ['null | .x.y', null, [null]],
    ];
    for (const [rule, data, expected] of cases)
      it(`${rule} of ${JSON.stringify(data)}`, () => assert.deepEqual(outputs(rule, data), expected));

    it('indexing what cannot be indexed is an error, worded like jq', () => {
      assert.equal(outputs('.name.first', person), 'error: Cannot index string with "first"');
      assert.equal(outputs('.[0]', { a: 1 }), 'error: Cannot index object with number');
      assert.equal(outputs('.[]', 3), 'error: Cannot iterate over number (3)');
    });

    it('a ? makes only its own step optional, as jq does: .b[]? still fails where .b does', () => {
      assert.equal(outputs('.b[]?', true), 'error: Cannot index boolean with "b"');
      assert.deepEqual(outputs('.b[]?', { b: 1 }), []);
    });
  });

  describe('literals, arithmetic and construction', () => {
    const cases: Array<[string, unknown, unknown]> = [
      ['1, 2.5, -3, 1e3, .5', null, [1, 2.5, -3, 1000, 0.5]],
      ['"a\\"b\\n\\u00e9"', null, ['a"b\né']],
      ['true, false, null', null, [true, false, null]],
      ['1 + 2 * 3 - 4 / 2', null, [5]],
      ['(1 + 2) * 3', null, [9]],
      ['7 % 3, -7 % 3, 7.9 % 2', null, [1, -1, 1]],
      ['-.age', person, [-30]],
      ['.name + "!"', person, ['Alice!']],
      ['.tags + ["z"]', person, [['x', 'y', 'z']]],
      ['[1, 2, 1, 3] - [1]', null, [[2, 3]]],
      ['{"a": 1} + {"b": 2}', null, [{ a: 1, b: 2 }]],
      ['{"a": {"b": 1}} * {"a": {"c": 2}}', null, [{ a: { b: 1, c: 2 } }]],
      ['null + 1, 1 + null', null, [1, 1]],
      ['"a,b" / ","', null, [['a', 'b']]],
      ['"x" * 0, "x" * 0.5, "x" * 1, "x" * 2.7, 3 * "ab", "x" * -1', null, [null, 'x', 'x', 'xx', 'ababab', null]],
      ['(1, 2) + (10, 20)', null, [11, 12, 21, 22]],
      ['[.tags[] | . + "!"]', person, [['x!', 'y!']]],
      ['[]', null, [[]]],
      [
        '{name, "years": .age, (.name): 1, city: .address.city}',
        person,
        [{ name: 'Alice', years: 30, Alice: 1, city: 'Oslo' }],
      ],
      ['{n: .tags | length}', person, [{ n: 2 }]],
      ['{a: (1, 2)}', null, [{ a: 1 }, { a: 2 }]],
      ['{} | .a', null, [null]],
      ['# a comment\n.age', person, [30]],
    ];
    for (const [rule, data, expected] of cases)
      it(`${JSON.stringify(rule)}`, () => assert.deepEqual(outputs(rule, data), expected));

    it('mismatched operands are errors, worded like jq', () => {
      assert.equal(outputs('.name + 1', person), 'error: string ("Alice") and number (1) cannot be added');
      assert.equal(
        outputs('1 / 0', null),
        'error: number (1) and number (0) cannot be divided because the divisor is zero',
      );
      assert.equal(outputs('[] * 3', null), 'error: array ([]) and number (3) cannot be multiplied');
      assert.equal(outputs('"x" * 1e7', null), 'error: Repeat string result too long');
      assert.equal(outputs('{(1): 2}', null), 'error: Object keys must be strings, not number');
      assert.equal(outputs('-"a"', null), 'error: string ("a") cannot be negated');
    });
  });

  describe('comparison and logic', () => {
    const cases: Array<[string, unknown, unknown]> = [
      ['.age > 21', person, [true]],
      ['.age >= 30, .age < 30, .age <= 29, .age == 30, .age != 30', person, [true, false, false, true, false]],
      ['null < false, false < true, true < 0, 0 < "", "" < [], [] < {}', null, [true, true, true, true, true, true]],
      ['"a" < "b", "B" < "a", "ab" > "a", "\\uffff" < "😀"', null, [true, true, true, true]],
      ['[1, 2] < [1, 3], [1] < [1, 0], {"a": 2} < {"b": 1}, {"a": 1} < {"a": 2}', null, [true, true, true, true]],
      ['{"a": [1, {"b": null}]} == {"a": [1, {"b": null}]}', null, [true]],
      ['1 == 1.0, 1 == "1"', null, [true, false]],
      ['.age > 21 and .name == "Alice"', person, [true]],
      ['.age > 40 or .tags[0] == "x"', person, [true]],
      ['null and error_never_called', null, 'parse'],
      ['0 and "", [] or false', null, [true, true]],
      ['(true, false) and (true, false)', null, [true, false, false]],
      ['.address.zip | not', person, [true]],
      ['.zip // "none", (false, 1, null, 2) // 3, empty // 4', null, ['none', 1, 2, 4]],
      ['if .age > 18 then "adult" elif .age > 12 then "teen" else "child" end', person, ['adult']],
      ['if .age > 40 then "old" end', person, [person]],
      ['if (true, false) then 1 else 2 end', null, [1, 2]],
    ];
    for (const [rule, data, expected] of cases) {
      if (expected === 'parse')
        it(`${rule} is refused (unknown function)`, () => assert.equal(ruleProblems([rule]).length, 1));
      else it(rule, () => assert.deepEqual(outputs(rule, data), expected));
    }
  });

  describe('builtins', () => {
    const cases: Array<[string, unknown, unknown]> = [
      ['length', 'né😀', [3]],
      ['[null, -4, [1, 2], {"a": 1}][] | length', null, [0, 4, 2, 1]],
      ['keys', { b: 1, a: 2, B: 3 }, [['B', 'a', 'b']]],
      ['keys', ['x', 'y'], [[0, 1]]],
      ['[.[] | type]', [null, true, 1, 's', [], {}], [['null', 'boolean', 'number', 'string', 'array', 'object']]],
      ['has("name"), has("zzz")', person, [true, false]],
      ['has(1), has(2)', [0, 0], [true, false]],
      ['[.items[] | select(.ok) | .n]', person, [[1]]],
      ['map(. * 2)', [1, 2], [[2, 4]]],
      ['map(.n)', person.items, [[1, 2]]],
      ['any, all', [true, false], [true, false]],
      ['any(. > 1), all(. > 0)', [1, 2], [true, true]],
      ['any(.items[]; .ok), all(.items[]; .ok)', person, [true, false]],
      ['[] | any, all', null, [false, true]],
      ['.name | test("^al"), test("^al"; "i"), test("ic")', person, [false, true, true]],
      ['test("^b$")', 'a\nb', [true]],
      ['.name | startswith("Al"), endswith("ce"), startswith("x")', person, [true, true, false]],
      ['contains("lic")', 'Alice', [true]],
      ['.tags | contains(["x"]), contains(["z"])', person, [true, false]],
      ['contains({address: {city: "Os"}})', person, [true]],
      ['add', [1, 2, 3], [6]],
      ['add', ['a', 'b'], ['ab']],
      ['add', [], [null]],
      ['min, max', [3, 1, 2], [1, 3]],
      ['min', [], [null]],
      ['first, last', [4, 5, 6], [4, 6]],
      ['tostring', { a: [1, 'x'] }, ['{"a":[1,"x"]}']],
      ['tostring', 'as is', ['as is']],
      ['tonumber', ' 12.5 ', [12.5]],
      ['ascii_downcase, ascii_upcase', 'AbÉ', ['abÉ', 'ABÉ']],
      ['empty', 1, []],
      ['sort', [3, 1, [2], 'a', null, { a: 1 }, true], [[null, true, 1, 3, 'a', [2], { a: 1 }]]],
      ['unique', [1, 2, 1, 'a', 'a'], [[1, 2, 'a']]],
      ['join("-")', ['a', 1, null, true], ['a-1--true']],
      ['join(",")', [], ['']],
      ['split(",")', 'a,b,,c', [['a', 'b', '', 'c']]],
      ['ltrimstr("ab"), rtrimstr("bc"), ltrimstr("x")', 'abc', ['c', 'a', 'abc']],
      ['ltrimstr("a")', 1, [1]],
      ['map(values)', [1, null, 2], [[1, 2]]],
      [
        'to_entries',
        { b: 1, a: 2 },
        [
          [
            { key: 'b', value: 1 },
            { key: 'a', value: 2 },
          ],
        ],
      ],
      ['.[] | floor', [3.7, -3.2], [3, -4]],
      ['tojson', { a: [1, 'x'] }, ['{"a":[1,"x"]}']],
      ['.k | in({"a": 1}), in({"b": 1})', { k: 'a' }, [true, false]],
      ['in([0, 1])', 1, [true]],
      ['inside([1, 2])', [1], [true]],
      ['[.[] | select(. > 1)] | length', [1, 2, 3], [2]],
    ];
    for (const [rule, data, expected] of cases)
      it(`${rule} of ${JSON.stringify(data)}`, () => assert.deepEqual(outputs(rule, data), expected));

    it('builtins applied to the wrong type are errors', () => {
      assert.equal(outputs('length', true), 'error: boolean (true) has no length');
      assert.equal(outputs('keys', 1), 'error: number (1) has no keys');
      assert.equal(outputs('has("a")', []), 'error: Cannot check whether array has a string key');
      assert.equal(outputs('startswith(1)', 'a'), 'error: startswith() requires string inputs');
      assert.equal(outputs('test("a")', 1), 'error: number (1) cannot be matched, as it is not a string');
      assert.equal(outputs('tonumber', 'x1'), 'error: string ("x1") cannot be parsed as a number');
      assert.equal(
        outputs('contains(1)', 'a'),
        'error: string ("a") and number (1) cannot have their containment checked',
      );
      assert.equal(outputs('sort', 'x'), 'error: string ("x") cannot be sorted, as it is not an array');
      assert.equal(outputs('join(",")', [{ a: 1 }]), 'error: string ("") and object ({"a":1}) cannot be added');
      assert.equal(outputs('split(",")', 1), 'error: split input and separator must be strings');
      assert.equal(outputs('floor', 'a'), 'error: string ("a") number required');
      assert.equal(outputs('test(.p)', { p: 1 }), 'error: object ({"p":1}) cannot be matched, as it is not a string');
    });

    it('a pattern computed from the data is checked when the rule runs', () => {
      assert.deepEqual(outputs('.s | test("^" + .s)', { s: 'ab' }), 'error: Cannot index string with "s"');
      assert.deepEqual(outputs('.s | test(.)', { s: 'a+' }), [true]);
      assert.match(String(outputs('.s | test(.)', { s: '(' })), /^error: Invalid regular expression "\(": /);
    });

    it('every builtin is documented, and listed where the API describes rules', () => {
      const rulesDoc = (
        schemas['custom-type-create'] as {
          properties: { evaluator: { properties: { rules: { description: string } } } };
        }
      ).properties.evaluator.properties.rules.description;
      for (const [name, builtin] of Object.entries(JQ_BUILTINS)) {
        assert.ok(builtin.description.length > 10, name);
        assert.match(rulesDoc, new RegExp(`[ ,]${name}[,.]`), `${name} in the custom-type-create schema`);
      }
    });
  });

  describe('refused rules name the problem and its column', () => {
    const cases: Array<[string, string, RegExp]> = [
      ['.age >', '      ^', /^Unexpected end of rule$/],
      ['.age > > 1', '       ^', /^Unexpected '>'$/],
      ['1 < 2 < 3', '      ^', /^Comparisons cannot be chained/],
      ['.a | foo', '     ^', /^Unknown function 'foo\/0' \(rules can use empty, not, length/],
      ['length(1)', '^', /^'length' takes 0 arguments, not 1$/],
      ['has', '^', /^'has' takes 1 argument, not 0$/],
      ['test("a"; "i"; 1)', '^', /^'test' takes 1 or 2 arguments, not 3$/],
      ['reduce .[] as $x (0; . + $x)', '^', /^'reduce' is not supported/],
      ['.[] as $x | $x', '    ^', /^'as' bindings are not supported/],
      ['def f: .; f', '^', /^Function definitions are not supported/],
      ['try .a', '^', /^'try' is not supported in rules; use the '\?' suffix$/],
      ['$ENV.x', '^', /^Variables \('\$ENV'\) are not supported/],
      ['.a = 1', '   ^', /^Assignment \('='\) is not supported/],
      ['.a |= 1', '   ^', /^Assignment \('\|='\) is not supported/],
      ['.. | numbers', '^', /^Recursive descent '\.\.' is not supported/],
      ['@base64', '^', /^Formats \('@base64'\) are not supported/],
      ['"x\\(.a)"', '  ^', /^String interpolation is not supported/],
      ['"abc', '^', /^Unterminated string$/],
      ['"\\q"', ' ^', /^Invalid escape '\\q' in string$/],
      ['.a ! 1', '   ^', /^Unexpected character '!'$/],
      ['[.a', '   ^', /^Expected '\]' but the rule ended$/],
      ['(.a', '   ^', /^Expected '\)' but the rule ended$/],
      ['if .a then 1', '            ^', /^Expected 'end' but the rule ended$/],
      ['if .a 1 end', '      ^', /^Expected 'then' but found '1'$/],
      ['{a: .b + 1}', '       ^', /^Unexpected '\+': wrap an object value that uses operators in parentheses$/],
      ['{1: 2}', ' ^', /^Object keys must be names, strings or parenthesised expressions$/],
      ['.[:]', '   ^', /^A slice needs a start or an end$/],
      ['.a test("[")', '   ^', /^Unexpected 'test'$/],
      ['.name | test("(")', '             ^', /^Invalid regular expression "\(": /],
      ['test("a"; "x")', '     ^', /^Regex flag 'x' is not supported in rules \(use g, i or n\)$/],
      ['', '^', /^Unexpected end of rule$/],
      ['.a and', '      ^', /^Unexpected end of rule$/],
      ['then', '^', /^Unexpected 'then'$/],
    ];
    for (const [rule, marks, message] of cases) it(JSON.stringify(rule), () => assertRefused(rule, marks, message));

    it('every refused rule of a list is reported with its index', () => {
      assert.deepEqual(
        ruleProblems(['.age > 21', '.x >', '.ok', 'nope']).map(({ index, column }) => ({ index, column })),
        [
          { index: 1, column: 5 },
          { index: 3, column: 1 },
        ],
      );
    });

    it('never throws on any text, and what it accepts it can run', () => {
      const alphabet = fc.constantFrom(
        ...'.[]{}()|,:;?$@"\\#=<>!+-*/% abc01_ifthenelseandornot'.split(''),
        'and',
        'or',
        ' if ',
        ' then ',
        ' end',
        'length',
        'test(',
        '//',
        '..',
        '"a"',
      );
      fc.assert(
        fc.property(
          fc.array(alphabet, { maxLength: 20 }).map((parts) => parts.join('')),
          (rule) => {
            const parsed = parseJq(rule);
            if (parsed.error !== undefined) {
              assert.ok(
                parsed.error.start >= 0 && parsed.error.start <= rule.length && parsed.error.end >= parsed.error.start,
              );
              return;
            }
            ruleVerdicts([rule], person);
          },
        ),
        { seed: 2311, numRuns: 400 },
      );
    });
  });

  describe('verdicts', () => {
    it('a rule holds when it has outputs and every one is truthy (anything but false and null)', () => {
      assert.deepEqual(
        ruleVerdicts(
          [
            '.age > 21',
            '.age',
            '0',
            '""',
            '[]',
            '.tags[]',
            '.address.zip',
            'false',
            '.items[].ok',
            'empty',
            '.tags[]?|select(. == "q")',
          ],
          person,
        ),
        [true, true, true, true, true, true, false, false, false, false, false],
      );
    });

    it('a rule that raises an error, or cannot be read, does not hold', () => {
      assert.deepEqual(ruleVerdicts(['.name.first', '.age >', '.name | test("^A")'], person), [false, false, true]);
    });

    it('every rule must hold; no rules means compliant', () => {
      assert.equal(rulesHold(['.age > 21'], { age: 22 }), true);
      assert.equal(rulesHold(['.age > 21'], { age: 21 }), false);
      assert.equal(rulesHold(['.age > 21'], {}), false);
      assert.equal(rulesHold(['.age > 21', '.name | startswith("A")'], { age: 30, name: 'Bob' }), false);
      assert.equal(rulesHold([], { anything: true }), true);
    });

    it('rules nested past 200 levels are refused, never overflowing the stack; 200 levels still run', () => {
      for (const deep of [
        '('.repeat(5000) + '.' + ')'.repeat(5000),
        '-'.repeat(5000) + '1',
        Array(5000).fill('.').join(' | '),
        '1' + ' + 1'.repeat(5000),
        '.a'.repeat(5000),
        '{a: '.repeat(5000) + '1' + '}'.repeat(5000),
      ]) {
        const [problem] = ruleProblems([deep]);
        assert.match(
          problem?.message ?? 'accepted',
          /^Rule nests too deeply \(more than 200 levels\)$/,
          deep.slice(0, 20),
        );
      }
      assert.deepEqual(evaluateRule(`${'['.repeat(198)}1${']'.repeat(198)} | length`, null), [1]);
    });

    it('data nested deeper than 512 levels fails every rule instead of exhausting the stack', () => {
      const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)) as unknown;
      assert.deepEqual(ruleVerdicts(['true', '. == .'], deep), [false, false]);
      const fits = JSON.parse('['.repeat(500) + ']'.repeat(500)) as unknown;
      assert.deepEqual(ruleVerdicts(['. == .', 'tostring | length == 1000'], fits), [true, true]);
    });

    it('data that is not JSON fails every rule instead of being misread', () => {
      assert.deepEqual(ruleVerdicts(['true', '.'], { n: Number.NaN }), [false, false]);
    });

    it('keys named like Object.prototype members are plain data', () => {
      const data = JSON.parse('{"__proto__": {"polluted": 1}, "constructor": 2}') as unknown;
      assert.deepEqual(evaluateRule('.["__proto__"].polluted, .constructor, keys, has("toString")', data), [
        1,
        2,
        ['__proto__', 'constructor'],
        false,
      ]);
      assert.deepEqual(evaluateRule('{"__proto__": 1} | keys', null), [['__proto__']]);
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    });
  });
});
