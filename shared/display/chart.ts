// Compliance over time as an SVG picture, made by a pure function so the web pages (whose policy
// runs no script) and the editor's webview embed the very same markup. Bars stack compliant,
// non-compliant and unknown artifacts per snapshot; each bar carries its numbers as a tooltip and
// as data attributes, and the picture names itself for screen readers. Only numbers and escaped
// text go into the markup.

export interface ChartPoint {
  /** The snapshot's index; bars are drawn in index order. */
  index: number;
  compliant: number;
  nonCompliant: number;
  unknown: number;
}

/** Fills that read in both light and dark themes; text uses the surrounding colour. */
export const CHART_COLOURS = { compliant: '#2e7d32', nonCompliant: '#c62828', unknown: '#8a8a8a' } as const;

const HEIGHT = 240;
const TOP = 16;
const BOTTOM = 48;
const LEFT = 40;
const BAR = 24;
const GAP = 10;
const MAX_X_LABELS = 12;

/** The chart as an `<svg>` element; `title` names it (e.g. "production: compliance per snapshot"). */
export function complianceChartSvg(title: string, points: readonly ChartPoint[]): string {
  const ordered = [...points].sort((a, b) => a.index - b.index);
  const width = Math.max(480, LEFT + ordered.length * (BAR + GAP) + GAP);
  const plot = HEIGHT - TOP - BOTTOM;
  const max = Math.max(1, ...ordered.map((point) => point.compliant + point.nonCompliant + point.unknown));
  const scale = (count: number) => (count / max) * plot;
  const labelEvery = Math.max(1, Math.ceil(ordered.length / MAX_X_LABELS));
  const bars = ordered.map((point, position) => {
    const x = LEFT + GAP + position * (BAR + GAP);
    let y = TOP + plot;
    const segment = (count: number, fill: string, kind: string): string => {
      if (count <= 0) return '';
      const height = scale(count);
      y -= height;
      return `<rect class="${kind}" x="${x}" y="${round(y)}" width="${BAR}" height="${round(height)}" fill="${fill}"/>`;
    };
    const summary = `#${point.index}: ${point.compliant} compliant, ${point.nonCompliant} non-compliant, ${point.unknown} unknown`;
    const label =
      position % labelEvery === 0
        ? `<text x="${x + BAR / 2}" y="${TOP + plot + 14}" text-anchor="middle" font-size="10" fill="currentColor">#${point.index}</text>`
        : '';
    return (
      `<g class="snapshot" data-snapshot="${point.index}" data-compliant="${point.compliant}" data-non-compliant="${point.nonCompliant}" data-unknown="${point.unknown}">` +
      `<title>${escapeXml(summary)}</title>` +
      segment(point.compliant, CHART_COLOURS.compliant, 'compliant') +
      segment(point.nonCompliant, CHART_COLOURS.nonCompliant, 'non-compliant') +
      segment(point.unknown, CHART_COLOURS.unknown, 'unknown') +
      `<rect x="${x}" y="${TOP}" width="${BAR}" height="${plot}" fill="transparent"/>` +
      label +
      `</g>`
    );
  });
  const legendY = HEIGHT - 12;
  const legend = [
    [CHART_COLOURS.compliant, 'compliant'],
    [CHART_COLOURS.nonCompliant, 'non-compliant'],
    [CHART_COLOURS.unknown, 'unknown'],
  ]
    .map(([fill, text], position) => {
      const x = LEFT + position * 120;
      return `<rect x="${x}" y="${legendY - 9}" width="10" height="10" fill="${fill}"/><text x="${x + 14}" y="${legendY}" font-size="11" fill="currentColor">${text}</text>`;
    })
    .join('');
  const axis =
    `<line x1="${LEFT}" y1="${TOP}" x2="${LEFT}" y2="${TOP + plot}" stroke="currentColor" stroke-width="1"/>` +
    `<line x1="${LEFT}" y1="${TOP + plot}" x2="${width}" y2="${TOP + plot}" stroke="currentColor" stroke-width="1"/>` +
    `<text x="${LEFT - 4}" y="${TOP + 4}" text-anchor="end" font-size="10" fill="currentColor">${max}</text>` +
    `<text x="${LEFT - 4}" y="${TOP + plot + 4}" text-anchor="end" font-size="10" fill="currentColor">0</text>`;
  const empty =
    ordered.length === 0
      ? `<text x="${LEFT + GAP}" y="${TOP + plot / 2}" font-size="12" fill="currentColor">No snapshots yet</text>`
      : '';
  const name = `${title}. ${ordered.length === 0 ? 'No snapshots.' : `${ordered.length} snapshots, artifacts by compliance.`}`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="compliance-chart" role="img" aria-label="${escapeXml(name)}" viewBox="0 0 ${width} ${HEIGHT}" width="${width}" height="${HEIGHT}">` +
    `<title>${escapeXml(name)}</title>${axis}${bars.join('')}${empty}${legend}</svg>`
  );
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
