// Browser tests: every file in test/browser is bundled by scripts/build-tests.mjs into .test-build/
// and run in Debian's Chromium. The element under test is the real build in dist/.
import { defaultReporter } from '@web/test-runner';
import { chromeLauncher } from '@web/test-runner-chrome';
import { summaryReporter } from './test/support/summary-reporter.mjs';

const env = {
  backendUrl: process.env.WM_BACKEND_URL ?? '',
  chains: JSON.parse(process.env.WM_CHAINS ?? '[]'),
  // The demo contracts' manifest (addresses, decimals) as deployed for this run.
  contracts: JSON.parse(process.env.WM_CONTRACTS ?? 'null'),
  // The embedded wallet: the secure frame's page on the backend's second port, and the mail sink's
  // web and REST base (maildev: GET {mailUrl}/api/email lists the mail received).
  frameUrl: process.env.WM_FRAME_URL ?? '',
  mailUrl: process.env.WM_MAIL_URL ?? '',
};

export default {
  rootDir: '.',
  files: process.env.WM_TEST_FILES ? process.env.WM_TEST_FILES.split(',') : [`${process.env.WM_TEST_BUILD_DIR || '.test-build'}/**/*.test.js`],
  // One page at a time: focus moves only in the focused page.
  concurrency: 1,
  concurrentBrowsers: 1,
  testsFinishTimeout: 300_000,
  browserStartTimeout: 60_000,
  testFramework: { config: { timeout: 20_000 } },
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath: '/usr/bin/chromium',
        args: [
          '--no-sandbox',
          '--headless=new',
          '--disable-gpu',
          '--disable-dev-shm-usage',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--disable-quic',
          '--no-first-run',
          '--no-default-browser-check',
        ],
      },
    }),
  ],
  plugins: [
    {
      name: 'wallet-modal-test-env',
      serve(context) {
        if (context.path === '/test-env.json') return { body: JSON.stringify(env), type: 'application/json' };
      },
    },
  ],
  reporters: [defaultReporter({ reportTestResults: true, reportTestProgress: false }), summaryReporter()],
};
