import { Component, CUSTOM_ELEMENTS_SCHEMA, signal } from '@angular/core';
import 'wallet-modal';
import type { WalletModalEventMap } from 'wallet-modal';

/** The modal's API URL, set at build time (angular.json `define`, `npm run build` from VITE_WM_API_URL). */
declare const WM_API_URL: string;

/** The smallest Angular dapp: the modal's events in signals (`(connect)`), its theme bound from one. */
@Component({
  selector: 'app-root',
  // <wallet-modal> is a custom element: Angular leaves the tag, its attributes and events to the browser.
  // `#modal` is the element itself, typed WalletModalElement (the package's HTMLElementTagNameMap entry).
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <main>
      <h1>Angular dapp</h1>
      <p id="address">{{ address() ?? 'not connected' }}</p>
      <button id="open" (click)="modal.open({ view: address() ? 'Account' : 'Connect' })">
        {{ address() ? 'Account' : 'Connect' }}
      </button>
      <button id="theme" (click)="theme.set(theme() === 'light' ? 'dark' : 'light')">Theme: {{ theme() }}</button>
      <button id="disconnect" [disabled]="!address()" (click)="modal.disconnect()">Disconnect</button>
      <wallet-modal
        #modal
        project-id="example-project"
        [attr.theme-mode]="theme()"
        [attr.api-url]="apiUrl || null"
        (connect)="onConnect($event)"
        (disconnect)="address.set(null)"
      ></wallet-modal>
    </main>
  `,
})
export class App {
  protected readonly address = signal<string | null>(null);
  protected readonly theme = signal<'light' | 'dark'>('light');
  protected readonly apiUrl = WM_API_URL;

  protected onConnect(e: WalletModalEventMap['connect']) {
    this.address.set(e.detail.address);
  }
}
