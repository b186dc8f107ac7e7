// Finding and running `kubectl get pods -A -o json` for a K8S report.
import { execFile } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import * as path from 'node:path';

/** The kubectl executable on PATH, or undefined. */
export async function kubectlPath(envPath = process.env.PATH ?? ''): Promise<string | undefined> {
  const names = process.platform === 'win32' ? ['kubectl.exe', 'kubectl.cmd'] : ['kubectl'];
  for (const dir of envPath.split(path.delimiter).filter(Boolean)) {
    for (const name of names) {
      const candidate = path.join(dir, name);
      try {
        await access(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here; keep looking
      }
    }
  }
  return undefined;
}

/** The pods of every namespace as kubectl prints them, parsed; rejects with kubectl's own error. */
export function kubectlPods(kubectl: string, timeoutMs = 60_000): Promise<unknown> {
  return new Promise((resolve, reject) => {
    execFile(
      kubectl,
      ['get', 'pods', '-A', '-o', 'json'],
      { timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`kubectl get pods failed: ${stderr.trim() || error.message}`));
        try {
          resolve(JSON.parse(stdout));
        } catch {
          reject(new Error('kubectl get pods printed something that is not JSON.'));
        }
      },
    );
  });
}
