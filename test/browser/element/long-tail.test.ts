// The spec's long tail in the real element build in Chromium, against the demo backend and anvil:
// the host's wallets choice, the open and back rules, the default RPC host, loading and the shake.
import { expect } from '@esm-bundle/chai';
import { executeServerCommand } from '@web/test-runner-commands';
import { viewAxeInBothThemes } from './family-helpers';
import { anvilNetworks, byText, cleanup, connectDemoWallet, createModal, installDemoWallet, testEnv, viewRoot, waitFor } from './helpers';

/** The catalogue rows of Connect (neither WalletConnect nor an installed wallet), in order. */
function catalogueRows(root: ShadowRoot): string[] {
  return [...root.querySelectorAll<HTMLElement>('[data-kind="featured"], [data-kind="recommended"]')].map((r) => `${r.dataset.kind}:${r.dataset.connectorId}`);
}

/** Records the URL of every fetch the page makes until `restore()`. */
function recordFetches(): { seen: string[]; bodies: string[]; restore: () => void } {
  const seen: string[] = [];
  const bodies: string[] = [];
  const real = window.fetch;
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    seen.push(String(input instanceof Request ? input.url : input));
    bodies.push(typeof init?.body === 'string' ? init.body : '');
    return real(input, init);
  };
  return { seen, bodies, restore: () => (window.fetch = real) };
}

