// A detail target's page: the API records it needs, through the shared view models, into markup.
// A failure becomes a page that says what went wrong (the server's own message), never a blank one.
// No VS Code here.
import type { ApiClient } from '../api/client.ts';
import { html } from '../../shared/html.ts';
import { attestationDisplay } from '../../shared/views/attestation.ts';
import { trailDisplay } from '../../shared/views/trail.ts';
import { messageOf } from '../views/treeProvider.ts';
import type { DetailTarget } from './messages.ts';
import { attestationPage, missingAttestationPage } from './render/attestationView.ts';
import { action, type DetailPage, type Pages } from './render/parts.ts';
import { trailPage } from './render/trailView.ts';

/** The records a target shows, fetched once; paging re-renders them without fetching again. */
export type Loaded = (pages: Pages) => DetailPage;

export async function load(api: ApiClient, target: DetailTarget): Promise<Loaded> {
  switch (target.kind) {
    case 'trail': {
      const trail = trailDisplay(asRecord(await api.getTrail(target.flow, target.trail)));
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
    default:
      throw new Error(`The ${target.kind} view is not available yet.`);
  }
}

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

function asRecord(value: object): Record<string, unknown> {
  return value as Record<string, unknown>;
}
