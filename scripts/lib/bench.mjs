// What the browser benches share: free ports, child processes stopped at the end (exactly those
// started here), a child's announced address, and the printed statistics.
import { spawn } from 'node:child_process';
import net from 'node:net';
import puppeteer from 'puppeteer-core';

export const children = [];

export const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

export const waitPort = async (port) => {
  for (let i = 0; i < 300; i++) {
    const ok = await new Promise((r) => net.connect(port, '127.0.0.1').on('connect', function () { this.end(); r(true); }).on('error', () => r(false)));
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing listening on ${port}`);
};

/** Starts a child in `root`, stopped by `stopAll()`. */
export function start(root, cmd, args, env = {}) {
  const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return child;
}

export function stopAll() {
  for (const c of children) c.kill('SIGTERM');
}

/** Resolves with the first capture of `re` in the child's output (read from its start). */
export const line = (child, re) =>
  new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const m = re.exec(buf);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code} before printing ${re}`)));
  });

export const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const median = s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  return `median ${median.toFixed(1)} ms  (min ${s[0].toFixed(1)}, max ${s.at(-1).toFixed(1)}, ${s.length} runs)`;
};

/** Debian's Chromium, headless, with a fresh profile. */
export const launch = () =>
  puppeteer.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--no-first-run'],
  });
