// The detail views' markup, parsed by a real HTML parser (parse5, the one browsers' parsing rules
// are written down in): hostile text from every field a trail or attestation view shows comes out
// as text; the only script is ours with this load's nonce; no anchor, handler attribute, inline
// style or frame exists; every action carries a message the extension accepts.
import assert from 'node:assert/strict';
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { detailDocument } from '../../../client/details/render/document.ts';
import { attestationPage, missingAttestationPage } from '../../../client/details/render/attestationPage.ts';
import { PAGE_SIZE, type DetailPage } from '../../../client/details/render/parts.ts';
import { trailPage } from '../../../client/details/render/trailPage.ts';
import { messageFrom } from '../../../client/details/messages.ts';
import { attestationDisplay } from '../../../shared/display/attestation.ts';
import { trailDisplay } from '../../../shared/display/trail.ts';
import { artifactDisplay } from '../../../shared/display/artifact.ts';
import { environmentDisplay } from '../../../shared/display/environment.ts';
import { snapshotDisplay } from '../../../shared/display/snapshot.ts';
import { snapshotComparisonDisplay } from '../../../shared/display/snapshotComparison.ts';
import { artifactPage } from '../../../client/details/render/artifactPage.ts';
import { auditEntriesOf, environmentPage } from '../../../client/details/render/environmentPage.ts';
import { comparisonPage, snapshotPage } from '../../../client/details/render/snapshotPage.ts';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

const HOSTILE = [
  '<script>window.pwned=1</script>',
  '<img src=x onerror="window.pwned=1">',
  '"><svg onload=alert(1)>',
  "' onmouseover='window.pwned=1",
  '[click](javascript:window.pwned=1) ![x](https://evil.test/x.png)',
  '</pre></td></table><script>window.pwned=2</script>',
  '\u202Egnp.exe',
  'x'.repeat(3000),
].join(' | ');

const SOURCES = {
  cspSource: 'https://webview.test',
  nonce: 'n0nce+/=',
  styleUri: 'https://webview.test/details.css',
  scriptUri: 'https://webview.test/details.js',
};

function hostileTrail(): Record<string, unknown> {
  return {
    name: 'release-1',
    flow: { name: 'backend' },
    description: HOSTILE,
    created_by: HOSTILE,
    origin_url: 'javascript:window.pwned=1',
    external_urls: { [HOSTILE]: { href: 'javascript:window.pwned=1' }, build: 'https://ci.example.test/7' },
    git_commit_info: {
      sha1: 'a'.repeat(40),
      message: HOSTILE,
      author: HOSTILE,
      branch: HOSTILE,
      url: 'data:text/html,<script>1</script>',
    },
    user_data: { note: HOSTILE },
    compliance_state: 'NON-COMPLIANT',
    compliance_status: {
      attestations_statuses: [
        {
          attestation_name: 'scan',
          attestation_type: 'scan',
          attestation_id: 'id-1',
          is_compliant: false,
          status: 'COMPLETE',
        },
        { attestation_name: 'review', attestation_type: 'pull_request', status: 'MISSING' },
      ],
      artifacts_statuses: {
        [HOSTILE]: { artifact_fingerprint: 'f'.repeat(64), status: 'NON-COMPLIANT', attestations_statuses: [] },
      },
    },
    events: Array.from({ length: PAGE_SIZE + 3 }, (_, index) => ({
      type: 'trail_started',
      timestamp: 1_700_000_000 + index,
      note: HOSTILE,
    })),
  };
}

function hostileAttestation(): Record<string, unknown> {
  return {
    attestation_id: 'id-1',
    attestation_name: 'scan',
    attestation_type: 'scan',
    flow_name: 'backend',
    trail_name: 'release-1',
    is_compliant: false,
    description: HOSTILE,
    reported_by: HOSTILE,
    origin_url: 'javascript:window.pwned=1',
    external_urls: { report: { href: 'https://scanner.example.test/r/1' }, [HOSTILE]: 'vbscript:x' },
    annotations: { why: HOSTILE },
    user_data: { note: HOSTILE },
    evidence_archive_path: `evidence/${HOSTILE}`,
    scan_results: {
      qualityGate: {
        status: HOSTILE,
        conditions: [{ metric: HOSTILE, status: 'ERROR', actualValue: HOSTILE, comparator: 'GT', errorThreshold: '0' }],
      },
    },
  };
}

function elements(node: Node): Element[] {
  const found: Element[] = [];
  const visit = (current: Node) => {
    if ('tagName' in current) found.push(current);
    if ('childNodes' in current) current.childNodes.forEach(visit);
    if ('content' in current && current.content) visit(current.content);
  };
  visit(node);
  return found;
}

