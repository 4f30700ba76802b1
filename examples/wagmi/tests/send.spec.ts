import { expect, test, type Page } from '@playwright/test';
import { createPublicClient, http, parseEther, verifyMessage } from 'viem';
import { connectInModal, testWallet, type DevnetDescription } from 'wallet-modal-devnet/playwright';

const devnet: DevnetDescription = JSON.parse(process.env.DEVNET!);
const [chainA, chainB] = devnet.evm.chains;
const receiver = devnet.evm.accounts[1].address;
const rpc = createPublicClient({ transport: http(chainA.rpcUrl) });

/** The app open with the test wallet; the visitor connects it through the modal (useConnect). */
async function connected(page: Page) {
  const wallet = await testWallet(page, devnet);
  await page.goto(process.env.APP_URL!);
  await page.click('#connect');
  await connectInModal(page);
  await wallet.approve('eth_requestAccounts');
  await expect(page.locator('#status')).toHaveText('connected');
  return wallet;
}

test('connects through the modal, sends ETH on anvil with useSendTransaction and signs with useSignMessage', async ({ page }) => {
  // useConnect → the modal opens; the visitor picks the test wallet and approves in it.
  const wallet = await connected(page);
  await expect(page.locator('#address')).toHaveText(devnet.evm.accounts[0].address);
  await expect(page.locator('#chain')).toHaveText(String(chainA.chainId));
  await expect(page.locator('#balance')).toContainText('ETH');

  // useSendTransaction → the wallet is asked, approves; the receipt comes from anvil.
  const before = await rpc.getBalance({ address: receiver });
  await page.fill('#to', receiver);
  await page.fill('#amount', '0.25');
  await page.click('#send');
  const request = await wallet.approve('eth_sendTransaction');
  expect((request.params as { to: string }[])[0].to.toLowerCase()).toBe(receiver.toLowerCase());
  await expect(page.locator('#tx')).toContainText(/confirmed in block \d+ \(success\)/);
  expect((await rpc.getBalance({ address: receiver })) - before).toBe(parseEther('0.25'));

  // useSignMessage → personal_sign approved; the signature is the connected account's.
  await page.click('#sign');
  await wallet.approve('personal_sign');
  await expect(page.locator('#signature')).toHaveText(/^0x[0-9a-f]{130}$/);
  const signature = (await page.locator('#signature').textContent()) as `0x${string}`;
  expect(await verifyMessage({ address: devnet.evm.accounts[0].address, message: 'Hello from a wagmi dapp', signature })).toBe(true);
});

test('a transaction the visitor rejects in the wallet reaches useSendTransaction as a rejection, and nothing is sent', async ({ page }) => {
  const wallet = await connected(page);
  const nonce = await rpc.getTransactionCount({ address: devnet.evm.accounts[0].address });
  await page.click('#send');
  await wallet.reject('eth_sendTransaction');
  await expect(page.locator('#tx')).toHaveText('error: User rejected the request.');
  expect(await rpc.getTransactionCount({ address: devnet.evm.accounts[0].address })).toBe(nonce);
});

test('a chain switched in the wallet, and one asked for with useSwitchChain, reach wagmi', async ({ page }) => {
  const wallet = await connected(page);
  await expect(page.locator('#chain')).toHaveText(String(chainA.chainId));

  // The visitor switches in the wallet itself.
  await wallet.switchChain(chainB.chainId);
  await expect(page.locator('#chain')).toHaveText(String(chainB.chainId));

  // The dapp asks (useSwitchChain): the demo wallet switches between chains it knows without a prompt.
  await page.click(`.switch[data-chain="${chainA.chainId}"]`);
  await expect(page.locator('#chain')).toHaveText(String(chainA.chainId));
  expect((await wallet.state()).chainId).toBe(chainA.chainId);

  // Disconnect from the dapp: wagmi and the modal agree.
  await page.click('#disconnect');
  await expect(page.locator('#status')).toHaveText('disconnected');
});
