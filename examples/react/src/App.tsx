import { useEffect, useRef, useState } from 'react';
import 'wallet-modal';
import type { WalletModalElement, WalletModalEventMap } from 'wallet-modal';
// <wallet-modal> in JSX, with its attributes and `ref` typed as the element.
import type {} from 'wallet-modal/react';

/** The smallest React 19 dapp: the modal's events in React state, its theme from React state. */
export function App() {
  const modal = useRef<WalletModalElement>(null);
  const [address, setAddress] = useState<string | null>(null);
  const [theme, setTheme] = useState<'light' | 'dark'>('light');

  useEffect(() => {
    const el = modal.current!;
    const onConnect = (e: WalletModalEventMap['connect']) => setAddress(e.detail.address);
    const onDisconnect = () => setAddress(null);
    el.addEventListener('connect', onConnect);
    el.addEventListener('disconnect', onDisconnect);
    return () => {
      el.removeEventListener('connect', onConnect);
      el.removeEventListener('disconnect', onDisconnect);
    };
  }, []);

  return (
    <main>
      <h1>React dapp</h1>
      <p id="address">{address ?? 'not connected'}</p>
      <button id="open" onClick={() => modal.current?.open({ view: address ? 'Account' : 'Connect' })}>
        {address ? 'Account' : 'Connect'}
      </button>
      <button id="theme" onClick={() => setTheme(theme === 'light' ? 'dark' : 'light')}>
        Theme: {theme}
      </button>
      <button id="disconnect" disabled={!address} onClick={() => modal.current?.disconnect()}>
        Disconnect
      </button>
      <wallet-modal ref={modal} project-id="example-project" theme-mode={theme} api-url={import.meta.env.VITE_WM_API_URL} />
    </main>
  );
}
