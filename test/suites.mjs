// npm test's two mocha passes, run at the same time: every test on SQLite (with the language
// server and the attack suite), and the API and attack suites again on PostgreSQL. Much of each
// pass is waiting (a request trickling for its 20 s bound, a browser, a server stopping), so the
// two overlap on two cores instead of one waiting for the other. The SQLite pass writes as it
// goes; the PostgreSQL pass's output is held and written whole once both have ended, so neither
// report is cut into the other. The exit status fails when either pass fails.
import { spawn } from 'node:child_process';

const mocha = ['node_modules/mocha/bin/mocha.js'];

const passes = [
  {
    label: 'mocha',
    args: [
      ...mocha,
      'test/architecture/**/*.test.ts',
      'test/unit/**/*.test.ts',
      'test/api/**/*.test.ts',
      'test/language/**/*.test.ts',
      'test/security/**/*.test.ts',
    ],
    env: {},
    live: true,
  },
  {
    label: 'postgres',
    args: [
      ...mocha,
      '--config',
      'test/api/postgres.mocharc.json',
      'test/api/**/*.test.ts',
      'test/security/**/*.test.ts',
    ],
    env: { CEV_TEST_ENGINE: 'postgres' },
    live: false,
  },
];

/** Runs one pass to its end and answers its exit status and its output held unless it is live. */
function run({ label, args, env, live }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      env: { ...process.env, CEV_TEST_SERVER: 'in-process', CEV_TEST_LABEL: label, ...env },
      stdio: ['ignore', live ? 'inherit' : 'pipe', live ? 'inherit' : 'pipe'],
    });
    const held = [];
    child.stdout?.on('data', (chunk) => held.push(chunk));
    child.stderr?.on('data', (chunk) => held.push(chunk));
    child.on('close', (code) => resolve({ status: code ?? 1, output: Buffer.concat(held) }));
  });
}

const ended = await Promise.all(passes.map(run));
for (const { output } of ended) process.stdout.write(output);
process.exitCode = ended.every(({ status }) => status === 0) ? 0 : 1;
