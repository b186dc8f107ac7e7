// The evaluation budget of custom types' jq rules (shared/customTypes/jq/budget.ts): a rule that
// outgrows it stops with JqBudgetExceeded naming it, deterministically and whatever `?` or other
// rules say, while rules that read their data a few times over pass at any data size.
import assert from 'node:assert/strict';
import { JqBudgetExceeded, evaluateRule, ruleVerdicts, summaryOf } from '../../shared/customTypes/index.ts';

/** The budget error a call throws (failing when it throws none or another). */
function overBudget(call: () => unknown): JqBudgetExceeded {
  try {
    call();
  } catch (error) {
    assert.ok(error instanceof JqBudgetExceeded, String(error));
    return error;
  }
  assert.fail('expected the budget to be exceeded');
}

const numbers = { a: Array.from({ length: 100 }, (_, i) => i) };

describe('custom type rules: evaluation budget', () => {
  it('stops a product of iterations, naming the rule and its place, the same way every time', () => {
    const rules = ['true', '[.a[]+.a[]+.a[]+.a[]] | length > 0'];
    const first = overBudget(() => ruleVerdicts(rules, numbers));
    assert.equal(first.index, 1);
    assert.equal(first.expression, rules[1]);
    assert.match(first.message, /^takes more than [\d,]+ evaluation steps on this data$/);
    assert.equal(overBudget(() => ruleVerdicts(rules, numbers)).message, first.message);
  });

  it('stops values that grow past the units built, before they take the memory', () => {
    const strings = { a: Array.from({ length: 100 }, () => 'x'.repeat(1000)) };
    assert.match(
      overBudget(() => evaluateRule('[.a[] + .a[] + .a[]] | length', strings)).message,
      /^builds more than [\d,]+ characters and elements on this data$/,
    );
  });

  it('cannot be swallowed by ? or try, nor by a summary, which otherwise never fails', () => {
    overBudget(() => evaluateRule('([.a[]+.a[]+.a[]+.a[]])?', numbers));
    const error = overBudget(() => summaryOf([{ name: 'n', expression: '[.a[]+.a[]+.a[]+.a[]]' }], numbers));
    assert.equal(error.expression, '[.a[]+.a[]+.a[]+.a[]]');
  });

  it('counts quadratic builtins before they run', () => {
    const big = { a: Array.from({ length: 5000 }, (_, i) => i) };
    overBudget(() => evaluateRule('.a - .a', big));
    overBudget(() => evaluateRule('[.a[] | [.]] | add | length', big));
  });

  it('lets rules that read their data a few times over pass at any size', () => {
    const checks = Array.from({ length: 100_000 }, (_, i) => ({ id: `C-${i}`, passed: true, score: i % 100 }));
    assert.deepEqual(
      ruleVerdicts(
        [
          'all(.checks[]; .passed)',
          '[.checks[] | select(.score > 50)] | length > 0',
          '.checks | map(.id) | unique | length == 100000',
          'all(.checks[]; .id | test("^C-[0-9]+$"))',
        ],
        { checks },
      ),
      [true, true, true, true],
    );
  });
});
