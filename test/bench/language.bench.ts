// Keystroke to squiggle, side by side with yaml-language-server 2.x on the same flow template:
// the median time from `didChange` to the matching `publishDiagnostics` over 50 edits that
// alternate a valid and a one-error variant, on 200 and 2,000 lines (997 slots: the largest
// template within the shared limit of 1,000). Two comparisons:
//   - as shipped: our default settings (the pause follows each document's check cost) against its
//     fixed 200 ms delay (targets ≤ 0.1× and ≤ 15 ms);
//   - engine against engine: both delays 0 (targets ≤ 0.5× on 200 lines, ≤ 0.75× on 2,000).
// Its publishes carry no version, so the next edit is sent only after the previous publish, and a
// publish is matched by content (no diagnostics for the valid variant, some for the other). Both
// servers of a comparison run at once and take turns in blocks of edits, so load on this shared
// machine falls on both alike.
// Then typing as people type, ours as shipped on 2,000 lines: bursts of 20 keystrokes 30 ms apart;
// each burst must end with exactly one publish of its last version, no publish may follow a newer
// version's, and the median time from the last keystroke to its publish must be ≤ 15 ms.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot, startClient, type LspClient } from '../language/lspClient.ts';
import { schemas } from '../../shared/schemas/index.ts';
import { flowTemplateLines, LARGE } from './flowTemplateText.ts';
import { median, report, reportAtMost } from './stats.ts';

const measuredEdits = 50;
const warmupEdits = 10;
const blockEdits = 5;
const burstKeystrokes = 20;
const keystrokeGapMs = 30;
const measuredBursts = 10;
const warmupBursts = 2;

interface Variant {
  text: string;
  /** The line whose value alternates, and where that value starts. */
  line: number;
  character: number;
  valid: string;
  broken: string;
}

/** The benchmarks' flow template of `lines` lines, with a unit-test type past its middle to edit. */
function editableTemplate(lines: number): Variant {
  const out = flowTemplateLines(lines);
  const line = out.findIndex((text, index) => index > out.length / 2 && text === '          type: junit');
  return {
    text: `${out.join('\n')}\n`,
    line,
    character: '          type: '.length,
    valid: 'junit',
    broken: 'junit-test',
  };
}

interface Server {
  start: () => LspClient;
  /** Settings sent after `initialized`, when the server reads them by pulling. */
  configure?: (client: LspClient) => Promise<void>;
}

/** A server with the template open in its broken variant, ready to time edits. */
interface Session {
  client: LspClient;
  current: string;
  version: number;
  samples: number[];
}

async function openSession(server: Server, variant: Variant, uri: string): Promise<Session> {
  const client = server.start();
  await client.initialize();
  await server.configure?.(client);
  const lines = variant.text.split('\n');
  lines[variant.line] = lines[variant.line].slice(0, variant.character) + variant.broken;
  // Opening the broken variant and waiting for its problems proves the schema is in force.
  const opened = client.nextPublish(uri, (publish) => publish.diagnostics.length > 0, 60_000);
  client.open(uri, 'yaml', lines.join('\n'));
  await opened;
  return { client, current: variant.broken, version: 1, samples: [] };
}

/** One edit to the other variant; the time from didChange to the publish that matches it. */
async function timedEdit(session: Session, variant: Variant, uri: string): Promise<number> {
  const next = session.current === variant.broken ? variant.valid : variant.broken;
  const published = session.client.nextPublish(
    uri,
    (publish) => (publish.diagnostics.length === 0) === (next === variant.valid),
    30_000,
  );
  const start = performance.now();
  void session.client.connection.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: ++session.version },
    contentChanges: [
      {
        range: {
          start: { line: variant.line, character: variant.character },
          end: { line: variant.line, character: variant.character + session.current.length },
        },
        text: next,
      },
    ],
  });
  await published;
  session.current = next;
  return performance.now() - start;
}

