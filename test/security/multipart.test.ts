// Multipart bodies (issue 23, item 2): on main, an attestation with 30 unknown text fields of 9 MB
// each was stored (201) after the server had held every field (RSS +546 MB; four such requests at
// once, 1.39 GB). Now an operation takes only the parts it declares, each once: another part is
// refused with 400 naming it as soon as it arrives, and the rest of the body is dropped as it
// comes; a text field is held to 1 MB (413 naming it), a file to the spec's 10 MB.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { beginTrail, createFlow } from '../api/fixtures.ts';
import { startServer, type TestServer } from '../api/harness.ts';
import type { ErrorBody } from '../api/answers.ts';
import { assertAlive, socketTo, watchServer } from './serverProbes.ts';

const MB = 1024 * 1024;
const BOUNDARY = 'cev-multipart-test-boundary';

interface RawPart {
  name: string;
  /** A text field of this many bytes of `x`, produced as it is sent. */
  bytes?: number;
  text?: string;
  filename?: string;
}

/** A multipart body produced as it is sent: parts of many MB cost the test no memory. */
function* multipartBytes(parts: readonly RawPart[]): Generator<Buffer> {
  const megabyte = Buffer.alloc(MB, 'x');
  for (const part of parts) {
    const file = part.filename === undefined ? '' : `; filename="${part.filename}"`;
    yield Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="${part.name}"${file}\r\n\r\n`);
    if (part.text !== undefined) yield Buffer.from(part.text);
    for (let left = part.bytes ?? 0; left > 0; left -= MB) yield left >= MB ? megabyte : megabyte.subarray(0, left);
    yield Buffer.from('\r\n');
  }
  yield Buffer.from(`--${BOUNDARY}--\r\n`);
}

/**
 * Sends the whole body on a raw socket whatever the server answers meanwhile, as a client that
 * does not watch for an early answer does, then reads the answer.
 */
async function postWhole(server: TestServer, path: string, parts: readonly RawPart[]) {
  let length = 0;
  for (const chunk of multipartBytes(parts)) length += chunk.length;
  const socket = await socketTo(server);
  const received: Buffer[] = [];
  const closed = new Promise((resolve) => socket.once('close', resolve));
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  socket.write(
    `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${server.key}\r\n` +
      `content-type: multipart/form-data; boundary=${BOUNDARY}\r\ncontent-length: ${length}\r\n\r\n`,
  );
  for (const chunk of multipartBytes(parts))
    if (!socket.write(chunk)) await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), closed]);
  assert.ok(!socket.destroyed, 'the server read the whole body');
  // The answer came while the body was sent; the connection stays open for the next request.
  const answer = Buffer.concat(received).toString();
  socket.destroy();
  const [head, body] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), body: JSON.parse(body) as ErrorBody };
}

describe('multipart bodies: only the declared parts, each capped', function () {
  this.timeout(120_000);
  let server: TestServer;
  const path = '/api/v2/attestations/default/web/trail/uploads/generic';
  const data = (name: string) => ({ name: 'data_json', text: JSON.stringify({ attestation_name: name }) });

  const post = async (parts: readonly RawPart[]) => {
    const response = await request(`${server.url}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${server.key}`,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      },
      body: Readable.from(multipartBytes(parts)),
    });
    return { status: response.statusCode, body: (await response.body.json()) as ErrorBody };
  };
  const stored = async () => (await server.get('/api/v2/attestations/default/web?per_page=100')).text;

  before(async () => {
    server = await startServer({ process: true });
    await createFlow(server, 'default', 'web');
    await beginTrail(server, 'default', 'web', 'uploads');
  });
  after(async () => {
    await server?.stop();
  });

  it('refuses 30 unknown text fields of 9 MB with 400 naming the first, four requests at once, with bounded memory', async () => {
    const before = await stored();
    const junk = Array.from({ length: 30 }, (_, index) => ({ name: `junk-${index}`, bytes: 9 * MB }));
    const watch = watchServer(server);
    const started = Date.now();
    const replies = await Promise.all(
      Array.from({ length: 4 }, () => postWhole(server, path, [data('junk'), ...junk])),
    );
    const took = Date.now() - started;
    const { rssGrowthMb } = await watch.stop();
    for (const reply of replies) {
      assert.equal(reply.status, 400);
      assert.deepEqual(reply.body, {
        errors: { 'junk-0': 'Extra inputs are not permitted [input: None]' },
        message: "Unknown multipart part 'junk-0': this operation takes data_json, attachment_file",
      });
    }
    // The 4 x 270 MB are read and dropped as they come. Measured: 2.6-4.4 s for all four, RSS
    // +96-154 MB, which is the garbage of the socket reads between two collections (V8 collects
    // when about 64 MB of buffers are waiting; one such request alone: +62-69 MB). On main the
    // fields were held: +1.39 GB.
    assert.ok(took < 30_000, `answered in ${took} ms`);
    assert.ok(rssGrowthMb < 250, `RSS grew by ${rssGrowthMb.toFixed(0)} MB`);
    assert.equal(await stored(), before, 'nothing stored');
    await assertAlive(server, server.pid);
  });

  it('refuses an unknown file part and a part sent twice with 400 naming it', async () => {
    const before = await stored();
    const file = await post([data('file'), { name: 'extra_file', filename: 'x.bin', bytes: 5 * MB }]);
    assert.equal(file.status, 400);
    assert.match(file.body.errors?.extra_file ?? '', /^Extra inputs are not permitted/);
    const twice = await post([
      data('twice'),
      { name: 'attachment_file', filename: 'a.txt', text: 'a' },
      {
        name: 'attachment_file',
        filename: 'b.txt',
        text: 'b',
      },
    ]);
    assert.equal(twice.status, 400);
    assert.deepEqual(twice.body, {
      errors: { attachment_file: 'Sent more than once [input: None]' },
      message: "Multipart part 'attachment_file' is sent more than once",
    });
    assert.equal(await stored(), before, 'nothing stored');
  });

  it('holds a text field to 1 MB with 413 naming it, and takes the same JSON as a file part', async () => {
    const json = JSON.stringify({ attestation_name: 'large', user_data: { log: 'y'.repeat(2 * MB) } });
    const field = await post([{ name: 'data_json', text: json }]);
    assert.equal(field.status, 413);
    assert.match(field.body.message, /^Multipart part 'data_json' is too large: text parts are limited to 1 MB/);
    const reply = await server.multipart('POST', path, {
      data_json: { filename: 'data.json', content: json, type: 'application/json' },
    });
    assert.equal(reply.status, 201, reply.text);
  });
});
