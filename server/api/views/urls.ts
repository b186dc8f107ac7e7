// html_url and api_url formats (reference §1.8); `host` is the server's public URL.
const seg = encodeURIComponent;

export const htmlUrl = {
  flows: (host: string, org: string) => `${host}/${seg(org)}/flows`,
  flow: (host: string, org: string, flow: string) => `${host}/${seg(org)}/flows/${seg(flow)}`,
  trail: (host: string, org: string, flow: string, trail: string) =>
    `${host}/${seg(org)}/flows/${seg(flow)}/trails/${seg(trail)}`,
  attestation: (host: string, org: string, flow: string, trail: string, id: string) =>
    `${host}/${seg(org)}/flows/${seg(flow)}/trails/${seg(trail)}?attestation_id=${id}`,
  artifact: (host: string, org: string, flow: string, fingerprint: string, id: string) =>
    `${host}/${seg(org)}/flows/${seg(flow)}/artifacts/${fingerprint}?artifact_id=${id}`,
  environment: (host: string, org: string, env: string) => `${host}/${seg(org)}/environments/${seg(env)}`,
  snapshot: (host: string, org: string, env: string, index: number) =>
    `${host}/${seg(org)}/environments/${seg(env)}/snapshots/${index}`,
};

export const apiUrl = {
  artifact: (host: string, org: string, flow: string, fingerprint: string) =>
    `${host}/api/v2/artifacts/${seg(org)}/${seg(flow)}/fingerprint/${fingerprint}`,
  attestation: (host: string, org: string, id: string) =>
    `${host}/api/v2/attestations/${seg(org)}?attestation_id=${id}`,
  evidence: (host: string, org: string, flow: string, trail: string, id: string) =>
    `${host}/api/v2/attestations/${seg(org)}/${seg(flow)}/trail/${seg(trail)}/attestation/${id}/evidence`,
};