/**
 * Median keystroke-to-squiggle of two servers on the same template. They take turns in blocks of
 * edits, so both meet the same load on this shared machine; the first edit of a block is not
 * counted, so work one server left running (its garbage collection) does not land on the other.
 */
async function sideBySideMs(ours: Server, theirs: Server, variant: Variant, uri: string): Promise<[number, number]> {
  const sessions = [await openSession(ours, variant, uri), await openSession(theirs, variant, uri)];
  try {
    for (const session of sessions)
      for (let edit = 0; edit < warmupEdits; edit++) await timedEdit(session, variant, uri);
    while (sessions.some((session) => session.samples.length < measuredEdits)) {
      for (const session of sessions) {
        await timedEdit(session, variant, uri);
        for (let edit = 0; edit < blockEdits && session.samples.length < measuredEdits; edit++)
          session.samples.push(await timedEdit(session, variant, uri));
      }
    }
    return [median(sessions[0].samples), median(sessions[1].samples)];
  } finally {
    for (const session of sessions) await session.client.stop();
  }
}

interface Bursts {
  /** Milliseconds from each measured burst's last keystroke to the publish of its version. */
  latencies: number[];
  /** How many publishes each burst's last version got (one is right). */
  lastVersionPublishes: number[];
  /** Publishes whose version is older than one published before them. */
  outOfOrder: number;
}

/**
 * Bursts of keystrokes at typing speed, alternately typing characters after a name and deleting
 * them again, each keystroke its own didChange, as an editor sends them.
 */
async function typingBursts(server: Server, variant: Variant, uri: string): Promise<Bursts> {
  const client = server.start();
  try {
    await client.initialize();
    await server.configure?.(client);
    const opened = client.nextPublish(uri, () => true, 60_000);
    client.open(uri, 'yaml', variant.text);
    await opened;
    // The attestation name just above the edited type: any text is valid there, so typing never stops.
    const line = variant.line - 1;
    const end = variant.text.split('\n')[line].length;
    let version = 1;
    const latencies: number[] = [];
    const lastVersions: number[] = [];
    const sendKeystroke = (typing: boolean, key: number): void => {
      const at = typing ? end + key : end + burstKeystrokes - key - 1;
      void client.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: ++version },
        contentChanges: [
          {
            range: { start: { line, character: at }, end: { line, character: typing ? at : at + 1 } },
            text: typing ? 'x' : '',
          },
        ],
      });
    };
    for (let burst = 0; burst < warmupBursts + measuredBursts; burst++) {
      const typing = burst % 2 === 0;
      for (let key = 0; key < burstKeystrokes - 1; key++) {
        sendKeystroke(typing, key);
        await sleep(keystrokeGapMs);
      }
      const last = version + 1;
      const published = client.nextPublish(uri, (publish) => publish.version === last, 30_000);
      const start = performance.now();
      sendKeystroke(typing, burstKeystrokes - 1);
      await published;
      if (burst >= warmupBursts) {
        latencies.push(performance.now() - start);
        lastVersions.push(last);
      }
      await sleep(keystrokeGapMs);
    }
    // One more edit: its publish comes after any the bursts could still have had on the way.
    const final = version + 1;
    const settled = client.nextPublish(uri, (publish) => publish.version === final, 30_000);
    sendKeystroke(true, 0);
    await settled;
    const versions = client.publishes.filter((publish) => publish.uri === uri).map((publish) => publish.version ?? -1);
    return {
      latencies,
      lastVersionPublishes: lastVersions.map((last) => versions.filter((published) => published === last).length),
      outOfOrder: versions.filter((published, index) => versions.slice(0, index).some((earlier) => earlier > published))
        .length,
    };
  } finally {
    await client.stop();
  }
}

