// The flow template both the core and the language-server benchmarks measure, so their figures
// speak of the same document.

/** Lines of the large template: 997 slots, the largest within the shared limit of 1,000 (shared/limits.ts). */
export const LARGE = 2000;

/** A realistic template of `lines` lines: ten trail attestations, then artifacts of six lines. `misspelt`: the artifact whose unit-test type reads `juint`. */
export function flowTemplateLines(lines: number, misspelt?: number): string[] {
  const out = ['version: 1', 'trail:', '  attestations:'];
  for (let i = 0; i < 10; i++)
    out.push(`    - name: trail-check-${i}`, `      type: ${i % 2 === 0 ? 'generic' : 'jira'}`);
  out.push('  artifacts:');
  for (let i = 0; out.length + 6 <= lines; i++) {
    out.push(
      `    - name: artifact-${i}`,
      '      attestations:',
      '        - name: unit-test',
      `          type: ${i === misspelt ? 'juint' : 'junit'}`,
      '        - name: security-scan',
      '          type: snyk',
    );
  }
  while (out.length < lines) out.push('# end of template');
  return out;
}
