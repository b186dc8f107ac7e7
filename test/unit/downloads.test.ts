// A download's Content-Disposition (RFC 6266): whatever the file's name, a header Node sends, an
// ASCII `filename` for every client and the exact name in `filename*` (RFC 8187) when it differs.
import assert from 'node:assert/strict';
import { validateHeaderValue } from 'node:http';
import { decodeExtended, parse } from 'content-disposition';
import { asciiFilenameOf, attachmentDisposition } from '../../server/api/http/downloads.ts';

describe('download names (RFC 6266)', () => {
  it('sends an ASCII name as it is, and one that is not with an ASCII fallback beside it', () => {
    assert.equal(attachmentDisposition('report.txt'), 'attachment; filename=report.txt');
    assert.equal(attachmentDisposition('my report.txt'), 'attachment; filename="my report.txt"');
    assert.equal(
      attachmentDisposition('é😀.txt'),
      "attachment; filename=e_.txt; filename*=UTF-8''%C3%A9%F0%9F%98%80.txt",
    );
  });

  it('gives back every name exactly, whatever it holds', () => {
    const names = [
      'a"b\\c.txt',
      '%41%E2%82%AC.txt',
      "it's (1) [x] {y}; z=1,2.txt",
      'отчёт.xml',
      '测试报告.pdf',
      'a\u0000b\r\nc.txt', // stored before control characters were refused at upload
      '\u202Egnp.exe',
    ];
    for (const name of names) {
      const header = attachmentDisposition(name);
      assert.doesNotThrow(() => validateHeaderValue('content-disposition', header), header);
      assert.equal(parse(header).parameters.filename, name, header);
      assert.match(parse(header, { extended: false }).parameters.filename, /^[\x20-\x7e]+$/, header);
    }
  });

  it('keeps the ASCII fallback from being read as percent-encoded', () => {
    assert.equal(asciiFilenameOf('%41.txt'), '_41.txt');
    assert.equal(asciiFilenameOf('100% sure.txt'), '100% sure.txt');
    assert.equal(asciiFilenameOf('Ångström naïve.txt'), 'Angstrom naive.txt');
  });

  it('sends a lost half of a surrogate pair as U+FFFD rather than failing', () => {
    const encoded = parse(attachmentDisposition('a\uD800b.txt'), { extended: false }).parameters['filename*'];
    assert.equal(decodeExtended(encoded), 'a\uFFFDb.txt');
  });
});