const work = mkdtempSync(join(tmpdir(), 'cev-language-bench-'));
try {
  const schemaFile = join(work, 'flow-template.schema.json');
  writeFileSync(schemaFile, JSON.stringify(schemas['flow-template']));
  const yamlSettings = {
    validate: true,
    hover: true,
    completion: true,
    schemas: { [pathToFileURL(schemaFile).href]: '*flow-template*.yaml' },
    schemaStore: { enable: false },
    kubernetesCRDStore: { enable: false },
  };
  const configureYaml = async (client: LspClient): Promise<void> => {
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: { yaml: yamlSettings } });
  };
  const yamlConfiguration = (section: string | undefined): unknown => (section === 'yaml' ? yamlSettings : {});
  const yamlBin = join(repoRoot, 'node_modules', 'yaml-language-server', 'bin', 'yaml-language-server');
  const zeroDelayLauncher = join(repoRoot, 'test', 'bench', 'yaml-language-server-zero-delay.mjs');

  const ours = (debounceMs?: number): Server => ({
    start: () => {
      const client = startClient();
      const initialize = client.initialize.bind(client);
      client.initialize = () =>
        initialize(debounceMs === undefined ? undefined : { complianceEvidence: { diagnostics: { debounceMs } } });
      return client;
    },
  });
  const yaml = (launcher: string): Server => ({
    start: () => startClient({ args: [launcher, '--stdio'], configuration: yamlConfiguration }),
    configure: configureYaml,
  });

  let allMet = true;
  for (const lines of [200, LARGE]) {
    const variant = editableTemplate(lines);
    const uri = pathToFileURL(join(work, `bench-${lines}.flow-template.yaml`)).href;
    const [oursShipped, yamlShipped] = await sideBySideMs(ours(), yaml(yamlBin), variant, uri);
    const [oursEngine, yamlEngine] = await sideBySideMs(ours(0), yaml(zeroDelayLauncher), variant, uri);
    console.log(`\n${lines} lines (median of ${measuredEdits} edits, didChange → matching publish)`);
    console.log(
      `  ours, default settings: ${oursShipped.toFixed(2)} ms; yaml-language-server as shipped: ${yamlShipped.toFixed(2)} ms`,
    );
    console.log(
      `  ours, debounce 0: ${oursEngine.toFixed(2)} ms; yaml-language-server, delay 0: ${yamlEngine.toFixed(2)} ms`,
    );
    allMet =
      report(`  as shipped, ${lines} lines, ours / yaml-language-server`, oursShipped, yamlShipped, 'ms', {
        max: 0.1,
      }) && allMet;
    allMet = reportAtMost(`  as shipped, ${lines} lines, ours`, oursShipped, 'ms', 15) && allMet;
    allMet =
      report(`  engine, ${lines} lines, ours / yaml-language-server`, oursEngine, yamlEngine, 'ms', {
        max: lines <= 200 ? 0.5 : 0.75,
      }) && allMet;
  }
  {
    const lines = LARGE;
    const bursts = await typingBursts(
      ours(),
      editableTemplate(lines),
      pathToFileURL(join(work, `bursts-${lines}.flow-template.yaml`)).href,
    );
    const exact = bursts.lastVersionPublishes.every((count) => count === 1);
    console.log(
      `\n${lines} lines, ${measuredBursts} bursts of ${burstKeystrokes} keystrokes ${keystrokeGapMs} ms apart, ours as shipped`,
    );
    console.log(
      `  publishes of each burst's last version: ${bursts.lastVersionPublishes.join(' ')}  ${exact ? 'ok' : 'MISSED'} (target: exactly 1 each)`,
    );
    console.log(
      `  publishes after a newer version's: ${bursts.outOfOrder}  ${bursts.outOfOrder === 0 ? 'ok' : 'MISSED'} (target: 0)`,
    );
    console.log(`  last keystroke → its publish, slowest burst: ${Math.max(...bursts.latencies).toFixed(2)} ms`);
    allMet =
      reportAtMost('  last keystroke → its publish, median of bursts', median(bursts.latencies), 'ms', 15) &&
      exact &&
      bursts.outOfOrder === 0 &&
      allMet;
  }
  console.log(allMet ? '\nall language server targets met' : '\nsome language server targets missed');
} finally {
  rmSync(work, { recursive: true, force: true });
}
