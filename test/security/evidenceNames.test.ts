// Evidence file names (issue 23, item 6): on main, evidence named `é😀.txt` or holding a NUL was
// stored (201) and every download of it answered 500 `{}`, the name being put into a header as it
// was. Now the name is kept as sent and every place that shows it shows it whole: the download's
// Content-Disposition (RFC 6266: an ASCII `filename` and the exact name in `filename*`), the
// attestation as the API answers it, the audit package's entry, the trail's web page and its
// download. A name with control characters (NUL, line breaks), which no header or file system
// takes, is refused at upload with 400 and nothing is stored.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { parse } from 'content-disposition';
import { extract } from 'tar-stream';
import { attest, beginTrail, createFlow } from '../api/fixtures.ts';
import { startServer, type TestServer } from '../api/harness.ts';
import type { Attestation, ErrorBody } from '../api/answers.ts';
import { sessionCookie } from './serverProbes.ts';

// Quotes and backslashes are left out: form clients send `"` as %22 (the HTML form encoding),
// which arrives as those three characters; how they are sent back is in test/unit/downloads.test.ts.
const NAMES = ['é😀.txt', 'отчёт по тестам.xml', '测试报告 (final).pdf', 'naïve name%41.log', '%E2%82%AC.txt'];

/** The exact name and the ASCII one a Content-Disposition header gives. */
function namesOf(header: string | string[] | undefined): { exact: string; ascii: string } {
  assert.equal(typeof header, 'string');
  const disposition = parse(header as string);
  assert.equal(disposition.type, 'attachment');
  const ascii = parse(header as string, { extended: false }).parameters.filename;
  assert.match(ascii, /^[\x20-\x7e]+$/, `an ASCII fallback: ${ascii}`);
  // filename*, when there is one, is read in place of filename.
  return { exact: disposition.parameters.filename, ascii };
}

async function packageEntries(server: TestServer, trail: string): Promise<string[]> {
  const response = await fetch(`${server.url}/api/v2/trails/default/web/${trail}/audit_package`, {
    headers: { authorization: `Bearer ${server.key}` },
  });
  assert.equal(response.status, 200);
  const names: string[] = [];
  const unpack = extract();
  unpack.on('entry', (header, stream, next) => {
    names.push(header.name);
    stream.resume();
    stream.on('end', next);
  });
  await pipeline(Readable.from([Buffer.from(await response.arrayBuffer())]), createGunzip(), unpack);
  return names;
}

describe('evidence file names in any Unicode', function () {
  this.timeout(60_000);
  let server: TestServer;
  let cookie: string;
  before(async () => {
    server = await startServer();
    await createFlow(server, 'default', 'web');
    await beginTrail(server, 'default', 'web', 'names');
    cookie = await sessionCookie(server, server.key);
  });
  after(async () => {
    await server?.stop();
  });

  it('round-trips each name through the upload, the download, the answers, the package and the web page', async () => {
    for (const [index, filename] of NAMES.entries()) {
      const content = `evidence ${index}`;
      const stored = await attest(
        server,
        'default',
        'web',
        'names',
        'generic',
        { attestation_name: `e${index}` },
        {
          filename,
          content,
        },
      );
      assert.equal(stored.status, 201, stored.text);
      const [attestation] = (await server.get<Attestation[]>(`/api/v2/attestations/default/web/trail/names/e${index}`))
        .body;
      assert.ok(attestation.evidence_archive_path?.endsWith(`/${filename}`), attestation.evidence_archive_path ?? '');

      const download = await server.raw(
        'GET',
        `/api/v2/attestations/default/web/trail/names/attestation/${attestation.attestation_id}/evidence`,
        undefined,
        { authorization: `Bearer ${server.key}` },
      );
      assert.equal(download.status, 200, download.text);
      assert.equal(download.text, content);
      assert.equal(namesOf(download.headers['content-disposition']).exact, filename);

      const page = `/default/flows/web/trails/names`;
      const shown = await server.raw('GET', `${page}?attestation_id=${attestation.attestation_id}`, undefined, {
        cookie,
      });
      assert.equal(shown.status, 200);
      assert.ok(shown.text.includes(`>${filename}</a>`), `the page shows ${filename}`);
      const fromPage = await server.raw('GET', `${page}/evidence/${attestation.attestation_id}`, undefined, { cookie });
      assert.equal(fromPage.status, 200);
      assert.equal(fromPage.text, content);
      assert.equal(namesOf(fromPage.headers['content-disposition']).exact, filename);
    }
    const first = await server.get<Attestation[]>('/api/v2/attestations/default/web/trail/names/e0');
    const download = await server.raw(
      'GET',
      `/api/v2/attestations/default/web/trail/names/attestation/${first.body[0].attestation_id}/evidence`,
      undefined,
      { authorization: `Bearer ${server.key}` },
    );
    assert.equal(namesOf(download.headers['content-disposition']).ascii, 'e_.txt', 'accent dropped, emoji replaced');

    // Each file under its attestation, its name kept.
    const entries = await packageEntries(server, 'names');
    for (const filename of NAMES)
      assert.ok(
        entries.some((entry) => entry.endsWith(`/${filename}`)),
        `${filename} in ${entries.join(', ')}`,
      );
  });

  it('refuses a name with a NUL or another control character, or over 255 characters, with 400 and stores nothing', async () => {
    const before = (await server.get('/api/v2/attestations/default/web?per_page=100')).text;
    for (const filename of [
      'a\u0000b.txt',
      'bell\u0007.txt',
      'del\u007f.txt',
      'c1\u0085.txt',
      `${'é'.repeat(256)}.txt`,
    ]) {
      const refused = await attest<ErrorBody>(
        server,
        'default',
        'web',
        'names',
        'generic',
        { attestation_name: 'bad' },
        {
          filename,
          content: 'x',
        },
      );
      assert.equal(refused.status, 400, `${JSON.stringify(filename)}: ${refused.text}`);
      assert.match(refused.body.errors?.attachment_file ?? '', /^File name must/);
    }
    assert.equal((await server.get('/api/v2/attestations/default/web?per_page=100')).text, before, 'nothing stored');
  });
});
