// Template impact preview at scale (issue 13): POST /flows/{org}/{flow}/template-impact on a flow
// of 10,000 trails (each with an artifact, a trail-level and an artifact-level attestation, a
// third of them non-compliant), against reading one page of the same flow's trail list (100
// trails per page, each page read once so no answer comes from the server's page cache), measured
// in the same run. Target: the impact answers within 1 s (median). The policy dry-run on a
// snapshot of 100 running artifacts is printed beside it.
// The trails are copied in SQL from rows the API wrote (seconds, not minutes of requests).
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { fetch } from 'undici';
import { startServer, type TestServer } from '../api/harness.ts';
import {
  attest,
  attestArtifact,
  beginTrail,
  commit,
  createFlow,
  fingerprint,
  WORKED_TEMPLATE,
} from '../api/fixtures.ts';
import { median } from './stats.ts';
import type { TemplateImpact } from '../api/answers.ts';

const TRAILS = Number(process.env.CEV_BENCH_IMPACT_TRAILS ?? 10_000);
const RUNS = 15;
const TARGET_MS = 1000;
/** The flow's template with one more trail-level slot: every trail gains a missing attestation. */
const EDITED = WORKED_TEMPLATE.replace('  artifacts:', '    - name: risk\n      type: generic\n  artifacts:');
const POLICY =
  '_schema: https://compliance-evidence.dev/schemas/policy/environment/v1\nartifacts:\n  provenance:\n    required: true\n  trail-compliance:\n    required: true\n';

/** The rows every seeded trail copies, written by the API. */
async function writeTemplates(server: TestServer): Promise<void> {
  await createFlow(server, 'acme', 'backend', WORKED_TEMPLATE);
  await beginTrail(server, 'acme', 'backend', 'template-trail');
  await attestArtifact(server, 'acme', 'backend', {
    fingerprint: fingerprint('seed'),
    filename: 'cli',
    git_commit: commit('seed'),
    trail_name: 'template-trail',
    template_reference_name: 'cli',
  });
  for (const [name, extra] of [
    ['bar', {}],
    ['foo', { target_artifacts: ['cli'], artifact_fingerprint: fingerprint('seed') }],
  ] as const) {
    const reply = await attest(server, 'acme', 'backend', 'template-trail', 'generic', {
      attestation_name: name,
      ...extra,
    });
    if (reply.status !== 201) throw new Error(`seed attestation ${name}: ${reply.status} ${reply.text}`);
  }
}

function seed(dataDir: string, count: number): void {
  const db = new DatabaseSync(join(dataDir, 'cev.sqlite'));
  db.exec('PRAGMA synchronous = OFF');
  const series = 'WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)';
  db.exec('BEGIN');
  db.prepare(
    `${series} INSERT INTO trails (id, org_id, flow_id, name, description, template_id, template_content, template, body, created_by, created_at, last_modified_at)
     SELECT 'trail-' || i, s.org_id, s.flow_id, 'trail-' || i, s.description, s.template_id, s.template_content, s.template, s.body, s.created_by, s.created_at + i, s.created_at + i
       FROM n, (SELECT * FROM trails WHERE name = 'template-trail') s`,
  ).run(count);
  db.prepare(
    `${series} INSERT INTO artifacts (id, org_id, flow_id, trail_id, fingerprint, template_reference_name, filename, git_commit, repo_name, body, created_at, last_modified_at)
     SELECT 'artifact-' || i, s.org_id, s.flow_id, 'trail-' || i, lower(hex(randomblob(32))), s.template_reference_name, s.filename, s.git_commit, s.repo_name, s.body, s.created_at + i, s.created_at + i
       FROM n, (SELECT * FROM artifacts WHERE trail_id = (SELECT id FROM trails WHERE name = 'template-trail')) s`,
  ).run(count);
  // A third of the trails carry a failed trail-level attestation.
  db.prepare(
    `${series} INSERT INTO attestations (id, org_id, flow_id, trail_id, name, type, is_override, is_compliant, artifact_fingerprint, target_artifact,
                                         evidence_sha256, evidence_filename, body, reported_by, created_at)
     SELECT 'attestation-' || s.name || '-' || i, s.org_id, s.flow_id, 'trail-' || i, s.name, s.type, s.is_override,
            CASE WHEN s.name = 'bar' AND i % 3 = 0 THEN 0 ELSE s.is_compliant END, NULL, s.target_artifact, NULL, NULL, s.body, s.reported_by, s.created_at + i
       FROM n, (SELECT * FROM attestations WHERE trail_id = (SELECT id FROM trails WHERE name = 'template-trail')) s`,
  ).run(count);
  db.exec('COMMIT');
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.exec('ANALYZE');
  db.close();
}

