// A web-test-runner reporter that ends with a plain `browser N passed, N failed` line
// (wtr's own summary carries a progress-bar prefix). A session that crashed counts as a failure.
// Each failed test is also named on a `browser FAILED <file>: <suite> > <test>` line, so the end of
// a long log says which one failed.
function count(suite, acc, file, path = []) {
  const here = suite?.name ? [...path, suite.name] : path;
  for (const t of suite?.tests ?? []) {
    if (t.skipped) acc.skipped++;
    else if (t.passed) acc.passed++;
    else {
      acc.failed++;
      acc.names.push(`${file}: ${[...here, t.name].join(' > ')}`);
    }
  }
  for (const s of suite?.suites ?? []) count(s, acc, file, here);
  return acc;
}

export function summaryReporter() {
  return {
    onTestRunFinished({ sessions }) {
      const acc = { passed: 0, failed: 0, skipped: 0, names: [] };
      for (const session of sessions) {
        const file = String(session.testFile ?? '').replace(process.cwd() + '/', '');
        count(session.testResults, acc, file);
        const crashed = (!session.passed && (session.errors?.length ?? 0) > 0) || (!session.testResults && !session.passed);
        if (crashed) {
          acc.failed++;
          acc.names.push(`${file}: the session itself (${session.errors?.[0]?.message ?? 'no results'})`.slice(0, 300));
        }
      }
      for (const name of acc.names) process.stdout.write(`\nbrowser FAILED ${name}`);
      process.stdout.write(`\nbrowser ${acc.passed} passed, ${acc.failed} failed, ${acc.skipped} skipped\n`);
    },
  };
}
