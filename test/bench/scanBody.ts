// The scan attestation the write benchmarks send: multipart with a data_json of at least 2 KB.

/** A scan attestation's data_json of at least 2 KB (quality-gate conditions fill it up). */
export function scanData(index: number): string {
  const conditions: Array<Record<string, string>> = [];
  const data = () =>
    JSON.stringify({
      attestation_name: `scan-${index % 50}`,
      description: 'Static analysis of the service, quality gate passed.',
      scan_results: {
        analysedAt: '2026-11-22T00:00:00+0000',
        revision: '0123456789abcdef0123456789abcdef01234567',
        serverUrl: 'https://scan.example.test',
        taskId: 'AY0123456789',
        status: 'SUCCESS',
        project: { key: 'service', url: 'https://scan.example.test/dashboard?id=service', name: 'Service' },
        qualityGate: { name: 'Default', status: 'OK', conditions },
      },
    });
  while (Buffer.byteLength(data()) < 2048)
    conditions.push({
      metric: `metric_${conditions.length}`,
      errorThreshold: '80',
      operator: 'LT',
      status: 'OK',
      value: '91.5',
    });
  return data();
}

export function multipart(json: string): { body: Buffer; contentType: string } {
  const boundary = 'cevbenchboundary';
  const body = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="data_json"\r\n\r\n${json}\r\n--${boundary}--\r\n`,
  );
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}
