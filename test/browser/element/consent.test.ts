// Consent lives in the secure frame: a hostile script on an allowed host page (an XSS, a bad
// dependency) can ask the embedded wallet to sign, never approve. Everything here is real: the
// build, the frame on its own origin, the wallet service, mail, anvil; the hostile script is
// this test page itself, and the visitor's clicks are real mouse clicks in the frame.
import { expect } from '@esm-bundle/chai';
import { createModal, rpc, testEnv, viewRoot, waitFor, type WalletModal } from './helpers';
import { clickInFrame, emailLogin, framePrefix, frameText, until, visitor } from './embedded-helpers';

const BOB = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const EVIL = 'evil0000000000000000';

/** The secure frame's iframe element in the page (the host page can reach the element, not its document). */
function frameElement(): HTMLIFrameElement {
  const f = document.querySelector<HTMLIFrameElement>('iframe[src*="/frame?"]');
  if (!f) throw new Error('no secure frame');
  return f;
}

/** What a hostile script hears back from the frame for the requests it posted itself, by id. */
function listenAsAttacker(): Map<string, { type: string; payload: any }> {
  const heard = new Map<string, { type: string; payload: any }>();
  addEventListener('message', (e) => {
    const d = e.data as { type?: string; id?: string; payload?: unknown };
    if (e.source === frameElement().contentWindow && typeof d?.id === 'string' && d.id.startsWith(EVIL)) heard.set(d.id, { type: String(d.type), payload: d.payload });
  });
  return heard;
}

/** The script posts an RPC request to the frame itself, in the element's own envelope. */
function postAsAttacker(id: string, method: string, params: unknown[], chainId: number, rpcUrl: string): void {
  const f = frameElement();
  const payload = { method, params, chainId, chainNamespace: 'eip155', rpcUrl, network: { name: 'Anvil A', symbol: 'ETH', decimals: 18 } };
  f.contentWindow!.postMessage({ type: '@w3m-app/RPC_REQUEST', id, payload }, new URL(f.src).origin);
}

async function frameApproveDisabled(): Promise<boolean> {
  return (await visitor({ action: 'frame-eval', prefix: await framePrefix(), script: `const b = document.querySelector('main.approval button.primary'); return b ? b.disabled : null;` })) as boolean;
}

async function loggedIn(): Promise<{ el: WalletModal; address: string; chain: { chainId: number; rpcUrl: string } }> {
  localStorage.clear();
  const env = await testEnv();
  const el = await createModal();
  const address = await emailLogin(el);
  await rpc(env.chains[0].rpcUrl, 'anvil_setBalance', [address, '0x56BC75E2D63100000']);
  await el.close();
  return { el, address, chain: env.chains[0] };
}

