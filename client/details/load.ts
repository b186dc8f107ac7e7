// A detail target's page: the API records it needs, through the shared display models, into markup.
// A failure becomes a page that says what went wrong (the server's own message), never a blank one.
// No VS Code here.
import type { ApiClient } from '../../shared/apiClient/client.ts';
import { html } from '../../shared/html.ts';
import { attestationDisplay } from '../../shared/display/attestation.ts';
import { isRecord, listOf, textOf } from '../../shared/display/links.ts';
import { trailDisplay, type AttestationSummary } from '../../shared/display/trail.ts';
import { messageOf } from '../tree/treeProvider.ts';
import type { DetailTarget } from './messages.ts';
import { attestationPage, missingAttestationPage } from './render/attestationPage.ts';
import { action, type DetailPage, type Pages } from './render/parts.ts';
import { trailPage } from './render/trailPage.ts';
import { artifactPage } from './render/artifactPage.ts';
import { auditEntriesOf, environmentPage } from './render/environmentPage.ts';
import { comparisonPage, snapshotPage } from './render/snapshotPage.ts';
import { artifactDisplay } from '../../shared/display/artifact.ts';
import { environmentDisplay } from '../../shared/display/environment.ts';
import { snapshotDisplay } from '../../shared/display/snapshot.ts';
import { snapshotComparisonDisplay } from '../../shared/display/snapshotComparison.ts';

/** The records a target shows, fetched once; paging re-renders them without fetching again. */
export type Loaded = (pages: Pages) => DetailPage;

export async function load(api: ApiClient, target: DetailTarget): Promise<Loaded> {
  switch (target.kind) {
    case 'trail': {
      const record = asRecord(await api.getTrail(target.flow, target.trail));
      const trail = trailDisplay(record, attestationsOf(record));
      return (pages) => trailPage(trail, pages);
    }
    case 'attestation': {
      if (target.attestationId !== undefined) {
        const attestation = attestationDisplay(await api.getAttestation(target.attestationId));
        return (pages) => attestationPage(attestation, pages);
      }
      const trail = trailDisplay(asRecord(await api.getTrail(target.flow, target.trail)));
      const slot = trail.slots.find((entry) => entry.name === target.name);
      return () => missingAttestationPage(target.flow, target.trail, target.name ?? '', slot);
    }
    case 'artifact': {
      const artifact = artifactDisplay(await api.getArtifact(target.flow, target.fingerprint, target.trail));
      return (pages) => artifactPage(artifact, pages);
    }
    case 'snapshot': {
      const snapshot = snapshotDisplay(
        target.environment,
        asRecord(await api.getSnapshot(target.environment, target.index)),
      );
      return (pages) => snapshotPage(snapshot, pages);
    }
    case 'compare': {
      const comparison = snapshotComparisonDisplay(
        await api.snapshotDiff(target.environment, Math.min(target.from, target.to), Math.max(target.from, target.to)),
      );
      return (pages) => comparisonPage(comparison, pages);
    }
    case 'environment': {
      const [environment, list, events] = await Promise.all([
        api.getEnvironment(target.environment),
        api.listSnapshots(target.environment, 1, CHART_SNAPSHOTS),
        api.environmentEvents(target.environment, AUDIT_EVENTS),
      ]);
      // The list's summaries lack the per-compliance counts the chart draws: read each snapshot.
      const [snapshots, policies] = await Promise.all([
        Promise.all(list.map((item) => api.getSnapshot(target.environment, item.index))),
        // A policy that cannot be read still shows by name (the environment names it).
        Promise.all(
          listOf(
            Array.isArray(environment.policies) ? environment.policies.map((name: unknown) => ({ name })) : [],
          ).map((entry) => api.getPolicy(textOf(entry.name)).catch(() => undefined)),
        ),
      ]);
      const display = environmentDisplay(
        environment,
        snapshots.map(asRecord),
        policies.filter((policy) => policy !== undefined),
      );
      const audit = auditEntriesOf(events);
      return (pages) => environmentPage(display, audit, pages);
    }
  }
}

/** Snapshots the environment chart shows: the latest ones, read one request each. */
const CHART_SNAPSHOTS = 20;
/** Audit log entries read for the environment view (paged there 25 at a time). */
const AUDIT_EVENTS = 500;

/** What the view shows when its records could not be loaded: the reason as text, and Retry. */
export function failurePage(title: string, error: unknown): DetailPage {
  return {
    title,
    body: html`<h1>${title}</h1>
<p class="error" role="alert">Could not load this view: ${messageOf(error)}</p>
<p>${action('Retry', { type: 'retry' }, 'button')}</p>`,
    lists: {},
  };
}

/** A title for a target before its records arrive (and for its failure page). */
export function titleOf(target: DetailTarget): string {
  switch (target.kind) {
    case 'trail':
      return `Trail ${target.trail}`;
    case 'attestation':
      return `Attestation ${target.name ?? target.attestationId ?? ''}`;
    case 'artifact':
      return `Artifact ${target.fingerprint.slice(0, 12)}`;
    case 'environment':
      return `Environment ${target.environment}`;
    case 'snapshot':
      return `Snapshot ${target.environment}#${target.index}`;
    case 'compare':
      return `${target.environment} #${target.from} ↔ #${target.to}`;
  }
}

/** The attestations a trail's own compliance status names, so each slot's reason can name its attestation. */
function attestationsOf(trail: Record<string, unknown>): AttestationSummary[] {
  const status = isRecord(trail.compliance_status) ? trail.compliance_status : {};
  const artifacts = isRecord(status.artifacts_statuses)
    ? Object.values(status.artifacts_statuses).filter(isRecord)
    : [];
  return [status, ...artifacts]
    .flatMap((entry) => listOf(entry.attestations_statuses))
    .filter((entry) => typeof entry.attestation_id === 'string')
    .map((entry) => ({
      attestation_id: entry.attestation_id as string,
      attestation_name: textOf(entry.attestation_name),
      attestation_type: textOf(entry.attestation_type),
    }));
}

function asRecord(value: object): Record<string, unknown> {
  return value as Record<string, unknown>;
}
