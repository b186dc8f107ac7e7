// Custom attestation types end to end (reference §2.3 custom rows, §2.15, §3.3, §6 items 23 and 55):
// the type's JSON Schema checks the data, its jq rules decide compliance, and the trail follows.
import assert from 'node:assert/strict';
import type { FromSchema } from 'json-schema-to-ts';
import type { systemType } from '../../shared/contract/governance.ts';
import type { Attestation, CustomType, ErrorBody, Page, Trail } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { attest, beginTrail, createFlow, fieldError } from './fixtures.ts';

type SystemType = FromSchema<typeof systemType>;

/** A `name` the contract leaves untyped (a custom type's summary entries). */
function nameOf(entry: unknown): unknown {
  return typeof entry === 'object' && entry !== null && 'name' in entry ? entry.name : undefined;
}

/** The `age` of an attestation's data, which the contract leaves to the custom type's schema. */
function ageOf(data: unknown): number {
  assert.ok(typeof data === 'object' && data !== null && 'age' in data && typeof data.age === 'number');
  return data.age;
}

const INVALID = 'Input payload validation failed';
const WIBBLE_SCHEMA = {
  type: 'object',
  properties: { age: { type: 'integer' }, name: { type: 'string' } },
  required: ['age'],
};
const TEMPLATE = 'version: 1\ntrail:\n  attestations:\n    - name: adult\n      type: custom:wibble\n';

