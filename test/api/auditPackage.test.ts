// A trail's audit package (reference §2.2): a .tgz with the trail, its attestations and their
// evidence files, unpacked here with the system's tar to check what an auditor gets.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'content-disposition';
import { attestation, trail as trailSchema } from '../../shared/contract/flows.ts';
import type { Attestation, Trail } from './answers.ts';
import { parsedAs } from './contract.ts';
import { attest, beginTrail, createFlow } from './fixtures.ts';
import { startServer, type TestServer } from './harness.ts';

describe('trail audit package', () => {
  let server: TestServer;
  let scratch: string;
  before(async () => {
    server = await startServer();
    scratch = mkdtempSync(join(tmpdir(), 'cev-audit-'));
    await createFlow(server, 'default', 'web');
    await beginTrail(server, 'default', 'web', 'build-1');
  });
  after(async () => {
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('holds the trail, its attestations and their exact evidence bytes', async () => {
    const evidence = Buffer.from('junit xml \u0000 bytes \u00ff', 'latin1');
    assert.equal(
      (
        await attest(
          server,
          'default',
          'web',
          'build-1',
          'junit',
          { attestation_name: 'unit', junit_results: [{ name: 's', failures: 0, errors: 0, skipped: 0, total: 2 }] },
          { filename: '../../etc/results.xml', content: evidence },
        )
      ).status,
      201,
    );
    assert.equal(
      (await attest(server, 'default', 'web', 'build-1', 'generic', { attestation_name: 'lint' })).status,
      201,
    );
    const response = await fetch(`${server.url}/api/v2/trails/default/web/build-1/audit_package`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/gzip');
    const disposition = parse(response.headers.get('content-disposition') ?? '');
    assert.equal(disposition.type, 'attachment');
    assert.equal(disposition.parameters.filename, 'web-build-1-audit-package.tgz');
    const archive = join(scratch, 'package.tgz');
    writeFileSync(archive, Buffer.from(await response.arrayBuffer()));
    const listed = spawnSync('tar', ['-tzf', archive], { encoding: 'utf8' });
    assert.equal(listed.status, 0, listed.stderr);
    const names = listed.stdout.trim().split('\n').sort();
    assert.equal(names.length, 3, names.join(', '));
    assert.equal(names[0], 'attestations.json');
    assert.match(
      names[1],
      /^evidence\/unit\/[0-9a-f-]+\/[A-Za-z0-9_][A-Za-z0-9._-]*$/,
      'evidence under its attestation, a hostile file name kept to one segment',
    );
    assert.equal(names[2], 'trail.json');
    const unpacked = join(scratch, 'out');
    spawnSync('mkdir', ['-p', unpacked]);
    assert.equal(spawnSync('tar', ['-xzf', archive, '-C', unpacked]).status, 0);
    const trail = parsedAs<Trail>(trailSchema, readFileSync(join(unpacked, 'trail.json'), 'utf8'));
    assert.deepEqual(trail, (await server.get<Trail>('/api/v2/trails/default/web/build-1')).body);
    const attestations = parsedAs<Attestation[]>(
      { type: 'array', items: attestation },
      readFileSync(join(unpacked, 'attestations.json'), 'utf8'),
    );
    assert.deepEqual(attestations.map((a) => a.attestation_name).sort(), ['lint', 'unit']);
    assert.deepEqual(readFileSync(join(unpacked, names[1])), evidence);
  });

  it('reports the trail as a PDF whose structure a reader can follow: pages, text and a cross-reference table that points at each object', async () => {
    const response = await fetch(`${server.url}/api/v2/trails/default/web/build-1/audit_pdf`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/pdf');
    const pdf = Buffer.from(await response.arrayBuffer()).toString('latin1');
    assert.match(pdf, /^%PDF-1\.4\n/);
    assert.match(pdf, /%%EOF\n$/);
    const startxref = Number(/startxref\n(\d+)\n%%EOF/.exec(pdf)![1]);
    assert.equal(pdf.slice(startxref, startxref + 4), 'xref');
    const entries = [...pdf.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((match) => Number(match[1]));
    assert.ok(entries.length >= 5, 'catalog, pages, font, a page and its content');
    entries.forEach((offset, index) =>
      assert.equal(
        pdf.slice(offset, offset + `${index + 1} 0 obj`.length),
        `${index + 1} 0 obj`,
        `object ${index + 1} where the table says`,
      ),
    );
    for (const text of [
      'Audit report: trail build-1 of flow web (organization default)',
      'unit (junit): compliant',
      'lint (generic)',
    ]) {
      assert.ok(pdf.includes(text.replace(/[()]/g, (character) => `\\${character}`)), text);
    }
    const missing = await server.get('/api/v2/trails/default/web/nope/audit_pdf');
    assert.equal(missing.status, 404);
  });

  it('answers the trail-not-found message for a trail that does not exist', async () => {
    const reply = await server.get('/api/v2/trails/default/web/nope/audit_package');
    assert.equal(reply.status, 404);
    assert.deepEqual(reply.body, {
      message: "Trail with name 'nope' does not exist for Organization 'default' and Flow 'web'",
    });
  });
});
