// wallet-modal/wagmi: the modal as a wagmi connector, driven with @wagmi/core's actions (what
// wagmi's React hooks call) against the anvil chains, the visitor connecting the Demo Wallet in the
// modal itself.
import { expect } from '@esm-bundle/chai';
import { connect, createConfig, disconnect, getAccount, getBalance, http, sendTransaction, signMessage, switchChain, waitForTransactionReceipt, type Config } from '@wagmi/core';
import { defineChain, getAddress, parseEther, verifyMessage, type Address } from 'viem';
import { walletModal } from '../../../element/ts/wagmi';
import { anvilNetworks, cleanup, createModal, installDemoWallet, rpc, testEnv, viewRoot, waitFor, type WalletModal } from './helpers';
import { clickInFrame, emailLogin, frameText } from './embedded-helpers';

const BOB: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

async function setup(withWallet = true): Promise<{ el: WalletModal; wallet: any; config: Config; env: Awaited<ReturnType<typeof testEnv>> }> {
  cleanup();
  const env = await testEnv();
  const wallet = withWallet ? await installDemoWallet() : null;
  const el = await createModal({}, anvilNetworks(env));
  const [a, b] = env.chains.map((c, i) =>
    defineChain({ id: c.chainId, name: i ? 'Anvil B' : 'Anvil A', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [c.rpcUrl] } } }),
  );
  const config = createConfig({
    chains: [a, b],
    connectors: [walletModal({ element: el as any })],
    transports: { [a.id]: http(env.chains[0].rpcUrl), [b.id]: http(env.chains[1].rpcUrl) },
  });
  return { el, wallet, config, env };
}

/** The visitor picks the Demo Wallet in the open modal and approves in the wallet. */
async function visitorConnects(el: WalletModal, wallet: any): Promise<void> {
  (await waitFor(() => viewRoot(el)?.querySelector<HTMLElement>('[data-connector-id="dev.walletmodal.demo"]'), "the modal's Demo Wallet row")).click();
  await waitFor(() => wallet.pending().length > 0, 'the wallet prompt');
  wallet.approve();
}

/** Approves the wallet's next prompt. */
async function approveNext(wallet: any, what: string): Promise<void> {
  await waitFor(() => wallet.pending().length > 0, what, 15_000);
  wallet.approve();
}

