import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  AUDIT_LOG_COLUMNS,
  auditLogChunks,
  auditLogLine,
  csvField,
  type AuditLogRow,
} from '../../server/api/views/auditLogCsv.ts';

// A strict RFC 4180 reader, to check that what is written reads back as written.
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') {
        quoted = false;
        i += 1;
        continue;
      }
      field += c;
      i += 1;
      continue;
    }
    if (c === '"' && field === '') {
      quoted = true;
      i += 1;
      continue;
    }
    if (c === ',') {
      row.push(field);
      field = '';
      i += 1;
      continue;
    }
    if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 2;
      continue;
    }
    assert.ok(c !== '"' && c !== '\r' && c !== '\n', `unquoted special character at ${i}`);
    field += c;
    i += 1;
  }
  assert.equal(field, '', 'every line ends with CRLF');
  return rows;
}

const row = (overrides: Partial<AuditLogRow> = {}): AuditLogRow => ({
  reported_at: 1700000000.5,
  event_type: 'started',
  environment: 'prod',
  snapshot_index: 3,
  artifact_name: 'reg/web:1',
  fingerprint: 'a'.repeat(64),
  flow_names: ['web'],
  trail_names: ['t1'],
  git_commit: 'b'.repeat(40),
  repo_names: ['acme/web'],
  artifact_compliant: true,
  snapshot_compliant: false,
  description: 'Started running with 1 instance',
  ...overrides,
});

async function collected(chunks: AsyncIterable<string>): Promise<string[]> {
  const all: string[] = [];
  for await (const chunk of chunks) all.push(chunk);
  return all;
}

describe('audit-log CSV', () => {
  it('quotes only fields that need it, doubling quotes', () => {
    assert.equal(csvField('plain'), 'plain');
    assert.equal(csvField('a,b'), '"a,b"');
    assert.equal(csvField('say "hi"'), '"say ""hi"""');
    assert.equal(csvField('two\nlines'), '"two\nlines"');
    assert.equal(csvField('cr\r'), '"cr\r"');
  });

  it('writes the documented columns in order', () => {
    const line = auditLogLine(row());
    assert.equal(
      line,
      `2023-11-14T22:13:20.500Z,1700000000.5,started,prod,3,reg/web:1,${'a'.repeat(64)},web,t1,${'b'.repeat(40)},acme/web,true,false,Started running with 1 instance,NON-COMPLIANT,COMPLIANT\r\n`,
    );
    assert.equal(parseCsv(line)[0].length, AUDIT_LOG_COLUMNS.length);
    const none = parseCsv(
      auditLogLine(row({ flow_names: [], trail_names: [], git_commit: '', repo_names: [], artifact_compliant: null })),
    )[0];
    assert.deepEqual([none[7], none[8], none[9], none[10], none[11]], ['', '', '', '', '']);
    const two = parseCsv(auditLogLine(row({ flow_names: ['a', 'b'] })))[0];
    assert.equal(two[7], 'a;b');
  });

  it("says each row's compliance in the shared words: NO POLICY where no policy judged the snapshot", () => {
    const words = (artifact: boolean | null, snapshot: boolean | null) =>
      parseCsv(auditLogLine(row({ artifact_compliant: artifact, snapshot_compliant: snapshot })))[0].slice(-2);
    assert.deepEqual(words(true, true), ['COMPLIANT', 'COMPLIANT']);
    assert.deepEqual(words(false, false), ['NON-COMPLIANT', 'NON-COMPLIANT']);
    assert.deepEqual(words(true, false), ['NON-COMPLIANT', 'COMPLIANT']);
    // The wire keeps the spec's `false` for a snapshot no policy judged; the words do not say NON-COMPLIANT.
    const unjudged = parseCsv(auditLogLine(row({ artifact_compliant: null, snapshot_compliant: false })))[0];
    assert.deepEqual([unjudged[11], unjudged[12], ...unjudged.slice(-2)], ['', 'false', 'NO POLICY', 'NO POLICY']);
    assert.deepEqual(AUDIT_LOG_COLUMNS.slice(-2), ['snapshot_compliance', 'artifact_compliance']);
  });

  it('reads back what it wrote, whatever the names hold, a formula start behind a quote (property)', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', ',', '"', '\n', '\r', '\t', ' ', 'é', ';', '=', '+', '-', '@'),
      maxLength: 12,
    });
    const shown = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);
    fc.assert(
      fc.property(text, text, text, (name, flow, description) => {
        const fields = parseCsv(auditLogLine(row({ artifact_name: name, flow_names: [flow], description })));
        assert.equal(fields.length, 1);
        assert.equal(fields[0][5], shown(name));
        assert.equal(fields[0][7], shown(flow));
        assert.equal(fields[0][13], shown(description));
      }),
      { seed: 12, numRuns: 300 },
    );
  });

  it('neutralises every cell a spreadsheet would run as a formula (OWASP, CWE-1236)', () => {
    for (const hostile of ['=HYPERLINK("http://x","y")', '+1+1', '-2+3', '@SUM(A1)', '\t=1', '\r=1']) {
      const field = parseCsv(`${csvField(hostile)}\r\n`)[0][0];
      assert.equal(field, `'${hostile}`, JSON.stringify(hostile));
    }
    assert.equal(csvField('app=1'), 'app=1', 'only the first character counts');
  });

  it('streams a header then one chunk per batch, asking for the next batch after the last cursor', async () => {
    const batches = [[row({ snapshot_index: 1 }), row({ snapshot_index: 2 })], [row({ snapshot_index: 3 })], []];
    const cursors: Array<number | undefined> = [];
    const chunks = await collected(
      auditLogChunks<number>((after) => {
        cursors.push(after);
        const index = after ?? 0;
        return { rows: batches[index], cursor: index + 1 };
      }),
    );
    assert.deepEqual(cursors, [undefined, 1, 2]);
    assert.equal(chunks.length, 3);
    assert.equal(chunks[0], AUDIT_LOG_COLUMNS.join(',') + '\r\n');
    const rows = parseCsv(chunks.join(''));
    assert.deepEqual(
      rows.map((r) => r[4]),
      ['snapshot_index', '1', '2', '3'],
    );
  });

  it('writes only the header for an empty log', async () => {
    assert.deepEqual(await collected(auditLogChunks(() => ({ rows: [], cursor: 0 }))), [
      AUDIT_LOG_COLUMNS.join(',') + '\r\n',
    ]);
  });
});
