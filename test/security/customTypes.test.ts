// Issue 23: a custom attestation type can neither stall the server nor reach another org. Its
// schema's patterns and its jq rules' test() run on the linear-time engine, its jq rules and its
// schema validation stop at a step budget sized for the data (400 naming the rule or schema, the
// same every time), its schema is compiled apart from every other type's (no shared `$id`), and
// what cannot be run is refused when the type is created. Before: 4-8 s of blocked server per
// attestation (+760 MB) for a pattern, test() or a product; beta's `$id` validated acme's data.
// Bounds are generous for a shared 2-core machine: /ready is expected under 100 ms and asserted
// under 1 s, a request under 5 s, memory growth under 200 MB.
import assert from 'node:assert/strict';
import type { ErrorBody } from '../api/answers.ts';
import { ENGINE, startServer, type Reply, type TestServer } from '../api/harness.ts';
import { attest, beginTrail, createFlow } from '../api/fixtures.ts';
import { assertAlive, report, whileProbingReady, type Bounded } from './bounded.ts';

const READY_BOUND_MS = 1000;
const REQUEST_BOUND_MS = 5000;
const RSS_BOUND_MB = 200;
const BACKTRACKS = `${'a'.repeat(32)}-`;

describe(`custom attestation types stay bounded and apart (${ENGINE})`, function () {
  this.timeout(120_000);
  let server: TestServer;
  let pid: number;

  const createType = (
    org: string,
    name: string,
    schema: unknown,
    extra: Record<string, unknown> = {},
  ): Promise<Reply<ErrorBody>> =>
    server.multipart<ErrorBody>('POST', `/api/v2/custom-attestation-types/${org}`, {
      data_json: JSON.stringify({ name, ...extra }),
      type_schema: { filename: 'schema.json', content: typeof schema === 'string' ? schema : JSON.stringify(schema) },
    });
  const created = async (org: string, name: string, schema: unknown, extra: Record<string, unknown> = {}) => {
    const reply = await createType(org, name, schema, extra);
    assert.equal(reply.status, 201, reply.text);
  };
  const attestCustom = (org: string, typeName: string, data: unknown) =>
    attest<ErrorBody>(server, org, 'flow', 'trail', 'custom', {
      attestation_name: 'custom',
      type_name: typeName,
      attestation_data: data,
    });
  /** The compliance of the trail's latest `custom` attestation. */
  const latestCompliance = async (org: string) =>
    (await server.get<Array<{ is_compliant: boolean }>>(`/api/v2/attestations/${org}/flow/trail/trail/custom`)).body[0]
      ?.is_compliant;
  const bounded = (measured: Bounded<unknown>) => {
    assert.ok(measured.elapsedMs < REQUEST_BOUND_MS, `took ${measured.elapsedMs} ms`);
    assert.ok(measured.readyMs < READY_BOUND_MS, `/ready took ${measured.readyMs} ms`);
    assert.ok(measured.rssGrowthMb < RSS_BOUND_MB, `RSS grew ${measured.rssGrowthMb} MB`);
  };

  before(async () => {
    server = await startServer({ process: true, args: ['--org', 'acme', '--org', 'beta'] });
    pid = server.pid;
    for (const org of ['acme', 'beta']) {
      await createFlow(server, org, 'flow');
      await beginTrail(server, org, 'flow', 'trail');
    }
  });
  after(async () => {
    await server?.stop();
  });

  it('checks a schema pattern that backtracks in JavaScript (^(a+)+$) at once: the data does not match, 400', async () => {
    await created('acme', 'patterned', {
      type: 'object',
      properties: { name: { type: 'string', pattern: '^(a+)+$' } },
    });
    const measured = await whileProbingReady(server, () => attestCustom('acme', 'patterned', { name: BACKTRACKS }));
    report('schema pattern ^(a+)+$ on 32 a and a dash', measured);
    assert.equal(measured.result.status, 400, measured.result.text);
    assert.match(JSON.stringify(measured.result.body.errors), /String should match pattern '\^\(a\+\)\+\$'/);
    bounded(measured);
    await assertAlive(server, pid);
  });

  it('judges a rule whose test() backtracks in JavaScript at once: not compliant', async () => {
    await created(
      'acme',
      'tested',
      { type: 'object' },
      { evaluator: { content_type: 'jq', rules: ['.name | test("^(a+)+$")'] } },
    );
    const measured = await whileProbingReady(server, () =>
      attestCustom('acme', 'tested', { name: `${'a'.repeat(5000)}-` }),
    );
    report('jq test("^(a+)+$") on 5,000 a and a dash', measured);
    assert.equal(measured.result.status, 201, measured.result.text);
    assert.equal(await latestCompliance('acme'), false);
    bounded(measured);
  });

  it('refuses a rule whose product outgrows the budget with 400 naming it, the same every time', async () => {
    const product = '[.a[]+.a[]+.a[]+.a[]] | length > 0';
    await created(
      'acme',
      'product',
      { type: 'object' },
      { evaluator: { content_type: 'jq', rules: ['true', product] } },
    );
    const data = { a: Array.from({ length: 100 }, (_, i) => `${i}`.padEnd(100, 'x')) };
    const measured = await whileProbingReady(server, () => attestCustom('acme', 'product', data));
    report('jq [.a[]+.a[]+.a[]+.a[]] over 100 strings of 100 characters', measured);
    assert.equal(measured.result.status, 400, measured.result.text);
    const message = measured.result.body.message;
    assert.match(
      message,
      /^The rule evaluator\.rules\[1\] of custom attestation type 'product' \(version 1\) (takes more than [\d,]+ evaluation steps|builds more than [\d,]+ characters and elements) on this data: /,
    );
    assert.ok(message.endsWith(JSON.stringify(product)), message);
    bounded(measured);
    assert.equal((await attestCustom('acme', 'product', data)).body.message, message, 'deterministic');
    const numbers = { a: Array.from({ length: 100 }, (_, i) => i) };
    assert.match(
      (await attestCustom('acme', 'product', numbers)).body.message,
      /takes more than [\d,]+ evaluation steps/,
    );
    await assertAlive(server, pid);
  });

  it('refuses a summary expression over the budget the same way', async () => {
    await created(
      'acme',
      'summarised',
      { type: 'object' },
      { summary: [{ name: 'all', expression: '[.a[]+.a[]+.a[]+.a[]]' }] },
    );
    const reply = await attestCustom('acme', 'summarised', { a: Array.from({ length: 100 }, (_, i) => i) });
    assert.equal(reply.status, 400, reply.text);
    assert.match(
      reply.body.message,
      /^The summary expression summary\[0\]\.expression of custom attestation type 'summarised'/,
    );
  });

  it('reads a run of 200,000 digits and a letter with tonumber at once (its pattern was quadratic)', async () => {
    await created(
      'acme',
      'numeric',
      { type: 'object' },
      { evaluator: { content_type: 'jq', rules: ['.n | tonumber > 0'] } },
    );
    const measured = await whileProbingReady(server, () =>
      attestCustom('acme', 'numeric', { n: `${'1'.repeat(200_000)}x` }),
    );
    report('jq tonumber on 200,000 digits and a letter', measured);
    assert.equal(measured.result.status, 201, measured.result.text);
    assert.equal(await latestCompliance('acme'), false);
    bounded(measured);
  });

  it('checks uniqueItems over 20,000 objects in linear time (ajv compared every pair: 7.4 s)', async () => {
    await created('acme', 'unique', { type: 'object', properties: { items: { type: 'array', uniqueItems: true } } });
    const items = Array.from({ length: 20_000 }, (_, i) => ({ i, tag: 'x' }));
    const measured = await whileProbingReady(server, () =>
      attestCustom('acme', 'unique', { items: [...items, { tag: 'x', i: 7 }] }),
    );
    report('uniqueItems over 20,001 objects', measured);
    assert.equal(measured.result.status, 400, measured.result.text);
    assert.match(JSON.stringify(measured.result.body.errors), /duplicate items \(items ## 20000 and 7 are identical\)/);
    bounded(measured);
  });

  it('stops a schema whose $refs under anyOf branch at every level (2^30 calls) with 400', async () => {
    const node = { type: 'object', properties: { a: { $ref: '#/$defs/node' } } };
    await created('acme', 'branching', {
      $defs: { node: { anyOf: [{ ...node, required: ['z'] }, node] } },
      $ref: '#/$defs/node',
    });
    let nested: Record<string, unknown> = {};
    for (let depth = 0; depth < 30; depth++) nested = { a: nested };
    const measured = await whileProbingReady(server, () => attestCustom('acme', 'branching', nested));
    report('anyOf of two $refs, data 30 deep', measured);
    assert.equal(measured.result.status, 400, measured.result.text);
    assert.match(
      measured.result.body.message,
      /^The schema of custom attestation type 'branching' \(version 1\) takes more than [\d,]+ validation steps on this data; attestation_data was not checked$/,
    );
    bounded(measured);
    await assertAlive(server, pid);
  });

  it('refuses, when the type is created, what cannot be run or is too large, and stores nothing', async () => {
    const refusals: Array<
      [name: string, schema: unknown, extra: Record<string, unknown>, field: string, message: RegExp]
    > = [
      [
        'lookahead',
        { type: 'string', pattern: '(?=a)' },
        {},
        'type_schema',
        /Unsupported regular expression "\(\?=a\)": lookahead/,
      ],
      [
        'keys',
        { type: 'object', patternProperties: { '^(\\w)\\1$': {} } },
        {},
        'type_schema',
        /Unsupported regular expression "\^\(\\\\w\)\\\\1\$": the backreference/,
      ],
      [
        'huge',
        { type: 'object', description: 'x'.repeat(70_000) },
        {},
        'type_schema',
        /The schema is larger than 64 KiB/,
      ],
      [
        'deep',
        JSON.parse(`${'{"not":'.repeat(70)}{}${'}'.repeat(70)}`),
        {},
        'type_schema',
        /nests deeper than 64 levels/,
      ],
      [
        'rule',
        { type: 'object' },
        { evaluator: { content_type: 'jq', rules: ['.name | test("a{5000}")'] } },
        'evaluator.rules[0]',
        /Unsupported regular expression "a\{5000\}": a repeat count above 1000/,
      ],
    ];
    for (const [name, schema, extra, field, message] of refusals) {
      const reply = await createType('acme', name, schema, extra);
      assert.equal(reply.status, 400, `${name}: ${reply.text}`);
      assert.match(reply.body.errors?.[field] ?? '', message, name);
      assert.equal((await server.get(`/api/v2/custom-attestation-types/acme/${name}`)).status, 404, name);
    }
  });

  it("compiles each org's schemas apart: beta's $id never resolves for acme, acme may use it, beta may version it", async () => {
    const betaSchema = (secret: string) => ({
      $id: 'urn:example:shared',
      type: 'object',
      required: ['secret'],
      properties: { secret: { const: secret } },
    });
    await created('beta', 'holder', betaSchema('beta-secret-v1'));
    const referring = await createType('acme', 'referring', {
      type: 'object',
      properties: { x: { $ref: 'urn:example:shared' } },
    });
    assert.equal(referring.status, 400, referring.text);
    assert.match(referring.body.errors?.type_schema ?? '', /can't resolve reference urn:example:shared/);
    assert.doesNotMatch(referring.text, /beta-secret/);

    await created('acme', 'own', { $id: 'urn:example:shared', type: 'object', required: ['mine'] });
    await created('beta', 'holder', betaSchema('beta-secret-v2'));

    const acmeData = await attestCustom('acme', 'own', { mine: 1 });
    assert.equal(acmeData.status, 201, acmeData.text);
    const acmeWrong = await attestCustom('acme', 'own', { secret: 'guess' });
    assert.equal(acmeWrong.status, 400, acmeWrong.text);
    assert.doesNotMatch(acmeWrong.text, /beta-secret/, "acme's 400 echoes nothing of beta's schema");
    assert.equal((await attestCustom('beta', 'holder', { secret: 'beta-secret-v2' })).status, 201);
    assert.equal((await attestCustom('beta', 'holder@v1', { secret: 'beta-secret-v1' })).status, 201);
    assert.equal((await attestCustom('beta', 'holder', { secret: 'beta-secret-v1' })).status, 400);
  });
});
