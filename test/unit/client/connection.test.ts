import assert from 'node:assert/strict';
import { apiBaseOf, resolveConnection, type ConnectionSettings } from '../../../client/auth/connection.ts';

const settings: ConnectionSettings = {
  baseUrl: 'https://eu.example.test/api/v2',
  baseUrlUs: 'https://us.example.test/api/v2/',
  region: 'default',
  customUrl: '',
  org: 'acme',
};

describe('client settings → server URL', () => {
  it('uses the base URL of the chosen region', () => {
    assert.deepEqual(resolveConnection(settings, undefined, false), {
      kind: 'remote',
      apiBase: 'https://eu.example.test/api/v2',
      org: 'acme',
    });
    assert.deepEqual(resolveConnection({ ...settings, region: 'us' }, undefined, false), {
      kind: 'remote',
      apiBase: 'https://us.example.test/api/v2',
      org: 'acme',
    });
  });

  it('lets a custom URL win over the region, appending /api/v2 to a bare host', () => {
    const connection = resolveConnection(
      { ...settings, region: 'us', customUrl: 'http://compliance.internal:8001/' },
      undefined,
      false,
    );
    assert.deepEqual(connection, { kind: 'remote', apiBase: 'http://compliance.internal:8001/api/v2', org: 'acme' });
  });

  it('uses the running local server with its own org until the user picks the remote', () => {
    const local = { url: 'http://127.0.0.1:40123', org: 'default' };
    assert.deepEqual(resolveConnection(settings, local, false), {
      kind: 'local',
      apiBase: 'http://127.0.0.1:40123/api/v2',
      org: 'default',
    });
    assert.equal(resolveConnection(settings, local, true).kind, 'remote');
  });

  it('says which setting is missing instead of guessing', () => {
    const noUrl = resolveConnection({ ...settings, baseUrl: '' }, undefined, false);
    assert.equal(noUrl.kind, 'unconfigured');
    assert.match(noUrl.kind === 'unconfigured' ? noUrl.problem : '', /complianceEvidence\.baseUrl\b/);
    const noUsUrl = resolveConnection({ ...settings, region: 'us', baseUrlUs: ' ' }, undefined, false);
    assert.match(noUsUrl.kind === 'unconfigured' ? noUsUrl.problem : '', /complianceEvidence\.baseUrlUs/);
    const noOrg = resolveConnection({ ...settings, org: '' }, undefined, false);
    assert.match(noOrg.kind === 'unconfigured' ? noOrg.problem : '', /complianceEvidence\.org/);
    const notHttp = resolveConnection({ ...settings, customUrl: 'ftp://files.example.test' }, undefined, false);
    assert.match(notHttp.kind === 'unconfigured' ? notHttp.problem : '', /not an http/);
  });

  it('keeps a base URL that already ends in /api/v2', () => {
    assert.equal(apiBaseOf('https://x.test/api/v2'), 'https://x.test/api/v2');
    assert.equal(apiBaseOf('https://x.test/prefix/'), 'https://x.test/prefix/api/v2');
  });
});
