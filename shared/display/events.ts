// A trail's events as a person reads them: what happened in words ("Attestation reported"), what it
// happened to with a link to its page (the attestation, the artifact, the snapshot), and the rest as
// a short sentence instead of the event's JSON. Input is an entry of the API's Trail `events`.

import { isRecord, shortFingerprint, textOf, timeOf, type ViewRef } from './links.ts';

export interface EventDisplay {
  time: string | null;
  /** The event's type as the API names it (`trail_attestation_reported`). */
  type: string;
  /** What happened, in words; a type this list does not know, with its underscores as spaces. */
  title: string;
  /** What it happened to, with the page it has. */
  subject: { label: string; ref: ViewRef | null } | null;
  /** The rest, in words; the fields of an unknown type as `name: value` pairs. */
  details: string;
}

/** The trail the events belong to, for the links of their subjects. */
export interface EventPlace {
  flow: string;
  trail: string;
}

function verdictWord(value: unknown): string {
  return value === true ? 'compliant' : value === false ? 'non-compliant' : 'no verdict';
}

type Reader = (event: Record<string, unknown>, place: EventPlace) => Omit<EventDisplay, 'time' | 'type'>;

const KNOWN: Readonly<Record<string, Reader>> = {
  trail_reported: () => ({ title: 'Trail reported', subject: null, details: '' }),
  trail_updated: () => ({ title: 'Trail updated', subject: null, details: '' }),
  artifact_creation_reported: (event, place) => {
    const fingerprint = textOf(event.artifact_fingerprint);
    return {
      title: 'Artifact reported',
      subject: {
        label: textOf(event.artifact_name) || shortFingerprint(fingerprint),
        ref: fingerprint === '' ? null : { kind: 'artifact', flow: place.flow, fingerprint, trail: place.trail },
      },
      details: `as ${textOf(event.template_reference_name)}, fingerprint ${shortFingerprint(fingerprint)}`,
    };
  },
  trail_attestation_reported: (event, place) => attestationReported(event, place, ''),
  artifact_attestation_reported: (event, place) =>
    attestationReported(event, place, ` of artifact ${textOf(event.target_artifact)}`),
  artifact_started_running: (event) => running('Started running in', event),
  artifact_stopped_running: (event) => running('Stopped running in', event),
};

function attestationReported(event: Record<string, unknown>, place: EventPlace, of: string) {
  const id = textOf(event.attestation_id);
  return {
    title: 'Attestation reported',
    subject: {
      label: textOf(event.template_reference_name),
      ref:
        id === '' ? null : ({ kind: 'attestation', flow: place.flow, trail: place.trail, attestationId: id } as const),
    },
    details: `${textOf(event.attestation_type)} attestation${of}, ${verdictWord(event.is_compliant)}`,
  };
}

function running(title: string, event: Record<string, unknown>) {
  const environment = textOf(event.environment_name);
  const index = typeof event.snapshot_index === 'number' ? event.snapshot_index : null;
  return {
    title: `${title} ${environment}`,
    subject: {
      label: index === null ? environment : `${environment}#${index}`,
      ref:
        index === null
          ? ({ kind: 'environment', environment } as const)
          : ({ kind: 'snapshot', environment, index } as const),
    },
    details: `artifact ${textOf(event.template_reference_name)}, fingerprint ${shortFingerprint(textOf(event.artifact_fingerprint))}`,
  };
}

/** A type as words: `compliance_changed` → "Compliance changed". */
function typeInWords(type: string): string {
  const words = type.replace(/[_-]+/g, ' ').trim();
  return words === '' ? 'Event' : words[0].toUpperCase() + words.slice(1);
}

export function eventDisplay(entry: Record<string, unknown>, place: EventPlace): EventDisplay {
  const { type, timestamp, ...rest } = entry;
  const name = textOf(type);
  const known = Object.hasOwn(KNOWN, name) ? KNOWN[name] : undefined;
  const read = known?.(entry, place) ?? {
    title: typeInWords(name),
    subject: null,
    details: Object.entries(rest)
      .map(
        ([key, value]) =>
          `${key.replace(/_/g, ' ')}: ${isRecord(value) || Array.isArray(value) ? JSON.stringify(value) : textOf(value)}`,
      )
      .join(', '),
  };
  return { time: timeOf(timestamp), type: name, ...read };
}
