// A JSON-RPC node in memory for the frame's tests: `fetch` answers each call from `methods`
// (method → (params) => result, or throws {code, message} for a JSON-RPC error); every call is kept.
export function fakeRpc(methods) {
  const calls = [];
  async function fetch(url, init) {
    const body = JSON.parse(init.body);
    calls.push({ url, ...body });
    const fn = methods[body.method];
    let answer;
    if (!fn) answer = { jsonrpc: '2.0', id: body.id, error: { code: -32601, message: `method ${body.method} not found` } };
    else {
      try {
        answer = { jsonrpc: '2.0', id: body.id, result: await fn(body.params) };
      } catch (e) {
        answer = { jsonrpc: '2.0', id: body.id, error: { code: e.code ?? -32000, message: e.message } };
      }
    }
    return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
  }
  return { fetch, calls, methods: (name) => calls.filter((c) => c.method === name) };
}
