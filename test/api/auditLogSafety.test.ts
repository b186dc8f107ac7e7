// Untrusted names in the audit log (issue: CSV injection, CWE-1236): a K8S report plants formula
// starts in image names, pod names and namespaces; the export, read with a real CSV parser, holds
// no cell that a spreadsheet would run.
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { startServer, type TestServer } from './harness.ts';
import { createEnvironment } from './fixtures.ts';

const HOSTILE_IMAGES = [
  '=HYPERLINK("http://evil.invalid","x"),app:1',
  '+cmd|calc!A0',
  '-2+3',
  '@SUM(1+1)',
  '\tapp:2',
  '\r=app:3',
];

describe('audit log: hostile names never become formulas', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
    await createEnvironment(server, 'default', 'prod');
  });
  after(async () => {
    await server?.stop();
  });

  it('prefixes every cell that starts with =, +, -, @, a tab or a carriage return with a quote', async () => {
    const report = {
      artifacts: HOSTILE_IMAGES.map((image, index) => ({
        podName: `@pod-${index}`,
        namespace: `+ns-${index}`,
        creationTimestamp: 1700000000,
        digests: {
          [image]: String(index)
            .repeat(64)
            .slice(0, 64)
            .replace(/\d/g, (digit) => 'abcdef0123'[Number(digit)]),
        },
        owners: [],
      })),
    };
    const reported = await server.json('PUT', '/api/v2/environments/default/prod/report/K8S', report);
    assert.equal(reported.status, 200, reported.text);
    const csv = await server.raw('GET', '/api/v2/environments/default/prod/auditlog', undefined, {
      authorization: `Bearer ${server.key}`,
    });
    assert.equal(csv.status, 200);
    const rows = parse(csv.text, { relax_column_count: false, skip_empty_lines: true });
    assert.ok(rows.length > HOSTILE_IMAGES.length, 'a header and one row per started artifact');
    const cells = rows.slice(1).flat();
    const dangerous = cells.filter((cell) => /^[=+\-@\t\r]/.test(cell));
    assert.deepEqual(dangerous, [], 'no cell starts a formula');
    for (const image of HOSTILE_IMAGES)
      assert.ok(cells.includes(`'${image}`), `the image name is kept, behind a quote: ${JSON.stringify(image)}`);
  });
});
