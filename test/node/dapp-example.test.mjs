// A dapp team's own end-to-end suite on the devnet: examples/wagmi (Vite + React 19 + wagmi 2, the
// modal as wagmi's only connector) is copied, given the packed tarball as its wallet-modal and this
// checkout's devnet/ as its wallet-modal-devnet, installed from the registry, type-checked, and its
// Playwright suite run as the team would (`npx playwright test`): the suite starts the devnet
// (`startDevnet`), builds and serves the app against it, and drives the test wallet with
// `wallet-modal-devnet/playwright` (approve, reject, switch) — a transaction sent on anvil through
// useSendTransaction among them. The suite's own results are read back here.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { computeAddress } from 'ethers';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const work = mkdtempSync(path.join(tmpdir(), 'wallet-modal-dapp-'));
after(() => rmSync(work, { recursive: true, force: true }));

test("examples/wagmi's Playwright suite passes on the devnet: connect through the modal, send on anvil with useSendTransaction, a rejection, a chain switch", { timeout: 15 * 60_000 }, (t) => {
  const tarball = path.join(work, execFileSync('npm', ['pack', '--pack-destination', work, '--silent'], { cwd: repo, encoding: 'utf8' }).trim().split('\n').pop());
  const app = path.join(work, 'wagmi');
  cpSync(path.join(repo, 'examples/wagmi'), app, { recursive: true, filter: (src) => !/node_modules|[\\/](dist|test-results)$/.test(src) });
  const pkg = JSON.parse(readFileSync(path.join(app, 'package.json'), 'utf8'));
  pkg.dependencies['wallet-modal'] = `file:${tarball}`;
  pkg.devDependencies['wallet-modal-devnet'] = `file:${path.join(repo, 'devnet')}`;
  writeFileSync(path.join(app, 'package.json'), JSON.stringify(pkg, null, 2));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: app, stdio: 'pipe' });
  // The app and its tests type-check (tsconfig includes src/, tests/ and the Playwright config).
  execFileSync('npx', ['tsc', '--noEmit'], { cwd: app, stdio: 'pipe' });

  const started = Date.now();
  // The backend's debug build, which this run has built already (the devnet's default is release).
  const run = spawnSync('npx', ['playwright', 'test'], { cwd: app, encoding: 'utf8', env: { ...process.env, DEMO_CARGO_PROFILE: 'debug', CI: '1' }, timeout: 12 * 60_000 });
  const report = path.join(app, 'test-results/results.json');
  assert.ok(existsSync(report), `Playwright wrote no report (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
  const { stats, suites } = JSON.parse(readFileSync(report, 'utf8'));
  const titles = suites.flatMap((s) => s.specs.map((spec) => `${spec.ok ? 'ok' : 'FAILED'} ${spec.title}`));
  t.diagnostic(`examples/wagmi: ${stats.expected} passed, ${stats.unexpected} failed in ${((Date.now() - started) / 1000).toFixed(0)} s (devnet start, app build, tests)`);
  assert.equal(run.status, 0, `npx playwright test failed:\n${titles.join('\n')}\n${run.stdout.slice(-4000)}`);
  assert.deepEqual({ passed: stats.expected, failed: stats.unexpected, flaky: stats.flaky, skipped: stats.skipped }, { passed: 3, failed: 0, flaky: 0, skipped: 0 });
  assert.ok(titles.some((s) => /useSendTransaction/.test(s)));
});

test('npx wallet-modal-devnet prints the URLs and a JSON of chains and keys, its chains answer, and Ctrl-C stops everything it started', { timeout: 10 * 60_000 }, async () => {
  const json = path.join(work, 'devnet.json');
  // Its own process group, as in a terminal, where Ctrl-C reaches npx and the command alike.
  const cli = spawn('npx', ['wallet-modal-devnet', '--json', json], { cwd: repo, detached: true, env: { ...process.env, DEMO_CARGO_PROFILE: 'debug' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const group = (signal) => {
    try {
      process.kill(-cli.pid, signal);
    } catch {}
  };
  let stdout = '';
  let stderr = '';
  cli.stdout.on('data', (d) => (stdout += d));
  cli.stderr.on('data', (d) => (stderr += d));
  // Ended once every process holding its output (npx, the command, the scripts) has exited.
  const closed = new Promise((resolve) => cli.stderr.on('close', () => resolve('closed')));
  const rpc = async (url, method) => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }) });
    return (await res.json()).result;
  };
  try {
    for (const start = Date.now(); !stdout.trimEnd().endsWith('}'); await new Promise((r) => setTimeout(r, 200))) {
      assert.ok(Date.now() - start < 8 * 60_000, `the devnet did not describe itself:\n${stderr}`);
    }
    const d = JSON.parse(stdout);
    assert.deepEqual(JSON.parse(readFileSync(json, 'utf8')), d, '--json writes the same description');
    for (const name of ['Backend (api-url)', 'Anvil A (eip155:31337)', 'Mail sink', 'OpenID Connect', 'EVM test wallet']) assert.match(stderr, new RegExp(name.replace(/[()]/g, '\\$&')));
    // The chains answer with their ids; the keys are the listed accounts'; the wallet script is served.
    assert.deepEqual(await Promise.all(d.evm.chains.map((c) => rpc(c.rpcUrl, 'eth_chainId'))), ['0x7a69', '0x7a6a']);
    assert.equal(d.evm.accounts.length, 10);
    for (const a of d.evm.accounts) assert.equal(computeAddress(a.privateKey), a.address);
    assert.ok(d.evm.contracts[0].tokens.some((t) => t.symbol === 'USDC'));
    assert.match(await (await fetch(d.wallets.evm)).text(), /function installDemoWallet/);
    assert.equal((await fetch(`${d.oidc.issuer}/.well-known/openid-configuration`)).status, 200);
    assert.equal((await fetch(`${d.mail.web}/api/email`)).status, 200);

    group('SIGINT');
    const end = await Promise.race([closed, new Promise((r) => setTimeout(() => r('timeout'), 30_000))]);
    assert.equal(end, 'closed', 'Ctrl-C ends it and every process it started within 30 s');
    assert.match(stderr, /wallet-modal-devnet: stopping/);
    await assert.rejects(rpc(d.evm.chains[0].rpcUrl, 'eth_chainId'), 'the chains are stopped');
    await assert.rejects(fetch(d.apiUrl), 'the backend is stopped');
    await assert.rejects(fetch(`${d.mail.web}/api/email`), 'the mail sink is stopped');
    await assert.rejects(fetch(d.oidc.issuer), 'the OIDC provider is stopped');
    await assert.rejects(rpc(d.solana.rpcUrl, 'getHealth'), 'the Solana chain is stopped');
  } finally {
    group('SIGKILL');
  }
});
