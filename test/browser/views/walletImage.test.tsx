import { expect } from '@esm-bundle/chai';
import { BROKEN_IMAGE, GOOD_IMAGE, NEVER_IMAGE, cleanup, makeSnapshot, mount, sleep, text, waitFor, ident } from './fixtures';

function withIcon(icon: string | null, timeout = 2000) {
  return makeSnapshot({
    imagePreloadTimeoutMs: timeout,
    connectors: [{ id: 'w', name: 'Trust Wallet', icon, kind: 'injected', installed: true }],
  });
}

/** A stand-in for window.Image whose load/error the test fires by hand. */
class FakeImage {
  static instances: FakeImage[] = [];
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  decoding = 'auto';
  srcValue = '';
  constructor() {
    FakeImage.instances.push(this);
  }
  set src(v: string) {
    this.srcValue = v;
  }
  get src() {
    return this.srcValue;
  }
}

describe('views: WalletImage', function () {

  this.timeout(10000);
  const RealImage = window.Image;
  afterEach(() => {
    window.Image = RealImage;
    FakeImage.instances = [];
    cleanup();
  });

  const state = (m: ReturnType<typeof mount>) => m.$('[data-connector-id="w"] [data-image-state]')?.getAttribute('data-image-state');

  it('shows an image once it has loaded', async () => {
    const m = mount(withIcon(GOOD_IMAGE));
    await waitFor(() => state(m) === 'loaded');
    expect(m.$('[data-connector-id="w"] img')!.getAttribute('src')).to.equal(GOOD_IMAGE);
  });

  it('shows initials on a tinted square until then', async () => {
    window.Image = FakeImage as unknown as typeof Image;
    const m = mount(withIcon(GOOD_IMAGE));
    await waitFor(() => state(m) === 'placeholder');
    const ph = m.$('[data-connector-id="w"] [data-image-state="placeholder"]')!;
    expect(text(ph)).to.equal('TW');
    expect(Array.from(ph.classList).some((c) => /^wm-tint-\d$/.test(c))).to.equal(true);
    expect(ident(m.$('[data-connector-id="w"] img'))).to.equal('null');
  });

  it('keeps the placeholder when the image errors (invalid data: image)', async () => {
    const m = mount(withIcon(BROKEN_IMAGE));
    await waitFor(() => state(m) === 'placeholder');
    await sleep(300);
    expect(state(m)).to.equal('placeholder');
    expect(ident(m.$('[data-connector-id="w"] img'))).to.equal('null');
  });

  it('keeps the placeholder for an unreachable URL with a tiny timeout', async () => {
    const m = mount(withIcon(NEVER_IMAGE, 20));
    await waitFor(() => state(m) === 'placeholder');
    await sleep(400);
    expect(state(m)).to.equal('placeholder');
  });

  it('keeps the placeholder when the image loads after the timeout', async () => {
    window.Image = FakeImage as unknown as typeof Image;
    const m = mount(withIcon('https://example.invalid/slow.png', 50));
    await waitFor(() => FakeImage.instances.some((i) => i.srcValue === 'https://example.invalid/slow.png'));
    await sleep(150);
    FakeImage.instances.forEach((i) => i.onload?.());
    await sleep(50);
    expect(state(m)).to.equal('placeholder');
  });

  it('shows the image when it loads within the timeout', async () => {
    window.Image = FakeImage as unknown as typeof Image;
    const m = mount(withIcon('https://example.invalid/fast.png', 5000));
    await waitFor(() => FakeImage.instances.some((i) => i.srcValue === 'https://example.invalid/fast.png'));
    FakeImage.instances.forEach((i) => i.onload?.());
    await waitFor(() => state(m) === 'loaded');
    expect(m.$('[data-connector-id="w"] img')!.getAttribute('src')).to.equal('https://example.invalid/fast.png');
  });

  it('never loads anything but data:image/ and http(s) URLs', async () => {
    window.Image = FakeImage as unknown as typeof Image;
    for (const bad of ['javascript:alert(1)', 'data:text/html,<b>x</b>', '/relative.png', 'ftp://x/y.png']) {
      const m = mount(withIcon(bad));
      await waitFor(() => state(m) === 'placeholder');
      await sleep(20);
      expect(state(m), bad).to.equal('placeholder');
      expect(ident(m.$('[data-connector-id="w"] img')), bad).to.equal('null');
    }
    expect(FakeImage.instances.length).to.equal(0);
  });

  it('a null icon is a placeholder without any request', async () => {
    window.Image = FakeImage as unknown as typeof Image;
    const m = mount(withIcon(null));
    await waitFor(() => state(m) === 'placeholder');
    expect(FakeImage.instances.length).to.equal(0);
  });

  it('switches back to the placeholder when the source changes', async () => {
    const m = mount(withIcon(GOOD_IMAGE));
    await waitFor(() => state(m) === 'loaded');
    m.render(withIcon(BROKEN_IMAGE));
    await waitFor(() => state(m) === 'placeholder');
    await sleep(200);
    expect(state(m)).to.equal('placeholder');
  });
});
