// What the shared limits (shared/limits.ts, issue 23) cost at their edge, to watch as the code
// changes: reading and checking a template at the size limit in its worst shapes (the evaluation
// threads pay it, within their budget), against a realistic template of the same size read in the
// same run; and, on the running server, a K8S report of 500 artifacts under a policy just within
// the limit of rule checks, which is evaluated and stored on the event loop: how long it takes and
// how long /ready waits meanwhile (targets: each shape ≤ 5× the realistic text; the report
// ≤ 600 ms and /ready ≤ 600 ms, medians).
import { request } from 'undici';
import { limits } from '../../shared/limits.ts';
import { validateText } from '../../shared/validate.ts';
import { createEnvironment, fingerprint } from '../api/fixtures.ts';
import { startServer } from '../api/harness.ts';
import { rulesPolicy } from '../security/documents.ts';
import { whileProbingReady } from '../security/probes.ts';
import { flowTemplateLines } from './flowTemplateText.ts';
import { median, medianMs, report, reportAtMost } from './stats.ts';

const size = limits.documentChars - 64;
const fill = (unit: (i: number) => string, head: string): string => {
  const parts = [head];
  let length = head.length;
  for (let i = 0; length < size; i++) {
    const part = unit(i);
    parts.push(part);
    length += part.length;
  }
  return parts.join('').slice(0, size);
};

const shapes: Record<string, string> = {
  'unknown keys in one map': fill((i) => `  k${i}: ${i}\n`, 'version: 1\ntrail:\n'),
  'flow keys in one map': `${fill((i) => `k${i}: 1, `, 'version: 1\ntrail: {')}}`,
  'unclosed quotes': fill(() => '"\n\'\n', ''),
  '100 aliases of thousands of anchors': ((aliases: string) =>
    fill((i) => `    - &a${i} {name: slot-${i}, type: generic}\n`, 'version: 1\ntrail:\n  attestations:\n').slice(
      0,
      size - aliases.length,
    ) + aliases)(
    `\n  artifacts:\n    - name: app\n      attestations:\n${Array.from({ length: 100 }, (_, i) => `        - *a${i}`).join('\n')}\n`,
  ),
  'nesting at the limit': `version: 1\ntrail: ${'['.repeat(limits.yamlDepth - 1)}${']'.repeat(limits.yamlDepth - 1)}\n`,
};

const realistic = flowTemplateLines(100_000).join('\n').slice(0, size);
const baseline = await medianMs(() => validateText('flow-template', realistic), 9, 2);
let ok = true;
for (const [shape, text] of Object.entries(shapes)) {
  const ms = await medianMs(() => validateText('flow-template', text), 9, 2);
  ok = report(`read and check 256 KB, ${shape}`, ms, baseline, 'ms', { max: 5 }) && ok;
}

const server = await startServer();
try {
  await createEnvironment(server, 'default', 'prod');
  const upload = await server.multipart('PUT', '/api/v2/policies/default', {
    payload: JSON.stringify({ name: 'many-rules', description: '', type: 'env' }),
    // 39 rules and provenance on 500 artifacts: 20,000 rule checks, the limit.
    policy_file: { filename: 'policy.yml', content: rulesPolicy(39) },
  });
  if (upload.status !== 201) throw new Error(`policy upload: ${upload.status} ${upload.text}`);
  await server.json('POST', '/api/v2/environments/default/prod/policies', { policy_names: ['many-rules'] });
  const times: number[] = [];
  const ready: number[] = [];
  for (let run = 0; run < 8; run++) {
    // Every other report moves one pod to another image, so each one records a snapshot.
    const artifacts = Array.from({ length: 500 }, (_, i) => ({
      podName: `pod-${i}`,
      namespace: 'prod',
      creationTimestamp: 1700000000,
      digests: { [`reg/app-${i}:1`]: fingerprint(`app-${i}-${i === 0 ? run % 2 : 0}`) },
      owners: [],
    }));
    const body = JSON.stringify({ artifacts });
    const measured = await whileProbingReady(server.url, async () => {
      const reply = await request(`${server.url}/api/v2/environments/default/prod/report/K8S`, {
        method: 'PUT',
        body,
        headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
      });
      await reply.body.text();
      return reply.statusCode;
    });
    if (measured.result !== 200 && measured.result !== 201) throw new Error(`report: ${measured.result}`);
    times.push(measured.ms);
    ready.push(measured.readyMs);
  }
  ok = reportAtMost('report of 500 artifacts at 20,000 rule checks', median(times), 'ms', 600) && ok;
  ok = reportAtMost('  /ready meanwhile, slowest answer', median(ready), 'ms', 600) && ok;
} finally {
  await server.stop();
}
process.exitCode = ok ? 0 : 1;
