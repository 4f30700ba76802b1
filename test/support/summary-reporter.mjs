// A web-test-runner reporter that ends with a plain `browser N passed, N failed` line
// (wtr's own summary carries a progress-bar prefix). A session that crashed counts as a failure.
function count(suite, acc) {
  for (const t of suite?.tests ?? []) {
    if (t.skipped) acc.skipped++;
    else if (t.passed) acc.passed++;
    else acc.failed++;
  }
  for (const s of suite?.suites ?? []) count(s, acc);
  return acc;
}

export function summaryReporter() {
  return {
    onTestRunFinished({ sessions }) {
      const acc = { passed: 0, failed: 0, skipped: 0 };
      for (const session of sessions) {
        count(session.testResults, acc);
        if (!session.passed && (session.errors?.length ?? 0) > 0) acc.failed++;
        if (!session.testResults && !session.passed) acc.failed++;
      }
      process.stdout.write(`\nbrowser ${acc.passed} passed, ${acc.failed} failed, ${acc.skipped} skipped\n`);
    },
  };
}
