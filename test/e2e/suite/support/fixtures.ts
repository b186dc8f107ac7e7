// The suite's fixture files (test/e2e/fixtures), read as text or copied into the open folder.
import { copyFileSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { repoRoot, workspaceDir } from './paths.ts';

export function fixturePath(name: string): string {
  return path.join(repoRoot(), 'test', 'e2e', 'fixtures', name);
}

export function fixtureText(name: string): string {
  return readFileSync(fixturePath(name), 'utf8');
}

/** Copies the fixture into the workspace folder and returns the copy's path. */
export function fixtureInWorkspace(name: string, as = name): string {
  const target = path.join(workspaceDir(), as);
  copyFileSync(fixturePath(name), target);
  return target;
}
