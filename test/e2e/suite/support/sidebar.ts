// The rows of our views as the page shows them: found by label, expanded by a click as a user does.
import { page, type ShownElement } from './page.ts';
import { waitFor } from '../../../support/wait.ts';

const ROWS = '#workbench\\.parts\\.sidebar .monaco-list-row';

/** The codicon a compliance state is drawn with (client/tree/treeItem.ts). */
export const complianceIcon = {
  COMPLIANT: 'codicon-pass-filled',
  'NON-COMPLIANT': 'codicon-error',
  INCOMPLETE: 'codicon-circle-large-outline',
  MISSING: 'codicon-circle-slash',
} as const;

/** The row whose label is `label`, once the sidebar shows it (and `accept` holds, when given). */
export async function shownRow(
  label: string,
  accept: (row: ShownElement) => boolean = () => true,
  timeoutMs = 20_000,
): Promise<ShownElement> {
  return waitFor(
    async () => (await page.query(ROWS)).find((row) => row.label?.trim() === label && accept(row)),
    `a sidebar row '${label}'`,
    timeoutMs,
  );
}

export function hasIcon(row: ShownElement, icon: string): boolean {
  return row.icons.some((classes) => classes.split(/\s+/).includes(icon));
}

/** Clicks the row open unless it is open already. */
export async function openRow(label: string): Promise<void> {
  const row = await shownRow(label);
  if (row.expanded !== 'true') await page.click(ROWS, { label });
}

/** Opens the row, then waits for `child` to show under it. */
export async function expandRow(label: string, child: string): Promise<ShownElement> {
  await openRow(label);
  return shownRow(child);
}
