import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Nothing for wallet-modal: Vite copies its .wasm files (the package names each with a literal
// `new URL('./x.wasm', import.meta.url)`).
export default defineConfig({ plugins: [react()] });
