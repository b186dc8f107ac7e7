// Every paged list reads page N by position (issue 27, store/listPositions.ts), and each page is
// the one OFFSET gave: checked page by page, at several page sizes, against LIMIT and OFFSET in the
// list's order on the database behind the server, for each list with each filter and order it
// takes, after a story of writes numbering has to follow (pageOracle.ts). On PostgreSQL the story
// runs on two instances at once, one with its clock an hour behind.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ENGINE, sharedPostgres, startServer, type TestServer } from './harness.ts';
import {
  everyPageIsTheOffsetAnswer,
  postgresOracle,
  sqliteOracle,
  storyLists,
  writeStory,
  type Oracle,
  type StoryTimes,
} from './pageOracle.ts';

const HOUR_BEHIND = -3600;

describe('every page of every list is the OFFSET answer', function () {
  this.timeout(240_000);
  const running: TestServer[] = [];
  let server: TestServer;
  let oracle: Oracle;
  let times: StoryTimes;
  let evidence: string | undefined;

  before(async () => {
    if (ENGINE === 'postgres') {
      const url = await (await sharedPostgres()).createDatabase(`pages_${process.pid}`);
      evidence = mkdtempSync(join(tmpdir(), 'cev-evidence-'));
      const args = ['--org', 'acme', '--database', url, '--evidence', evidence];
      const [now, behind] = await Promise.all([
        startServer({ args }),
        startServer({ args, clockShiftSeconds: HOUR_BEHIND }),
      ]);
      running.push(now, behind);
      times = await writeStory(
        () => Promise.resolve(now),
        () => Promise.resolve(behind),
        [now, behind],
      );
      server = now;
      oracle = postgresOracle(url);
    } else {
      // One data directory; the clock is set back for the second phase, as on a restart after it was.
      let last: TestServer | undefined;
      const restarted = async (clockShiftSeconds?: number): Promise<TestServer> => {
        await last?.stop({ keepData: true });
        last = await startServer({ args: ['--org', 'acme'], dataDir: last?.dataDir, clockShiftSeconds });
        return last;
      };
      times = await writeStory(
        () => restarted(),
        () => restarted(HOUR_BEHIND),
      );
      server = last!;
      running.push(server);
      oracle = sqliteOracle(server.dataDir);
    }
  });
  after(async () => {
    await oracle?.close();
    for (const instance of running) await instance.stop();
    if (evidence !== undefined) rmSync(evidence, { recursive: true, force: true });
  });

  it('answers each page of each list as OFFSET did, at every page size', async () => {
    for (const list of storyLists(times)) await everyPageIsTheOffsetAnswer(server, oracle, list);
  });
});
