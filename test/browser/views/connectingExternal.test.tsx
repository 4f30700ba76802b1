import { expect } from '@esm-bundle/chai';
import type { Snapshot } from './fixtures';
import { GOOD_IMAGE, cleanup, makeSnapshot, mount, text, waitFor, ident } from './fixtures';

function connecting(over: Partial<NonNullable<Snapshot['connecting']>> = {}): Snapshot {
  return makeSnapshot({
    view: 'ConnectingExternal',
    title: 'MetaMask',
    canGoBack: true,
    connecting: { connectorId: 'io.metamask', name: 'MetaMask', icon: GOOD_IMAGE, state: 'pending', error: null, ...over },
  });
}

describe('views: ConnectingExternal', function () {

  this.timeout(10000);
  afterEach(cleanup);

  it('shows the wallet icon, "Continue in {name}" and a spinner while pending', async () => {
    const m = mount(connecting());
    const view = await m.find('.wm-connecting');
    expect(text(view.querySelector('.wm-connecting-title'))).to.equal('Continue in MetaMask');
    expect(view.querySelector('[role="status"].wm-spinner')).to.not.equal(null);
    await waitFor(() => view.querySelector('[data-image-state="loaded"] img'));
    expect(ident(m.$('.wm-retry'))).to.equal('null');
    expect(ident(m.$('[part~="error"]'))).to.equal('null');
  });

  it('on rejection shows the catalogue message and a Try again button that sends retry', async () => {
    const m = mount(
      connecting({ state: 'error', error: { code: 4001, key: 'CONNECTION_REJECTED', message: 'Connection rejected' } }),
    );
    const err = await m.find('[part~="error"]');
    expect(text(err)).to.equal('Connection rejected');
    expect(err.getAttribute('role')).to.equal('alert');
    expect(ident(m.$('.wm-connecting [role="status"].wm-spinner'))).to.equal('null');
    const retry = m.$<HTMLButtonElement>('.wm-retry')!;
    expect(text(retry)).to.equal('Try again');
    retry.click();
    expect(m.intents).to.deep.equal([{ type: 'retry' }]);
  });

  it("shows 'Failed to connect' for a generic failure", async () => {
    const m = mount(connecting({ state: 'error', error: { code: 5000, key: 'FAILED_TO_CONNECT', message: 'Failed to connect' } }));
    await waitFor(() => text(m.$('[part~="error"]')) === 'Failed to connect');
  });

  it('goes back to pending after a retry', async () => {
    const m = mount(connecting({ state: 'error', error: { code: 4001, key: 'CONNECTION_REJECTED', message: 'Connection rejected' } }));
    await m.find('[part~="error"]');
    m.render(connecting());
    await waitFor(() => m.$('[part~="error"]') === null && m.$('.wm-retry') === null);
    expect(m.$('.wm-connecting [role="status"]')).to.not.equal(null);
  });

  it('uses the name from the snapshot', async () => {
    const m = mount(connecting({ name: 'Rabby Wallet', icon: null }));
    await waitFor(() => text(m.$('.wm-connecting-title')) === 'Continue in Rabby Wallet');
    expect(text(m.$('.wm-connecting [data-image-state="placeholder"]'))).to.equal('RW');
  });
});
