// The smallest plain-DOM dapp: the modal's events in the page's state, its theme rendered from it.
import 'wallet-modal';

/** @type {import('wallet-modal').WalletModalElement} */
const modal = document.querySelector('wallet-modal');
const $ = (id) => document.getElementById(id);
const state = { address: null, theme: 'light' };

function render() {
  $('address').textContent = state.address ?? 'not connected';
  $('open').textContent = state.address ? 'Account' : 'Connect';
  $('theme').textContent = `Theme: ${state.theme}`;
  $('disconnect').disabled = !state.address;
  modal.setAttribute('theme-mode', state.theme);
}

const apiUrl = process.env.VITE_WM_API_URL; // replaced at build time (webpack.config.js)
if (apiUrl) modal.setAttribute('api-url', apiUrl);

modal.addEventListener('connect', (e) => {
  state.address = e.detail.address;
  render();
});
modal.addEventListener('disconnect', () => {
  state.address = null;
  render();
});
$('open').addEventListener('click', () => modal.open({ view: state.address ? 'Account' : 'Connect' }));
$('theme').addEventListener('click', () => {
  state.theme = state.theme === 'light' ? 'dark' : 'light';
  render();
});
$('disconnect').addEventListener('click', () => modal.disconnect());
render();