describe('consent inside the secure frame (a hostile host page)', function () {
  this.timeout(90_000);
  afterEach(() => {
    for (const el of document.querySelectorAll('wallet-modal')) el.remove();
    for (const f of document.querySelectorAll('iframe')) f.remove();
    for (const o of document.querySelectorAll('wallet-modal-overlay, .evil-overlay')) o.remove();
  });

  it('gets no signature and sends nothing for requests it posts to the frame itself; the frame shows the approval in the modal', async () => {
    const { el, address, chain } = await loggedIn();
    const heard = listenAsAttacker();
    const nonce = await rpc(chain.rpcUrl, 'eth_getTransactionCount', [address, 'latest']);
    const typed = JSON.stringify({ types: { EIP712Domain: [{ name: 'name', type: 'string' }], Mail: [{ name: 'contents', type: 'string' }] }, primaryType: 'Mail', domain: { name: 'Evil' }, message: { contents: 'gm' } });
    // Ids as the element makes them (16 to 64 characters), so nothing but consent stops these.
    postAsAttacker(`${EVIL}1`, 'personal_sign', ['0x68656c6c6f', address], chain.chainId, chain.rpcUrl);
    postAsAttacker(`${EVIL}2`, 'eth_signTypedData_v4', [address, typed], chain.chainId, chain.rpcUrl);
    postAsAttacker(`${EVIL}3`, 'eth_sendTransaction', [{ from: address, to: BOB, value: '0x6f05b59d3b20000' }], chain.chainId, chain.rpcUrl);
    // And the same three through the element's own provider.
    const provider = el.getProvider('eip155');
    const viaProvider = [
      provider.request({ method: 'personal_sign', params: ['0x68656c6c6f', address] }),
      provider.request({ method: 'eth_signTypedData_v4', params: [address, typed] }),
      provider.request({ method: 'eth_sendTransaction', params: [{ from: address, to: BOB, value: '0x6f05b59d3b20000' }] }),
    ].map((p: Promise<unknown>) => p.then((v) => ({ settled: 'signed', v }), (e: any) => ({ settled: 'refused', code: e?.code })));
    let providerSettled = 0;
    for (const p of viaProvider) p.then(() => providerSettled++);
    // The frame asks the visitor, in the modal it opens: the script cannot keep it hidden.
    await waitFor(() => el.getState().open === true && el.getState().view === 'ApproveTransaction', 'the modal open on ApproveTransaction', 10_000);
    await waitFor(() => !frameElement().hidden && frameElement().title === 'wallet-modal secure approval', 'the frame shown in the modal');
    expect(await frameText('[data-field="message"]')).to.equal('hello');
    expect(await frameText('main.approval')).to.match(/[2-5] more waiting/);
    // The script tries everything it can reach: messages that say "approve", a click on the iframe
    // element, reaching into the frame's document.
    const f = frameElement();
    for (const m of ['approve', { type: '@w3m-app/APPROVE' }, { type: '@w3m-frame/APPROVE', id: `${EVIL}1` }, { type: '@w3m-app/RPC_APPROVE', id: `${EVIL}1` }]) f.contentWindow!.postMessage(m, new URL(f.src).origin);
    f.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    expect(() => f.contentDocument?.querySelector('button')).to.not.throw();
    expect(f.contentDocument, 'another origin: no document to script').to.equal(null);
    await new Promise((r) => setTimeout(r, 2_000));
    expect([...heard.values()].filter((h) => h.type.endsWith('_SUCCESS')), 'no signature, no hash').to.deep.equal([]);
    expect(await rpc(chain.rpcUrl, 'eth_getTransactionCount', [address, 'latest'])).to.equal(nonce, 'nothing sent');
    expect(providerSettled, 'nothing answered through the provider either').to.equal(0);
    // The visitor closes the modal: the frame rejects all three, 4001.
    await el.close();
    await until(async () => heard.size === 3 && [...heard.values()].every((h) => h.type === '@w3m-frame/RPC_REQUEST_ERROR' && h.payload?.code === 4001), 'all three rejected');
    expect((await Promise.all(viaProvider)).map((r: any) => r.code), 'the provider requests rejected too').to.deep.equal([4001, 4001, 4001]);
    expect(frameElement().hidden, 'the frame hidden again').to.equal(true);
  });

  it('a synthetic click on Approve inside the frame (untrusted) approves nothing; the visitor’s real click does, and the transaction mines', async () => {
    const { el, address, chain } = await loggedIn();
    const before = BigInt(await rpc(chain.rpcUrl, 'eth_getBalance', [BOB, 'latest']));
    let settled = false;
    const sending = el.getProvider('eip155').request({ method: 'eth_sendTransaction', params: [{ from: address, to: BOB, value: '0xde0b6b3a7640000' }] }).finally(() => (settled = true));
    sending.catch(() => null);
    await frameText('main.approval');
    await until(async () => (await frameApproveDisabled()) === false, 'Approve enabled once the approval was on screen');
    // Script in the frame's own document (as if injected there): click() and dispatchEvent are untrusted.
    await visitor({ action: 'frame-eval', prefix: await framePrefix(), script: `
      const b = document.querySelector('main.approval button.primary');
      b.click();
      b.dispatchEvent(new MouseEvent('click', { bubbles: true }));
      b.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
      return true;` });
    await new Promise((r) => setTimeout(r, 1_000));
    expect(settled, 'untrusted clicks approve nothing').to.equal(false);
    await clickInFrame('Approve');
    const hash = (await sending) as string;
    const receipt = await until(() => rpc(chain.rpcUrl, 'eth_getTransactionReceipt', [hash]), 'the receipt');
    expect(receipt.status).to.equal('0x1');
    expect(BigInt(await rpc(chain.rpcUrl, 'eth_getBalance', [BOB, 'latest'])) - before).to.equal(10n ** 18n);
  });

  it('keeps Approve disabled while the page draws over the frame or fades it, and enables it once the frame shows unobscured', async () => {
    const { el, address } = await loggedIn();
    const signing = el.getProvider('eip155').request({ method: 'personal_sign', params: ['0x68656c6c6f', address] }).then(() => null, (e: any) => e);
    await frameText('main.approval');
    await until(async () => (await frameApproveDisabled()) === false, 'Approve enabled');
    // Clickjacking: a transparent layer over the frame that lets clicks through.
    const cover = document.createElement('div');
    cover.className = 'evil-overlay';
    cover.style.cssText = 'position:fixed;inset:0;z-index:2147483647;background:rgba(255,255,255,0.01);pointer-events:none';
    document.body.appendChild(cover);
    await until(async () => (await frameApproveDisabled()) === true, 'Approve disabled under the overlay');
    cover.remove();
    await until(async () => (await frameApproveDisabled()) === false, 'Approve enabled again, after the visible delay');
    frameElement().style.opacity = '0.3';
    await until(async () => (await frameApproveDisabled()) === true, 'Approve disabled while faded');
    const clicked = await visitor({ action: 'frame-click', prefix: await framePrefix(), selector: 'main.approval button.primary', timeout: 1_000 });
    expect(clicked, 'nothing to click while faded').to.equal(false);
    await el.close();
    expect((await signing)?.code).to.equal(4001);
  });

  it('hands keyboard focus to the frame and back: Tab leaves the frame into the modal, Escape there rejects', async () => {
    const { el, address } = await loggedIn();
    const signing = el.getProvider('eip155').request({ method: 'personal_sign', params: ['0x68656c6c6f', address] }).then(() => null, (e: any) => e);
    await frameText('main.approval');
    await waitFor(() => document.activeElement === frameElement(), 'focus moved into the frame');
    const focusedInFrame = async () => (await visitor({ action: 'frame-eval', prefix: await framePrefix(), script: `return document.hasFocus() ? (document.activeElement.textContent || document.activeElement.tagName) : null;` })) as string | null;
    await until(async () => (await focusedInFrame())?.length, 'the frame’s document has focus');
    // Tab through the frame's controls (the message, Reject, Approve once it works): past the last
    // one, the frame hands focus back (a message, so each press waits for it).
    for (let i = 0; i < 5 && document.activeElement === frameElement(); i++) {
      await visitor({ action: 'press', key: 'Tab' });
      await waitFor(() => document.activeElement !== frameElement(), 'focus to leave', 400).catch(() => null);
    }
    const root = viewRoot(el);
    await waitFor(() => document.activeElement !== frameElement(), 'Tab left the frame');
    expect(el.getState().open, 'still in the modal').to.equal(true);
    const deep = (root as ShadowRoot).activeElement;
    expect(deep, 'focus on a control of the modal').to.not.equal(null);
    (root.querySelector<HTMLElement>('[data-wm-frame-slot]')!).focus();
    await waitFor(() => document.activeElement === frameElement(), 'the slot hands focus back to the frame');
    await visitor({ action: 'press', key: 'Escape' });
    expect((await signing)?.code).to.equal(4001);
  });
});
