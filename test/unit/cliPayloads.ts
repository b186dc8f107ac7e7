// Payloads as the official CLI builds them (reference §5.1 reports, §2.3 attestations), under
// cli-payloads/<report-TYPE|attestation-KIND>/<name>.json: `valid*` files must be accepted, every
// other file refused. Shared by the unit test and the real server's parity test.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('./cli-payloads/', import.meta.url));

export interface CliPayload {
  /** `<target>/<file>`. */
  name: string;
  target: { report: string } | { attestation: string };
  value: unknown;
  accepted: boolean;
}

export function loadCliPayloads(): CliPayload[] {
  return readdirSync(dir)
    .sort()
    .flatMap((folder) => {
      const [, family, type] = /^(report|attestation)-(.+)$/.exec(folder) ?? [];
      if (family === undefined || type === undefined)
        throw new Error(`cli-payloads/${folder}: not report-<TYPE> or attestation-<kind>`);
      return readdirSync(join(dir, folder))
        .sort()
        .map((file) => ({
          name: `${folder}/${file}`,
          target: family === 'report' ? { report: type } : { attestation: type },
          value: JSON.parse(readFileSync(join(dir, folder, file), 'utf8')) as unknown,
          accepted: file.startsWith('valid'),
        }));
    });
}
