// wallet-modal-devnet: starts the offline stack wallet-modal is tested on — two anvil chains with the
// demo contracts (tokens, NFTs, Uniswap V2), a Solana VM (litesvm), a Bitcoin-style regtest chain
// (litecoind), the backend (blockchain API and indexer, on-ramps, WalletConnect relay, the embedded
// wallet's secure frame), the mail sink (maildev), the OpenID Connect provider and the test wallets —
// by running this repository's scripts/demo.sh, and describes it (URLs, chains, contracts, keys).
//
//   import { startDevnet } from 'wallet-modal-devnet';
//   const devnet = await startDevnet();      // { description, log, stop() }
//   … devnet.description.evm.chains[0].rpcUrl …
//   await devnet.stop();                     // stops exactly the processes it started
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The wallet-modal checkout this package belongs to. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts the devnet and resolves once every part answers, with its description.
 * options.timeoutMs (default 10 min: a first start builds the backend), options.verbose (the
 * scripts' log on this process's stderr instead of a file), options.build (always run `make build`
 * first; by default only when the package is not built yet).
 */
export async function startDevnet(options = {}) {
  const timeoutMs = options.timeoutMs ?? 600_000;
  if (options.build || !existsSync(path.join(ROOT, 'dist/wallet-modal.js'))) {
    const built = spawnSync('make', ['-s', 'build'], { cwd: ROOT, stdio: ['ignore', process.stderr, process.stderr] });
    if (built.status !== 0) throw new Error(`wallet-modal-devnet: 'make build' failed in ${ROOT} (exit ${built.status})`);
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'wallet-modal-devnet-'));
  const json = path.join(dir, 'devnet.json');
  const log = path.join(dir, 'devnet.log');
  const out = options.verbose ? process.stderr : openSync(log, 'a');
  // Its own process group, so that whatever is left after the script's own cleanup can be stopped too.
  const child = spawn('bash', [path.join(ROOT, 'scripts/demo.sh')], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', out, out],
    env: { ...process.env, WM_DEVNET_JSON: json },
  });
  let exited = null;
  const exit = new Promise((resolve) => child.on('exit', (code, signal) => resolve((exited = { code, signal }))));
  const tail = () => (options.verbose ? '' : `\n${readFileSync(log, 'utf8').split('\n').slice(-25).join('\n')}`);

  let stopping = null;
  async function stop() {
    stopping ??= (async () => {
      if (!exited) {
        child.kill('SIGTERM'); // demo.sh stops exactly the processes it started
        const done = await Promise.race([exit.then(() => true), sleep(20_000).then(() => false)]);
        if (!done) {
          try {
            process.kill(-child.pid, 'SIGKILL');
          } catch {}
          await exit;
        }
      }
      rmSync(dir, { recursive: true, force: true });
    })();
    return stopping;
  }

  for (const start = Date.now(); !existsSync(json); await sleep(100)) {
    if (exited) {
      const message = `wallet-modal-devnet: the devnet exited while starting (${exited.signal ?? `exit ${exited.code}`})${tail()}`;
      await stop();
      throw new Error(message);
    }
    if (Date.now() - start > timeoutMs) {
      const message = `wallet-modal-devnet: not ready within ${Math.round(timeoutMs / 1000)} s${tail()}`;
      await stop();
      throw new Error(message);
    }
  }
  const description = JSON.parse(readFileSync(json, 'utf8'));
  return { description, log: options.verbose ? null : log, exited: exit, stop };
}
