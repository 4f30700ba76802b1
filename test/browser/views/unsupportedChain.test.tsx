import { expect } from '@esm-bundle/chai';
import type { Snapshot } from './fixtures';
import { ETHEREUM, POLYGON, cleanup, makeAccount, makeSnapshot, mount, text, waitFor } from './fixtures';

function unsupported(over: Partial<Snapshot> = {}): Snapshot {
  return makeSnapshot({
    view: 'UnsupportedChain',
    title: 'Switch Network',
    account: makeAccount(),
    network: null,
    networks: [
      { ...ETHEREUM, active: false },
      { ...POLYGON, active: false },
    ],
    ...over,
  });
}

describe('views: UnsupportedChain', function () {

  this.timeout(10000);
  afterEach(cleanup);

  it('explains the problem', async () => {
    const m = mount(unsupported());
    const p = await m.find('.wm-unsupported .wm-text');
    expect(text(p)).to.equal("This app doesn't support your current network. Switch to an available option to continue.");
  });

  it('lists the available networks; a click sends switchNetwork', async () => {
    const m = mount(unsupported());
    await m.find('[part~="network"]');
    const rows = m.$$<HTMLButtonElement>('[part~="network"]');
    expect(rows.map((r) => text(r.querySelector('.wm-row-name')))).to.deep.equal(['Ethereum', 'Polygon']);
    rows[1].click();
    expect(m.intents).to.deep.equal([{ type: 'switchNetwork', caipNetworkId: 'eip155:137' }]);
  });

  it('shows "Approve in wallet" while a switch is pending', async () => {
    const m = mount(unsupported({ switching: { target: ETHEREUM, state: 'pending', error: null } }));
    await waitFor(() => text(m.$('[data-network-id="eip155:1"]')).includes('Approve in wallet'));
  });

  it('has a disconnect button', async () => {
    const m = mount(unsupported());
    const btn = await m.find<HTMLButtonElement>('[part~="disconnect-button"]');
    btn.click();
    expect(m.intents).to.deep.equal([{ type: 'disconnect' }]);
  });

  it('shows a failed switch', async () => {
    const m = mount(
      unsupported({ switching: { target: ETHEREUM, state: 'error', error: { code: 4902, key: 'UNKNOWN_CHAIN', message: 'Chain is not supported' } } }),
    );
    await waitFor(() => text(m.$('[part~="error"]')) === 'Chain is not supported');
  });
});
