// The flow list read while others write (issue 27): its order by latest activity moves with every
// trail begun, so no numbering keeps up with it and a page past the middle is read from the list's
// other end (store/flows.ts). A reader walks every page of each order while writers begin trails
// in random flows (moving them to the front, or to the back in ascending order) and create flows
// (which land inside the name orders); on PostgreSQL through two instances, one with its clock an
// hour behind. Around each page the list is read whole from the database, before (A) and after
// (B). A flow whose place is the same in A and B did not move during the read (activity only
// grows), so it stood in the page's state where it stands in A. Each page must then show no flow
// twice, keep every unmoved flow that falls between its first and last unmoved flow, and start
// where OFFSET would: at least the unmoved flows before it, at most those plus every flow that
// moved or arrived.
// A walk newest first, or by name, sees every flow that did not move during the walk (flows only
// move back there as others move ahead of them); oldest first by activity, a flow written during
// the walk leaves its place for the end, so the flows behind it move up and a walk may pass one:
// there only each page is held to its state.
import assert from 'node:assert/strict';
import type { TestServer } from './harness.ts';
import { beginTrail, createFlow } from './fixtures.ts';
import type { Oracle } from './pageOracle.ts';
import { serversUnderWrites, walkedWhileWriting, type ServersUnderWrites } from './underWrites.ts';

const PER_PAGE = 5;
const FLOWS = 40;
const flowName = (index: number): string => `flow-${String(index).padStart(2, '0')}`;

interface FlowOrder {
  query: string;
  order: string;
  /** Whether a flow's place moves with its activity (else only flows created move the others). */
  byActivity: boolean;
  /** Whether a walk must see every flow that did not move during it. */
  walkSeesUnmoved: boolean;
}

const ACTIVITY = 'coalesce(f.latest_activity_at, 0)';
const ORDERS: FlowOrder[] = [
  {
    query: '?sort=latest_activity',
    order: `${ACTIVITY} DESC, f.name_key ASC`,
    byActivity: true,
    walkSeesUnmoved: true,
  },
  {
    query: '?sort=latest_activity&sort_direction=asc',
    order: `${ACTIVITY} ASC, f.name_key ASC`,
    byActivity: true,
    walkSeesUnmoved: false,
  },
  { query: '', order: 'f.name_key ASC', byActivity: false, walkSeesUnmoved: true },
  { query: '?sort_direction=desc', order: 'f.name_key DESC', byActivity: false, walkSeesUnmoved: true },
];

/** The flow list whole: each flow's name and what places it (its activity, or nothing by name), in the order's order. */
async function whole(oracle: Oracle, order: FlowOrder): Promise<Array<{ name: string; activity: number }>> {
  const rows = await oracle.rows(
    `SELECT f.name, ${order.byActivity ? ACTIVITY : 0} AS activity FROM flows f
      WHERE f.org_id = (SELECT id FROM orgs WHERE name = 'acme') AND f.archived_at IS NULL ORDER BY ${order.order}`,
    [],
  );
  return rows.map((row) => ({ name: String(row.name), activity: Number(row.activity) }));
}

/** The flows of `a` still where they were in `b` (same activity), in a's order. */
function unmovedBetween(
  a: ReadonlyArray<{ name: string; activity: number }>,
  b: ReadonlyArray<{ name: string; activity: number }>,
): string[] {
  const later = new Map(b.map((flow) => [flow.name, flow.activity]));
  return a.filter((flow) => later.get(flow.name) === flow.activity).map((flow) => flow.name);
}

/** Walks every page of `order` while others write, checking each; answers how many pages were read while flows moved or arrived. */
async function walked(server: TestServer, oracle: Oracle, order: FlowOrder): Promise<number> {
  const atStart = await whole(oracle, order);
  const seen = new Set<string>();
  let duringMoves = 0;
  for (let page = 1; ; page++) {
    const a = await whole(oracle, order);
    const reply = await server.get(
      `/api/v2/flows/acme${order.query}${order.query === '' ? '?' : '&'}page=${page}&per_page=${PER_PAGE}`,
    );
    assert.equal(reply.status, 200, reply.text);
    const b = await whole(oracle, order);
    const items = (reply.body as { data: Array<{ name: string }> }).data.map((flow) => flow.name);
    const where = `flows${order.query} page ${page}: ${JSON.stringify(items)}`;
    const offset = (page - 1) * PER_PAGE;
    assert.equal(new Set(items).size, items.length, `${where} shows a flow twice`);
    const unmoved = unmovedBetween(a, b);
    const moved = b.length - unmoved.length;
    if (moved > 0) duringMoves += 1;
    const onPage = items.filter((name) => unmoved.includes(name));
    if (items.length === 0) {
      assert.ok(offset >= unmoved.length, `${where} is empty though ${unmoved.length} flows stood still`);
      break;
    }
    if (onPage.length > 0) {
      const [first, last] = [unmoved.indexOf(onPage[0]), unmoved.indexOf(onPage[onPage.length - 1])];
      assert.deepEqual(
        onPage,
        unmoved.slice(first, last + 1),
        `${where} skips or reorders flows that stood still: ${JSON.stringify(unmoved)}`,
      );
      // In the page's state the first of them comes after the unmoved flows before it in A, and
      // at most after every flow that moved or arrived as well.
      const start = offset + items.indexOf(onPage[0]);
      assert.ok(
        first <= start && start <= first + moved,
        `${where}: its first unmoved flow is at ${start}, not after ${first}..${first + moved} flows`,
      );
      if (items.length < PER_PAGE)
        assert.deepEqual(unmoved.slice(last + 1), [], `${where} ends the list before flows that stood still`);
    }
    for (const item of items) seen.add(item);
    if (items.length < PER_PAGE) break;
  }
  if (order.walkSeesUnmoved) {
    const missed = unmovedBetween(atStart, await whole(oracle, order)).filter((name) => !seen.has(name));
    assert.deepEqual(missed, [], `flows${order.query}: the walk missed flows that stood still`);
  }
  return duringMoves;
}

/** Begins trails in random flows, and now and then creates a flow, on `server` until `stopped`. */
async function writing(server: TestServer, name: string, stopped: () => boolean): Promise<number> {
  let written = 0;
  while (!stopped()) {
    const flow = flowName(Math.floor(Math.random() * FLOWS));
    if (written % 5 === 4) await createFlow(server, 'acme', `${flow}-${name}-${written}`);
    else await beginTrail(server, 'acme', flow, `${name}-${written}`);
    written += 1;
  }
  return written;
}

describe('the flow list read while others write', function () {
  this.timeout(240_000);
  let under: ServersUnderWrites | undefined;

  before(async () => {
    under = await serversUnderWrites('flow_pages');
    for (let i = 0; i < FLOWS; i++) {
      await createFlow(under.servers[0], 'acme', flowName(i));
      await beginTrail(under.servers[0], 'acme', flowName(i), 'first');
    }
  });
  after(async () => {
    await under?.stop();
  });

  it('answers each page of each order as a window of one state', async () => {
    const { servers, oracle } = under!;
    await walkedWhileWriting(servers, writing, ORDERS, (order) => walked(servers[0], oracle, order));
  });
});
