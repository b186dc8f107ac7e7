// Keystroke to squiggle, side by side with yaml-language-server 2.x on the same flow template:
// the median time from `didChange` to the matching `publishDiagnostics` over 50 edits that
// alternate a valid and a one-error variant, on 200 and 3,000 lines. Two comparisons:
//   - as shipped: our default debounce against its fixed 200 ms delay (target ≤ 0.5×);
//   - engine against engine: both delays 0 (targets ≤ 0.5× on 200 lines, ≤ 0.75× on 3,000).
// Its publishes carry no version, so the next edit is sent only after the previous publish, and a
// publish is matched by content (no diagnostics for the valid variant, some for the other). Both
// servers of a comparison run at once and take turns in blocks of edits, so load on this shared
// machine falls on both alike.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot, startClient, type LspClient } from '../language/lspClient.ts';
import { schemas } from '../../shared/schemas/index.ts';
import { flowTemplateLines } from './flowTemplateText.ts';
import { median, report } from './stats.ts';

const measuredEdits = 50;
const warmupEdits = 10;
const blockEdits = 5;

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
  return { text: `${out.join('\n')}\n`, line, character: '          type: '.length, valid: 'junit', broken: 'junit-test' };
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
  lines[variant.line] = lines[variant.line]!.slice(0, variant.character) + variant.broken;
  // Opening the broken variant and waiting for its problems proves the schema is in force.
  const opened = client.nextPublish(uri, (publish) => publish.diagnostics.length > 0, 60_000);
  client.open(uri, 'yaml', lines.join('\n'));
  await opened;
  return { client, current: variant.broken, version: 1, samples: [] };
}

/** One edit to the other variant; the time from didChange to the publish that matches it. */
async function timedEdit(session: Session, variant: Variant, uri: string): Promise<number> {
  const next = session.current === variant.broken ? variant.valid : variant.broken;
  const published = session.client.nextPublish(uri, (publish) => (publish.diagnostics.length === 0) === (next === variant.valid), 30_000);
  const start = performance.now();
  void session.client.connection.sendNotification('textDocument/didChange', {
    textDocument: { uri, version: ++session.version },
    contentChanges: [
      {
        range: { start: { line: variant.line, character: variant.character }, end: { line: variant.line, character: variant.character + session.current.length } },
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
    for (const session of sessions) for (let edit = 0; edit < warmupEdits; edit++) await timedEdit(session, variant, uri);
    while (sessions.some((session) => session.samples.length < measuredEdits)) {
      for (const session of sessions) {
        await timedEdit(session, variant, uri);
        for (let edit = 0; edit < blockEdits && session.samples.length < measuredEdits; edit++) session.samples.push(await timedEdit(session, variant, uri));
      }
    }
    return [median(sessions[0]!.samples), median(sessions[1]!.samples)];
  } finally {
    for (const session of sessions) await session.client.stop();
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
  for (const lines of [200, 3000]) {
    const variant = editableTemplate(lines);
    const uri = pathToFileURL(join(work, `bench-${lines}.flow-template.yaml`)).href;
    const [oursShipped, yamlShipped] = await sideBySideMs(ours(), yaml(yamlBin), variant, uri);
    const [oursEngine, yamlEngine] = await sideBySideMs(ours(0), yaml(zeroDelayLauncher), variant, uri);
    console.log(`\n${lines} lines (median of ${measuredEdits} edits, didChange → matching publish)`);
    console.log(`  ours, default settings: ${oursShipped.toFixed(2)} ms; yaml-language-server as shipped: ${yamlShipped.toFixed(2)} ms`);
    console.log(`  ours, debounce 0: ${oursEngine.toFixed(2)} ms; yaml-language-server, delay 0: ${yamlEngine.toFixed(2)} ms`);
    allMet = report(`  as shipped, ${lines} lines, ours / yaml-language-server`, oursShipped, yamlShipped, 'ms', { max: 0.5 }) && allMet;
    allMet = report(`  engine, ${lines} lines, ours / yaml-language-server`, oursEngine, yamlEngine, 'ms', { max: lines <= 200 ? 0.5 : 0.75 }) && allMet;
  }
  console.log(allMet ? '\nall language server targets met' : '\nsome language server targets missed');
} finally {
  rmSync(work, { recursive: true, force: true });
}
