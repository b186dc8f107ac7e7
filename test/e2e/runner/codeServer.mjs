// A private code-server on a loopback port: its own user data, extensions and XDG folders, no
// telemetry, no update checks, no workspace trust prompt, and a gallery that points nowhere. It runs
// in its own session (setsid) so that stopping it takes its extension hosts and their children too.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { createServer } from 'node:net';
import { waitFor } from '../../support/wait.ts';

/** A port that was free on 127.0.0.1 a moment ago: code-server takes a port number, not 0. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Settings that keep the workbench quiet and the screenshots about the extension. */
const userSettings = {
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'window.commandCenter': false,
  'editor.minimap.enabled': false,
};

/**
 * Starts code-server with `root` as its scratch folder; resolves once /healthz answers.
 * `env` is added to the server's environment, which its extension hosts inherit.
 */
export async function startCodeServer({ nodePath, codeServerDir, root, workspace, env, healthTimeoutMs = 60_000 }) {
  const dirs = {
    user: path.join(root, 'user'),
    extensions: path.join(root, 'extensions'),
    xdg: path.join(root, 'xdg'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  mkdirSync(path.join(dirs.user, 'User'), { recursive: true });
  writeFileSync(path.join(dirs.user, 'User', 'settings.json'), JSON.stringify(userSettings, null, 2));
  writeFileSync(path.join(root, 'config.yaml'), 'auth: none\n');

  const port = await freePort();
  // Nothing listens on this port: the extension gallery is unreachable by design, never the internet.
  const galleryPort = await freePort();
  const logFile = path.join(root, 'code-server.log');
  const log = createWriteStream(logFile);
  await new Promise((resolve) => log.once('open', resolve));
  const child = spawn(
    nodePath,
    [
      path.join(codeServerDir, 'out', 'node', 'entry.js'),
      '--config',
      path.join(root, 'config.yaml'),
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--user-data-dir',
      dirs.user,
      '--extensions-dir',
      dirs.extensions,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      workspace,
    ],
    {
      // detached: the child calls setsid(), so -pid names its whole process group.
      detached: true,
      stdio: ['ignore', log, log],
      env: {
        ...process.env,
        ...env,
        XDG_CONFIG_HOME: dirs.xdg,
        XDG_DATA_HOME: dirs.xdg,
        XDG_CACHE_HOME: path.join(dirs.xdg, 'cache'),
        EXTENSIONS_GALLERY: JSON.stringify({
          serviceUrl: `http://127.0.0.1:${galleryPort}/gallery`,
          itemUrl: `http://127.0.0.1:${galleryPort}/item`,
        }),
      },
    },
  );
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const server = {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    logFile,
    userDataDir: dirs.user,
    exited,
    stop: () => stopGroup(child.pid, exited),
  };
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`code-server exited (${child.exitCode ?? child.signalCode}); see ${logFile}`);
        try {
          const response = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(2000) });
          await response.arrayBuffer();
          return response.ok;
        } catch {
          return false;
        }
      },
      `code-server /healthz on port ${port}`,
      healthTimeoutMs,
    );
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

/** SIGTERM to the group, SIGKILL to whatever is left after a grace period; returns when none is left. */
export async function stopGroup(pid, exited, graceMs = 5000) {
  if (!signalGroup(pid, 'SIGTERM')) return;
  const gone = () => !signalGroup(pid, 0);
  try {
    await waitFor(gone, 'code-server process group to exit', graceMs);
  } catch {
    signalGroup(pid, 'SIGKILL');
    await waitFor(gone, 'code-server process group to die', graceMs);
  }
  await exited;
}

/** False when no process of the group is left. */
export function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
    return true;
  } catch (error) {
    if (error.code === 'ESRCH') return false;
    throw error;
  }
}
