// The embedded wallet as a visitor drives it in the browser tests: email login through the real
// mail sink (device approval from the mailed link, then the code), and the secure frame's approval,
// read and clicked inside the frame's own document with the real mouse.
import { expect } from '@esm-bundle/chai';
import { executeServerCommand } from '@web/test-runner-commands';
import { nextEvent, testEnv, viewRoot, waitFor, type WalletModal } from './helpers';

export const visitor = (payload: object) => executeServerCommand('visitor', payload);

/** waitFor with an async predicate. */
export async function until<T>(fn: () => Promise<T | null | undefined | false>, what: string, timeout = 15_000): Promise<T> {
  const start = performance.now();
  for (;;) {
    const v = await fn().catch(() => null);
    if (v) return v as T;
    if (performance.now() - start > timeout) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function codeFor(to: string, after: number): Promise<string> {
  const m = await until(async () => {
    const list = (await fetch(`/test-mail?to=${encodeURIComponent(to)}`).then((r) => r.json())) as Array<{ subject: string; time: number }>;
    return list.find((x) => /Your login code is \d{6}/.test(x.subject) && x.time >= after - 1000);
  }, `the login code mailed to ${to}`);
  return /(\d{6})/.exec(m.subject)![1];
}

/**
 * A new device (every device, for a new address too) is approved from the mailed link first: the
 * visitor opens it and presses "Approve this device"; the code comes in a second mail.
 */
export async function approveDevice(to: string, after: number): Promise<void> {
  const m = await until(async () => {
    const list = (await fetch(`/test-mail?to=${encodeURIComponent(to)}`).then((r) => r.json())) as Array<{ subject: string; text: string; time: number }>;
    return list.find((x) => /Approve your new device|Confirm it's you signing in/.test(x.subject) && x.time >= after - 1000);
  }, `the device approval mailed to ${to}`);
  const link = /(https?:\/\/\S+\/w\/v1\/device\/approve\?token=\S+)/.exec(m.text)![1];
  await visitor({ action: 'approve-device', url: link });
}

/** The secure frame's page (its address starts with this). */
export async function framePrefix(): Promise<string> {
  return `${(await testEnv()).frameUrl}?projectId=test-project&chainId`;
}

/** What the frame's approval shows: the text of `selector` in the frame's own document, once it shows. */
export async function frameText(selector: string): Promise<string> {
  const prefix = await framePrefix();
  return until(
    () => visitor({ action: 'frame-eval', prefix, script: `const e = document.querySelector(${JSON.stringify(selector)}); return e ? e.textContent : null;` }) as Promise<string | null>,
    `${selector} in the frame's approval`,
  );
}

/** The visitor clicks Approve (or Reject) in the frame with the mouse: a trusted click in the frame's document. */
export async function clickInFrame(which: 'Approve' | 'Reject'): Promise<void> {
  const selector = which === 'Approve' ? 'main.approval button.primary' : 'main.approval button.secondary';
  const clicked = await visitor({ action: 'frame-click', prefix: await framePrefix(), selector });
  expect(clicked, `${which} clicked in the frame`).to.equal(true);
}

export function unique(): string {
  return `v${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@example.com`;
}

export async function typeEmail(el: WalletModal, email: string): Promise<void> {
  const root = viewRoot(el);
  const input = await waitFor(() => root.querySelector<HTMLInputElement>('input[name="email"]'), 'the email field');
  input.value = email;
  input.form!.requestSubmit();
}

export async function enterCode(el: WalletModal, code: string): Promise<void> {
  const root = viewRoot(el);
  const input = await waitFor(() => root.querySelector<HTMLInputElement>('.wm-code-input:not([disabled])'), 'the code field', 15_000);
  input.value = code;
  input.form!.requestSubmit();
}

/** Opens the modal, submits a new email and waits for the code step; resolves with the view root. */
export async function toCodeStep(el: WalletModal, email = unique()): Promise<ShadowRoot> {
  await el.open();
  const sentAt = Date.now();
  await typeEmail(el, email);
  await approveDevice(email, sentAt);
  const root = viewRoot(el);
  await waitFor(() => root.querySelector('.wm-email-login[data-step="otp"]'), 'the code step', 15_000);
  return root;
}

/** Logs in with a new email; resolves with the connected address. */
export async function emailLogin(el: WalletModal, email = unique()): Promise<string> {
  await el.open();
  const connected = nextEvent(el, 'connect', 20_000);
  const sentAt = Date.now();
  await typeEmail(el, email);
  await approveDevice(email, sentAt);
  const code = await codeFor(email, sentAt);
  await enterCode(el, code);
  const e = await connected;
  return e.detail.address as string;
}

