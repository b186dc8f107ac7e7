// Mocha's own closing line ("968 passing") is not one CI's test-count reader knows, so a run
// could land as one that executed no test. This reporter keeps the chosen base reporter's output
// (reporter-option base=spec|dot) and ends with the plain line every reader takes:
// "<label>: N passed, N failed[, N skipped]", the label naming the run (CEV_TEST_LABEL).
import Mocha from 'mocha';

const { EVENT_RUN_END } = Mocha.Runner.constants;

function SummaryReporter(runner, options) {
  const baseName = options.reporterOption?.base ?? 'spec';
  const Base = Object.entries(Mocha.reporters).find(([name]) => name === baseName)?.[1];
  if (Base === undefined) throw new Error(`summaryReporter: unknown base reporter '${baseName}'`);
  const reporter = new Base(runner, options);
  const label = process.env.CEV_TEST_LABEL || 'mocha';
  runner.once(EVENT_RUN_END, () => {
    const { passes, failures, pending } = runner.stats;
    console.log(`${label}: ${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}`);
  });
  return reporter;
}

// mocha loads a reporter with require(), which gives an ES module's namespace; it takes the default export.
export default SummaryReporter;