/** Milliseconds until the whole answer of a request has arrived. */
async function timedRequest(server: TestServer, method: 'GET' | 'POST', path: string, body?: unknown): Promise<number> {
  const start = performance.now();
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${server.key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const ms = performance.now() - start;
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  return ms;
}

async function main(): Promise<void> {
  const seeding = await startServer({ args: ['--org', 'acme'] });
  await writeTemplates(seeding);
  const dataDir = seeding.dataDir;
  await seeding.stop({ keepData: true });
  const seedStart = performance.now();
  seed(dataDir, TRAILS - 1);
  console.log(`seeded ${TRAILS} trails in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

  const server = await startServer({ args: ['--org', 'acme'], dataDir });
  try {
    const impactPath = '/api/v2/flows/acme/backend/template-impact';
    // The first answer warms the server up and is checked; the timed runs follow.
    const warmed = await server.json<TemplateImpact>('POST', impactPath, { template: EDITED });
    if (warmed.status !== 200) throw new Error(`POST ${impactPath}: ${warmed.status} ${warmed.text.slice(0, 300)}`);
    const warm = warmed.body;
    if (warm.trails !== TRAILS) throw new Error(`the impact evaluated ${warm.trails} trails, not ${TRAILS}`);
    const transitions = warm.transitions.map((t) => `${t.before}→${t.after} ${t.count}`).join(', ');
    console.log(`impact answer: ${transitions}; ${warm.changed_total} changed, ${warm.changed.length} listed`);

    const impact: number[] = [];
    const pages: number[] = [];
    // Alternating, so the machine's load weighs on both alike; every list page is a first read.
    for (let run = 0; run < RUNS; run++) {
      pages.push(await timedRequest(server, 'GET', `/api/v2/trails/acme/backend?page=${run + 1}&per_page=100`));
      impact.push(await timedRequest(server, 'POST', impactPath, { template: EDITED }));
    }
    const impactMs = median(impact);
    const pageMs = median(pages);
    const within = impactMs <= TARGET_MS;
    console.log(
      `template impact, ${TRAILS} trails: ${impactMs.toFixed(1)} ms median (max ${Math.max(...impact).toFixed(1)} ms)` +
        ` vs one trail list page of 100: ${pageMs.toFixed(1)} ms → ${(impactMs / pageMs).toFixed(1)}×;` +
        ` ${((impactMs / TRAILS) * 1000).toFixed(1)} µs per trail  ${within ? 'ok' : 'MISSED'} (target ≤ ${TARGET_MS} ms)`,
    );

    await server.json('PUT', '/api/v2/environments/acme', { name: 'prod', type: 'K8S', description: 'production' });
    const db = new DatabaseSync(join(dataDir, 'cev.sqlite'), { readOnly: true });
    const running = db
      .prepare("SELECT fingerprint FROM artifacts WHERE id LIKE 'artifact-%' LIMIT 100")
      .all() as Array<{ fingerprint: string }>;
    db.close();
    const pods = running.map((row, index) => ({
      podName: `pod-${index}`,
      namespace: 'prod',
      creationTimestamp: 1700000000,
      digests: { [`reg/app-${index}:1`]: row.fingerprint },
      owners: [],
    }));
    await server.json('PUT', '/api/v2/environments/acme/prod/report/K8S', { artifacts: pods });
    const dryRuns: number[] = [];
    const snapshots: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      snapshots.push(await timedRequest(server, 'GET', '/api/v2/snapshots/acme/prod/-1'));
      dryRuns.push(
        await timedRequest(server, 'POST', '/api/v2/environments/acme/prod/policy-dry-run', { policy: POLICY }),
      );
    }
    const dryRunMs = median(dryRuns);
    const snapshotMs = median(snapshots);
    console.log(
      `policy dry-run, 100 running artifacts: ${dryRunMs.toFixed(1)} ms median vs reading the latest snapshot: ${snapshotMs.toFixed(1)} ms → ${(dryRunMs / snapshotMs).toFixed(1)}×`,
    );
    if (!within) process.exitCode = 1;
  } finally {
    await server.stop();
  }
}

await main();
