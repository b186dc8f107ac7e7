// The spec's rule for lists: a record that cannot be rendered does not fail the list; a marked
// placeholder takes its place.
import { isUnreadable, type Unreadable } from '../store/db.ts';

export interface Placeholder {
  placeholder: true;
  id: string;
  message: string;
}

export function placeholderOf(id: string, reason: string): Placeholder {
  return { placeholder: true, id, message: `This record could not be rendered: ${reason}` };
}

/** Renders each item, putting a placeholder in place of an unreadable row or a failed rendering. */
export async function renderEach<T, V>(
  items: ReadonlyArray<T | Unreadable>,
  idOf: (item: T) => string,
  render: (item: T) => V | Promise<V>,
): Promise<Array<V | Placeholder>> {
  const views: Array<V | Placeholder> = [];
  for (const item of items) {
    if (isUnreadable(item)) {
      views.push(placeholderOf(item.id, item.reason));
      continue;
    }
    try {
      views.push(await render(item));
    } catch (error) {
      views.push(placeholderOf(idOf(item), error instanceof Error ? error.message : String(error)));
    }
  }
  return views;
}