function textOf(node: Node): string {
  if (node.nodeName === '#text') return (node as DefaultTreeAdapterMap['textNode']).value;
  return 'childNodes' in node ? node.childNodes.map(textOf).join('') : '';
}

function attribute(element: Element, name: string): string | undefined {
  return element.attrs.find((attr) => attr.name === name)?.value;
}

/** Parses the page and checks every safety property; returns the parsed body's text. */
function assertSafe(kind: string, page: DetailPage, allowed: readonly string[] = []): string {
  const document = parse(detailDocument(kind, page.title, page.body, SOURCES));
  const all = elements(document);
  const scripts = all.filter((element) => element.tagName === 'script');
  assert.equal(scripts.length, 1, 'only the extension script');
  assert.equal(attribute(scripts[0], 'src'), SOURCES.scriptUri);
  assert.equal(attribute(scripts[0], 'nonce'), SOURCES.nonce);
  assert.equal(textOf(scripts[0]), '');
  for (const element of all) {
    const forbidden = [
      'a',
      'img',
      'iframe',
      'object',
      'embed',
      'form',
      'style',
      'svg',
      'base',
      'link',
      'foreignObject',
      'use',
      'image',
    ].filter((tag) => !allowed.includes(tag));
    assert.ok(
      !forbidden.includes(element.tagName) ||
        (element.tagName === 'link' && attribute(element, 'href') === SOURCES.styleUri),
      `no <${element.tagName}>`,
    );
    for (const attr of element.attrs)
      assert.doesNotMatch(attr.value, /^\s*javascript:/i, `no javascript: in ${attr.name}`);
    for (const attr of element.attrs) {
      assert.doesNotMatch(attr.name, /^on/i, `no handler attribute ${attr.name} on <${element.tagName}>`);
      assert.notEqual(attr.name, 'style', 'no inline style');
    }
    const message = attribute(element, 'data-message');
    if (message !== undefined) {
      assert.equal(element.tagName, 'button');
      assert.ok(messageFrom(JSON.parse(message)), `an accepted message: ${message.slice(0, 120)}`);
    }
  }
  const csp = all.find(
    (element) => element.tagName === 'meta' && attribute(element, 'http-equiv') === 'Content-Security-Policy',
  );
  assert.ok(csp, 'a CSP meta element');
  assert.equal(
    attribute(csp, 'content'),
    `default-src 'none'; style-src https://webview.test; img-src https://webview.test; font-src https://webview.test; script-src 'nonce-n0nce+/='; base-uri 'none'; form-action 'none'; object-src 'none'`,
  );
  const body = all.find((element) => element.tagName === 'body')!;
  return textOf(body);
}

function externalUrlsIn(page: DetailPage): string[] {
  const document = parse(detailDocument('x', page.title, page.body, SOURCES));
  return elements(document)
    .map((element) => attribute(element, 'data-message'))
    .filter((message): message is string => message !== undefined)
    .map((message) => JSON.parse(message) as { type: string; url?: string })
    .filter((message) => message.type === 'external')
    .map((message) => message.url!);
}

