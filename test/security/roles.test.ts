// Roles as a table (issue 23, item 1; reference §1.10): every operation of the served openapi.json,
// asked with a key of every role (from --config and from service accounts), with no key and with
// a key of another org, answers as server/api/rules/roles.ts says: refused (401/403) or not. An
// operation the table does not name fails the walk. The requests name nothing that exists (or
// send an empty body) wherever that leaves the decision to the role alone, so an allowed request
// answers 404 or 400 and changes nothing; the operations on service accounts act on real accounts
// of every privilege, since what they may do depends on the account.
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { registerAuth } from '../../server/api/http/auth.ts';
import { accessService } from '../../server/api/services/access.ts';
import { CAPABILITIES, OPERATIONS, reaches, ROLES, type OperationRule } from '../../server/api/rules/roles.ts';
import { openStore } from '../../server/api/store/index.ts';
import type { Role } from '../../server/api/principal.ts';
import type { IssuedApiKey, OpenApiDocument } from '../api/answers.ts';
import { startServer, type TestServer } from '../api/harness.ts';

/**
 * Routes the server answers but does not document: attestation and report types that do not
 * exist, and repo names with their slashes raw in the path (the documented `{name}` takes them
 * percent-encoded).
 */
const UNDOCUMENTED = [
  'POST /attestations/{org}/{flow}/trail/{trail}/{kind}',
  'PUT /environments/{org}/{env}/report/{type}',
  'GET /repos/{org}/*',
  'PATCH /tags/{org}/{resource_type}/*',
];

interface Caller {
  label: string;
  key: string | null;
  /** The role in org acme; undefined for no key and for the key of another org. */
  role?: Role;
  otherOrg?: true;
}

type Outcome = 'allowed' | 'refused' | 'unauthenticated';

/** A request of the walk and what the table expects of it for a caller. */
interface Case {
  operation: string;
  path: string;
  body?: unknown;
  /** The privilege of the account the request acts on, or grants. */
  target?: Role;
  grant?: Role;
  /** Sets the target account up again before the request (an allowed one may change or delete it). */
  account?: string;
}

function expectedOutcome(rule: OperationRule, caller: Caller, item: Case): Outcome {
  if (caller.key === null) return 'unauthenticated';
  const role = caller.otherOrg === true ? 'admin' : caller.role!;
  // The key of another org may use none of acme's operations; what names no org is the key's own.
  if (caller.otherOrg === true && item.path.includes('/acme')) return 'refused';
  if (!CAPABILITIES[role].includes(rule.needs)) return 'refused';
  if (item.target !== undefined && !reaches(role, item.target)) return 'refused';
  if (item.grant !== undefined && !reaches(role, item.grant)) return 'refused';
  return 'allowed';
}

/** The path with every parameter filled: acme for the org, names that exist nowhere for the rest. */
function concretePath(path: string, account: string): string {
  return path.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    if (name === 'org') return 'acme';
    if (name === 'name' && path.startsWith('/service-accounts/')) return account;
    if (name === 'name' && path.startsWith('/user/')) return 'acme';
    if (name === 'number') return '9999';
    if (name === 'fingerprint') return 'f'.repeat(64);
    if (name === 'sha') return 'a'.repeat(40);
    return `no-such-${name.replace(/_/g, '-')}`;
  });
}

function casesOf(operation: string, rule: OperationRule): Case[] {
  const [method, path] = operation.split(' ') as [string, string];
  const body = method === 'GET' || method === 'DELETE' ? undefined : {};
  if (rule.grants === true && rule.account !== true) {
    // Creating an account of each privilege.
    return ROLES.map((grant, i) => ({
      operation,
      path: concretePath(path, ''),
      body: { name: `walk-${grant}-${i}`, privilege: grant },
      grant,
    }));
  }
  if (rule.account === true) {
    return ROLES.flatMap((target) => {
      const account = `target-${target}`;
      const at = { operation, path: concretePath(path, account), target, account };
      if (rule.grants === true) return ROLES.map((grant) => ({ ...at, body: { privilege: grant }, grant }));
      if (path.endsWith('/api-keys') && method === 'POST') return [{ ...at, body: { description: 'walk' } }];
      return [{ ...at, body }];
    });
  }
  return [{ operation, path: concretePath(path, 'no-such-account'), body }];
}

