import { testEnv } from '../element/helpers';

/** ws:// URL of the test backend's WalletConnect relay. */
export async function relayUrl(): Promise<string> {
  const env = await testEnv();
  return `${env.backendUrl.replace(/^http/, 'ws').replace(/\/$/, '')}/relay`;
}
