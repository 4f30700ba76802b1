import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// Nothing for wallet-modal: Svelte leaves hyphenated tags to the browser.
export default defineConfig({ plugins: [svelte()] });
