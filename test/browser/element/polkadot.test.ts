// Polkadot: the Demo Polkadot extension (demo/wallet/families/polkadot-extension.js, bundled at
// /demo/wallet/dist/: `window.injectedWeb3` as @polkadot/extension-inject writes it, keys from
// @polkadot/keyring) connected through <wallet-modal>; signatures checked by wallet-modal/core and
// by @polkadot/util-crypto's signatureVerify in Node.
import { expect } from '@esm-bundle/chai';
import { anvilNetworks, createModal, nextEvent, testEnv, viewRoot, waitFor, type WalletModal } from './helpers';
import { accountAxeInBothThemes, reload } from './family-helpers';
import { visitor } from './embedded-helpers';

const POLKADOT = 'polkadot:91b171bb158e2d3848fa23a9f1c25182';
const KUSAMA = 'polkadot:b0a8d493285c2df73290dfb7e61f870f';
const ALICE = { generic: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY', polkadot: '15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5', kusama: 'HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F' };
const ID = 'polkadot.demo-polkadot';

const net = (caipNetworkId: string, name: string, symbol: string, decimals: number) => ({
  id: caipNetworkId.split(':')[1],
  caipNetworkId,
  name,
  chainNamespace: 'polkadot',
  nativeCurrency: { name, symbol, decimals },
  rpcUrls: { default: { http: ['https://rpc.example.invalid'] } },
});

async function networks() {
  return [net(POLKADOT, 'Polkadot', 'DOT', 10), net(KUSAMA, 'Kusama', 'KSM', 12), ...anvilNetworks(await testEnv())];
}

const hex = (s: string) => '0x' + [...new TextEncoder().encode(s)].map((b) => b.toString(16).padStart(2, '0')).join('');

describe('Polkadot: an injectedWeb3 extension', function () {
  this.timeout(60_000);
  let el: WalletModal;
  let ext: any;

  before(async () => {
    localStorage.clear();
    // @ts-ignore — bundled by demo/wallet/build.mjs
    const { installPolkadotExtension } = await import('/demo/wallet/dist/polkadot-extension.js');
    ext = installPolkadotExtension({ autoResponse: 'approve' });
    await ext.ready;
    el = await createModal({}, await networks());
  });
  after(() => el.remove());

  it('connects the extension: enable(origin), its first account shown with Polkadot\'s SS58 prefix, and no balance said plainly', async () => {
    await el.open();
    const root = viewRoot(el);
    const row = await waitFor(() => root.querySelector<HTMLElement>(`[data-connector-id="${ID}"]`), 'the extension');
    expect(row.textContent).to.contain('demo-polkadot');
    const connected = nextEvent(el, 'connect');
    row.click();
    const { detail } = await connected;
    expect([detail.namespace, detail.address, detail.caipNetworkId]).to.deep.equal(['polkadot', ALICE.polkadot, POLKADOT]);
    expect(ext.calls[0][0]).to.equal('enable');
    await el.open();
    await waitFor(() => root.querySelector('[part~="balance-note"]'), 'the account');
    expect(root.querySelector('[part~="address"]')?.textContent).to.equal(`${ALICE.polkadot.slice(0, 4)}...${ALICE.polkadot.slice(-6)}`);
    expect(root.querySelector('[part~="balance-note"]')?.textContent).to.equal('Balance is not available for accounts on Polkadot');
    expect(root.querySelector('[part~="receive-button"]'), 'Receive is offered').to.not.equal(null);
    expect(root.querySelector('[part~="send-button"]'), 'no Send: nothing to send through').to.equal(null);
  });

  it('signs a message through getProvider("polkadot").signer.signRaw that wallet-modal/core and signatureVerify both accept', async () => {
    const injected = el.getProvider('polkadot' as any) as any;
    const address = el.getState()!.connection!.address;
    const message = 'Sign in to example.com ✓';
    const { signature } = await injected.signer.signRaw({ address, data: hex(message), type: 'bytes' });
    // @ts-ignore — the built ./core entry
    const core = await import('/dist/core.js');
    await core.init();
    expect(core.verifyPolkadotMessage(address, message, signature)).to.equal(true);
    expect(core.verifyPolkadotMessage(address, 'another', signature)).to.equal(false);
    expect(await visitor({ action: 'reference-verify', family: 'polkadot', address, message, signature })).to.equal(true);
  });

  it('switches to Kusama: the same account with Kusama\'s prefix', async () => {
    const changed = nextEvent(el, 'accountschange');
    await el.switchNetwork(KUSAMA);
    expect((await changed).detail.address).to.equal(ALICE.kusama);
    expect(el.getState()!.connection!.caipNetworkId).to.equal(KUSAMA);
  });

  it('an account the visitor hides in the extension leaves: the next one shows', async () => {
    const changed = nextEvent(el, 'accountschange');
    await ext.hide(ALICE.generic);
    const { detail } = await changed;
    expect(detail.address).to.not.equal(ALICE.kusama);
    expect(detail.address.startsWith('H') || detail.address.startsWith('F') || detail.address.startsWith('C') || detail.address.startsWith('D') || detail.address.startsWith('E') || detail.address.startsWith('G') || detail.address.startsWith('J'), 'a Kusama address').to.equal(true);
  });

  it('the Polkadot account view, light and dark: no serious axe violation', async () => {
    await accountAxeInBothThemes(el, 'Polkadot');
  });

  it('a reload reconnects, then disconnect ends it', async () => {
    el.remove();
    let detail;
    ({ el, detail } = await reload(await networks()));
    expect([detail.namespace, detail.reconnected]).to.deep.equal(['polkadot', true]);
    const gone = nextEvent(el, 'disconnect');
    await el.disconnect('polkadot' as any);
    expect((await gone).detail.namespace).to.equal('polkadot');
  });
});

describe('Polkadot: hostile extensions', function () {
  this.timeout(30_000);

  it('an extension answering 10,000 junk accounts, or one whose enable throws, fails to connect at once with an error (no hang, nothing connected)', async () => {
    localStorage.clear();
    const w = window as any;
    w.injectedWeb3 = {
      junk: { version: '1', enable: async () => ({ accounts: { get: async () => Array.from({ length: 10_000 }, (_, i) => ({ address: `junk${i}`.repeat(50) })) }, signer: {} }) },
      thrower: { version: '1', enable: () => { throw new Error('no'); } },
      'not-an-extension': 42,
    };
    const el = await createModal({}, await networks());
    try {
      await el.open();
      const root = viewRoot(el);
      for (const id of ['polkadot.junk', 'polkadot.thrower']) {
        (await waitFor(() => root.querySelector<HTMLElement>(`[data-connector-id="${id}"]`), id)).click();
        await waitFor(() => el.getState()!.connecting?.state === 'error', `${id} failed`);
        expect(el.getState()!.connection, id).to.equal(null);
        await el.close();
        await el.open();
      }
      expect(root.querySelector('[data-connector-id="polkadot.not-an-extension"]'), 'not an extension: not offered').to.equal(null);
    } finally {
      el.remove();
      delete w.injectedWeb3;
    }
  });
});
