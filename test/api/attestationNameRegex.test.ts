// The org-level attestation query's name_regex (reference §2.3) filters in the database, so a page
// holds per_page matches however many attestations come before them, and the cursor goes on from
// the last match.
import assert from 'node:assert/strict';
import type { FromSchema } from 'json-schema-to-ts';
import type { attestation } from '../../shared/contract/flows.ts';
import type { dataPage } from '../../shared/contract/pagination.ts';
import type { ErrorBody } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { attest, beginTrail, createFlow } from './fixtures.ts';

/** The org-level query's page as the contract has it: `{data, pagination, _links}`, the cursor in `_links`. */
type AttestationPage = FromSchema<ReturnType<typeof dataPage<typeof attestation>>>;

describe('attestations across the org by name_regex', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer({ args: ['--org', 'acme'] });
    await createFlow(server, 'acme', 'flow');
    await beginTrail(server, 'acme', 'flow', 'trail');
    for (const name of ['unit-1', 'lint', 'unit-2', 'lint', 'lint', 'unit-3']) {
      assert.equal((await attest(server, 'acme', 'flow', 'trail', 'generic', { attestation_name: name })).status, 201);
    }
  });
  after(async () => {
    await server?.stop();
  });

  it('pages through the matches only, oldest first', async () => {
    const first = (await server.get<AttestationPage>('/api/v2/attestations/acme?name_regex=^unit-[0-9]$&per_page=2'))
      .body;
    assert.deepEqual(
      first.data.map((entry) => entry.attestation_name),
      ['unit-1', 'unit-2'],
    );
    assert.ok(first._links, 'a page with more matches after it links the next one');
    const next = new URL(first._links.next.href);
    const second = (await server.get<AttestationPage>(next.pathname + next.search)).body;
    assert.deepEqual(
      second.data.map((entry) => entry.attestation_name),
      ['unit-3'],
    );
    assert.equal(second._links?.next, undefined);
  });

  it('refuses a pattern that is not a regular expression', async () => {
    const refused = await server.get<ErrorBody>('/api/v2/attestations/acme?name_regex=(unclosed');
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body, { message: "Invalid name_regex: '(unclosed'" });
  });
});
