// Golden fixtures: each file under fixtures/ names its kind (`*.flow-template.yaml`, …) and says
// which findings it must produce — `# want <code>...` on the line that carries them (YAML), or a
// sibling `<file>.want` with `<line> <code>` rows (JSON). Shared by the unit and CLI tests.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const fixturesDir = fileURLToPath(new URL('./fixtures/', import.meta.url));

export interface Fixture {
  /** Path relative to fixtures/. */
  name: string;
  path: string;
  text: string;
  /** Expected findings as `<1-based line> <code>`, sorted. */
  want: string[];
}

export function loadFixtures(): Fixture[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ya?ml|json)$/.test(entry.name)) files.push(path);
    }
  };
  walk(fixturesDir);
  return files.sort().map((path) => {
    const text = readFileSync(path, 'utf8');
    return { name: relative(fixturesDir, path), path, text, want: wantOf(path, text) };
  });
}

function wantOf(path: string, text: string): string[] {
  const want: string[] = [];
  if (path.endsWith('.json')) {
    const sibling = `${path}.want`;
    if (existsSync(sibling)) {
      for (const row of readFileSync(sibling, 'utf8').split('\n')) {
        const [line, ...codes] = row.trim().split(/\s+/);
        if (line) for (const code of codes) want.push(`${line} ${code}`);
      }
    }
  } else {
    text.split('\n').forEach((line, index) => {
      const marker = /#\s*want\s+(.+)$/.exec(line);
      if (marker) for (const code of marker[1].trim().split(/\s+/)) want.push(`${index + 1} ${code}`);
    });
  }
  return want.sort();
}
