// Parse + validate of a flow template, against the bare lower bound on the same text in the same
// run: `yaml` parseDocument + toJS + ajv (compiled once, same options), no findings machinery.
// Samples alternate between the two so machine noise weighs on both alike. Target ≤ 1.3×.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parseDocument } from 'yaml';
import { schemas } from '../../shared/schemas/index.ts';
import { yamlParseOptions } from '../../shared/text/parse.ts';
import { validateText } from '../../shared/validate.ts';
import { flowTemplateLines, LARGE } from './flowTemplateText.ts';
import { median, report } from './stats.ts';

function templateText(lines: number, broken = false): string {
  return `${flowTemplateLines(lines, broken ? 3 : undefined).join('\n')}\n`;
}

const bare = new Ajv2020({ allErrors: true, allowUnionTypes: true, strict: true });
const bareValidate = bare.compile(schemas['flow-template']);

function lowerBound(text: string): unknown {
  const value: unknown = parseDocument(text, yamlParseOptions).toJS();
  return bareValidate(value);
}

function ours(text: string): unknown {
  return validateText('flow-template', text).findings.length;
}

function alternating(text: string, runs: number): { baseline: number; value: number } {
  for (let i = 0; i < Math.min(10, runs); i++) {
    lowerBound(text);
    ours(text);
  }
  const baseline: number[] = [];
  const value: number[] = [];
  const time = (work: (text: string) => unknown, into: number[]) => {
    const start = performance.now();
    work(text);
    into.push(performance.now() - start);
  };
  for (let i = 0; i < runs; i++) {
    // Which goes first alternates too, so neither always pays for the other's garbage.
    if (i % 2 === 0) {
      time(lowerBound, baseline);
      time(ours, value);
    } else {
      time(ours, value);
      time(lowerBound, baseline);
    }
  }
  return { baseline: median(baseline), value: median(value) };
}

let ok = true;
for (const [lines, runs] of [
  [200, 300],
  [LARGE, 40],
] as const) {
  const valid = alternating(templateText(lines), runs);
  ok =
    report(`validate ${lines}-line template (median of ${runs})`, valid.value, valid.baseline, 'ms', { max: 1.3 }) &&
    ok;
  const broken = alternating(templateText(lines, true), runs);
  report(`  same with one finding placed`, broken.value, broken.baseline, 'ms');
}
process.exitCode = ok ? 0 : 1;