describe("the spec's long tail in the element", function () {
  this.timeout(30_000);
  afterEach(cleanup);

  it('the wallets property: featured ones first on Connect and All Wallets in the page\'s order, excluded ones never listed', async () => {
    const el = await createModal();
    (el as any).wallets = { featured: ['comet-keys', 'lantern-wallet'], exclude: ['rainbow-like'] };
    await el.open();
    const root = viewRoot(el);
    const rows = await waitFor(() => {
      const r = catalogueRows(root);
      return r.length >= 3 && r;
    }, 'featured and recommended rows');
    expect(rows.slice(0, 2)).to.deep.equal(['featured:comet-keys', 'featured:lantern-wallet']);
    expect(rows.slice(2).every((r) => r.startsWith('recommended:')), rows.join()).to.equal(true);
    expect(rows.some((r) => r.endsWith(':rainbow-like')), 'excluded').to.equal(false);
    await viewAxeInBothThemes(el, 'connect-featured');
    byText(root, 'button', 'All Wallets')!.click();
    const ids = await waitFor(() => {
      const list = [...root.querySelectorAll<HTMLElement>('[part~="wallet-grid"] [data-wallet-id]')].map((b) => b.dataset.walletId!);
      return list.length > 3 && list;
    }, 'the All Wallets list');
    expect(ids.slice(0, 2)).to.deep.equal(['comet-keys', 'lantern-wallet']);
    expect(ids.filter((i) => i === 'comet-keys').length, 'once').to.equal(1);
    expect(ids).to.not.include('rainbow-like');
  });

  it('open rule 1: with no network configured and nothing connected, open() shows the WalletConnect pairing view', async () => {
    const el = await createModal({}, []);
    await el.open();
    expect(el.getState().view).to.equal('ConnectingWalletConnectBasic');
    await el.close();
    await el.open({ view: 'Connect' });
    expect(el.getState().view, 'the rule wins over an explicit view').to.equal('ConnectingWalletConnectBasic');
  });

  it('back to Connect while an address is connected shows Account', async () => {
    const wallet = await installDemoWallet();
    const el = await createModal();
    await connectDemoWallet(el, wallet);
    await el.close();
    await el.open({ view: 'Connect' });
    expect(el.getState().view).to.equal('Connect');
    const root = viewRoot(el);
    (await waitFor(() => byText(root, 'button', 'All Wallets'), 'All Wallets')).click();
    await waitFor(() => el.getState().view === 'AllWallets', 'AllWallets');
    (await waitFor(() => root.querySelector<HTMLElement>('button[aria-label="Back"]'), 'Back')).click();
    await waitFor(() => el.getState().view === 'Account', 'Account, not Connect');
  });

  it('the built-in networks are read through the default RPC host with the project id', async () => {
    const { seen, restore } = recordFetches();
    try {
      // A wallet on Ethereum mainnet (built in: no rpc-url attribute, no network object of the page's).
      const info = { uuid: '00000000-0000-4000-8000-00000000abcd', name: 'Mainnet Wallet', icon: 'data:image/svg+xml;base64,PHN2Zy8+', rdns: 'test.longtail.mainnet' };
      const provider = {
        request: async ({ method }: { method: string }) =>
          method === 'eth_requestAccounts' || method === 'eth_accounts' ? ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'] : method === 'eth_chainId' ? '0x1' : null,
        on() {},
        removeListener() {},
      };
      const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }));
      window.addEventListener('eip6963:requestProvider', announce);
      announce();
      const el = await createModal({}, ['eip155:1']);
      await el.open();
      (await waitFor(() => viewRoot(el).querySelector<HTMLElement>('[data-connector-id="test.longtail.mainnet"]'), 'the wallet row')).click();
      await waitFor(() => el.getState().status.eip155 === 'connected', 'connected');
      await el.open({ view: 'Account' });
      await waitFor(
        () => seen.some((u) => u.startsWith('https://rpc.walletmodal.dev/v1/') && u.includes('chainId=eip155%3A1') && u.includes('projectId=test-project')),
        `a call to the default RPC host among ${seen.join(' ')}`,
      );
      window.removeEventListener('eip6963:requestProvider', announce);
    } finally {
      restore();
    }
  });

  it('the modal shows loading while the project configuration is asked, then not', async () => {
    const el = await createModal();
    await el.open();
    // (The answer comes in a later task: the first open's state is still loading.)
    expect(el.getState().loading, 'loading from the first open').to.equal(true);
    await waitFor(() => el.getState().loading === false, 'loaded');
    await el.close();
    await el.open();
    expect(el.getState().loading, 'the second open loads nothing').to.equal(false);
  });

  it('in a restricted time zone (Chromium set to Asia/Shanghai) the account offers neither Swap nor Buy and says why; elsewhere it does', async () => {
    const wallet = await installDemoWallet();
    try {
      await executeServerCommand('visitor', { action: 'timezone', zone: 'Asia/Shanghai' });
      expect(Intl.DateTimeFormat().resolvedOptions().timeZone).to.equal('Asia/Shanghai');
      const el = await createModal();
      await connectDemoWallet(el, wallet);
      await el.open({ view: 'Account' });
      const root = viewRoot(el);
      await waitFor(() => root.querySelector('[part~="receive-button"]'), 'the account buttons');
      expect(root.querySelector('[part~="swap-button"], [part~="buy-button"]'), 'no Swap, no Buy').to.equal(null);
      expect(root.querySelector('[part~="region-note"]')?.textContent).to.equal('Swap and Buy are not available in your region');
      await viewAxeInBothThemes(el, 'account-restricted-region');
      await el.open({ view: 'Swap' });
      await waitFor(() => el.getState().view === 'Account', 'a host open of Swap is refused');
      el.remove();
      localStorage.clear();
    } finally {
      await executeServerCommand('visitor', { action: 'timezone', zone: 'Europe/Paris' });
    }
    const el = await createModal();
    await connectDemoWallet(el, wallet);
    await el.open({ view: 'Account' });
    const root = viewRoot(el);
    await waitFor(() => root.querySelector('[part~="swap-button"]') && root.querySelector('[part~="buy-button"]'), 'Swap and Buy in Paris');
    expect(root.querySelector('[part~="region-note"]')).to.equal(null);
  });

  it('a network whose first RPC URL is dead: the modal ranks it down and reads the balance through the second', async () => {
    const env = await testEnv();
    const networks = anvilNetworks(env);
    // Nothing listens on port 9 of this machine: the connection is refused at once.
    networks[0].rpcUrls.default.http = ['http://127.0.0.1:9/', env.chains[0].rpcUrl];
    const { seen, restore } = recordFetches();
    try {
      const wallet = await installDemoWallet();
      const el = await createModal({}, networks);
      await connectDemoWallet(el, wallet);
      await el.open({ view: 'Account' });
      const root = viewRoot(el);
      const balance = await waitFor(() => root.querySelector('[part~="balance"]:not([aria-busy])'), 'the balance', 15_000);
      expect(balance.textContent).to.match(/ETH$/);
      expect(balance.textContent).to.not.equal('0.00 ETH');
      expect(seen.indexOf('http://127.0.0.1:9/'), 'the dead URL was tried first').to.be.greaterThan(-1);
      expect(seen.lastIndexOf(env.chains[0].rpcUrl)).to.be.greaterThan(seen.indexOf('http://127.0.0.1:9/'));
    } finally {
      restore();
    }
  });

  it('while the modal shows, each RPC URL of such a network is probed every 4 s, and not once it is closed', async () => {
    const env = await testEnv();
    const networks = anvilNetworks(env);
    networks[0].rpcUrls.default.http = ['http://127.0.0.1:9/', env.chains[0].rpcUrl];
    const { seen, bodies, restore } = recordFetches();
    try {
      const wallet = await installDemoWallet();
      const el = await createModal({}, networks);
      await connectDemoWallet(el, wallet);
      await el.open({ view: 'Account' });
      await waitFor(() => viewRoot(el).querySelector('[part~="balance"]:not([aria-busy])'), 'the balance', 15_000);
      const probes = () => seen.filter((_, i) => bodies[i].includes('"eth_blockNumber"'));
      await waitFor(() => probes().length >= 2, 'the first probes', 6_000);
      expect(new Set(probes())).to.deep.equal(new Set(['http://127.0.0.1:9/', env.chains[0].rpcUrl]), 'each URL, the dead one too');
      await el.close();
      const after = probes().length;
      await new Promise((r) => setTimeout(r, 4_500));
      expect(probes().length - after, 'no probe while closed (one tick may already be under way)').to.be.at.most(2);
      const settled = probes().length;
      await new Promise((r) => setTimeout(r, 4_500));
      expect(probes().length).to.equal(settled);
    } finally {
      restore();
    }
  });

  it('a network with an assets.imageId shows the hosted asset image', async () => {
    const env = await testEnv();
    const networks: any[] = anvilNetworks(env);
    networks[1].assets = { imageId: 'anvil-b' };
    const el = await createModal({}, networks);
    await el.open({ view: 'SwitchNetwork' });
    const root = viewRoot(el);
    const img = await waitFor(() => root.querySelector<HTMLImageElement>('.wm-network-list img[src*="/public/getAssetImage/anvil-b"]'), 'the asset image', 10_000);
    expect(img.src).to.equal(`${env.backendUrl}/public/getAssetImage/anvil-b?projectId=test-project&st=wallet-modal`);
    await waitFor(() => img.complete && img.naturalWidth > 0, 'the image loaded');
    await viewAxeInBothThemes(el, 'network-asset-image');
  });
});
