import { defineConfig } from '@playwright/test';

// The dapp's own end-to-end suite on the wallet-modal devnet (tests/devnet.setup.ts starts it and
// serves this app built against it). Chromium from the system (CHROMIUM, default /usr/bin/chromium):
// nothing is downloaded.
export default defineConfig({
  testDir: 'tests',
  globalSetup: './tests/devnet.setup.ts',
  timeout: 90_000,
  workers: 1,
  reporter: [['list'], ['json', { outputFile: 'test-results/results.json' }]],
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
    },
  },
});
