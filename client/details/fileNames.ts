// A file name from the server (an evidence archive's name was chosen by whoever uploaded it) made
// safe to write under a folder of ours: its last path segment only, no dots in front, no character
// a file system or a shell treats specially. No VS Code here.

export function safeFileName(name: string | undefined, fallback = 'evidence'): string {
  const last = (name ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = last
    .replace(/[^\w.-]+/g, '_')
    .replace(/^[.\-_]+/, '')
    .slice(0, 120);
  return cleaned === '' ? fallback : cleaned;
}
