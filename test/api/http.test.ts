// Conventions every route shares: authentication, JSON errors, JSON 404s, bad bodies → 4xx.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { ErrorBody, OpenApiDocument } from './answers.ts';
import { startServer, type TestServer } from './harness.ts';
import { beginTrail, createFlow } from './fixtures.ts';

describe('API conventions', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(async () => {
    await server?.stop();
  });

  it('answers 401 {message} without credentials and with an unknown key', async () => {
    const missing = await server.get<ErrorBody>('/api/v2/service-accounts/default', { key: null });
    assert.equal(missing.status, 401);
    assert.deepEqual(Object.keys(missing.body), ['message']);
    const wrong = await server.get('/api/v2/service-accounts/default', { key: 'not-a-key-at-all' });
    assert.equal(wrong.status, 401);
    assert.deepEqual(wrong.body, { message: 'Invalid API key' });
    const badScheme = await server.get('/api/v2/service-accounts/default', {
      key: null,
      headers: { authorization: 'Token abc' },
    });
    assert.equal(badScheme.status, 401);
  });

  it('accepts Basic authentication with the key as username, with or without a password', async () => {
    assert.equal((await server.get('/api/v2/service-accounts/default', { scheme: 'basic' })).status, 200);
    const withPassword = `Basic ${Buffer.from(`${server.key}:ignored`).toString('base64')}`;
    assert.equal(
      (await server.get('/api/v2/service-accounts/default', { key: null, headers: { authorization: withPassword } }))
        .status,
      200,
    );
  });

  // The approvals API and the old flow-scoped deployments path are gone; the deployments read from
  // environments (reference §8.4) are served, and tested with the catalogue's operations.
  it('answers a JSON 404 for unmatched paths, including the removed approvals and flow deployments APIs (`/` is the landing page)', async () => {
    for (const path of [
      '/api/v2/nothing-here',
      '/api/v2/approvals/default/flow',
      '/api/v2/deployments/default/flow',
      '/api/v1/x',
      '/api/v2',
    ]) {
      const reply = await server.get<ErrorBody>(path);
      assert.equal(reply.status, 404, path);
      assert.match(String(reply.headers['content-type']), /^application\/json/, path);
      assert.match(reply.body.message, /^Not Found\. You have requested this URI/, path);
    }
    const post = await server.json('POST', '/api/v2/approvals/default/flow', { artifact_fingerprint: 'a' });
    assert.equal(post.status, 404);
  });

  it('refuses JSON nested beyond 1,000 levels with 400 and stores nothing, in JSON bodies and multipart parts', async () => {
    const nested = (levels: number) => `${'['.repeat(levels)}1${']'.repeat(levels)}`;
    await createFlow(server, 'default', 'deep');
    await beginTrail(server, 'default', 'deep', 'trail-1');
    const generic = (userData: string) =>
      server.multipart('POST', '/api/v2/attestations/default/deep/trail/trail-1/generic', {
        data_json: `{"attestation_name":"g","is_compliant":true,"user_data":${userData}}`,
      });
    const part = await generic(nested(6000));
    assert.equal(part.status, 400, part.text);
    assert.deepEqual(part.body, {
      message: 'Input payload validation failed',
      errors: { data_json: 'JSON should be nested at most 1000 levels deep [input: …]' },
    });
    const body = await server.raw<ErrorBody>(
      'PUT',
      '/api/v2/environments/default',
      `{"name":"deep","type":"K8S","description":${nested(6000)}}`,
      {
        authorization: `Bearer ${server.key}`,
        'content-type': 'application/json',
      },
    );
    assert.equal(body.status, 400, body.text);
    assert.deepEqual(body.body.errors, { body: 'JSON should be nested at most 1000 levels deep [input: …]' });
    const stored = await server.get('/api/v2/attestations/default/deep/trail/trail-1/g');
    assert.deepEqual(stored.body, []);
    assert.equal((await server.get('/api/v2/environments/default/deep')).status, 404);
    const deepButAllowed = await generic(nested(990));
    assert.equal(deepButAllowed.status, 201, deepButAllowed.text);
  });

  it('answers 404 Organization not found for an org that does not exist', async () => {
    const reply = await server.get('/api/v2/service-accounts/no-such-org');
    assert.equal(reply.status, 404);
    assert.deepEqual(reply.body, { message: 'Organization not found' });
  });

  it('turns malformed JSON, wrong content types and oversize bodies into 4xx {message}', async () => {
    const path = '/api/v2/service-accounts/default';
    const auth = { authorization: `Bearer ${server.key}` };
    const cases: [string | Uint8Array, Record<string, string>, number][] = [
      ['{"name": ', { 'content-type': 'application/json' }, 400],
      ['', { 'content-type': 'application/json' }, 400],
      ['<xml/>', { 'content-type': 'application/xml' }, 415],
      ['{"__proto__": {"x": 1}}', { 'content-type': 'application/json' }, 400],
    ];
    for (const [body, headers, status] of cases) {
      const reply = await server.raw<ErrorBody>('POST', path, body, { ...auth, ...headers });
      assert.equal(reply.status, status, `${headers['content-type']}: ${reply.text}`);
      assert.equal(typeof reply.body.message, 'string');
    }
  });

  it('refuses a body over the limit from its declared length, before reading it', async () => {
    const declared = 17 * 1024 * 1024;
    const statusLine = await new Promise<string>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1');
      let received = '';
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no answer before the body was sent: ${received}`));
      }, 10_000);
      socket.on('data', (chunk) => {
        received += chunk.toString();
        if (received.includes('\r\n\r\n')) {
          clearTimeout(timer);
          socket.destroy();
          resolve(received.split('\r\n')[0]);
        }
      });
      socket.on('error', reject);
      socket.write(
        `POST /api/v2/service-accounts/default HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${server.key}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${declared}\r\n\r\n{"name":`,
      );
    });
    assert.match(statusLine, /^HTTP\/1\.1 413 /);
  });

  it('renders body validation failures as {errors, message} in pydantic wording with the input echoed', async () => {
    const reply = await server.json('PUT', '/api/v2/flows/default', {
      name: 'new illegal name',
      description: 'x',
      visibility: '',
    });
    assert.equal(reply.status, 400);
    assert.deepEqual(reply.body, {
      errors: {
        name: "String should match pattern '^[a-zA-Z0-9][a-zA-Z0-9\\.\\-_~]*$' [input: new illegal name]",
        visibility: "Input should be 'public' or 'private' [input: ]",
      },
      message: 'Input payload validation failed',
    });
    const role = await server.json<ErrorBody>('POST', '/api/v2/service-accounts/default', {
      name: 'ci',
      privilege: 'boss',
    });
    assert.deepEqual(role.body.errors, {
      privilege: "Input should be 'admin', 'member', 'snapshotter' or 'reader' [input: boss]",
    });
    const missing = await server.json<ErrorBody>('POST', '/api/v2/service-accounts/default', { description: 'x' });
    assert.deepEqual(missing.body.errors, {
      name: 'Field required [input: None]',
      privilege: 'Field required [input: None]',
    });
    const notObject = await server.json<ErrorBody>('POST', '/api/v2/service-accounts/default', null);
    assert.equal(notObject.status, 400);
    assert.deepEqual(notObject.body.errors, { body: 'Input should be a valid dictionary [input: None]' });
  });

  it('serves an OpenAPI 3.1 document generated from the route schemas, without credentials', async () => {
    const reply = await server.get<OpenApiDocument>('/api/v2/openapi.json', { key: null });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.openapi, '3.1.0');
    const expected: [string, string][] = [
      ['/service-accounts/{org}', 'post'],
      ['/service-accounts/{org}/{name}', 'patch'],
      ['/service-accounts/{org}/{name}/api-keys/{key_id}/rotate', 'post'],
      ['/flows/{org}/template_file', 'put'],
      ['/flows/{org}', 'put'],
      ['/flows/{org}', 'get'],
      ['/flows/{org}/{flow}', 'get'],
      ['/flows/{org}/{flow}/archive', 'put'],
      ['/flows/{org}/{flow}/rename', 'put'],
      ['/trails/{org}/{flow}', 'put'],
      ['/trails/{org}/{flow}', 'get'],
      ['/trails/{org}/{flow}/{trail}', 'get'],
      ['/trails/{org}', 'get'],
      ...['scan', 'generic', 'junit', 'snyk', 'jira', 'pull_request', 'custom', 'system'].map(
        (kind): [string, string] => [`/attestations/{org}/{flow}/trail/{trail}/${kind}`, 'post'],
      ),
      ['/attestations/{org}/{flow}/trail/{trail}/override', 'post'],
      ['/attestations/{org}/{flow}', 'get'],
      ['/attestations/{org}', 'get'],
      ['/attestations/{org}/{flow}/trail/{trail}/attestation/{id}/evidence', 'get'],
      ['/artifacts/{org}/{flow}', 'post'],
      ['/artifacts/{org}/{flow}/fingerprint/{fingerprint}', 'get'],
      ['/artifacts/{org}/{flow}/commit_sha/{sha}', 'get'],
      ['/artifacts/{org}', 'get'],
      ['/search/{org}/sha/{value}', 'get'],
      ['/custom-attestation-types/{org}', 'post'],
    ];
    for (const [path, method] of expected) assert.ok(reply.body.paths[path]?.[method], `${method} ${path} documented`);
    assert.ok(reply.body.components.schemas.ScanAttestationPostInput);
    assert.equal(
      reply.body.paths['/attestations/{org}/{flow}/trail/{trail}/{kind}'],
      undefined,
      'one operation per type, no generic one',
    );
    const multipartOf = (path: string) => {
      const body = reply.body.paths[path].post.requestBody;
      assert.ok(body, `${path} documents its body`);
      return body.content['multipart/form-data'].schema.properties;
    };
    const scanPart = multipartOf('/attestations/{org}/{flow}/trail/{trail}/scan').data_json;
    assert.match(
      JSON.stringify(scanPart),
      /ScanAttestationPostInput|scan-attestation/,
      'the scan endpoint documents its own data_json schema',
    );
    const junitPart = multipartOf('/attestations/{org}/{flow}/trail/{trail}/junit').data_json;
    assert.match(
      JSON.stringify(junitPart),
      /AttestationPostInput/,
      'every other type documents the attestation schema',
    );
  });

  it('serves the shared JSON Schemas under /api/v2/schemas', async () => {
    const template = await server.get<Record<string, unknown>>('/api/v2/schemas/flow-template/v1', { key: null });
    assert.equal(template.status, 200);
    assert.equal(template.body.$id, 'https://compliance-evidence.dev/schemas/flow-template/v1');
    assert.equal((await server.get('/api/v2/schemas/environment-policy/v1', { key: null })).status, 200);
    assert.ok((await server.get<string[]>('/api/v2/schemas', { key: null })).body.includes('scan-attestation/v1'));
    const missing = await server.get<ErrorBody>('/api/v2/schemas/nope/v1', { key: null });
    assert.equal(missing.status, 404);
    assert.equal(typeof missing.body.message, 'string');
  });
});
