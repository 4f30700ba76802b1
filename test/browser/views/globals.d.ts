// Mocha globals provided by @web/test-runner's default test framework (no @types/mocha installed).
interface MochaContextLike {
  timeout(ms: number): void;
  skip(): never;
}
declare function describe(name: string, fn: (this: MochaContextLike) => void): void;
declare function it(name: string, fn: (this: MochaContextLike) => void | Promise<unknown>): void;
declare function beforeEach(fn: (this: MochaContextLike) => void | Promise<unknown>): void;
declare function afterEach(fn: (this: MochaContextLike) => void | Promise<unknown>): void;
declare function before(fn: (this: MochaContextLike) => void | Promise<unknown>): void;
declare function after(fn: (this: MochaContextLike) => void | Promise<unknown>): void;
