// In a page of its own: the HTML "list of available images" would hand an image already loaded in
// this document back at once, whatever its cache headers, and hide the preload time-out.
import { expect } from '@esm-bundle/chai';
import { cleanup, createModal, viewRoot, waitFor } from './helpers';

describe('<wallet-modal> wallet images', () => {
  afterEach(cleanup);

  it('wallet images come from /getWalletImage and a slow image keeps its placeholder', async () => {
    const el = await createModal();
    await el.open({ view: 'AllWallets' });
    const root = viewRoot(el);
    await waitFor(() => root.querySelector('img[src*="/getWalletImage/"]'), 'a loaded wallet image');
    const slow = await waitFor(() => root.querySelector('[data-wallet-id="slow-image-wallet"]'), 'slow wallet');
    await new Promise((r) => setTimeout(r, 2300));
    expect(slow.querySelector('img') === null, 'no image after the 2000 ms preload time-out').to.equal(true);
  });

});
