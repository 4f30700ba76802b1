// Called by scripts/demo.sh once every part of the devnet runs (WM_DEVNET_JSON set): writes the
// devnet's description — URLs, chains, contracts, accounts and keys — as JSON to that file.
// The keys are anvil's public development keys (the mnemonic "test test … junk"): never real funds.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { HDNodeWallet } from 'ethers';

const env = process.env;
const MNEMONIC = 'test test test test test test test test test test test junk';
const read = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
};

const chains = env.DEVNET_CHAINS.split(',').map((pair, i) => {
  const [chainId, rpcUrl] = pair.split('=');
  return { chainId: Number(chainId), caipNetworkId: `eip155:${chainId}`, rpcUrl, name: `Anvil ${String.fromCharCode(65 + i)}` };
});
const accounts = Array.from({ length: 10 }, (_, i) => {
  const w = HDNodeWallet.fromPhrase(MNEMONIC, undefined, `m/44'/60'/0'/0/${i}`);
  return { address: w.address, privateKey: w.privateKey };
});
const api = env.DEVNET_API;
// The backend's own view of the page's configuration (the secure frame's address among it).
const config = await (await fetch(`${api}/demo-config.json`)).json();
const solana = env.DEVNET_SOLANA_JSON ? read(env.DEVNET_SOLANA_JSON) : null;
const description = {
  page: `${api}/`,
  apiUrl: api,
  relayUrl: `${api.replace(/^http/, 'ws')}/relay`,
  frameUrl: config.frameUrl,
  projectId: 'demo-project',
  evm: { chains, mnemonic: MNEMONIC, accounts, contracts: read(env.DEVNET_MANIFEST)?.chains ?? [] },
  solana: solana && { caipNetworkId: 'solana:4mNTqascDjk5DPK2SpMPZvt6wr7mfNDZ', rpcUrl: solana.rpcUrl, owner: solana.owner, tokens: solana.tokens },
  bitcoin: env.DEVNET_BITCOIN ? { esploraUrl: `${api}/bitcoin/api`, node: env.DEVNET_BITCOIN.replace(/\/\/[^@/]*@/, '//') } : null,
  mail: { web: env.DEVNET_MAIL_WEB, smtp: env.DEVNET_MAIL_SMTP },
  oidc: { issuer: env.DEVNET_OIDC },
  wallets: {
    evm: `${api}/demo/wallet/demo-wallet.js`,
    solana: `${api}/demo/wallet/solana-wallet.js`,
    bitcoin: `${api}/demo/wallet/dist/bitcoin-wallet.js`,
    polkadot: `${api}/demo/wallet/dist/polkadot-extension.js`,
    cosmos: `${api}/demo/wallet/dist/keplr-wallet.js`,
    mobile: `${api}/wallet-mobile/`,
  },
};
writeFileSync(`${env.WM_DEVNET_JSON}.part`, JSON.stringify(description, null, 2));
renameSync(`${env.WM_DEVNET_JSON}.part`, env.WM_DEVNET_JSON);
