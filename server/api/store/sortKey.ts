// Lists sort names as the API always has, by String.prototype.localeCompare; to page them in SQL,
// each name is stored with a key whose plain binary order is that order. The key is the
// collator's primary order of every character (case and accents aside), then, to break ties, each
// character's place among those sharing its primary weight (lowercase before uppercase).
const collator = new Intl.Collator();
const base = new Intl.Collator(undefined, { sensitivity: 'base' });

/** Printable ASCII in collation order, with the rank of its primary weight and of its variant. */
const ranks = (() => {
  const chars = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).sort(collator.compare);
  const byChar = new Map<string, { primary: number; variant: number }>();
  let primary = 0;
  let variant = 0;
  chars.forEach((char, index) => {
    if (index > 0 && base.compare(chars[index - 1], char) !== 0) {
      primary += 1;
      variant = 0;
    } else if (index > 0) variant += 1;
    byChar.set(char, { primary, variant });
  });
  return byChar;
})();

/** Key characters start above U+0001, which separates the primary part from the tie-breaks. */
function keyChar(rank: number): string {
  return String.fromCodePoint(rank + 2);
}

/** The sort key of `name`; characters outside printable ASCII follow it, in code point order. */
export function nameSortKey(name: string): string {
  let primary = '';
  let variants = '';
  for (const char of name) {
    const rank = ranks.get(char);
    primary += keyChar(rank === undefined ? 0x100 + char.codePointAt(0)! : rank.primary);
    variants += keyChar(rank === undefined ? 0 : rank.variant);
  }
  return `${primary}\u0001${variants}`;
}
