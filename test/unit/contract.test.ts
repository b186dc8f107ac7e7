// The API harness checks every answer against the wire contract; these prove the check itself
// catches what it must (a check that cannot fail would make every API test a weaker one).
import assert from 'node:assert/strict';
import { contractFailure, operationOf } from '../api/contract.ts';

const json = 'application/json; charset=utf-8';
const flow = {
  id: 'f1',
  name: 'web',
  description: '',
  visibility: 'private',
  org: 'acme',
  template: 'version: 1\n',
  repo_url: null,
  tags: {},
  created_at: 1,
  last_modified_at: 1,
  created_by: 'admin',
  html_url: 'http://x/acme/flows/web',
  latest_activity_at: null,
  latest_state: null,
};

describe('wire contract check', () => {
  it('finds the operation of a path, literal segments before parameters', () => {
    assert.equal(
      operationOf('POST', '/api/v2/attestations/acme/web/trail/t1/override'),
      'POST /attestations/{org}/{flow}/trail/{trail}/override',
    );
    assert.equal(
      operationOf('POST', '/api/v2/attestations/acme/web/trail/t1/junit'),
      'POST /attestations/{org}/{flow}/trail/{trail}/junit',
    );
    assert.equal(
      operationOf('POST', '/api/v2/attestations/acme/web/trail/t1/approval'),
      'POST /attestations/{org}/{flow}/trail/{trail}/{kind}',
    );
    assert.equal(operationOf('GET', '/api/v2/flows/acme/web?x=1'), 'GET /flows/{org}/{flow}');
    assert.equal(operationOf('GET', '/api/v2/nothing/here'), undefined);
  });

  it('accepts an answer that matches its schema', () => {
    assert.equal(contractFailure('GET', '/api/v2/flows/acme/web', 200, json, flow, ''), undefined);
    assert.equal(
      contractFailure('GET', '/api/v2/flows/acme/web', 404, json, { message: 'Flow named ...' }, ''),
      undefined,
    );
  });

  it('refuses a missing field, an extra field, a wrong type, an undocumented status and a non-JSON error', () => {
    const { html_url: _, ...withoutUrl } = flow;
    assert.match(contractFailure('GET', '/api/v2/flows/acme/web', 200, json, withoutUrl, '') ?? '', /html_url/);
    assert.match(
      contractFailure('GET', '/api/v2/flows/acme/web', 200, json, { ...flow, secret: 1 }, '') ?? '',
      /additional properties/,
    );
    assert.match(
      contractFailure('GET', '/api/v2/flows/acme/web', 200, json, { ...flow, created_at: 'yesterday' }, '') ?? '',
      /created_at/,
    );
    assert.match(contractFailure('GET', '/api/v2/flows/acme/web', 204, json, undefined, '') ?? '', /not documented/);
    assert.match(
      contractFailure('GET', '/api/v2/flows/acme/web', 404, 'text/html', undefined, '<h1>') ?? '',
      /not JSON/,
    );
    assert.match(contractFailure('GET', '/api/v2/flows/acme/web', 400, json, { error: 'x' }, '') ?? '', /message/);
  });
});
