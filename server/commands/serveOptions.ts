// The start contract of the local server (issue 3): flags, their defaults, and the --config YAML.
// Every problem becomes a UsageError: one line on stderr and exit code 2.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { NAME_PATTERN } from '../../shared/names.ts';
import { unknownOptionMessage } from './help.ts';
import { UsageError } from '../api/usageError.ts';
import { DEFAULT_MIN_FREE_MB } from '../api/freeSpace.ts';
import { DEFAULT_EVALUATION_BUDGET, type ConfiguredKey, type OrgConfig, type ServeOptions } from '../api/options.ts';
import type { Role } from '../api/principal.ts';

/** The flags of `cev serve`, as node:util parseArgs reads them (its help lists each: server/commands/serveHelp.ts). */
export const serveFlags = {
  host: { type: 'string', default: '127.0.0.1' },
  port: { type: 'string' },
  data: { type: 'string' },
  memory: { type: 'boolean', default: false },
  org: { type: 'string', multiple: true },
  'api-key': { type: 'string' },
  config: { type: 'string' },
  'public-url': { type: 'string' },
  database: { type: 'string' },
  evidence: { type: 'string' },
  'min-free-space': { type: 'string', default: String(DEFAULT_MIN_FREE_MB) },
  'evaluation-timeout': { type: 'string', default: String(DEFAULT_EVALUATION_BUDGET.seconds) },
  'evaluation-memory': { type: 'string', default: String(DEFAULT_EVALUATION_BUDGET.memoryMb) },
  'allow-private-webhooks': { type: 'boolean', default: false },
} as const;

const ORG_NAME = new RegExp(NAME_PATTERN);
const ROLES: readonly Role[] = ['admin', 'member', 'snapshotter', 'reader'];

function checkOrgName(name: unknown, where: string): string {
  if (typeof name !== 'string' || !ORG_NAME.test(name)) {
    throw new UsageError(`${where}: org name ${JSON.stringify(name)} must match ${ORG_NAME.source}`);
  }
  return name;
}

/** The port to listen on when no --port says it. */
export const DEFAULT_PORT = 8001;

function parsePort(text: string, where: '--port' | 'PORT'): number {
  if (!/^\d+$/.test(text) || Number(text) > 65535)
    throw new UsageError(`${where} must be an integer from 0 to 65535, not '${text}'`);
  return Number(text);
}

function parseMinFreeSpace(text: string): number {
  if (!/^\d+$/.test(text))
    throw new UsageError(`--min-free-space must be a whole number of MB (0 turns the warning off), not '${text}'`);
  return Number(text);
}

/** A positive number of seconds (fractions allowed) or a whole number of MB of at least `min`. */
function parseBudget(text: string, flag: string, unit: 'seconds' | 'MB', min: number): number {
  const pattern = unit === 'seconds' ? /^\d+(\.\d+)?$/ : /^\d+$/;
  if (!pattern.test(text) || Number(text) < min)
    throw new UsageError(
      `${flag} must be ${unit === 'seconds' ? 'a number of seconds' : 'a whole number of MB'} of at least ${min}, not '${text}'`,
    );
  return Number(text);
}

function parsePublicUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--public-url must be an absolute http(s) URL, not '${text}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--public-url must be an http(s) URL, not '${text}'`);
  return text.replace(/\/+$/, '');
}

