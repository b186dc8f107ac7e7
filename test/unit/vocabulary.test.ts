// One compliance vocabulary (shared/compliance/vocabulary.ts) and every face that shows it: the
// server's pages, the VS Code tree and detail views, the audit log CSV. A snapshot no policy judged
// is `compliant: false` on the wire (reference §4.4) and NO POLICY, grey, on every face.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import {
  SHOWN_STATES,
  artifactVerdict,
  attestationVerdict,
  countsText,
  environmentVerdict,
  listedSnapshotVerdict,
  runningArtifactVerdict,
  snapshotVerdict,
  trailVerdict,
  type ShownState,
  type StateColour,
} from '../../shared/compliance/vocabulary.ts';
import { environmentDisplay } from '../../shared/display/environment.ts';
import { snapshotDisplay } from '../../shared/display/snapshot.ts';
import { status as pageStatus, verdictLine as pageVerdictLine } from '../../server/api/http/pages/markup.ts';
import { STYLESHEET } from '../../server/api/http/pages/stylesheet.ts';
import { complianceWordsOf } from '../../server/api/views/auditLogCsv.ts';
import { snapshotPage } from '../../client/details/render/snapshotPage.ts';
import { environmentPage } from '../../client/details/render/environmentPage.ts';
import { status as viewStatus } from '../../client/details/render/parts.ts';
import { STATE_THEME_COLOURS } from '../../client/tree/nodes.ts';
import { environmentNodes, snapshotArtifactNodes } from '../../client/tree/environmentModel.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const COLOURS: StateColour[] = ['passed', 'failed', 'pending', 'neutral'];
const counts = fc.record({ compliant: fc.nat(50), nonCompliant: fc.nat(50), unknown: fc.nat(50) });

/** The quickstart's production before a policy: one artifact, no policy, `compliant: false` on the wire. */
const UNJUDGED_SNAPSHOT = {
  index: 1,
  is_latest: true,
  timestamp: 1_700_000_000,
  compliant: false,
  artifact_compliance_count: { true: 0, false: 0, null: 1 },
  applied_policies: [],
  artifacts: [
    { name: 'shop:1.0', fingerprint: 'a'.repeat(64), compliant: null, annotation: { type: 'started', was: 0, now: 1 } },
  ],
};

describe('the compliance vocabulary', () => {
  it('gives every state one word, a colour token and a meaning; only NON-COMPLIANT is red', () => {
    const states = Object.keys(SHOWN_STATES) as ShownState[];
    assert.deepEqual(states, [
      'COMPLIANT',
      'NON-COMPLIANT',
      'INCOMPLETE',
      'MISSING',
      'NO POLICY',
      'NOT REPORTED',
      'UNKNOWN',
    ]);
    for (const state of states) {
      assert.ok(COLOURS.includes(SHOWN_STATES[state].colour), state);
      assert.match(SHOWN_STATES[state].meaning, /^[A-Z].*\.$/, `${state}: one sentence`);
    }
    assert.deepEqual(
      states.filter((state) => SHOWN_STATES[state].colour === 'failed'),
      ['NON-COMPLIANT'],
    );
  });

  it('never calls a snapshot no policy judged NON-COMPLIANT, whatever the wire says (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(true, false, null), counts, (compliant, shown) => {
        const verdict = snapshotVerdict(compliant, 0, shown);
        assert.equal(verdict.state, 'NO POLICY');
        assert.equal(verdict.colour, 'neutral');
        assert.doesNotMatch(countsText(shown, false), /non-compliant/);
      }),
    );
  });

  it('says why a judged snapshot is what it is, with its counts', () => {
    assert.deepEqual(snapshotVerdict(false, 1, { compliant: 2, nonCompliant: 1, unknown: 0 }), {
      state: 'NON-COMPLIANT',
      colour: 'failed',
      reason: '1 of 3 running artifacts fails the attached policies.',
    });
    assert.equal(
      snapshotVerdict(true, 2, { compliant: 3, nonCompliant: 0, unknown: 0 }).reason,
      'All 3 running artifacts meet the attached policies.',
    );
    assert.equal(
      snapshotVerdict(true, 1, { compliant: 0, nonCompliant: 0, unknown: 0 }).reason,
      'Nothing runs, so nothing fails the attached policies.',
    );
    assert.equal(
      snapshotVerdict(false, 0, { compliant: 0, nonCompliant: 0, unknown: 1 }).reason,
      'No policy is attached to the environment, so its 1 running artifact is not judged.',
    );
    assert.equal(
      countsText({ compliant: 0, nonCompliant: 0, unknown: 1 }, false),
      '1 running artifact, not judged (no policy)',
    );
  });

  it('tells an environment without a policy from one without a report', () => {
    assert.equal(environmentVerdict(null, 0, 3).state, 'NO POLICY');
    assert.equal(environmentVerdict(null, 1, 0).state, 'NOT REPORTED');
    assert.equal(environmentVerdict(null, 1, 2).state, 'UNKNOWN');
    const latest = snapshotVerdict(false, 1, { compliant: 0, nonCompliant: 1, unknown: 0 });
    assert.deepEqual(environmentVerdict(false, 1, 2, latest), {
      state: 'NON-COMPLIANT',
      colour: 'failed',
      reason: 'Latest snapshot: 1 of 1 running artifact fails the attached policies.',
    });
    assert.equal(environmentVerdict(true, 1, 2).reason, 'Latest snapshot: It meets the attached policies.');
  });

  it('reads trails, artifacts, attestations and listed snapshots in the same words', () => {
    assert.deepEqual(
      ['COMPLIANT', 'NON-COMPLIANT', 'INCOMPLETE', 'ODD', null].map((state) => trailVerdict(state).state),
      ['COMPLIANT', 'NON-COMPLIANT', 'INCOMPLETE', 'UNKNOWN', 'UNKNOWN'],
    );
    assert.equal(trailVerdict('INCOMPLETE').colour, 'pending');
    assert.match(artifactVerdict('COMPLIANT').reason, /trail it was attested in/);
    assert.deepEqual(
      [attestationVerdict(true).state, attestationVerdict(false).state, attestationVerdict(undefined).state],
      ['COMPLIANT', 'NON-COMPLIANT', 'UNKNOWN'],
    );
    assert.equal(listedSnapshotVerdict(false, false).state, 'NO POLICY');
    assert.equal(listedSnapshotVerdict(false, true).state, 'NON-COMPLIANT');
    assert.equal(runningArtifactVerdict(false, true, ['no provenance']).reason, 'no provenance');
    assert.equal(runningArtifactVerdict(null, false, []).state, 'NO POLICY');
  });
});

