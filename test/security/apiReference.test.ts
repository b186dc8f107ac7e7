// The interactive API reference (issue 23, item 5) without a browser: every file of /api/v2/doc/
// comes with a policy that lets the page load and send nothing but to this server, and the page
// is configured to keep no key (test/api/apiReference.test.ts checks both in Chromium).
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../api/harness.ts';

describe('API reference: its policy and its key', function () {
  let server: TestServer;
  before(async () => {
    server = await startServer({ memory: true });
  });
  after(async () => {
    await server?.stop();
  });

  it('serves every file of the page under a policy without inline, evaluated or foreign sources', async () => {
    for (const path of [
      '/api/v2/doc/',
      '/api/v2/doc/static/swagger-ui-bundle.js',
      '/api/v2/doc/static/swagger-initializer.js',
      '/api/v2/doc/static/swagger-ui.css',
      '/api/v2/doc/json',
    ]) {
      const reply = await server.get(path, { key: null });
      assert.equal(reply.status, 200, path);
      const policy = String(reply.headers['content-security-policy']).split('; ');
      assert.ok(policy.includes("default-src 'none'"), `${path}: ${policy.join('; ')}`);
      assert.ok(policy.includes("script-src 'self'") && policy.includes("connect-src 'self'"), path);
      assert.ok(policy.includes("frame-ancestors 'none'") && policy.includes("base-uri 'none'"), path);
      assert.ok(!policy.some((directive) => /unsafe-|https?:|\*|data:.*script/.test(directive)), path);
    }
  });

  it('keeps no authorized key in the browser, and removes one an earlier version kept', async () => {
    const initializer = await server.get('/api/v2/doc/static/swagger-initializer.js', { key: null });
    assert.match(initializer.text, /"persistAuthorization":\s*false/);
    const page = await server.get('/api/v2/doc/', { key: null });
    const script = /<script src="([^"]*forget-key\.js)"/.exec(page.text);
    assert.ok(script !== null, 'the page loads the script that forgets a stored key');
    const forget = await server.get(`/api/v2/doc/${script[1].replace(/^\.\//, '')}`, { key: null });
    assert.equal(forget.status, 200);
    assert.match(forget.text, /localStorage\.removeItem\('authorized'\)/);
  });
});
