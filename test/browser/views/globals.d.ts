// Mocha globals provided by @web/test-runner's default test framework.
declare function describe(name: string, fn: (this: unknown) => void): void;
declare function it(name: string, fn: (this: unknown) => void | Promise<unknown>): void;
declare function beforeEach(fn: () => void | Promise<unknown>): void;
declare function afterEach(fn: () => void | Promise<unknown>): void;
declare function before(fn: () => void | Promise<unknown>): void;
declare function after(fn: () => void | Promise<unknown>): void;
