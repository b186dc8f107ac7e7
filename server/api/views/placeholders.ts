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
export function renderEach<T, V>(items: ReadonlyArray<T | Unreadable>, idOf: (item: T) => string, render: (item: T) => V): Array<V | Placeholder> {
  return items.map((item) => {
    if (isUnreadable(item)) return placeholderOf(item.id, item.reason);
    try {
      return render(item);
    } catch (error) {
      return placeholderOf(idOf(item), error instanceof Error ? error.message : String(error));
    }
  });
}
