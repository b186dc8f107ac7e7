// The help of `cev serve`, apart from the server itself, so `cev --help` and `cev help serve` run
// on any Node without loading what serving needs (node:sqlite, undici).
import { DEFAULT_EVALUATION_BUDGET } from '../api/options.ts';
import { DEFAULT_MIN_FREE_MB } from '../api/freeSpace.ts';
import type { CommandHelp } from './help.ts';
import { DEFAULT_PORT } from './serveOptions.ts';

/** One line per flag of serveFlags (server/commands/serveOptions.ts); a test keeps the two lists equal. */
export const serveHelp: CommandHelp = {
  name: 'serve',
  summary: 'run the Compliance Evidence API v2 on this machine',
  usage: 'cev serve [options]',
  options: [
    ['--host <address>', 'the address to listen on (default 127.0.0.1)'],
    ['--port <number>', `the port to listen on; 0 picks a free one (default: $PORT, else ${DEFAULT_PORT})`],
    ['--data <dir>', 'where the database and evidence files are kept (default ./.cev-data)'],
    ['--memory', 'keep everything in memory instead, gone when the server stops'],
    ['--org <name>', 'an organization to serve; repeat for more (default: default)'],
    [
      '--api-key <key>',
      'the admin key for every org (default: $CEV_API_KEY, else generated on first start, kept in <data>/admin-key); prefer the variable: other local users can read a command line',
    ],
    ['--config <file>', 'a YAML file of orgs (with features) and API keys (with orgs and roles)'],
    ['--public-url <url>', 'the base of html_url links, when clients reach the server at another URL'],
    [
      '--database <url>',
      'a postgresql:// database to keep everything in instead of <data> (default: $CEV_DATABASE_URL, else SQLite in <data>)',
    ],
    [
      '--evidence <dir>',
      'where evidence files are kept (default <data>/evidence); give every instance on one database the same one',
    ],
    [
      '--min-free-space <MB>',
      `below this much free space in <data> or --evidence, /ready and the log warn (default ${DEFAULT_MIN_FREE_MB}; 0: never)`,
    ],
    [
      '--evaluation-timeout <seconds>',
      `how long one request's evaluation (template impact, policy dry-run, reading a template or policy) may run before it is stopped with 422 (default ${DEFAULT_EVALUATION_BUDGET.seconds})`,
    ],
    [
      '--evaluation-memory <MB>',
      `the heap of each evaluation thread; an evaluation that needs more is stopped with 422 (default ${DEFAULT_EVALUATION_BUDGET.memoryMb})`,
    ],
    [
      '--allow-private-webhooks',
      'let webhooks go to loopback, private, link-local and metadata addresses (refused by default), e.g. to a receiver on this machine for testing',
    ],
  ],
  examples: [
    ['start on http://127.0.0.1:8001 with the data in ./.cev-data', 'cev serve'],
    ['a throwaway server on a free port, for tests', 'cev serve --port 0 --memory'],
    ['two orgs and a fixed admin key from $CEV_API_KEY, e.g. in CI', 'cev serve --org acme --org beta'],
    ['orgs and keys with roles from a file', 'cev serve --config cev.yaml --data /var/lib/cev'],
    [
      'one instance of a team server on PostgreSQL',
      'cev serve --database postgresql://cev@db/cev --evidence /srv/cev-evidence --host 0.0.0.0',
    ],
  ],
  exitCodes:
    '0 stopped by SIGTERM or SIGINT, 1 unexpected failure, 2 bad flags, an unusable data directory, an unreachable database or a port in use.',
};
