// An artifact's audit package (reference §8.4): a .tgz with the artifact as its lookup answers it,
// the attestations of its trail about it, and their evidence files, unpacked here with the
// system's tar to check what an auditor gets.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'content-disposition';
import { artifact as artifactSchema } from '../../shared/contract/artifacts.ts';
import { attestation } from '../../shared/contract/flows.ts';
import type { Artifact, Attestation } from './answers.ts';
import { parsedAs } from './contract.ts';
import { attest, attestArtifact, beginTrail, commit, createFlow, fingerprint, WORKED_TEMPLATE } from './fixtures.ts';
import { startServer, type TestServer } from './harness.ts';

describe("an artifact's audit package (reference §8.4)", () => {
  let server: TestServer;
  let scratch: string;
  const cli = fingerprint('package-cli');
  const other = fingerprint('package-other');
  const evidence = Buffer.from('scan report \u0000 \u00ff', 'latin1');

  before(async () => {
    server = await startServer({ args: ['--org', 'acme'] });
    scratch = mkdtempSync(join(tmpdir(), 'cev-artifact-package-'));
    await createFlow(server, 'acme', 'web', WORKED_TEMPLATE);
    await beginTrail(server, 'acme', 'web', 'build-1');
    for (const [fp, slot] of [
      [cli, 'cli'],
      [other, 'other'],
    ] as const)
      await attestArtifact(server, 'acme', 'web', {
        fingerprint: fp,
        filename: slot,
        git_commit: commit(slot),
        trail_name: 'build-1',
        template_reference_name: slot,
      });
    const about = await attest(
      server,
      'acme',
      'web',
      'build-1',
      'generic',
      { attestation_name: 'foo', artifact_fingerprint: cli, is_compliant: true },
      { filename: 'report.txt', content: evidence },
    );
    assert.equal(about.status, 201, about.text);
    for (const [name, fp] of [
      ['bar', undefined],
      ['elsewhere', other],
    ] as const) {
      const reply = await attest(
        server,
        'acme',
        'web',
        'build-1',
        'generic',
        { attestation_name: name, ...(fp === undefined ? {} : { artifact_fingerprint: fp }) },
        { filename: `${name}.txt`, content: name },
      );
      assert.equal(reply.status, 201, reply.text);
    }
  });
  after(async () => {
    await server?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('holds the artifact, the attestations about it and their exact evidence bytes, and nothing of the rest of its trail', async () => {
    const response = await fetch(`${server.url}/api/v2/artifacts/acme/web/${cli.slice(0, 12)}/audit_package`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/gzip');
    const disposition = parse(response.headers.get('content-disposition') ?? '');
    assert.deepEqual(
      [disposition.type, disposition.parameters.filename],
      ['attachment', `web-${cli}-audit-package.tgz`],
    );
    const archive = join(scratch, 'package.tgz');
    writeFileSync(archive, Buffer.from(await response.arrayBuffer()));
    const listed = spawnSync('tar', ['-tzf', archive], { encoding: 'utf8' });
    assert.equal(listed.status, 0, listed.stderr);
    const names = listed.stdout.trim().split('\n').sort();
    assert.equal(names.length, 3, names.join(', '));
    assert.deepEqual([names[0], names[1]], ['artifact.json', 'attestations.json']);
    assert.match(names[2], /^evidence\/foo\/[0-9a-f-]+\/report\.txt$/);
    const unpacked = join(scratch, 'out');
    mkdirSync(unpacked);
    assert.equal(spawnSync('tar', ['-xzf', archive, '-C', unpacked]).status, 0);
    const packed = parsedAs<Artifact>(artifactSchema, readFileSync(join(unpacked, 'artifact.json'), 'utf8'));
    assert.deepEqual(packed, (await server.get<Artifact>(`/api/v2/artifacts/acme/web/fingerprint/${cli}`)).body);
    const attestations = parsedAs<Attestation[]>(
      { type: 'array', items: attestation },
      readFileSync(join(unpacked, 'attestations.json'), 'utf8'),
    );
    assert.deepEqual(
      attestations.map((a) => a.attestation_name),
      ['foo'],
    );
    assert.deepEqual(readFileSync(join(unpacked, names[2])), evidence);
  });

  it('answers 404 with the artifact-not-found message for a fingerprint the flow does not have', async () => {
    const missing = fingerprint('never-reported');
    const reply = await server.get(`/api/v2/artifacts/acme/web/${missing}/audit_package`);
    assert.deepEqual(
      [reply.status, reply.body],
      [
        404,
        {
          message: `Artifact with fingerprint '${missing}' does not exist in flow 'web' belonging to organization 'acme'`,
        },
      ],
    );
    assert.equal((await server.get(`/api/v2/artifacts/acme/nowhere/${cli}/audit_package`)).status, 404);
    assert.equal((await server.get('/api/v2/artifacts/acme/web/xyz/audit_package')).status, 400);
  });
});
