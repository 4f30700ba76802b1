import { useState } from 'react';
import { formatEther, isAddress, parseEther } from 'viem';
import { useAccount, useBalance, useConnect, useDisconnect, useSendTransaction, useSignMessage, useSwitchChain, useWaitForTransactionReceipt } from 'wagmi';
// <wallet-modal> in JSX (attributes, `networks`, `ref`).
import type {} from 'wallet-modal/react';
import { modalNetworks } from './config';

/** A wagmi dapp whose only connector is the modal: wagmi's hooks on the modal's connection. */
export function App() {
  const { address, chain, status } = useAccount();
  const { connect, connectors, error: connectError } = useConnect();
  const { disconnect } = useDisconnect();
  const { chains, switchChain } = useSwitchChain();
  const balance = useBalance({ address });
  const sign = useSignMessage();
  const send = useSendTransaction();
  const receipt = useWaitForTransactionReceipt({ hash: send.data });
  const [to, setTo] = useState('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
  const [amount, setAmount] = useState('0.01');

  return (
    <main>
      <h1>wagmi dapp</h1>
      <p>
        Status: <span id="status">{status}</span> · Account: <span id="address">{address ?? 'not connected'}</span> · Chain:{' '}
        <span id="chain">{chain?.id ?? '-'}</span>
      </p>
      <p>
        Balance: <span id="balance">{balance.data ? `${formatEther(balance.data.value)} ${balance.data.symbol}` : '-'}</span>
      </p>
      {status !== 'connected' ? (
        <button id="connect" onClick={() => connect({ connector: connectors[0] })}>
          Connect
        </button>
      ) : (
        <>
          <button id="disconnect" onClick={() => disconnect()}>
            Disconnect
          </button>
          {chains.map((c) => (
            <button key={c.id} className="switch" data-chain={c.id} disabled={c.id === chain?.id} onClick={() => switchChain({ chainId: c.id })}>
              Use {c.name}
            </button>
          ))}
          <h2>Send</h2>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              if (isAddress(to)) send.sendTransaction({ to, value: parseEther(amount) });
            }}
          >
            <label>
              To <input id="to" value={to} onChange={(e) => setTo(e.target.value)} />
            </label>
            <label>
              Amount (ETH) <input id="amount" value={amount} onChange={(e) => setAmount(e.target.value)} />
            </label>
            <button id="send" disabled={send.isPending || !isAddress(to)}>
              Send
            </button>
          </form>
          <p id="tx">
            {send.isPending
              ? 'waiting for the wallet'
              : send.error
                ? `error: ${'shortMessage' in send.error ? send.error.shortMessage : send.error.message}`
                : receipt.data
                  ? `confirmed in block ${receipt.data.blockNumber} (${receipt.data.status})`
                  : send.data
                    ? `sent ${send.data}`
                    : ''}
          </p>
          <h2>Sign</h2>
          <button id="sign" onClick={() => sign.signMessage({ message: 'Hello from a wagmi dapp' })}>
            Sign a message
          </button>
          <p id="signature">{sign.data ?? (sign.error ? `error: ${'shortMessage' in sign.error ? sign.error.shortMessage : sign.error.message}` : '')}</p>
        </>
      )}
      {connectError && <p id="connect-error">{connectError.message}</p>}
      <wallet-modal project-id="example-project" api-url={import.meta.env.VITE_WM_API_URL} networks={modalNetworks} />
    </main>
  );
}
