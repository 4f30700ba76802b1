// When a module's .wasm cannot be loaded (a bundler that did not copy it, a CDN down), the modal
// says so instead of showing nothing, and the element fires `error`. This file has a page of its
// own: the loader it breaks is shared by every element of the page.
import { expect } from '@esm-bundle/chai';
import { dialog, loadElement, nextEvent, viewRoot, waitFor, type WalletModal } from './helpers';

describe('a module that cannot load', function () {
  this.timeout(20_000);

  it('the engine: open() shows why in the modal and `error` fires', async () => {
    await loadElement();
    const Element = customElements.get('wallet-modal') as unknown as { setWasmUrl(m: string, u: string): void };
    Element.setWasmUrl('engine', 'http://127.0.0.1:9/missing.wasm');
    const el = document.createElement('wallet-modal') as WalletModal;
    el.setAttribute('project-id', 'p');
    const failed = nextEvent(el, 'error', 10_000);
    document.body.appendChild(el);
    const e = await failed;
    expect(e.detail.key).to.equal('ENGINE_LOAD_FAILED');
    expect(e.detail.message).to.match(/could not load its engine/);
    await el.open();
    const root = viewRoot(el);
    const alert = await waitFor(() => root.querySelector<HTMLElement>('[part~="error"][role="alert"]'), 'the failure shown');
    expect(alert.textContent).to.match(/could not load its engine/);
    expect(dialog(el)?.getAttribute('data-view')).to.equal('ConfigError');
    el.remove();
  });

  it('a lazily loaded module (the embedded wallet): the visitor is told, and the engine goes on', async () => {
    const Element = customElements.get('wallet-modal') as unknown as { setWasmUrl(m: string, u: string): void };
    Element.setWasmUrl('engine', new URL('/dist/', location.href).href + (await engineFile()));
    Element.setWasmUrl('embedded', 'http://127.0.0.1:9/missing.wasm');
    const el = document.createElement('wallet-modal') as WalletModal;
    el.setAttribute('project-id', 'p');
    el.setAttribute('api-url', 'http://127.0.0.1:9');
    document.body.appendChild(el);
    await waitFor(() => el.getState() !== null, 'engine started');
    await el.open();
    const failed = nextEvent(el, 'error', 10_000);
    // Focusing the email field is the visitor's intent to log in by email: the module loads.
    const input = await waitFor(() => viewRoot(el).querySelector<HTMLInputElement>('input[name="email"]'), 'the email field');
    input.focus();
    expect((await failed).detail.key).to.equal('MODULE_LOAD_FAILED');
    await waitFor(() => el.getState().banner?.message === 'Could not load this part of the modal; try again', 'a banner says so');
    expect(el.getState().view).to.equal('Connect', 'the rest of the modal works on');
    el.remove();
  });
});

/** The engine's hashed .wasm in dist/ (named in the build's metafile). */
async function engineFile(): Promise<string> {
  const meta = await fetch('/dist/meta.json').then((r) => r.json());
  return Object.keys(meta.outputs).map((p) => p.replace(/^dist\//, '')).find((f) => /^wallet_modal_engine_bg-.*\.wasm$/.test(f))!;
}
