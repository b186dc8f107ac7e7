// One verdict, three faces (issue 15): every golden fixture is accepted or refused alike by the
// editor (the built language server over stdio), `cev validate` and the real server's upload
// routes. The one declared difference is shared/verdicts.ts's evaluationTimeCodes: a policy whose
// only errors are invalid `${{ }}` conditions is flagged by the editor and the CLI and stored by
// the server. Payloads as the official CLI builds them get the server's verdict the core gives.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { kindOf } from '../../shared/kinds.ts';
import { evaluationTimeCodes } from '../../shared/verdicts.ts';
import { startServer, type Reply, type TestServer } from '../api/harness.ts';
import type { ErrorBody } from '../api/answers.ts';
import { reportTypes } from '../../shared/reports/check.ts';
import { loadCliPayloads } from '../unit/cliPayloads.ts';
import { loadFixtures, type Fixture } from '../unit/golden.ts';
import { repoRoot, startClient, type LspClient } from './lspClient.ts';

const ORG = 'acme';
const FLOW = 'parity';
const TRAIL = 't1';

/** The environment each report type is sent to. */
const envOf = (type: string) => `env-${type.toLowerCase()}`;

describe('editor, cev validate and the server give one verdict', function () {
  this.timeout(120_000);
  let client: LspClient;
  let server: TestServer;

  before(async () => {
    client = startClient();
    await client.initialize({ complianceEvidence: { diagnostics: { debounceMs: 0, maxProblems: 10_000 } } });
    server = await startServer({ args: ['--org', ORG] });
    const created = await server.multipart('PUT', `/api/v2/flows/${ORG}/template_file`, {
      data_json: JSON.stringify({ name: FLOW, description: 'parity' }),
      template_file: { filename: 'template.yml', content: 'version: 1\n' },
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(
      (await server.multipart('PUT', `/api/v2/trails/${ORG}/${FLOW}`, { data_json: JSON.stringify({ name: TRAIL }) }))
        .status,
      201,
    );
    for (const type of reportTypes) {
      const env = await server.json('PUT', `/api/v2/environments/${ORG}`, {
        name: envOf(type),
        type,
        description: type,
      });
      assert.equal(env.status, 201, env.text);
    }
    const customType = await server.multipart('POST', `/api/v2/custom-attestation-types/${ORG}`, {
      data_json: JSON.stringify({ name: 'coverage' }),
      type_schema: { filename: 'schema.json', content: JSON.stringify({ type: 'object' }) },
    });
    assert.ok(customType.status === 201 || customType.status === 200, customType.text);
    assert.equal(
      (await server.json('POST', `/api/v2/controls/${ORG}`, { identifier: 'ctl-1', name: 'Control' })).status,
      201,
    );
  });

  after(async () => {
    await client?.stop();
    await server?.stop();
  });

  const jsonBody = (method: string, path: string, text: string): Promise<Reply> =>
    server.raw(method, path, text, { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' });

  /** Whether the server stores the document; a 4xx that is not about the document itself fails the test. */
  async function serverAccepts(fixture: Fixture, index: number): Promise<boolean> {
    const kind = kindOf(fixture.path, fixture.text);
    // Only the status and the text are read, except a scan's refusal below.
    let reply: Reply<unknown>;
    if (kind === 'flow-template') {
      reply = await server.multipart('PUT', `/api/v2/flows/${ORG}/template_file`, {
        data_json: JSON.stringify({ name: `flow-${index}`, description: fixture.name }),
        template_file: { filename: 'template.yml', content: fixture.text },
      });
    } else if (kind === 'env-policy') {
      reply = await server.multipart('PUT', `/api/v2/policies/${ORG}`, {
        payload: JSON.stringify({ name: `policy-${index}` }),
        policy_file: { filename: 'policy.yml', content: fixture.text },
      });
    } else if (kind === 'scan-attestation') {
      // Its body is read only as a refusal's.
      const scan = await server.multipart<ErrorBody>(
        'POST',
        `/api/v2/attestations/${ORG}/${FLOW}/trail/${TRAIL}/scan`,
        { data_json: fixture.text },
      );
      // A valid document naming a fingerprint this trail lacks is refused for the trail's state, not the document's.
      if (scan.status === 404 || (scan.status === 400 && /does not exist in trail/.test(scan.body.message)))
        return true;
      reply = scan;
    } else {
      reply = await jsonBody('PUT', `/api/v2/environments/${ORG}/${envOf('K8S')}/report/K8S`, fixture.text);
    }
    assert.ok(
      [200, 201, 400].includes(reply.status),
      `${fixture.name}: the server answers ${reply.status} ${reply.text}`,
    );
    return reply.status !== 400;
  }

  it('on every golden fixture (the expression split aside)', async () => {
    const fixtures = loadFixtures();
    const cli = spawnSync(
      process.execPath,
      [join(repoRoot, 'dist', 'cli.js'), 'validate', ...fixtures.map((fixture) => fixture.path)],
      {
        cwd: repoRoot,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const cliErrors = new Map<string, string[]>();
    for (const line of cli.stdout.split('\n')) {
      const match = /^(.*):\d+:\d+: error (\S+) /.exec(line);
      if (match) cliErrors.set(match[1], [...(cliErrors.get(match[1]) ?? []), match[2]]);
    }
    let split = 0;
    for (const [index, fixture] of fixtures.entries()) {
      const uri = pathToFileURL(fixture.path).href;
      const published = client.nextPublish(uri);
      client.open(uri, fixture.path.endsWith('.json') ? 'json' : 'yaml', fixture.text);
      const editorErrors = (await published).diagnostics
        .filter((d) => (d.severity ?? 1) === 1)
        .map((d) => String(d.code));
      client.close(uri);
      const fromCli = cliErrors.get(fixture.path) ?? cliErrors.get(fixture.path.slice(repoRoot.length + 1)) ?? [];
      assert.deepEqual(
        fromCli.sort(),
        [...editorErrors].sort(),
        `${fixture.name}: cev validate's errors are the editor's`,
      );
      const uploadErrors = editorErrors.filter((code) => !evaluationTimeCodes.has(code));
      if (uploadErrors.length !== editorErrors.length) split++;
      assert.equal(
        await serverAccepts(fixture, index),
        uploadErrors.length === 0,
        `${fixture.name}: server verdict, editor errors ${editorErrors.join(', ') || 'none'}`,
      );
    }
    assert.ok(split >= 4, `the expression split is exercised (${split} fixtures)`);
  });

  it('on every payload the official CLI builds', async () => {
    for (const payload of loadCliPayloads()) {
      const text = JSON.stringify(payload.value);
      const reply =
        'report' in payload.target
          ? await jsonBody(
              'PUT',
              `/api/v2/environments/${ORG}/${envOf(payload.target.report)}/report/${payload.target.report}`,
              text,
            )
          : payload.target.attestation === 'override'
            ? await jsonBody('POST', `/api/v2/attestations/${ORG}/${FLOW}/trail/${TRAIL}/override`, text)
            : await server.multipart(
                'POST',
                `/api/v2/attestations/${ORG}/${FLOW}/trail/${TRAIL}/${payload.target.attestation}`,
                { data_json: text },
              );
      const accepted = reply.status === 200 || reply.status === 201;
      assert.ok(accepted || reply.status === 400, `${payload.name}: ${reply.status} ${reply.text}`);
      assert.equal(accepted, payload.accepted, `${payload.name}: ${reply.status} ${reply.text}`);
    }
  });
});