function parseDatabaseUrl(text: string, where: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${where} must be a postgresql://user:password@host:port/database URL`);
  }
  if (url.protocol !== 'postgresql:' && url.protocol !== 'postgres:') {
    throw new UsageError(`${where} must be a postgresql:// URL, not ${url.protocol}//...`);
  }
  if (url.pathname.replace(/^\//, '') === '')
    throw new UsageError(`${where} must name a database (postgresql://host:port/database)`);
  return text;
}

interface ConfigFile {
  orgs: OrgConfig[];
  apiKeys: ConfiguredKey[];
}

function asList(value: unknown, where: string): unknown[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new UsageError(`${where} must be a list`);
  return value;
}

function asObject(value: unknown, where: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new UsageError(`${where} must be a mapping`);
  return value as Record<string, unknown>;
}

function parseConfig(text: string, file: string): ConfigFile {
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (error) {
    throw new UsageError(
      `--config ${file}: ${(error instanceof Error ? error.message : String(error)).split('\n')[0]}`,
    );
  }
  const root = asObject(document ?? {}, `--config ${file}`);
  for (const key of Object.keys(root)) {
    if (key !== 'orgs' && key !== 'api_keys')
      throw new UsageError(`--config ${file}: unknown key '${key}' (expected orgs, api_keys)`);
  }
  const orgs = asList(root.orgs, `--config ${file}: orgs`).map((entry, index) => {
    const where = `--config ${file}: orgs[${index}]`;
    const org = asObject(entry, where);
    const features = org.features === undefined ? {} : asObject(org.features, `${where}.features`);
    if (features.controls !== undefined && typeof features.controls !== 'boolean') {
      throw new UsageError(`${where}.features.controls must be true or false`);
    }
    return { name: checkOrgName(org.name, where), features: { controls: features.controls !== false } };
  });
  const apiKeys = asList(root.api_keys, `--config ${file}: api_keys`).map((entry, index): ConfiguredKey => {
    const where = `--config ${file}: api_keys[${index}]`;
    const item = asObject(entry, where);
    if (typeof item.key !== 'string' || item.key.length < 8)
      throw new UsageError(`${where}.key must be a string of at least 8 characters`);
    const role = item.role ?? 'member';
    if (!ROLES.includes(role as Role)) throw new UsageError(`${where}.role must be one of ${ROLES.join(', ')}`);
    const keyOrgs = asList(item.orgs, `${where}.orgs`).map((name) => checkOrgName(name, `${where}.orgs`));
    if (keyOrgs.length === 0) throw new UsageError(`${where}.orgs must name at least one org`);
    return { key: item.key, orgs: keyOrgs, role: role as Role };
  });
  return { orgs, apiKeys };
}

export function parseServeArgs(
  args: readonly string[],
  cwd = process.cwd(),
  env: NodeJS.ProcessEnv = process.env,
): ServeOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: serveFlags,
    }));
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    const unknown = /^Unknown option '([^']+)'/.exec(message);
    if (unknown !== null)
      throw new UsageError(
        unknownOptionMessage(
          unknown[1],
          Object.keys(serveFlags).map((flag) => `--${flag}`),
          'serve',
        ),
      );
    throw new UsageError(`${message}; run 'cev serve --help' for the options`);
  }
  if (values.memory && values.data !== undefined) throw new UsageError('--data and --memory cannot be used together');
  const fromEnv = values.database === undefined && env.CEV_DATABASE_URL !== undefined && env.CEV_DATABASE_URL !== '';
  const databaseUrl = values.database ?? (fromEnv ? env.CEV_DATABASE_URL : undefined);
  if (databaseUrl !== undefined && values.memory)
    throw new UsageError(`${fromEnv ? 'CEV_DATABASE_URL' : '--database'} and --memory cannot be used together`);
  if (values.evidence !== undefined && values.memory)
    throw new UsageError('--evidence and --memory cannot be used together');
  if (values.host === '') throw new UsageError('--host must not be empty');
  // The environment first: a command line is readable by every local user (ps), a process's environment only by its owner.
  const keyFromEnv = values['api-key'] === undefined && env.CEV_API_KEY !== undefined && env.CEV_API_KEY !== '';
  const apiKey = values['api-key'] ?? (keyFromEnv ? env.CEV_API_KEY : undefined);
  if (apiKey !== undefined && apiKey.length < 8)
    throw new UsageError(`${keyFromEnv ? 'CEV_API_KEY' : '--api-key'} must be at least 8 characters long`);

  // As most servers do, the environment's PORT when no --port says otherwise.
  const portFromEnv = values.port === undefined && env.PORT !== undefined && env.PORT !== '';

  let config: ConfigFile = { orgs: [], apiKeys: [] };
  if (values.config !== undefined) {
    const file = resolve(cwd, values.config);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new UsageError(`--config ${values.config}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
    }
    config = parseConfig(text, values.config);
  }

  const orgs = new Map<string, OrgConfig>();
  for (const org of config.orgs) orgs.set(org.name, org);
  for (const name of values.org ?? []) {
    checkOrgName(name, '--org');
    if (!orgs.has(name)) orgs.set(name, { name, features: { controls: true } });
  }
  if (orgs.size === 0) orgs.set('default', { name: 'default', features: { controls: true } });

  return {
    host: values.host,
    port: portFromEnv ? parsePort(env.PORT!, 'PORT') : parsePort(values.port ?? String(DEFAULT_PORT), '--port'),
    ...(portFromEnv ? { portFrom: 'PORT' as const } : {}),
    dataDir: values.memory ? undefined : resolve(cwd, values.data ?? '.cev-data'),
    orgs: [...orgs.values()],
    apiKey,
    apiKeyFrom: apiKey === undefined ? undefined : keyFromEnv ? 'CEV_API_KEY' : '--api-key',
    apiKeys: config.apiKeys,
    publicUrl: values['public-url'] === undefined ? undefined : parsePublicUrl(values['public-url']),
    databaseUrl:
      databaseUrl === undefined
        ? undefined
        : parseDatabaseUrl(databaseUrl, fromEnv ? 'CEV_DATABASE_URL' : '--database'),
    evidenceDir: values.evidence === undefined ? undefined : resolve(cwd, values.evidence),
    minFreeMb: parseMinFreeSpace(values['min-free-space']),
    evaluationBudget: {
      seconds: parseBudget(values['evaluation-timeout'], '--evaluation-timeout', 'seconds', 0.01),
      // Below this a worker cannot load its own code.
      memoryMb: parseBudget(values['evaluation-memory'], '--evaluation-memory', 'MB', 32),
    },
    allowPrivateWebhooks: values['allow-private-webhooks'],
  };
}