describe('custom attestation types', () => {
  let server: TestServer;

  const createType = <T = CustomType>(name: string, rules: string[] | undefined, schema: unknown = WIBBLE_SCHEMA) =>
    server.multipart<T>('POST', '/api/v2/custom-attestation-types/acme', {
      data_json: JSON.stringify({
        name,
        description: `${name} type`,
        ...(rules === undefined ? {} : { evaluator: { content_type: 'jq', rules } }),
      }),
      type_schema: { filename: 'schema.json', content: JSON.stringify(schema) },
    });
  const attestCustom = <T = string>(trail: string, name: string, typeName: string, data: unknown) =>
    attest<T>(server, 'acme', 'custom-flow', trail, 'custom', {
      attestation_name: name,
      type_name: typeName,
      attestation_data: data,
    });
  const trailOf = async (trail: string) => (await server.get<Trail>(`/api/v2/trails/acme/custom-flow/${trail}`)).body;
  const latest = async (trail: string, name: string) =>
    (await server.get<Attestation[]>(`/api/v2/attestations/acme/custom-flow/trail/${trail}/${name}`)).body[0];

  before(async () => {
    server = await startServer({ args: ['--org', 'acme'] });
    const created = await createType('wibble', ['.age > 21']);
    assert.equal(created.status, 201, created.text);
    await createFlow(server, 'acme', 'custom-flow', TEMPLATE);
  });
  after(async () => {
    await server?.stop();
  });

  it('creates wibble with a schema and the rule .age > 21, reads it back, and answers the service messages for unknown names and versions (§6 item 55)', async () => {
    const read = await server.get<CustomType>('/api/v2/custom-attestation-types/acme/wibble');
    assert.equal(read.status, 200);
    assert.equal(read.body.name, 'wibble');
    assert.equal(read.body.version, 1);
    assert.deepEqual(read.body.evaluator, { content_type: 'jq', rules: ['.age > 21'] });
    assert.deepEqual(read.body.schema, WIBBLE_SCHEMA);
    const missing = await server.get('/api/v2/custom-attestation-types/acme/non-existing');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { message: "Custom attestation type 'non-existing' does not exist for org 'acme'" });
    const version = await server.get('/api/v2/custom-attestation-types/acme/wibble?version=10');
    assert.equal(version.status, 404);
    assert.deepEqual(version.body, { message: "version 10 does not exist for custom attestation type 'wibble'" });
    assert.equal((await createType('short-lived', ['.age > 21'])).status, 201);
    const archived = await server.json('PUT', '/api/v2/custom-attestation-types/acme/short-lived/archive');
    assert.equal(archived.status, 200);
    const stillRead = await server.get<CustomType>('/api/v2/custom-attestation-types/acme/short-lived');
    assert.deepEqual([stillRead.status, stillRead.body.archived], [200, true], 'read by name (reference §8.2 item 6)');
  });

  it('a compliant custom attestation makes the trail COMPLIANT; a later non-compliant one of the same name makes it NON-COMPLIANT', async () => {
    await beginTrail(server, 'acme', 'custom-flow', 'flip');
    assert.equal((await trailOf('flip')).compliance_state, 'INCOMPLETE');
    assert.equal((await attestCustom('flip', 'adult', 'wibble', { age: 30 })).status, 201);
    const adult = await latest('flip', 'adult');
    assert.equal(adult.is_compliant, true);
    assert.equal(adult.attestation_type, 'custom:wibble');
    assert.deepEqual(adult.attestation_data, { age: 30 });
    assert.equal((await trailOf('flip')).compliance_state, 'COMPLIANT');

    assert.equal((await attestCustom('flip', 'adult', 'wibble', { age: 21 })).status, 201);
    assert.equal((await latest('flip', 'adult')).is_compliant, false);
    const after = await trailOf('flip');
    assert.equal(after.compliance_state, 'NON-COMPLIANT');
    assert.equal(after.events.at(-1)?.is_compliant, false);

    assert.equal((await attestCustom('flip', 'adult', 'wibble', { age: 22 })).status, 201);
    assert.equal((await trailOf('flip')).compliance_state, 'COMPLIANT');
  });

  it('data that breaks the type schema answers 400 with field paths and records nothing', async () => {
    await beginTrail(server, 'acme', 'custom-flow', 'bad-data');
    const events = (await trailOf('bad-data')).events.length;
    const wrongType = await attestCustom('bad-data', 'adult', 'wibble', { age: 'forty' });
    assert.equal(wrongType.status, 400);
    assert.deepEqual(wrongType.body, {
      errors: { 'attestation_data.age': 'Input should be a valid integer [input: forty]' },
      message: INVALID,
    });
    const missing = await attestCustom<ErrorBody>('bad-data', 'adult', 'wibble', { name: 'Ann' });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.message, INVALID);
    assert.deepEqual(Object.keys(missing.body.errors ?? {}), ['attestation_data.age']);
    assert.match(fieldError(missing.body, 'attestation_data.age'), /^Field required/);
    assert.deepEqual((await server.get('/api/v2/attestations/acme/custom-flow/trail/bad-data/adult')).body, []);
    assert.equal((await trailOf('bad-data')).events.length, events);
  });

  it('an unknown type answers 404; name@vN picks a version and its rules; an unknown version answers 404', async () => {
    await beginTrail(server, 'acme', 'custom-flow', 'versions');
    const unknown = await attestCustom('versions', 'adult', 'nobody', { age: 30 });
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { message: "Custom attestation type 'nobody' does not exist for org 'acme'" });
    const unknownVersioned = await attestCustom('versions', 'adult', 'nobody@v1', { age: 30 });
    assert.deepEqual(unknownVersioned.body, {
      message: "Custom attestation type 'nobody' does not exist for org 'acme'",
    });

    assert.equal((await createType('aged', ['.age > 21'])).body.version, 1);
    assert.equal((await createType('aged', ['.age > 65'])).body.version, 2);
    assert.equal((await attestCustom('versions', 'v1', 'aged@v1', { age: 30 })).status, 201);
    assert.equal((await latest('versions', 'v1')).is_compliant, true, 'version 1 has the rule .age > 21');
    assert.equal((await latest('versions', 'v1')).attestation_type, 'custom:aged');
    assert.equal((await attestCustom('versions', 'latest', 'aged', { age: 30 })).status, 201);
    assert.equal((await latest('versions', 'latest')).is_compliant, false, 'the latest version has the rule .age > 65');
    const noVersion = await attestCustom('versions', 'v9', 'aged@v9', { age: 30 });
    assert.equal(noVersion.status, 404);
    assert.deepEqual(noVersion.body, { message: "version 9 does not exist for custom attestation type 'aged'" });
  });

  it('a rule the server cannot evaluate is refused at creation with its index, column and text; nothing is created', async () => {
    const refused = await createType<ErrorBody>('broken', ['.age > 21', '.age >', 'reduce .[] as $x (0; . + $x)']);
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body, {
      message: INVALID,
      errors: {
        'evaluator.rules[1]': 'Unexpected end of rule at column 7 [input: .age >]',
        'evaluator.rules[2]': "'reduce' is not supported in rules at column 1 [input: reduce .[] as $x (0; . + $x)]",
      },
    });
    assert.equal((await server.get('/api/v2/custom-attestation-types/acme/broken')).status, 404);
    const deep = await createType<ErrorBody>('broken', [`${'('.repeat(20_000)}.age${')'.repeat(20_000)} > 21`]);
    assert.equal(deep.status, 400);
    assert.match(
      fieldError(deep.body, 'evaluator.rules[0]'),
      /^Rule nests too deeply \(more than 200 levels\) at column 201 \[input: /,
    );
    const badRegex = await createType<ErrorBody>('broken', ['.name | test("(")']);
    assert.equal(badRegex.status, 400);
    assert.match(
      fieldError(badRegex.body, 'evaluator.rules[0]'),
      /^Invalid regular expression "\(": .* at column 14 \[input: /,
    );
  });

  it('evaluates the type summary on each attestation and shows it; a summary it cannot evaluate is refused at creation', async () => {
    const summarised = await server.multipart<CustomType>('POST', '/api/v2/custom-attestation-types/acme', {
      data_json: JSON.stringify({
        name: 'people',
        evaluator: { content_type: 'jq', rules: ['.age > 21'] },
        summary: [
          { name: 'age', expression: '.age' },
          { name: 'greeting', expression: '"hello " + .name' },
          { name: 'missing', expression: '.nothing[]?' },
          { name: 'unreadable', expression: '.name.first' },
        ],
      }),
      type_schema: { filename: 'schema.json', content: JSON.stringify(WIBBLE_SCHEMA) },
    });
    assert.equal(summarised.status, 201, summarised.text);
    assert.deepEqual(summarised.body.summary?.map(nameOf), ['age', 'greeting', 'missing', 'unreadable']);
    await beginTrail(server, 'acme', 'custom-flow', 'summary');
    assert.equal((await attestCustom('summary', 'person', 'people', { age: 30, name: 'Ada' })).status, 201);
    const shown = await latest('summary', 'person');
    assert.deepEqual(shown.summary, [
      { name: 'age', value: 30 },
      { name: 'greeting', value: 'hello Ada' },
      { name: 'missing', value: null },
      { name: 'unreadable', value: null },
    ]);
    assert.equal(shown.is_compliant, true, 'a summary informs; it never decides compliance');
    const byId = (
      await server.get<Page<Attestation>>(`/api/v2/attestations/acme?attestation_id=${shown.attestation_id}`)
    ).body.data[0];
    assert.deepEqual(byId.summary, shown.summary);

    const refused = await server.multipart('POST', '/api/v2/custom-attestation-types/acme', {
      data_json: JSON.stringify({ name: 'bad-summary', summary: [{ name: 'age', expression: '.age +' }] }),
      type_schema: { filename: 'schema.json', content: JSON.stringify(WIBBLE_SCHEMA) },
    });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body, {
      message: INVALID,
      errors: { 'summary[0].expression': 'Unexpected end of rule at column 7 [input: .age +]' },
    });
    assert.equal((await server.get('/api/v2/custom-attestation-types/acme/bad-summary')).status, 404);
  });

  it('lists the system attestation types, whose decision type a system attestation names', async () => {
    const types = await server.get<SystemType[]>('/api/v2/system-attestation-types/acme');
    assert.equal(types.status, 200);
    assert.deepEqual(
      types.body.map((type) => [type.name, type.attestation_type]),
      [['decision', 'system:decision']],
    );
    assert.deepEqual((await server.get('/api/v2/system-attestation-types/ghost')).body, {
      message: 'Organization not found',
    });
  });

  it('every rule must hold, each with at least one output and no false or null one; a type without rules is compliant', async () => {
    await beginTrail(server, 'acme', 'custom-flow', 'checks');
    const schema = { type: 'object', properties: { checks: { type: 'array', items: { type: 'object' } } } };
    assert.equal(
      (
        await createType(
          'checklist',
          ['.checks | length > 0', '.checks[] | .passed', 'all(.checks[]; .id | startswith("C-"))'],
          schema,
        )
      ).status,
      201,
    );
    assert.equal((await createType('free', undefined, schema)).status, 201);
    const verdict = async (name: string, typeName: string, data: unknown) => {
      assert.equal((await attestCustom('checks', name, typeName, data)).status, 201);
      return (await latest('checks', name)).is_compliant;
    };
    assert.equal(
      await verdict('all-pass', 'checklist', {
        checks: [
          { id: 'C-1', passed: true },
          { id: 'C-2', passed: 'yes' },
        ],
      }),
      true,
    );
    assert.equal(
      await verdict('one-fails', 'checklist', {
        checks: [
          { id: 'C-1', passed: true },
          { id: 'C-2', passed: false },
        ],
      }),
      false,
    );
    assert.equal(
      await verdict('one-null', 'checklist', { checks: [{ id: 'C-1', passed: true }, { id: 'C-2' }] }),
      false,
    );
    assert.equal(await verdict('bad-id', 'checklist', { checks: [{ id: 'X-1', passed: true }] }), false);
    assert.equal(await verdict('empty', 'checklist', { checks: [] }), false);
    assert.equal(await verdict('rule-error', 'checklist', { checks: [{ id: 7, passed: true }] }), false);
    assert.equal(await verdict('no-rules', 'free', { checks: [] }), true);
    const nested = JSON.parse(`{"checks": [{"id": "C-1", "passed": ${'['.repeat(600)}${']'.repeat(600)}}]}`) as unknown;
    assert.equal(
      await verdict('too-deep', 'checklist', nested),
      false,
      'data nested past 512 levels is not judged compliant',
    );
  });

  it('keeps judging right over hundreds of rule evaluations in one server process', async () => {
    await beginTrail(server, 'acme', 'custom-flow', 'many');
    assert.equal((await createType('named', ['.age > 21', '.name | startswith("n")', 'has("age")'])).status, 201);
    const count = 120;
    for (let i = 0; i < count; i += 1) {
      const age = i % 2 === 0 ? 30 : 10;
      assert.equal((await attestCustom('many', 'person', 'named', { age, name: `n${i}` })).status, 201);
    }
    const history = (await server.get<Attestation[]>('/api/v2/attestations/acme/custom-flow/trail/many/person')).body;
    assert.equal(history.length, count);
    assert.deepEqual(
      history.filter((attestation) => attestation.is_compliant !== ageOf(attestation.attestation_data) > 21),
      [],
    );
  });
});
