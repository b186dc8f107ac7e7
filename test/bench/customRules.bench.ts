// Verdict of a custom type's five jq rules on one attestation, against what the server already
// pays for every custom attestation, measured in the same run: JSON.parse of the data's text.
// Samples alternate so machine noise weighs on both alike. Target ≤ 10×: judging the rules stays
// within an order of magnitude of reading the body, at every size. ajv's check of the same data
// against the type's schema (compiled once, so near the lower bound) is printed for scale, and the
// server's check (its patterns on the linear-time engine, its steps counted against the budget).
import { Ajv2020 } from 'ajv/dist/2020.js';
import { rulesHold } from '../../shared/customTypes/index.ts';
import { schemaValidator, validateWithinBudget } from '../../server/api/rules/customTypeSchemas.ts';
import { median, report } from './stats.ts';

function dataOf(checks: number): Record<string, unknown> {
  return {
    name: 'release-gate',
    owner: { team: 'platform', email: 'platform@example.com' },
    tags: ['prod', 'eu', 'pci'],
    checks: Array.from({ length: checks }, (_, i) => ({
      id: `C-${i}`,
      passed: true,
      score: 50 + (i % 50),
      severity: i % 3 === 0 ? 'high' : 'low',
    })),
  };
}

const schema = {
  type: 'object',
  required: ['name', 'owner', 'checks'],
  properties: {
    name: { type: 'string' },
    owner: {
      type: 'object',
      required: ['team'],
      properties: { team: { type: 'string' }, email: { type: 'string', pattern: '^[^@]+@[^@]+$' } },
    },
    tags: { type: 'array', items: { type: 'string' } },
    checks: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'passed'],
        properties: {
          id: { type: 'string', pattern: '^C-[0-9]+$' },
          passed: { type: 'boolean' },
          score: { type: 'number' },
          severity: { enum: ['high', 'low'] },
        },
      },
    },
  },
};

const rules = [
  '.checks | length > 0',
  'all(.checks[]; .passed)',
  '[.checks[] | select(.severity == "high") | .score] | min >= 50',
  '.owner.email | test("@example\\\\.com$")',
  '.tags | contains(["prod"])',
];

const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
const serverValidate = schemaValidator(schema);

function alternating(
  text: string,
  runs: number,
): { parse: number; schema: number; serverSchema: number; rules: number } {
  const data = JSON.parse(text) as unknown;
  if (!validate(data) || !rulesHold(rules, data)) throw new Error('benchmark data must fit its schema and rules');
  for (let i = 0; i < 20; i++) rulesHold(rules, JSON.parse(text));
  const parse: number[] = [];
  const schema: number[] = [];
  const serverSchema: number[] = [];
  const verdict: number[] = [];
  for (let i = 0; i < runs; i++) {
    let start = performance.now();
    JSON.parse(text);
    parse.push(performance.now() - start);
    start = performance.now();
    validate(data);
    schema.push(performance.now() - start);
    start = performance.now();
    validateWithinBudget(serverValidate, data);
    serverSchema.push(performance.now() - start);
    start = performance.now();
    rulesHold(rules, data);
    verdict.push(performance.now() - start);
  }
  return { parse: median(parse), schema: median(schema), serverSchema: median(serverSchema), rules: median(verdict) };
}

let ok = true;
for (const checks of [10, 200, 2000]) {
  const text = JSON.stringify(dataOf(checks));
  const { parse, schema, serverSchema, rules: judged } = alternating(text, checks >= 2000 ? 60 : 300);
  ok =
    report(
      `5 jq rules, ${checks} checks (${(text.length / 1024).toFixed(0)} KiB) vs JSON.parse of the data`,
      judged * 1000,
      parse * 1000,
      'µs',
      { max: 10 },
    ) && ok;
  console.log(
    `  ajv schema check of the same data: ${(schema * 1000).toFixed(2)} µs; the server's (counted, linear-time patterns): ${(serverSchema * 1000).toFixed(2)} µs`,
  );
}
process.exitCode = ok ? 0 : 1;
