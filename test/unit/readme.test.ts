// The README's first screen: what the product is and its picture, then the two commands (the
// first the README gives: `.ci/run` and a newcomer run them), then its contents. Every link of the
// README leads somewhere: an anchor to one of its headings, a path to a file of the repository.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** A heading's anchor as the common Markdown renderers make it: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The README's headings outside its code blocks, with their level. */
function headings(): { level: number; text: string }[] {
  const outsideCode = readme.replace(/^```[\s\S]*?^```$/gm, '');
  return [...outsideCode.matchAll(/^(#{1,6}) (.+)$/gm)].map(([, hashes, text]) => ({ level: hashes.length, text }));
}

/** Width and height from a PNG's header chunk (IHDR, right after the signature). */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], `${file} is a PNG`);
  assert.equal(bytes.subarray(12, 16).toString('ascii'), 'IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('README.md', () => {
  const firstFence = readme.indexOf('```');

  it('starts with what the product is and its picture, then the two commands, first of all', () => {
    const top = readme.slice(0, firstFence);
    assert.match(top, /^# Compliance Evidence\n\n\S/);
    assert.match(top, /Compliance Evidence Service API v2/);
    const picture = /!\[[^\]]{20,}\]\((docs\/[\w.-]+\.png)\)/.exec(top);
    assert.ok(picture, 'a picture, described, before the first command');
    const { width, height } = pngSize(join(root, picture[1]));
    assert.ok(width >= 1000 && height >= 600, `${picture[1]} is ${width} x ${height}`);
    const block = /^```sh\n([\s\S]*?)^```$/m.exec(readme.slice(firstFence));
    assert.ok(block);
    assert.deepEqual(
      block[1]
        .trimEnd()
        .split('\n')
        .map((line) => line.replace(/\s+#.*$/, '')),
      ['npm ci && npm start', 'npm ci && npm test'],
    );
  });

  it('lists its contents after the commands, every section among them', () => {
    const contents = readme.indexOf('\n## Contents\n');
    assert.ok(contents > firstFence, 'the contents come after the two commands');
    assert.equal(headings().find(({ level }) => level === 2)?.text, 'Contents', 'the first section');
    const list = readme.slice(contents, readme.indexOf('\n## ', contents + 1));
    const linked = new Set([...list.matchAll(/\]\(#([^)]+)\)/g)].map(([, anchor]) => anchor));
    const sections = headings()
      .filter(({ level, text }) => level === 2 && text !== 'Contents')
      .map(({ text }) => anchorOf(text));
    assert.ok(sections.length >= 6);
    assert.deepEqual(
      sections.filter((anchor) => !linked.has(anchor)),
      [],
    );
  });

  it('links only to its own headings and to files that exist', () => {
    const anchors = new Set(headings().map(({ text }) => anchorOf(text)));
    const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map(([, target]) => target);
    assert.ok(links.length > 10);
    for (const target of links) {
      if (/^https?:/.test(target)) continue;
      if (target.startsWith('#')) assert.ok(anchors.has(target.slice(1)), `no heading for ${target}`);
      else assert.ok(existsSync(join(root, target.split('#')[0])), `no file ${target}`);
    }
  });

  it('leaves how the code is checked to CONTRIBUTING.md', () => {
    assert.doesNotMatch(readme, /typescript-eslint|@typescript\/native|Prettier/);
    assert.match(readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8'), /typescript-eslint/);
  });
});