describe('every face shows the vocabulary', () => {
  it('the pages: the word in its colour, its reason on hover, and a stylesheet rule per colour in both themes', () => {
    const verdict = snapshotVerdict(false, 0, { compliant: 0, nonCompliant: 0, unknown: 1 });
    assert.equal(
      pageStatus(verdict).text,
      `<strong class="status neutral" title="${verdict.reason}">NO POLICY</strong>`,
    );
    assert.match(
      pageVerdictLine(verdict).text,
      /^<p class="verdict neutral"><strong [^>]+>NO POLICY<\/strong> <span>No policy/,
    );
    for (const colour of COLOURS) {
      assert.match(STYLESHEET, new RegExp(`\\.status\\.${colour} \\{ color: var\\(--${colour}\\); \\}`), colour);
      assert.equal(STYLESHEET.match(new RegExp(`--${colour}: #`, 'g'))?.length, 2, `${colour} light and dark`);
    }
  });

  it('the detail views and the tree: each colour token is one theme colour, in details.css and the icons', () => {
    const css = readFileSync(join(root, 'client', 'details', 'webview', 'details.css'), 'utf8');
    assert.deepEqual(Object.keys(STATE_THEME_COLOURS), COLOURS);
    for (const colour of COLOURS) {
      const variable = `--vscode-${STATE_THEME_COLOURS[colour].replaceAll('.', '-')}`;
      assert.ok(css.includes(`.status.${colour} {\n  color: var(${variable});\n}`), `${colour} -> ${variable}`);
    }
    assert.match(viewStatus(trailVerdict('INCOMPLETE')).text, /class="status pending"[^>]*>INCOMPLETE</);
  });

  it('a snapshot no policy judged: NO POLICY at the top of the view, and no NON-COMPLIANT anywhere', () => {
    const display = snapshotDisplay('production', UNJUDGED_SNAPSHOT);
    assert.equal(display.compliance.state, 'NO POLICY');
    assert.equal(display.countsText, '1 running artifact, not judged (no policy)');
    assert.deepEqual(
      display.running.map((artifact) => artifact.compliance.state),
      ['NO POLICY'],
    );
    const { body } = snapshotPage(display, {});
    assert.doesNotMatch(body.text, /NON-COMPLIANT|non-compliant/);
    const verdictAt = body.text.indexOf('class="verdict neutral"');
    assert.ok(verdictAt > 0 && verdictAt < body.text.indexOf('<table'), 'the reason comes before the first table');

    const environment = environmentDisplay(
      { name: 'production', type: 'K8S', state: null, policies: [], snapshot_count: 1 },
      [UNJUDGED_SNAPSHOT],
    );
    assert.equal(environment.compliance.state, 'NO POLICY');
    assert.equal(environment.snapshots[0].compliance.state, 'NO POLICY');
    assert.doesNotMatch(environmentPage(environment, [], {}).body.text, /NON-COMPLIANT/);

    const [node] = environmentNodes([
      { name: 'production', type: 'K8S', state: null, policies: [], snapshot_count: 1 },
    ]);
    assert.equal(node.compliance, 'NO POLICY');
    assert.deepEqual(
      snapshotArtifactNodes('production', UNJUDGED_SNAPSHOT).map((artifact) => artifact.compliance),
      ['NO POLICY'],
    );
    assert.deepEqual(complianceWordsOf({ artifact_compliant: null, snapshot_compliant: false }), {
      snapshot: 'NO POLICY',
      artifact: 'NO POLICY',
    });
  });
});
