// The pairing QR code with WalletConnect's logo in its centre, drawn by the real encoder (the
// WalletConnect wasm module), rasterised by Chromium and read back by an independent decoder (jsQR).
import { expect } from '@esm-bundle/chai';
import jsQR from 'jsqr';
import type { Snapshot } from '../views/fixtures';
import { cleanup, makeSnapshot, mount } from '../views/fixtures';
import { rasterise } from './qr-raster';

const URI =
  'wc:7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9@2?symKey=587d5484ce2a2a6ee3ba1962fdd7e8588e06200c46823bd18fbd67def96ad303&relay-protocol=irn&expiryTimestamp=1999999999';

function pairing(uri: string): Snapshot {
  return makeSnapshot({
    view: 'ConnectingWalletConnect',
    title: 'WalletConnect',
    canGoBack: true,
    walletConnect: { uri, expiresAtMs: null, wallet: null },
    connecting: { connectorId: 'walletConnect', name: 'WalletConnect', icon: null, state: 'pending', error: null },
  });
}

describe('WalletConnect QR code logo', function () {
  this.timeout(15_000);
  afterEach(cleanup);

  it('puts the WalletConnect logo in the centre of the pairing QR code, which still decodes to the URI', async () => {
    const m = mount(pairing(URI));
    const svg = await m.find<SVGSVGElement>('.wm-qr[data-state="ready"] svg[role="img"]', 8000);
    const logo = svg.querySelector<SVGGElement>('[data-qr-logo="walletconnect"]');
    expect(logo !== null, 'a logo in the QR code').to.equal(true);

    // Centred, and small: about a fifth of the side.
    const q = svg.getBoundingClientRect();
    const l = logo!.getBoundingClientRect();
    expect(Math.abs(l.left + l.width / 2 - (q.left + q.width / 2))).to.be.below(1);
    expect(Math.abs(l.top + l.height / 2 - (q.top + q.height / 2))).to.be.below(1);
    expect(l.width / q.width).to.be.within(0.12, 0.25);

    const { ctx, side, modules } = await rasterise(svg, 6);
    // What is decoded has the logo drawn: the pixel a little below the tile's top edge is its blue.
    const tile = logo!.querySelector('rect')!;
    const [x, y, w] = ['x', 'y', 'width'].map((a) => Number(tile.getAttribute(a)));
    const px = ctx.getImageData(Math.round(((x + w / 2) * side) / modules), Math.round(((y + w * 0.12) * side) / modules), 1, 1).data;
    expect([px[0], px[1], px[2]], 'logo blue at the centre').to.deep.equal([51, 150, 255]);
    const code = jsQR(ctx.getImageData(0, 0, side, side).data, side, side);
    expect(code?.data).to.equal(URI);
  });

  it('pairing codes of other lengths with the logo decode too', async () => {
    for (const uri of [URI.slice(0, 120), `${URI}&methods=${'personal_sign,'.repeat(8)}`]) {
      const m = mount(pairing(uri));
      const svg = await m.find<SVGSVGElement>('.wm-qr[data-state="ready"] svg[role="img"]', 8000);
      expect(svg.querySelector('[data-qr-logo]') !== null, 'logo').to.equal(true);
      const { ctx, side } = await rasterise(svg, 5);
      expect(jsQR(ctx.getImageData(0, 0, side, side).data, side, side)?.data, uri).to.equal(uri);
      m.unmount();
    }
  });
});
