// The shell's routing, in Node, over the real WebAssembly builds of every host module: the engine
// and the lazily loaded modules of core/src/modules.rs, loaded from element/pkg as the element
// loads them. Events go where element/ts/routes.gen.ts says (a module loads on its first event,
// view or connector, hearing the engine's facts first); notes go to every other module; a request
// to a connector a module answers goes to it and its answer back; `dispatch` effects are sent on.
// Wallet requests and fetches wait for the test to answer them, timers for the test to fire them.
import { readFile } from 'node:fs/promises';
import ts from 'typescript';

const root = new URL('../../', import.meta.url);

/** routes.gen.ts, compiled: ENGINE, ROUTES. */
async function loadRoutes() {
  const source = await readFile(new URL('element/ts/routes.gen.ts', root), 'utf8');
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  return import(`data:text/javascript;base64,${Buffer.from(js).toString('base64')}`);
}

export const { ENGINE, ROUTES } = await loadRoutes();
export const MODULES = [ENGINE, ...Object.keys(ROUTES)];

/** Each module's wasm-bindgen glue, instantiated once. */
const glue = {};
for (const name of MODULES) {
  const g = await import(`../../element/pkg/${name}/wallet_modal_${name}.js`);
  await g.default({ module_or_path: await readFile(new URL(`element/pkg/${name}/wallet_modal_${name}_bg.wasm`, root)) });
  glue[name] = g;
}

const moduleOfEvent = (type) => Object.entries(ROUTES).find(([, r]) => r.events.includes(type))?.[0] ?? ENGINE;
const moduleOfConnector = (connector) => Object.entries(ROUTES).find(([, r]) => r.connectors.includes(connector))?.[0] ?? null;

export class Hosts {
  constructor(options) {
    this.options = JSON.stringify(options);
    this.now = 1_000;
    this.hosts = new Map([[ENGINE, new glue[ENGINE].WasmHost(this.options)]]);
    this.snapshots = new Map([[ENGINE, JSON.parse(this.hosts.get(ENGINE).snapshot())]]);
    /** Every output of every module so far: { module, event, effects, notes, snapshot }. */
    this.log = [];
    /** Wallet requests not answered yet: { module, id, connectorId, method, params }. */
    this.walletRequests = [];
    /** Fetches not answered yet: { module, id, url, method, body }. */
    this.fetches = [];
    /** Running timers: id → module. */
    this.timers = new Map();
    /** Requests to a module's connector: key → { module, id }. */
    this.keys = new Map();
    this.nextKey = 0;
  }

  get snapshot() {
    return Object.assign({}, ...this.snapshots.values());
  }

  loaded(name) {
    return this.hosts.has(name);
  }

  /** Hands an event to the module that reads it (or to `module`); everything it starts runs. */
  send(event, module = null) {
    const queue = [[module ?? (event.type === 'request' || event.type === 'release' ? moduleOfConnector(event.connector) : moduleOfEvent(event.type)), event]];
    while (queue.length) {
      const [name, ev] = queue.shift();
      this.#load(name, queue);
      this.#step(name, ev, queue);
    }
    return this;
  }

  #load(name, queue) {
    if (this.hosts.has(name)) return;
    this.hosts.set(name, new glue[name].WasmHost(this.options));
    this.snapshots.set(name, JSON.parse(this.hosts.get(name).snapshot()));
    // A module that loads late hears the engine's facts once, then notes.
    this.#step(name, { type: 'notes', notes: JSON.parse(this.hosts.get(ENGINE).facts()) }, queue);
  }

  #step(name, event, queue) {
    const out = JSON.parse(this.hosts.get(name).dispatch(JSON.stringify(event), this.now));
    this.snapshots.set(name, out.snapshot);
    this.log.push({ module: name, event, ...out });
    for (const e of out.effects) {
      switch (e.type) {
        case 'providerRequest': {
          const owner = moduleOfConnector(e.connectorId);
          if (owner) {
            const key = `k${++this.nextKey}`;
            this.keys.set(key, { module: name, id: e.id });
            queue.push([owner, { type: 'request', connector: e.connectorId, key, method: e.method, params: e.params }]);
          } else this.walletRequests.push({ module: name, ...e });
          break;
        }
        case 'releaseProvider': {
          const owner = moduleOfConnector(e.connectorId);
          if (owner && this.hosts.has(owner)) queue.push([owner, { type: 'release', connector: e.connectorId }]);
          break;
        }
        case 'answer': {
          const asked = this.keys.get(e.key);
          this.keys.delete(e.key);
          if (asked) queue.push([asked.module, { type: 'providerResult', id: asked.id, ...('error' in e ? { error: e.error } : { result: e.result }) }]);
          break;
        }
        case 'fetch':
          this.fetches.push({ module: name, ...e });
          break;
        case 'startTimer':
          this.timers.set(e.id, { module: name, due: this.now + e.ms });
          break;
        case 'dispatch':
          queue.push([moduleOfEvent(e.event.type), e.event]);
          break;
      }
    }
    if (out.notes.length) for (const other of this.hosts.keys()) if (other !== name) queue.push([other, { type: 'notes', notes: out.notes }]);
    // A view that needs a module loads it while it shows.
    if (name === ENGINE && (out.snapshot.open || out.snapshot.embedded)) {
      for (const [m, r] of Object.entries(ROUTES)) if (!this.hosts.has(m) && r.views.includes(out.snapshot.view)) this.#load(m, queue);
    }
  }

  /** Answers the newest wallet request for `method` with `result` (or `{ error }`). */
  answer(method, result, error = null) {
    const i = this.walletRequests.findLastIndex((r) => r.method === method);
    if (i < 0) throw new Error(`no wallet request for ${method}: ${this.walletRequests.map((r) => r.method)}`);
    const [r] = this.walletRequests.splice(i, 1);
    return this.send({ type: 'providerResult', id: r.id, ...(error ? { error } : { result }) }, r.module);
  }

  /** Answers the newest open fetch whose URL contains `part` (and whose body contains `bodyPart`). */
  serve(part, body, status = 200, bodyPart = null) {
    const i = this.fetches.findLastIndex((f) => f.url.includes(part) && (!bodyPart || f.body?.includes(bodyPart)));
    if (i < 0) throw new Error(`no fetch of ${part}: ${this.fetches.map((f) => f.url)}`);
    const [f] = this.fetches.splice(i, 1);
    return this.send({ type: 'fetchResult', id: f.id, status, body: typeof body === 'string' ? body : JSON.stringify(body) }, f.module);
  }

  /** Fires a running timer (the time moves on to when it is due). */
  fire(id) {
    const t = this.timers.get(id);
    if (!t) throw new Error(`no timer ${id}: ${[...this.timers.keys()]}`);
    this.timers.delete(id);
    this.now = Math.max(this.now, t.due);
    return this.send({ type: 'timer', id }, t.module);
  }

  /** The newest message posted to the secure frame for `event` (`GET_USER`). */
  framePost(event) {
    const posts = this.log.flatMap((o) => o.effects).filter((e) => e.type === 'framePost' && e.message.type === `@w3m-app/${event}`);
    if (!posts.length) throw new Error(`nothing posted for ${event}`);
    return posts.at(-1).message;
  }

  /** The frame answers its newest `event` request with `payload`. */
  frameAnswer(event, payload) {
    const { id } = this.framePost(event);
    return this.send({ type: 'frameMessage', data: { type: `@w3m-frame/${event}_SUCCESS`, id, payload } });
  }
}
