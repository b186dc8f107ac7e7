// The hostile corpus of issue 16, for the pages' browser tests: each value sets window.pwned or
// opens a dialog if it ever runs, turns into a link or a formula if it is ever read as markup.
export const HOSTILE_PARTS = [
  '<script>window.pwned=1</script>',
  '<img src=x onerror="window.pwned=1">',
  '"><svg onload=alert(1)>',
  '=HYPERLINK("https://evil.test")',
  '[click](javascript:window.pwned=1) ![x](https://evil.test/x.png)',
  '\u202Egnp.exe',
];

export const HOSTILE = [...HOSTILE_PARTS, 'x'.repeat(5000)].join(' | ');

/** Parts short enough for a name field that still takes free text (image names, pod names). */
export const HOSTILE_SHORT = '<img src=x onerror=alert(1)>"\u202E=cmd';