describe('detail view markup', () => {
  it('shows every hostile trail field as text, with the only links http(s) and the views', () => {
    const page = trailPage(trailDisplay(hostileTrail()), {});
    const text = assertSafe('trail', page);
    assert.ok(
      text.split(HOSTILE).length - 1 >= 6,
      'description, creator, commit message, author, branch, artifact, user data shown as text',
    );
    assert.ok(text.includes('javascript:window.pwned=1'), 'a javascript: origin is shown as text');
    assert.deepEqual(externalUrlsIn(page), ['https://ci.example.test/7']);
  });

  it('pages long lists: the first page of events, and a pager that names the next', () => {
    const first = trailPage(trailDisplay(hostileTrail()), {});
    assert.equal(first.lists.events, 2);
    assert.match(assertSafe('trail', first), new RegExp(`Rows 1–${PAGE_SIZE} of ${PAGE_SIZE + 3} \\(page 1 of 2\\)`));
    const second = trailPage(trailDisplay(hostileTrail()), { events: 2 });
    assert.match(assertSafe('trail', second), new RegExp(`Rows ${PAGE_SIZE + 1}–${PAGE_SIZE + 3} of ${PAGE_SIZE + 3}`));
  });

  it('shows every hostile attestation field as text, its evidence with Open and Save', () => {
    const page = attestationPage(attestationDisplay(hostileAttestation()), {});
    const text = assertSafe('attestation', page);
    assert.ok(
      text.split(HOSTILE).length - 1 >= 6,
      'description, reporter, gate, condition, annotations, user data, evidence name as text',
    );
    assert.match(text, /Open evidence/);
    assert.match(text, /Save evidence/);
    assert.deepEqual(externalUrlsIn(page), ['https://scanner.example.test/r/1']);
  });

  it('says why a slot is missing instead of failing', () => {
    const trail = trailDisplay(hostileTrail());
    const page = missingAttestationPage(
      'backend',
      'release-1',
      'review',
      trail.slots.find((slot) => slot.name === 'review'),
    );
    assert.match(
      assertSafe('attestation', page),
      /MISSING.*no pull_request attestation named review has been reported/s,
    );
  });

  it('gives a page with nothing to press no script at all', () => {
    const document = detailDocument('trail', 'T', trailPage(trailDisplay({ name: 'quiet' }), {}).body, SOURCES);
    assert.ok(!document.includes('<script'), 'no script element');
    assert.match(document, /script-src &#39;none&#39;/);
  });

  it('shows a hostile artifact, snapshot and comparison as text', () => {
    const evil = {
      name: HOSTILE,
      fingerprint: 'c'.repeat(64),
      compliant: false,
      annotation: { type: 'started', was: 0, now: 1 },
      pods: { [HOSTILE]: { namespace: HOSTILE } },
      reasons_for_incompliance: [HOSTILE],
      flows: [],
    };
    const snapshot = snapshotPage(
      snapshotDisplay('prod', {
        index: 2,
        is_latest: true,
        compliant: false,
        artifacts: [evil],
        applied_policies: [{ name: HOSTILE, version: 1, failing_artifacts: [HOSTILE] }],
      }),
      {},
    );
    assert.ok(assertSafe('snapshot', snapshot).split(HOSTILE).length - 1 >= 5);
    const artifact = artifactPage(
      artifactDisplay({
        filename: HOSTILE,
        fingerprint: 'c'.repeat(64),
        flow_name: 'backend',
        trail_name: 'release-1',
        state: 'NON-COMPLIANT',
        build_url: 'javascript:window.pwned=1',
        commit_url: 'https://git.example.test/c/1',
        git_commit_info: { sha1: '1'.repeat(40), message: HOSTILE },
        running: [{ environment_name: 'prod', snapshot_index: 2 }],
        annotations: { note: HOSTILE },
      }),
      {},
    );
    assert.ok(
      assertSafe('artifact', artifact).split(HOSTILE).length - 1 >= 2,
      'file name and commit message (annotations are JSON, quotes escaped)',
    );
    assert.deepEqual(externalUrlsIn(artifact), ['https://git.example.test/c/1']);
    const comparison = comparisonPage(
      snapshotComparisonDisplay({
        snappish1: { snapshot_id: 'prod#1', artifacts: [] },
        snappish2: {
          snapshot_id: 'prod#2',
          artifacts: [
            {
              name: HOSTILE,
              fingerprint: 'c'.repeat(64),
              flow: HOSTILE,
              instance_count: 1,
              commit_url: 'javascript:x',
            },
          ],
        },
        changed: { artifacts: [] },
        'not-changed': { artifacts: [] },
      }),
      {},
    );
    assert.ok(assertSafe('compare', comparison).split(HOSTILE).length - 1 >= 2);
  });

  it('embeds the shared chart in the environment view, with the audit log as text', () => {
    const snapshots = [1, 2].map((index) => ({
      index,
      timestamp: 1_767_225_600 + index,
      compliant: index === 2,
      artifact_compliance_count: { true: index, false: 1, null: 0 },
    }));
    const audit = auditEntriesOf([
      {
        type: 'started',
        reported_at: 1_767_225_601,
        snapshot_index: 2,
        artifact_name: HOSTILE,
        sha256: 'c'.repeat(64),
        description: HOSTILE,
      },
      { type: 'exited', snapshot_index: 0 },
    ]);
    const page = environmentPage(
      environmentDisplay(
        { name: 'prod', type: 'K8S', description: HOSTILE, policies: [HOSTILE], state: true },
        snapshots,
      ),
      audit,
      {},
    );
    const text = assertSafe('environment', page, ['svg']);
    assert.ok(text.split(HOSTILE).length - 1 >= 4, 'description, policy, artifact and description of the audit entry');
    const document = parse(detailDocument('environment', page.title, page.body, SOURCES));
    const bars = elements(document).filter(
      (element) => element.tagName === 'g' && attribute(element, 'class') === 'snapshot',
    );
    assert.deepEqual(
      bars.map((bar) => attribute(bar, 'data-compliant')),
      ['1', '2'],
    );
    assert.equal(audit[1].snapshot, null, 'no link to a snapshot #0');
  });
});
