// Checkout page of a local on-ramp provider (served by the demo backend under a strict CSP: this
// file is the page's only script). Posts the test card as JSON, then follows the order until it
// is paid out and tells the window that opened it: postMessage {type: 'wm-onramp', orderId, status}.

const main = document.getElementById('checkout');
const form = document.getElementById('pay-form');
const errorEl = document.getElementById('error');
const statusEl = document.getElementById('status');
const txEl = document.getElementById('tx');
const payButton = document.getElementById('pay-button');
const closeButton = document.getElementById('close-button');
const { orderId, payUrl, statusUrl } = main.dataset;
const FINAL = ['COMPLETED', 'FAILED'];
const POLL_MS = 500;
const POLL_LIMIT_MS = 120000;

const inputs = {
  cardNumber: document.getElementById('card-number'),
  expiry: document.getElementById('expiry'),
  cvc: document.getElementById('cvc'),
};

// 4242424242424242 → 4242 4242 4242 4242
inputs.cardNumber.addEventListener('input', () => {
  const digits = inputs.cardNumber.value.replace(/\D/g, '').slice(0, 19);
  inputs.cardNumber.value = digits.replace(/(\d{4})(?=\d)/g, '$1 ');
});
// 1230 → 12/30
inputs.expiry.addEventListener('input', (e) => {
  const digits = inputs.expiry.value.replace(/\D/g, '').slice(0, 4);
  if (e.inputType && e.inputType.startsWith('delete')) return;
  inputs.expiry.value = digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
});

function showError(field, message) {
  for (const [name, input] of Object.entries(inputs)) {
    input.setAttribute('aria-invalid', String(name === field));
  }
  errorEl.dataset.field = field || '';
  errorEl.textContent = message;
  errorEl.hidden = !message;
  if (inputs[field]) inputs[field].focus();
}

function describe(order) {
  const what = `${order.purchaseAmount} ${order.purchaseCurrency}`;
  switch (order.status) {
    case 'PROCESSING': return `Payment received. Sending ${what} to ${order.destination}…`;
    case 'COMPLETED': return `Done: ${what} sent to ${order.destination}. You can close this window.`;
    case 'FAILED': return `The payout failed: ${order.error || 'unknown error'}`;
    default: return '';
  }
}

let notified = '';
function notifyOpener(order) {
  if (notified === order.status) return;
  notified = order.status;
  try {
    if (window.opener && !window.opener.closed) {
      window.opener.postMessage({ type: 'wm-onramp', orderId: order.id, status: order.status }, '*');
    }
  } catch {
    // A cross-origin opener that went away: nothing to tell.
  }
}

function render(order) {
  main.dataset.status = order.status;
  statusEl.dataset.status = order.status;
  statusEl.textContent = describe(order);
  txEl.textContent = order.txHash ? `Transaction ${order.txHash}` : '';
  txEl.dataset.tx = order.txHash || '';
  form.hidden = order.status === 'PENDING' ? form.hidden : true;
  closeButton.hidden = !FINAL.includes(order.status);
  if (order.status !== 'PENDING') notifyOpener(order);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function follow() {
  const started = Date.now();
  while (Date.now() - started < POLL_LIMIT_MS) {
    try {
      const res = await fetch(statusUrl, { cache: 'no-store' });
      if (res.ok) {
        const order = await res.json();
        render(order);
        if (FINAL.includes(order.status)) return;
      }
    } catch {
      // The backend restarted or the network blinked: ask again.
    }
    await sleep(POLL_MS);
  }
}

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  showError('', '');
  payButton.disabled = true;
  statusEl.textContent = 'Processing payment…';
  const body = {
    cardNumber: inputs.cardNumber.value,
    expiry: inputs.expiry.value,
    cvc: inputs.cvc.value,
  };
  let res;
  let data = null;
  try {
    res = await fetch(payUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    data = await res.json().catch(() => null);
  } catch {
    statusEl.textContent = '';
    showError('', 'The payment could not be sent (network error). Try again.');
    payButton.disabled = false;
    return;
  }
  if (!res.ok) {
    statusEl.textContent = '';
    const reason = data && data.reasons && data.reasons[0];
    showError(reason ? reason.field : '', reason ? reason.description : `Payment failed (HTTP ${res.status})`);
    payButton.disabled = false;
    if (res.status === 409) follow();
    return;
  }
  form.hidden = true;
  render(data);
  if (!FINAL.includes(data.status)) follow();
});

closeButton.addEventListener('click', () => window.close());

// Opened again after paying (or after a form post without script): show and follow the order.
if (main.dataset.status !== 'PENDING') {
  closeButton.hidden = !FINAL.includes(main.dataset.status);
  follow();
}
if (errorEl.dataset.field && inputs[errorEl.dataset.field]) {
  inputs[errorEl.dataset.field].setAttribute('aria-invalid', 'true');
}