describe('wallet-modal/wagmi: the modal as a wagmi connector (@wagmi/core against anvil)', function () {
  this.timeout(90_000);

  it("connect() opens the modal; the wallet the visitor connects there is wagmi's account; balance, send, sign, switch and disconnect go through it", async () => {
    const { el, wallet, config, env } = await setup();
    try {
      const connecting = connect(config, { connector: config.connectors[0] });
      await waitFor(() => el.getState()?.open, 'the modal opens');
      await visitorConnects(el, wallet);
      const { accounts, chainId } = await connecting;
      const address = getAddress(el.getState().connection.address);
      expect([accounts[0], chainId]).to.deep.equal([address, env.chains[0].chainId]);
      expect(getAccount(config)).to.deep.include({ status: 'connected', address, chainId: env.chains[0].chainId });

      // useBalance: what the node says.
      const balance = await getBalance(config, { address });
      expect(balance.value).to.equal(BigInt(await rpc(env.chains[0].rpcUrl, 'eth_getBalance', [address, 'latest'])));

      // useSendTransaction: through the modal's provider, approved in the wallet, mined on anvil.
      const before = BigInt(await rpc(env.chains[0].rpcUrl, 'eth_getBalance', [BOB, 'latest']));
      const sending = sendTransaction(config, { to: BOB, value: parseEther('0.01') });
      await approveNext(wallet, 'the wallet asks to send');
      const hash = await sending;
      const receipt = await waitForTransactionReceipt(config, { hash });
      expect(receipt.status).to.equal('success');
      expect(BigInt(await rpc(env.chains[0].rpcUrl, 'eth_getBalance', [BOB, 'latest'])) - before).to.equal(parseEther('0.01'));

      // useSignMessage: a signature viem verifies for the account.
      const message = 'wagmi through wallet-modal ✓';
      const signing = signMessage(config, { message });
      await approveNext(wallet, 'the wallet asks to sign');
      expect(await verifyMessage({ address, message, signature: await signing })).to.equal(true);

      // useSwitchChain: the modal moves the wallet; wagmi and the modal agree.
      const chain = await switchChain(config, { chainId: env.chains[1].chainId });
      expect(chain.id).to.equal(env.chains[1].chainId);
      expect(getAccount(config).chainId).to.equal(env.chains[1].chainId);
      expect(el.getState().network.caipNetworkId).to.equal(`eip155:${env.chains[1].chainId}`);
      // A chain the wagmi config lacks: refused with why.
      const refused = await switchChain(config, { chainId: 999 as any }).catch((e: Error) => e);
      expect(String(refused)).to.match(/not configured|not one of the wagmi config's chains/i);

      // The visitor switches in the modal: wagmi follows.
      await el.switchNetwork(`eip155:${env.chains[0].chainId}`);
      await waitFor(() => getAccount(config).chainId === env.chains[0].chainId, "wagmi's chain follows the modal");

      await disconnect(config);
      await waitFor(() => el.getState().status.eip155 === 'disconnected', 'the modal disconnected');
      expect(getAccount(config).status).to.equal('disconnected');
    } finally {
      el.remove();
    }
  });

  it('closing the modal without connecting rejects connect() as the visitor saying no', async () => {
    const { el, config } = await setup();
    try {
      const connecting = connect(config, { connector: config.connectors[0] }).catch((e: Error) => e);
      await waitFor(() => el.getState()?.open, 'the modal opens');
      await el.close();
      const error = (await connecting) as Error & { code?: number; cause?: { code?: number } };
      expect(error).to.be.instanceOf(Error);
      expect(error.name).to.equal('UserRejectedRequestError');
      expect(getAccount(config).status).to.equal('disconnected');
    } finally {
      el.remove();
    }
  });

  it('a wallet connected and disconnected in the modal itself (its own buttons) is what wagmi sees', async () => {
    const { el, wallet, config } = await setup();
    try {
      await el.open();
      await visitorConnects(el, wallet);
      await waitFor(() => getAccount(config).status === 'connected', 'wagmi hears the connection');
      expect(getAccount(config).address).to.equal(getAddress(el.getState().connection.address));
      await el.disconnect('eip155');
      await waitFor(() => getAccount(config).status === 'disconnected', 'wagmi hears the disconnection');
    } finally {
      el.remove();
    }
  });

  it("a config created before the app renders <wallet-modal> (React's order) still hears the network the visitor switches to in the wallet", async () => {
    cleanup();
    const env = await testEnv();
    const wallet = await installDemoWallet();
    const [a, b] = env.chains.map((c, i) =>
      defineChain({ id: c.chainId, name: i ? 'Anvil B' : 'Anvil A', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [c.rpcUrl] } } }),
    );
    // No element on the page yet: the connector finds the page's first <wallet-modal> later.
    expect(document.querySelector('wallet-modal')).to.equal(null);
    const config = createConfig({ chains: [a, b], connectors: [walletModal()], transports: { [a.id]: http(env.chains[0].rpcUrl), [b.id]: http(env.chains[1].rpcUrl) } });
    const el = await createModal({}, anvilNetworks(env));
    try {
      const connecting = connect(config, { connector: config.connectors[0] });
      await visitorConnects(el, wallet);
      expect((await connecting).chainId).to.equal(a.id);
      await wallet.switchChain(b.id);
      await waitFor(() => getAccount(config).chainId === b.id, 'wagmi hears the chain the wallet switched to');
      wallet.setAccount(1);
      await waitFor(() => getAccount(config).address === BOB, 'wagmi hears the account the wallet changed to');
    } finally {
      el.remove();
    }
  });

  it("with the embedded wallet: connect() resolves with the email login's account, and a signature waits for the visitor's Approve in the secure frame", async () => {
    const { el, config } = await setup(false);
    try {
      const connecting = connect(config, { connector: config.connectors[0] });
      await waitFor(() => el.getState()?.open, 'the modal opens');
      const address = getAddress(await emailLogin(el));
      const { accounts } = await connecting;
      expect(accounts[0]).to.equal(address);
      expect(getAccount(config).connector?.id).to.equal('walletModal');
      const message = 'wagmi through the embedded wallet';
      const signing = signMessage(config, { message });
      expect(await frameText('[data-field="message"]'), 'the frame shows what is signed').to.equal(message);
      await waitFor(() => document.querySelector<HTMLIFrameElement>('iframe[title="wallet-modal secure approval"]:not([hidden])'), 'the frame shown in the modal');
      await clickInFrame('Approve');
      expect(await verifyMessage({ address, message, signature: await signing })).to.equal(true);
      await disconnect(config);
      expect(getAccount(config).status).to.equal('disconnected');
    } finally {
      el.remove();
    }
  });
});
