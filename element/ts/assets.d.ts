/** esbuild's file loader turns a `.wasm` import into the emitted file's relative path. */
declare module '*.wasm' {
  const path: string;
  export default path;
}
