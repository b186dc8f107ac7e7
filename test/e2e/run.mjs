// `npm run test:e2e`, after the build and the install step: runs the extension's tests inside a
// private code-server, with headless Chromium as the workbench. Everything listens on 127.0.0.1;
// the code-server process group, the browser and the scratch folder are removed whatever happens.
import {
  cpSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { signalGroup, startCodeServer } from './runner/codeServer.mjs';
import { serveDriver } from './runner/driver.mjs';
import { summarize } from './runner/results.mjs';
import { openWorkbench } from './runner/workbench.mjs';

const e2eDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(e2eDir, '..', '..');
const outputDir = path.join(repoRoot, 'test-output', 'e2e');
const testsPath = path.join(e2eDir, '.cache', 'suite', 'index.cjs');
const codeServerDir = path.join(e2eDir, 'node_modules', 'code-server');
/** The whole run, from starting code-server to the last test; beyond it the run fails. */
const timeoutMs = Number(process.env.E2E_TIMEOUT_MS ?? 15 * 60_000);

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
/** Must match suite/support/log.ts. */
const SUITE_LINE_PREFIX = '[suite] ';
const say = (message) => console.log(`[e2e ${elapsed()}] ${message}`);

for (const [what, file] of [
  ['the test bundle (node test/e2e/build.mjs)', testsPath],
  ['code-server (test/e2e/install.sh)', codeServerDir],
  ['the extension (npm run build)', path.join(repoRoot, 'dist', 'extension.js')],
]) {
  if (!existsSync(file)) {
    console.error(`e2e: missing ${what}: ${file}`);
    process.exit(2);
  }
}

rmSync(outputDir, { recursive: true, force: true });
mkdirSync(outputDir, { recursive: true });
const scratch = mkdtempSync(path.join(tmpdir(), 'cev-e2e-'));
const workspace = path.join(scratch, 'workspace');
const driverDir = path.join(scratch, 'driver');
mkdirSync(workspace);
mkdirSync(driverDir);

let server;
let workbench;
let driver;
// Last resort if the runner itself is killed: no code-server may outlive it.
process.on('exit', () => server && signalGroup(server.pid, 'SIGKILL'));
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, () => {
    say(`${signal}: stopping`);
    void cleanUp().finally(() => process.exit(130));
  });
}

let code = 1;
try {
  server = await startCodeServer({
    nodePath: process.execPath,
    codeServerDir,
    root: scratch,
    workspace,
    // The extension host inherits these: where tests ask the runner for the page, and where they write.
    env: { E2E_DRIVER_DIR: driverDir, E2E_OUTPUT_DIR: outputDir },
  });
  say(`code-server ${server.url} (process group ${server.pid})`);
  const workbenchLog = createWriteStream(path.join(outputDir, 'workbench.log'));
  const browserLog = createWriteStream(path.join(outputDir, 'browser-console.log'));
  workbench = await openWorkbench({
    e2eDir,
    baseUrl: server.url,
    folder: workspace,
    extensionPath: repoRoot,
    testsPath,
    onLog: (type, args) => printLogLine(type, args, workbenchLog),
    onConsole: (type, text) => browserLog.write(`[${type}] ${text}\n`),
  });
  say('workbench opened; the tests run in the extension host');
  driver = serveDriver({ page: workbench.page, dir: driverDir, screenshotsDir: outputDir, log: say });
  let timer;
  const outcome = await Promise.race([
    workbench.exitCode.then((exit) => ({ exit })),
    server.exited.then((exit) => ({ error: `code-server exited (${exit}) before the tests ended` })),
    new Promise(
      (resolve) =>
        (timer = setTimeout(() => resolve({ error: `the tests did not end within ${timeoutMs / 1000} s` }), timeoutMs)),
    ),
  ]);
  clearTimeout(timer);
  if (outcome.error) {
    say(`failed: ${outcome.error}`);
    await workbench.page.screenshot({ path: path.join(outputDir, 'at-failure.png') }).catch(() => undefined);
  } else {
    say(`the workbench reported exit code ${outcome.exit}`);
    code = outcome.exit === 0 ? 0 : 1;
  }
  workbenchLog.end();
  browserLog.end();
} catch (error) {
  say(`runner failed: ${error instanceof Error ? error.stack : String(error)}`);
  code = 2;
} finally {
  await cleanUp();
}
code = summarize({ outputDir, repoRoot, exitCode: code, elapsed: elapsed() });
process.exit(code);

async function cleanUp() {
  await driver?.stop().catch(() => undefined);
  await workbench?.browser.close().catch(() => undefined);
  if (server) {
    await server.stop();
    keepLogs(server);
    server = undefined;
  }
  rmSync(scratch, { recursive: true, force: true });
}

/** The suite's lines (see suite/support/log.ts) go to the terminal, the workbench's to its log file. */
function printLogLine(type, args, workbenchLog) {
  const text = format(...args);
  for (const line of text.split('\n')) {
    if (line.startsWith(SUITE_LINE_PREFIX)) console.log(line.slice(SUITE_LINE_PREFIX.length));
    else workbenchLog.write(`[${type}] ${line}\n`);
  }
}

/** Copies code-server's and the extension host's logs to the output folder and prints the host's. */
function keepLogs({ logFile, userDataDir }) {
  const logsDir = path.join(outputDir, 'logs');
  mkdirSync(logsDir, { recursive: true });
  if (existsSync(logFile)) cpSync(logFile, path.join(logsDir, 'code-server.log'));
  const userLogs = path.join(userDataDir, 'logs');
  if (existsSync(userLogs)) cpSync(userLogs, logsDir, { recursive: true });
  const hostLogs = filesUnder(logsDir).filter((file) =>
    /exthost\d*\.log$|Compliance Evidence.*\.log$/.test(path.basename(file)),
  );
  for (const file of hostLogs) {
    console.log(`\n----- ${path.relative(repoRoot, file)} -----`);
    console.log(readFileSync(file, 'utf8').trimEnd());
  }
}

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}