describe('roles: every operation × every role answers as the role table says', function () {
  let server: TestServer;
  const callers: Caller[] = [{ label: 'no key', key: null }];

  before(async function () {
    this.timeout(60_000);
    server = await startServer({
      config: [
        'orgs: [{name: acme}, {name: other}]',
        'api_keys:',
        ...ROLES.map((role) => `  - {key: configured-${role}-key, orgs: [acme], role: ${role}}`),
        '  - {key: other-org-admin-key, orgs: [other], role: admin}',
      ],
    });
    for (const role of ROLES) callers.push({ label: `configured ${role}`, key: `configured-${role}-key`, role });
    callers.push({ label: 'admin of another org', key: 'other-org-admin-key', otherOrg: true });
    for (const role of ROLES) {
      const name = `walker-${role}`;
      assert.equal((await server.json('POST', '/api/v2/service-accounts/acme', { name, privilege: role })).status, 201);
      const issued = await server.json<IssuedApiKey>('POST', `/api/v2/service-accounts/acme/${name}/api-keys`, {
        description: 'walk',
      });
      assert.equal(issued.status, 201);
      callers.push({ label: `service account ${role}`, key: issued.body.key, role });
    }
  });

  after(async () => {
    await server?.stop();
  });

  /** Puts account `name` back with `privilege`, with the server's admin key. */
  const resetAccount = async (name: string, privilege: Role) => {
    const patched = await server.json('PATCH', `/api/v2/service-accounts/acme/${name}`, { privilege });
    if (patched.status === 404)
      assert.equal((await server.json('POST', '/api/v2/service-accounts/acme', { name, privilege })).status, 201);
    else assert.equal(patched.status, 200, patched.text);
  };

  const outcomeOf = async (item: Case, caller: Caller): Promise<Outcome> => {
    const [method] = item.operation.split(' ');
    const reply = await server.json(method, `/api/v2${item.path}`, item.body, { key: caller.key });
    assert.ok(reply.status < 500, `${caller.label}: ${item.operation} → ${reply.status} ${reply.text}`);
    if (reply.status === 401) return 'unauthenticated';
    return reply.status === 403 ? 'refused' : 'allowed';
  };

  it('names every documented operation in the table, and every entry of the table is an operation', async () => {
    const document = await server.get<OpenApiDocument>('/api/v2/openapi.json', { key: null });
    const served = Object.entries(document.body.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    assert.ok(served.length > 90, `openapi.json has the API's operations (${served.length})`);
    assert.deepEqual(
      served.filter((operation) => OPERATIONS[operation] === undefined),
      [],
      'operations without an entry in server/api/rules/roles.ts',
    );
    assert.deepEqual(
      Object.keys(OPERATIONS)
        .filter((operation) => !served.includes(operation))
        .sort(),
      [...UNDOCUMENTED].sort(),
      'entries of the table that are no operation',
    );
  });

  it('answers each operation with each key as the table says (allowed, or 401/403)', async function () {
    this.timeout(300_000);
    const document = await server.get<OpenApiDocument>('/api/v2/openapi.json', { key: null });
    const operations = [
      ...Object.entries(document.body.paths).flatMap(([path, item]) =>
        Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
      ),
      ...UNDOCUMENTED,
    ];
    const mismatches: string[] = [];
    let asked = 0;
    for (const operation of operations) {
      const rule = OPERATIONS[operation];
      if (rule === undefined) {
        mismatches.push(`${operation}: not in the role table`);
        continue;
      }
      for (const item of casesOf(operation, rule)) {
        const check = async (caller: Caller) => {
          const expected = expectedOutcome(rule, caller, item);
          const answered = await outcomeOf(item, caller);
          asked++;
          if (answered !== expected)
            mismatches.push(
              `${caller.label}: ${operation} ${JSON.stringify(item.body ?? null)} on ${item.path}: ${answered}, table says ${expected}`,
            );
        };
        if (item.account === undefined) await Promise.all(callers.map(check));
        else
          for (const caller of callers) {
            await resetAccount(item.account, item.target!);
            await check(caller);
          }
      }
    }
    assert.deepEqual(mismatches, []);
    assert.ok(asked > 1000, `asked ${asked} times`);
  });

  it('lets a reader change nothing: every operation it may use reads, previews or sets its own default org', () => {
    const allowed = Object.entries(OPERATIONS).filter(([, rule]) => CAPABILITIES.reader.includes(rule.needs));
    const changing = allowed
      .map(([operation]) => operation)
      .filter((operation) => !operation.startsWith('GET '))
      .sort();
    assert.deepEqual(changing, [
      'POST /environments/{org}/{env}/policy-dry-run',
      'POST /flows/{org}/{flow}/template-impact',
      'PUT /user/{name}',
    ]);
  });

  it('lets a snapshotter change only environments, their reports and the accounts it reaches', () => {
    const changing = Object.entries(OPERATIONS)
      .filter(([operation, rule]) => !operation.startsWith('GET ') && CAPABILITIES.snapshotter.includes(rule.needs))
      .map(([operation]) => operation)
      .filter((operation) => !CAPABILITIES.reader.includes(OPERATIONS[operation].needs));
    for (const operation of changing)
      assert.match(
        operation,
        /^(PUT \/environments\/\{org\}(\/\{env\}\/report\/[^/]+)?|[A-Z]+ \/service-accounts\/.*)$/,
        operation,
      );
  });

  it('keeps a server from starting when a route that takes a key is not in the table', async () => {
    const store = await openStore({ dataDir: undefined });
    const app = Fastify();
    try {
      registerAuth(app, accessService({ store, configuredKeys: [] }));
      app.get('/api/v2/flows/:org', () => 'in the table');
      app.get('/ready', { config: { public: true } }, () => 'public');
      app.post('/api/v2/unruled/:org', () => 'not in the table');
      await assert.rejects(async () => await app.ready(), {
        message: 'routes without an entry in the role table (server/api/rules/roles.ts): POST /api/v2/unruled/:org',
      });
    } finally {
      await app.close();
      await store.close();
    }
  });
});
