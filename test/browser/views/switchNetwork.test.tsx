import { expect } from '@esm-bundle/chai';
import type { Snapshot } from './fixtures';
import { ARBITRUM, ETHEREUM, POLYGON, cleanup, makeAccount, makeSnapshot, mount, text, waitFor } from './fixtures';

function switchView(over: Partial<Snapshot> = {}): Snapshot {
  return makeSnapshot({
    view: 'SwitchNetwork',
    title: 'Choose Network',
    canGoBack: true,
    account: makeAccount(),
    network: ETHEREUM,
    networks: [ETHEREUM, POLYGON, ARBITRUM],
    ...over,
  });
}

describe('views: SwitchNetwork', function () {

  this.timeout(10000);
  afterEach(cleanup);

  it('lists the networks in order as buttons', async () => {
    const m = mount(switchView());
    await m.find('[part~="network"]');
    const rows = m.$$<HTMLButtonElement>('[part~="network"]');
    expect(rows.map((r) => text(r.querySelector('.wm-row-name')))).to.deep.equal(['Ethereum', 'Polygon', 'Arbitrum']);
    expect(rows.every((r) => r.tagName === 'BUTTON')).to.equal(true);
  });

  it('marks the active network', async () => {
    const m = mount(switchView());
    await m.find('[part~="network"]');
    const active = m.$$('[aria-current="true"]');
    expect(active.length).to.equal(1);
    expect(active[0].dataset.networkId).to.equal('eip155:1');
    expect(text(active[0])).to.contain('Active');
  });

  it('clicking a network sends switchNetwork with its CAIP id', async () => {
    const m = mount(switchView());
    const polygon = await m.find<HTMLButtonElement>('[data-network-id="eip155:137"]');
    polygon.click();
    expect(m.intents).to.deep.equal([{ type: 'switchNetwork', caipNetworkId: 'eip155:137' }]);
  });

  it('shows "Approve in wallet" for the target while the switch is pending', async () => {
    const m = mount(switchView({ switching: { target: POLYGON, state: 'pending', error: null } }));
    const row = await m.find('[data-network-id="eip155:137"]');
    await waitFor(() => text(row).includes('Approve in wallet'));
    expect(row.getAttribute('aria-busy')).to.equal('true');
    expect(text(m.$('[data-network-id="eip155:42161"]'))).to.not.contain('Approve in wallet');
    expect(text(m.$('[data-network-id="eip155:1"]'))).to.not.contain('Approve in wallet');
  });

  it('shows the error when the switch failed', async () => {
    const m = mount(
      switchView({ switching: { target: POLYGON, state: 'error', error: { code: 4001, key: 'USER_REJECTED', message: 'User rejected the request' } } }),
    );
    const err = await m.find('[part~="error"]');
    expect(text(err)).to.equal('User rejected the request');
    expect(text(m.$('[data-network-id="eip155:137"]'))).to.not.contain('Approve in wallet');
  });

  it('moves the active mark when the engine switches', async () => {
    const m = mount(switchView());
    await m.find('[aria-current="true"][data-network-id="eip155:1"]');
    m.render(switchView({ network: { ...POLYGON, active: true }, networks: [{ ...ETHEREUM, active: false }, { ...POLYGON, active: true }, ARBITRUM] }));
    await m.find('[aria-current="true"][data-network-id="eip155:137"]');
    expect(m.$$('[aria-current="true"]').length).to.equal(1);
  });
});
