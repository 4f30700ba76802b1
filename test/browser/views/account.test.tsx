import { expect } from '@esm-bundle/chai';
import type { Snapshot } from './fixtures';
import { ETHEREUM, cleanup, ident, makeAccount, makeSnapshot, mount, text, waitFor } from './fixtures';

function account(over: Partial<NonNullable<Snapshot['account']>> = {}, snap: Partial<Snapshot> = {}): Snapshot {
  return makeSnapshot({
    view: 'Account',
    title: 'Account',
    status: { eip155: 'connected' },
    account: makeAccount(over),
    network: ETHEREUM,
    networks: [ETHEREUM],
    ...snap,
  });
}

describe('views: Account', function () {

  this.timeout(10000);
  afterEach(cleanup);

  it('shows the short address in the address part', async () => {
    const m = mount(account());
    const address = await m.find('[part~="address"]');
    expect(text(address)).to.equal('0x12...345678');
    expect(m.$('[part~="account"]')).to.not.equal(null);
  });

  it('paints the avatar with the five address colours through the CSSOM (no style attribute)', async () => {
    const m = mount(account());
    const avatar = await m.find('[part~="avatar"]');
    await waitFor(() => getComputedStyle(avatar).getPropertyValue('--wm-avatar-1').trim() === '#ff0000');
    const cs = getComputedStyle(avatar);
    expect(['--wm-avatar-2', '--wm-avatar-3', '--wm-avatar-4', '--wm-avatar-5'].map((p) => cs.getPropertyValue(p).trim())).to.deep.equal([
      '#00ff00',
      '#0000ff',
      '#ffff00',
      '#00ffff',
    ]);
    expect(cs.backgroundImage).to.contain('rgb(0, 255, 255)');
    expect(avatar.hasAttribute('style')).to.equal(false);
    expect(m.$$('[style]').length).to.equal(0);
    expect(getComputedStyle(avatar).borderRadius).to.equal('50%');
  });

  it('changes the avatar colours with the address', async () => {
    const m = mount(account());
    const avatar = await m.find('[part~="avatar"]');
    await waitFor(() => getComputedStyle(avatar).getPropertyValue('--wm-avatar-1').trim() === '#ff0000');
    m.render(account({ address: '0xabc', avatar: ['#111111', '#222222', '#333333', '#444444', '#555555'] }));
    await waitFor(() => getComputedStyle(m.$('[part~="avatar"]')!).getPropertyValue('--wm-avatar-1').trim() === '#111111');
  });

  it('ignores avatar values that are not colours', async () => {
    const m = mount(account({ avatar: ['url(https://evil.example/x.png)', '#00ff00', '#0000ff', '#ffff00', '#00ffff'] }));
    const avatar = await m.find('[part~="avatar"]');
    await waitFor(() => getComputedStyle(avatar).getPropertyValue('--wm-avatar-2').trim() === '#00ff00');
    expect(getComputedStyle(avatar).getPropertyValue('--wm-avatar-1').trim()).to.equal('');
    expect(getComputedStyle(avatar).backgroundImage).to.not.contain('evil');
  });

  it('copy sends copyAddress and shows Copied for 1.5 s', async () => {
    const m = mount(account());
    const copy = await m.find<HTMLButtonElement>('button[aria-label="Copy address"]');
    const t0 = performance.now();
    copy.click();
    expect(m.intents).to.deep.equal([{ type: 'copyAddress' }]);
    await waitFor(() => text(m.$('.wm-copied')) === 'Copied');
    expect(ident(m.$('button[aria-label="Address copied"]'))).to.not.equal('null');
    await waitFor(() => text(m.$('.wm-copied')) === '', { timeout: 5000 });
    const shownFor = performance.now() - t0;
    // Timers can only fire late (background tabs are throttled), never early.
    expect(shownFor, 'shown for at least 1.5 s').to.be.at.least(1490);
    expect(shownFor, 'and then hidden').to.be.below(4000);
    expect(ident(m.$('button[aria-label="Copy address"]'))).to.not.equal('null');
  });

  it('shows the balance with its symbol', async () => {
    const m = mount(account({ balance: '1.234', balanceSymbol: 'ETH' }));
    const balance = await m.find('[part~="balance"]');
    expect(text(balance)).to.equal('1.234 ETH');
  });

  it('shows a skeleton while the balance is null', async () => {
    const m = mount(account({ balance: null }));
    const balance = await m.find('[part~="balance"]');
    expect(balance.classList.contains('wm-skeleton')).to.equal(true);
    expect(balance.getAttribute('aria-busy')).to.equal('true');
    expect(text(balance)).to.equal('');
    m.render(account({ balance: '0.000' }));
    await waitFor(() => text(m.$('[part~="balance"]')) === '0.000 ETH');
    expect(m.$('[part~="balance"]')!.classList.contains('wm-skeleton')).to.equal(false);
  });

  it('the network button shows the network name and navigates to SwitchNetwork', async () => {
    const m = mount(account());
    const btn = await m.find<HTMLButtonElement>('[part~="network-button"]');
    expect(btn.tagName).to.equal('BUTTON');
    expect(text(btn)).to.contain('Ethereum');
    btn.click();
    expect(m.intents).to.deep.equal([{ type: 'navigate', view: 'SwitchNetwork' }]);
  });

  it('disconnect sends disconnect', async () => {
    const m = mount(account());
    const btn = await m.find<HTMLButtonElement>('[part~="disconnect-button"]');
    expect(text(btn)).to.equal('Disconnect');
    btn.click();
    expect(m.intents).to.deep.equal([{ type: 'disconnect' }]);
  });

  it('links to the block explorer in a new tab, and only for http(s) URLs', async () => {
    const m = mount(account());
    const link = await m.find<HTMLAnchorElement>('a.wm-link');
    expect(link.getAttribute('href')).to.equal(makeAccount().explorerUrl);
    expect(link.target).to.equal('_blank');
    expect(link.rel).to.contain('noopener');
    m.render(account({ explorerUrl: 'javascript:alert(1)' }));
    await waitFor(() => m.$('a.wm-link') === null);
  });
});
